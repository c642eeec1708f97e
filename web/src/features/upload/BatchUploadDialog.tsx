import { PlusOutlined } from '@ant-design/icons';
import type { UploadGroup } from '@dam/contract';
import { App, Button, Modal } from 'antd';
import type { Dayjs } from 'dayjs';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MoveDialog } from '../../ui/MoveDialog';
import { NewVersionHint, SimilarComparing, UnknownArtNumSummary } from './BatchNotes';
import { BatchTargetForm } from './BatchTargetForm';
import { BatchUploadFooter } from './BatchUploadFooter';
import type { PickedFile } from './engine/pickFiles';
import { GroupTagsDialog } from './GroupTagsDialog';
import { MailNoticeEditor } from './MailNoticeEditor';
import { MoreFilesInput } from './MoreFilesInput';
import { type MailNoticeDraft, type MailNoticeProblem, mailNoticeProblem } from './mailNoticeDraft';
import { SimilarWarning } from './SimilarWarning';
import { UploadGroups } from './UploadGroups';
import { useBatchArtNums } from './useBatchArtNums';
import { useSimilarChoices } from './useSimilarChoices';
import { useStartBatch } from './useStartBatch';

export interface UploadTarget {
  id: number | 'all';
  path: string;
}

interface Props {
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
}: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [files, setFiles] = useState(initial);
  const [target, setTarget] = useState(initialTarget);
  const artNumFields = useBatchArtNums(initial, files, defaultArtNum);
  const { artNums, isUnknown, unknownFiles, readingNames } = artNumFields;
  const [validity, setValidity] = useState<[Dayjs, Dayjs] | null>(null);
  const [picking, setPicking] = useState(false);
  /** Tags per group (images, videos, others), given to each of its files at upload (SPEC §4 tagIdList). */
  const [groupTags, setGroupTags] = useState<Partial<Record<UploadGroup, number[]>>>({});
  const [taggingGroup, setTaggingGroup] = useState<UploadGroup | null>(null);
  /** The remind-mail editor (SPEC §2): off (null) unless switched on. */
  const [notice, setNotice] = useState<MailNoticeDraft | null>(null);
  const [noticeProblem, setNoticeProblem] = useState<MailNoticeProblem | null>(null);
  const more = useRef<HTMLInputElement>(null);
  const { similar, similarEntries, versionOf, chooseVersionOf, smaller, clearVersions } = useSimilarChoices(
    files,
    fixedName,
  );
  const skip = (f: PickedFile) => {
    setFiles((all) => all.filter((x) => x !== f));
    void message.info(t('similar.upload.skipped', { name: f.fileName }));
  };

  const { starting, start } = useStartBatch(
    {
      files,
      targetFolderId: target.id,
      fixedName,
      artNums,
      unknownFiles,
      groupTags,
      validity,
      versionOf,
      compared: similar.compared,
      notice,
      setNoticeProblem,
      keptBehind: () => (beforeStart ? beforeStart(files) : smaller.keptBehind()),
    },
    (andContinue) => {
      if (andContinue) {
        setFiles([]);
        artNumFields.clear();
        clearVersions();
      } else {
        onClose();
      }
    },
  );

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
        <BatchUploadFooter
          busy={starting || readingNames}
          readingNames={readingNames}
          onCancel={onClose}
          onStart={(andContinue) => void start(andContinue)}
        />
      }
    >
      {fixedName !== undefined && <NewVersionHint name={fixedName} />}
      <BatchTargetForm
        path={target.path}
        onChange={fixedName === undefined ? () => setPicking(true) : undefined}
        validity={validity}
        onValidity={setValidity}
      />
      {unknownFiles.length > 0 && <UnknownArtNumSummary count={unknownFiles.length} />}
      <SimilarWarning
        entries={similarEntries}
        onSkip={skip}
        versionOf={versionOf}
        onVersionOf={chooseVersionOf}
        smaller={smaller.smaller}
        onKeepCurrent={smaller.setKeepCurrent}
      />
      {taggingGroup !== null && (
        <GroupTagsDialog
          group={taggingGroup}
          files={files}
          artNums={artNums}
          initial={groupTags[taggingGroup] ?? []}
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
        onArtNum={artNumFields.type}
      />
      {similar.hashed.done < similar.hashed.total && (
        <SimilarComparing done={similar.hashed.done} total={similar.hashed.total} />
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
      <MoreFilesInput
        inputRef={more}
        files={files}
        onPicked={(picked) => {
          setFiles(picked);
          artNumFields.add(picked);
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
