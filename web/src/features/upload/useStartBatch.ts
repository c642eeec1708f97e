import type { UploadGroup } from '@dam/contract';
import { App } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { notifySuccess } from '../../api/notify';
import { createUploads, scheduleMailNotice } from './api';
import { applyFixedName, groupOf, needsRename, type PickedFile } from './engine/pickFiles';
import { type MailNoticeDraft, type MailNoticeProblem, mailNoticeProblem } from './mailNoticeDraft';
import { problemText } from './problemText';
import { keyOf } from './UploadGroups';
import { useUploadManager } from './UploadProvider';
import { uploadEntries } from './uploadEntries';

/** What the batch upload dialog holds when "finish" or "upload and continue" is pressed. */
export interface BatchToStart {
  files: PickedFile[];
  targetFolderId: number | 'all';
  fixedName?: string;
  artNums: Record<string, string>;
  unknownFiles: PickedFile[];
  groupTags: Partial<Record<UploadGroup, number[]>>;
  validity: [Dayjs, Dayjs] | null;
  versionOf: ReadonlyMap<File, number>;
  /** Files the near-duplicate check settled in the dialog. */
  compared: ReadonlySet<File>;
  notice: MailNoticeDraft | null;
  setNoticeProblem: (problem: MailNoticeProblem | null) => void;
  /** The files to add as versions kept behind the current one, or null to stop. */
  keptBehind: () => Promise<ReadonlySet<File> | null>;
}

/**
 * Starts the batch (SPEC §2, §4): mends the notice first, confirms a rename and unknown article
 * numbers, creates the records, hands the files to the upload manager and schedules the notice.
 * `onStarted` is told whether the user goes on with another batch.
 */
export function useStartBatch(batch: BatchToStart, onStarted: (andContinue: boolean) => void) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const manager = useUploadManager();
  const [starting, setStarting] = useState(false);
  const { files, fixedName, artNums, unknownFiles, notice, versionOf } = batch;

  const start = async (andContinue: boolean) => {
    if (starting) return;
    if (files.length === 0) return void message.warning(t('upload.noFiles'));
    // A notice that cannot be sent is mended first: nothing is uploaded until it can.
    const problem = notice ? mailNoticeProblem(notice) : null;
    batch.setNoticeProblem(problem);
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
    const keepCurrent = await batch.keptBehind();
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
        targetFolderId: batch.targetFolderId,
        uploadDetailDTOS: uploadEntries(files, {
          named,
          artNumOf: (f) => artNums[keyOf(f)],
          tagsOf: (f) => batch.groupTags[groupOf(f.fileName)],
          validity: batch.validity,
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
              fixedName !== undefined || versionOf.has(picked.file) || batch.compared.has(picked.file),
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
      onStarted(andContinue);
    } catch (error) {
      // SPEC §7: a failed create only clears the loading state; the reason is shown.
      void message.error(error instanceof ApiError ? error.desc : t('upload.createFailed'));
    } finally {
      setStarting(false);
    }
  };

  return { starting, start };
}
