import { PlusOutlined } from '@ant-design/icons';
import type { UploadGroup } from '@dam/contract';
import { Alert, App, Button, DatePicker, Form, Modal, Space, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { notifySuccess } from '../../api/notify';
import { MoveDialog } from '../../ui/MoveDialog';
import { AddTagDialog } from '../tagging';
import { createUploads, scheduleMailNotice, useArtNumsInNames, useSkuCheck } from './api';
import { applyFixedName, groupOf, needsRename, type PickedFile, pickFiles } from './engine/pickFiles';
import { MailNoticeEditor } from './MailNoticeEditor';
import { type MailNoticeDraft, type MailNoticeProblem, mailNoticeProblem } from './mailNoticeDraft';
import { problemText } from './problemText';
import { SimilarWarning } from './SimilarWarning';
import { GROUPS, keyOf, UploadGroups } from './UploadGroups';
import { useUploadManager } from './UploadProvider';
import { uploadEntries } from './uploadEntries';
import { useSimilarCheck } from './useSimilarCheck';
import { useSmallerVersions } from './useSmallerVersions';

export interface UploadTarget {
  id: number | 'all';
  path: string;
}

/**
 * SPEC §2 batch upload: files grouped image / video / other, target path, article number (read
 * from the file names), validity; "finish" closes, "upload and continue" resets and stays.
 * With `fixedName` it uploads a new version of that file: the target is the file's folder and,
 * after the user confirms, every file takes that name with its own suffix (SPEC §5).
 */
export function BatchUploadDialog({
  files: initial,
  target: initialTarget,
  fixedName,
  defaultArtNum,
  beforeStart,
  onClose,
}: {
  files: PickedFile[];
  target: UploadTarget;
  fixedName?: string;
  /** The article number every file starts with (a new version keeps the file's). */
  defaultArtNum?: string;
  /**
   * Asked before the upload starts (a new version: is a copy smaller than the current one? issue 39
   * item 9): the files to add as versions kept behind the current one, or null to stop.
   */
  beforeStart?: (files: PickedFile[]) => Promise<ReadonlySet<File> | null>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const manager = useUploadManager();
  const [files, setFiles] = useState(initial);
  const [target, setTarget] = useState(initialTarget);
  const [artNums, setArtNums] = useState<Record<string, string>>(() =>
    Object.fromEntries(initial.map((f) => [`${f.path}/${f.fileName}`, defaultArtNum ?? ''])),
  );
  /** Fields the user typed in: the names' article numbers never overwrite them. */
  const touched = useRef(new Set<string>());
  const [validity, setValidity] = useState<[Dayjs, Dayjs] | null>(null);
  const [picking, setPicking] = useState(false);
  /** Tags per group (images, videos, others), given to each of its files at upload (SPEC §4 tagIdList). */
  const [groupTags, setGroupTags] = useState<Partial<Record<UploadGroup, number[]>>>({});
  const [taggingGroup, setTaggingGroup] = useState<UploadGroup | null>(null);
  const [starting, setStarting] = useState(false);
  /** The remind-mail editor (SPEC §2): off (null) unless switched on. */
  const [notice, setNotice] = useState<MailNoticeDraft | null>(null);
  const [noticeProblem, setNoticeProblem] = useState<MailNoticeProblem | null>(null);
  const more = useRef<HTMLInputElement>(null);

  // The article numbers in the file names (the server's ART_NUM_PATTERN) pre-fill the fields.
  const names = useMemo(() => files.map((f) => f.fileName), [files]);
  const fromNames = useArtNumsInNames(names);
  // Until the names are read, starting would send the files without their article numbers: the
  // buttons wait for the answer (a failed answer leaves the fields as they are, to be typed in).
  const readingNames = names.length > 0 && fromNames.isFetching;
  useEffect(() => {
    const list = fromNames.data?.list;
    if (!list) return;
    setArtNums((all) => {
      const next = { ...all };
      files.forEach((f, index) => {
        const found = list[index]?.fileName === f.fileName ? list[index]?.artNumList[0] : undefined;
        if (found && !touched.current.has(keyOf(f)) && !next[keyOf(f)]) next[keyOf(f)] = found;
      });
      return next;
    });
  }, [fromNames.data, files]);

  // Every value in the fields, checked against the SKU data once typing pauses (SPEC §9: 500 ms).
  const typed = useMemo(
    () => [...new Set(files.map((f) => artNums[keyOf(f)]?.trim() ?? '').filter(Boolean))].sort(),
    [files, artNums],
  );
  const [checked, setChecked] = useState<string[]>([]);
  useEffect(() => {
    const timer = setTimeout(() => setChecked(typed), 500);
    return () => clearTimeout(timer);
  }, [typed]);
  const check = useSkuCheck(checked);
  const unknown = new Set(check.data?.unknownArtNumList.map((a) => a.toLowerCase()) ?? []);
  const isUnknown = (f: PickedFile) => {
    const value = artNums[keyOf(f)]?.trim().toLowerCase();
    return Boolean(value) && unknown.has(value as string);
  };
  const unknownFiles = files.filter(isUnknown);

  // Pictures that look like files already in the archive (issue 17): hashed here as they are picked,
  // checked in the background; never waited for. A new version of a file is not checked.
  const similar = useSimilarCheck(files, { enabled: fixedName === undefined });
  const similarEntries = files.flatMap((f) => {
    const items = similar.matches.get(f.file);
    return items ? [{ file: f, items }] : [];
  });
  /** The file each picked file is added to as a new version ("add as new version" in the warning). */
  const [versionOf, setVersionOf] = useState<ReadonlyMap<File, number>>(new Map());
  const chooseVersionOf = (f: PickedFile, itemId: number | null) =>
    setVersionOf((all) => {
      const next = new Map(all);
      if (itemId === null) next.delete(f.file);
      else next.set(f.file, itemId);
      return next;
    });
  /** Those smaller than the file they join: the larger stays current unless the user says not. */
  const smaller = useSmallerVersions(similarEntries, versionOf);
  const skip = (f: PickedFile) => {
    setFiles((all) => all.filter((x) => x !== f));
    void message.info(t('similar.upload.skipped', { name: f.fileName }));
  };

  const start = async (andContinue: boolean) => {
    if (starting) return;
    if (files.length === 0) return void message.warning(t('upload.noFiles'));
    // A notice that cannot be sent is mended first: nothing is uploaded until it can.
    const problem = notice ? mailNoticeProblem(notice) : null;
    setNoticeProblem(problem);
    if (problem) return void message.error(t('mailNotice.mendFirst'));
    let named = files;
    if (fixedName !== undefined) {
      const renamed = applyFixedName(files, fixedName);
      if ('problem' in renamed) return void message.error(problemText(t, renamed.problem));
      if (needsRename(files, fixedName)) {
        const confirmed = await modal.confirm({
          title: t('upload.confirmRename', { name: fixedName }),
          okText: t('common.confirm'),
          cancelText: t('common.cancel'),
        });
        if (!confirmed) return;
      }
      named = renamed.files;
    }
    const keepCurrent = beforeStart ? await beforeStart(files) : await smaller.keptBehind();
    if (!keepCurrent) return;
    // SPEC-beyond: unknown article numbers are flagged before the upload starts, not found later.
    if (unknownFiles.length > 0) {
      const confirmed = await modal.confirm({
        title: t('upload.unknownArtNumConfirm', { count: unknownFiles.length }),
        content: [...new Set(unknownFiles.map((f) => artNums[keyOf(f)]?.trim()))].slice(0, 10).join(', '),
        okText: t('upload.uploadAnyway'),
        cancelText: t('common.cancel'),
      });
      if (!confirmed) return;
    }
    setStarting(true);
    try {
      const created = await createUploads({
        targetFolderId: target.id,
        uploadDetailDTOS: uploadEntries(files, {
          named,
          artNumOf: (f) => artNums[keyOf(f)],
          tagsOf: (f) => groupTags[groupOf(f.fileName)],
          validity,
          versionOf,
          keepCurrent,
        }),
      });
      // SPEC §4 step 2: each record is matched to its file, in the order sent.
      manager.add(
        created.map((record, index) => {
          const picked = files[index] as PickedFile;
          return {
            id: record.id,
            fileName: record.fileName,
            fileSize: picked.size,
            file: picked.file,
            path: record.path,
            objectKey: record.url,
            // Compared in the dialog, or a new version: the panel does not compare it again.
            similarChecked:
              fixedName !== undefined || versionOf.has(picked.file) || similar.compared.has(picked.file),
          };
        }),
      );
      notifySuccess(t('upload.started'));
      const batchNum = created[0]?.batchNum;
      if (notice && batchNum) {
        // The upload goes on whatever the notice's answer; a refusal says why.
        await scheduleMailNotice({
          batchNum,
          mailGroupIdList: notice.groupIds,
          userIdList: notice.userIds,
          mailInfo: notice.subject,
          mailContent: notice.content,
          mailRemark: notice.remark,
          noticeTime: notice.delayHours ?? 0,
        }).then(
          () => notifySuccess(t('mailNotice.scheduled')),
          (error) =>
            void message.error(
              t('mailNotice.notScheduled', { reason: error instanceof ApiError ? error.desc : '' }),
            ),
        );
      }
      if (andContinue) {
        setFiles([]);
        setArtNums({});
        setVersionOf(new Map());
        touched.current.clear();
      } else {
        onClose();
      }
    } catch (error) {
      // SPEC §7: a failed create only clears the loading state; the reason is shown.
      void message.error(error instanceof ApiError ? error.desc : t('upload.createFailed'));
    } finally {
      setStarting(false);
    }
  };

  return (
    <Modal
      open
      width={720}
      title={
        fixedName === undefined ? t('upload.dialogTitle') : t('upload.newVersionTitle', { name: fixedName })
      }
      onCancel={onClose}
      destroyOnHidden
      footer={
        <Space>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button
            onClick={() => void start(true)}
            loading={starting || readingNames}
            disabled={readingNames}
            data-testid="upload-continue"
          >
            {t('upload.uploadAndContinue')}
          </Button>
          <Button
            type="primary"
            onClick={() => void start(false)}
            loading={starting || readingNames}
            disabled={readingNames}
            data-testid="upload-finish"
          >
            {t('upload.finish')}
          </Button>
        </Space>
      }
    >
      {fixedName !== undefined && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          title={t('upload.newVersionHint', { name: fixedName })}
          data-testid="new-version-hint"
        />
      )}
      <Form layout="vertical">
        <Form.Item label={t('upload.target')}>
          <Space>
            <Typography.Text code data-testid="upload-target">
              {target.path}
            </Typography.Text>
            {fixedName === undefined && (
              <Button size="small" onClick={() => setPicking(true)}>
                {t('upload.change')}
              </Button>
            )}
          </Space>
        </Form.Item>
        <Form.Item label={t('upload.validity')}>
          <DatePicker.RangePicker
            value={validity}
            onChange={(v) => setValidity(v as [Dayjs, Dayjs] | null)}
          />
        </Form.Item>
      </Form>
      {unknownFiles.length > 0 && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 12 }}
          data-testid="unknown-art-num-summary"
          title={t('upload.unknownArtNumSummary', { count: unknownFiles.length })}
        />
      )}
      <SimilarWarning
        entries={similarEntries}
        onSkip={skip}
        versionOf={versionOf}
        onVersionOf={chooseVersionOf}
        smaller={smaller.smaller}
        onKeepCurrent={smaller.setKeepCurrent}
      />
      {taggingGroup !== null && (
        <AddTagDialog
          title={t('upload.groupTagsTitle', {
            group: t(GROUPS.find((g) => g.group === taggingGroup)?.key ?? ''),
          })}
          initial={groupTags[taggingGroup] ?? []}
          artNums={files
            .filter((f) => groupOf(f.fileName) === taggingGroup)
            .flatMap((f) => (artNums[keyOf(f)] ? [artNums[keyOf(f)] as string] : []))}
          onConfirm={(ids) => setGroupTags((all) => ({ ...all, [taggingGroup]: ids }))}
          onClose={() => setTaggingGroup(null)}
        />
      )}
      <UploadGroups
        files={files}
        groupTags={groupTags}
        artNums={artNums}
        isUnknown={isUnknown}
        isSimilar={(f) => similar.matches.has(f.file)}
        onTagGroup={setTaggingGroup}
        onRemove={(f) => setFiles((all) => all.filter((x) => x !== f))}
        onArtNum={(f, value) => {
          touched.current.add(keyOf(f));
          setArtNums((all) => ({ ...all, [keyOf(f)]: value }));
        }}
      />
      {similar.hashed.done < similar.hashed.total && (
        <Typography.Text
          type="secondary"
          style={{ display: 'block', marginTop: 8 }}
          data-testid="similar-comparing"
        >
          {t('similar.upload.comparing', {
            done: String(similar.hashed.done),
            total: String(similar.hashed.total),
          })}
        </Typography.Text>
      )}
      <Button icon={<PlusOutlined />} style={{ marginTop: 12 }} onClick={() => more.current?.click()}>
        {t('upload.addMore')}
      </Button>
      {fixedName === undefined && (
        <MailNoticeEditor
          value={notice}
          onChange={(next) => {
            setNotice(next);
            if (noticeProblem && next && !mailNoticeProblem(next)) setNoticeProblem(null);
          }}
          problem={noticeProblem}
        />
      )}
      <input
        ref={more}
        type="file"
        multiple
        hidden
        onChange={(e) => {
          const result = pickFiles([...(e.target.files ?? [])], files);
          if ('problem' in result) void message.error(problemText(t, result.problem));
          else {
            setFiles(result.files);
            setArtNums((all) => ({
              ...Object.fromEntries(result.files.map((f) => [keyOf(f), defaultArtNum ?? ''])),
              ...all,
            }));
          }
          e.target.value = '';
        }}
      />
      <MoveDialog
        open={picking}
        title={t('upload.target')}
        onCancel={() => setPicking(false)}
        onConfirm={async (id, path) => {
          setTarget({ id, path });
          setPicking(false);
        }}
      />
    </Modal>
  );
}
