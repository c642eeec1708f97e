import type { QueueSummary } from '@dam/contract';
import { Button, Popconfirm, Space, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { showApiError } from '../../api/showApiError';
import { usePauseQueue, useRetryAllJobs } from './api';
import { FailedJobs } from './FailedJobs';

/** Every queue with its counts, pause/resume and "retry all"; a queue with failures opens to list them. */
export function QueuesTable({ queues, loading }: { queues: QueueSummary[]; loading: boolean }) {
  const { t } = useTranslation();
  const pause = usePauseQueue();
  const retryAll = useRetryAllJobs();
  const count = (value: number, colour?: string) =>
    value > 0 && colour ? <Tag color={colour}>{value}</Tag> : value;

  return (
    <Table<QueueSummary>
      rowKey="queue"
      size="middle"
      loading={loading}
      dataSource={queues}
      pagination={false}
      data-testid="jobs-queues"
      onRow={(queue) => ({ 'data-testid': `queue-${queue.queue}` }) as React.HTMLAttributes<HTMLElement>}
      expandable={{
        rowExpandable: (queue) => queue.failed > 0,
        expandedRowRender: (queue) => <FailedJobs queue={queue.queue} />,
      }}
      columns={[
        {
          title: t('jobs.queue'),
          dataIndex: 'queue',
          render: (name: QueueSummary['queue'], queue) => (
            <Space>
              {t(`jobs.queueName.${name}`)}
              {queue.paused && <Tag color="warning">{t('jobs.paused')}</Tag>}
            </Space>
          ),
        },
        { title: t('jobs.waiting'), dataIndex: 'waiting', width: 100, render: (v: number) => count(v) },
        {
          title: t('jobs.active'),
          dataIndex: 'active',
          width: 100,
          render: (v: number) => count(v, 'processing'),
        },
        {
          title: t('jobs.failed'),
          dataIndex: 'failed',
          width: 100,
          render: (v: number) => count(v, 'error'),
        },
        { title: t('jobs.completed'), dataIndex: 'completed', width: 110, render: (v: number) => count(v) },
        {
          title: t('jobs.actions'),
          width: 230,
          render: (_: unknown, queue) => (
            <Space>
              <Button
                size="small"
                onClick={() =>
                  pause.mutateAsync({ queue: queue.queue, paused: !queue.paused }).catch(showApiError)
                }
                data-testid="queue-pause"
              >
                {queue.paused ? t('jobs.resume') : t('jobs.pause')}
              </Button>
              <Popconfirm
                title={t('jobs.retryAllConfirm', { count: queue.failed })}
                onConfirm={() => retryAll.mutateAsync(queue.queue).catch(showApiError)}
                disabled={queue.failed === 0}
              >
                <Button size="small" disabled={queue.failed === 0} data-testid="queue-retry-all">
                  {t('jobs.retryAll')}
                </Button>
              </Popconfirm>
            </Space>
          ),
        },
      ]}
    />
  );
}
