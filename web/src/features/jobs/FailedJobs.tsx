import { type FailedJob, ItemType, type JobQueueName } from '@dam/contract';
import { Button, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showApiError } from '../../api/showApiError';
import { formatDate } from '../../ui/format';
import { FileViewer } from '../viewer/lazy';
import { useFailedJobs, useRetryJob } from './api';

/** The newest failed jobs of a queue: when, after how many attempts, the error, the file, a retry. */
export function FailedJobs({ queue }: { queue: JobQueueName }) {
  const { t } = useTranslation();
  const failed = useFailedJobs(queue);
  const retry = useRetryJob();
  const [viewing, setViewing] = useState<number | null>(null);

  const fileCell = (file: FailedJob['file']) => {
    if (!file) return '—';
    if (file.itemId === null || file.name === null)
      return (
        <Typography.Text type="secondary">{t('jobs.hiddenFile', { id: file.uploadId })}</Typography.Text>
      );
    const itemId = file.itemId;
    return (
      <Typography.Link onClick={() => setViewing(itemId)} data-testid="failed-job-file">
        {file.name}
      </Typography.Link>
    );
  };

  return (
    <>
      <Table<FailedJob>
        size="small"
        rowKey="id"
        loading={failed.isPending}
        dataSource={failed.data?.list ?? []}
        pagination={false}
        locale={{ emptyText: t('jobs.noFailed') }}
        data-testid={`failed-jobs-${queue}`}
        columns={[
          {
            title: t('jobs.failedAt'),
            dataIndex: 'failedAt',
            width: 170,
            render: (value: string | null) => (value ? formatDate(value) : '—'),
          },
          { title: t('jobs.attempts'), dataIndex: 'attempts', width: 90 },
          { title: t('jobs.file'), dataIndex: 'file', width: 220, render: fileCell },
          {
            title: t('jobs.error'),
            dataIndex: 'error',
            render: (value: string | null) => (
              <Typography.Text
                type="danger"
                ellipsis={{ tooltip: value }}
                style={{ maxWidth: 480 }}
                data-testid="failed-job-error"
              >
                {value ?? '—'}
              </Typography.Text>
            ),
          },
          {
            title: t('jobs.actions'),
            width: 100,
            render: (_: unknown, job) => (
              <Button
                size="small"
                loading={retry.isPending && retry.variables?.id === job.id}
                onClick={() => retry.mutateAsync({ queue, id: job.id }).catch(showApiError)}
                data-testid="failed-job-retry"
              >
                {t('jobs.retry')}
              </Button>
            ),
          },
        ]}
      />
      {(failed.data?.total ?? 0) > (failed.data?.list.length ?? 0) && (
        <Typography.Text type="secondary">
          {t('jobs.newestShown', { shown: failed.data?.list.length, total: failed.data?.total })}
        </Typography.Text>
      )}
      {viewing !== null && (
        <FileViewer
          items={[{ id: viewing, type: ItemType.image }]}
          startId={viewing}
          onClose={() => setViewing(null)}
        />
      )}
    </>
  );
}
