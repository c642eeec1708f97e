import { DownloadOutlined, FolderOpenOutlined, ReloadOutlined, StopOutlined } from '@ant-design/icons';
import { COMPOSE_DOWNLOAD_KINDS, type ComposeDownloadKind, type ComposeJobSummary } from '@dam/contract';
import { App, Button, Dropdown, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError } from '../../../api/client';
import { notifySuccess } from '../../../api/notify';
import { cancelJob, downloadJobZip, renderMissingAgain } from '../compositeApi';

/** What "render missing again" would take: articles that did not end done. */
const retryable = (job: ComposeJobSummary) =>
  (job.counts.missing ?? 0) + (job.counts.failed ?? 0) + (job.counts.cancelled ?? 0);

/** A job's buttons: download a zip of what is done, render the rest again, cancel, open the folder. */
export function JobActions({
  jobId,
  job,
  onOpenJob,
  onCancelled,
}: {
  jobId: number;
  job: ComposeJobSummary;
  onOpenJob: (jobId: number) => void;
  /** After a cancel: read the job's status again. */
  onCancelled: () => Promise<unknown>;
}) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const [busy, setBusy] = useState<string | null>(null);
  const run = async (what: string, action: () => Promise<void>) => {
    setBusy(what);
    try {
      await action();
    } catch (error) {
      // The client has shown the server's reason.
      if (!(error instanceof ApiError)) throw error;
    } finally {
      setBusy(null);
    }
  };
  const running = job.status === 'running';
  const done = job.counts.done ?? 0;
  const downloadItems = COMPOSE_DOWNLOAD_KINDS.map((kind) => ({
    key: kind,
    label: t(`composite.progress.include.${kind}`),
    'data-testid': `job-download-${kind}`,
  }));
  return (
    <Space wrap>
      <Dropdown
        disabled={done === 0}
        menu={{
          items: downloadItems,
          onClick: ({ key }) =>
            void run('download', () => downloadJobZip({ jobId, include: key as ComposeDownloadKind })),
        }}
      >
        <Button
          icon={<DownloadOutlined />}
          loading={busy === 'download'}
          disabled={done === 0}
          data-testid="job-download"
        >
          {t('composite.progress.download')}
        </Button>
      </Dropdown>
      {!running && retryable(job) > 0 && (
        <Button
          icon={<ReloadOutlined />}
          loading={busy === 'again'}
          onClick={() =>
            void run('again', async () => {
              const next = await renderMissingAgain(jobId);
              notifySuccess(t('composite.progress.againStarted'));
              onOpenJob(next.jobId);
            })
          }
          data-testid="job-again"
        >
          {t('composite.progress.again', { count: retryable(job) })}
        </Button>
      )}
      {running && (
        <Button
          danger
          icon={<StopOutlined />}
          loading={busy === 'cancel'}
          onClick={() =>
            modal.confirm({
              title: t('composite.progress.cancelConfirm'),
              okText: t('common.confirm'),
              cancelText: t('common.cancel'),
              onOk: () =>
                run('cancel', async () => {
                  await cancelJob(jobId);
                  await onCancelled();
                }),
            })
          }
          data-testid="job-cancel"
        >
          {t('composite.progress.cancel')}
        </Button>
      )}
      {job.targetFolderId !== null && (
        <Button
          icon={<FolderOpenOutlined />}
          onClick={() => void navigate(`/allfiles/${job.targetFolderId}`)}
          data-testid="job-open-folder"
        >
          {t('composite.progress.openFolder')}
        </Button>
      )}
    </Space>
  );
}
