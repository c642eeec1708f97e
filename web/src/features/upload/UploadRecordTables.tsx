import { PreviewStatus, type UploadRecord } from '@dam/contract';
import { Button, Empty, Progress, Space, Table, Tag, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate, formatSize } from '../../ui/format';
import { loadMoreTableFooter } from '../../ui/LoadMoreFooter';
import type { useUploadHistory } from './api';
import { TaskStatus, type UploadTask } from './engine/types';
import { MailNoticeState } from './MailNoticeState';
import { remaining } from './remaining';
import { useUploadManager } from './UploadProvider';

function statusTag(t: TFunction, task: UploadTask) {
  if (task.status === TaskStatus.uploading)
    return <Tag color="processing">{t('upload.statusUploading')}</Tag>;
  if (task.status === TaskStatus.paused) return <Tag>{t('upload.statusPaused')}</Tag>;
  if (task.status === TaskStatus.failed) return <Tag color="error">{t('upload.statusFailed')}</Tag>;
  return <Tag color="default">{t('upload.statusWaiting')}</Tag>;
}

/** Uploads of this page, current or waiting: progress, pause / continue / re-upload, cancel. */
export function TaskTable({
  tasks,
  empty,
  onCancel,
}: {
  tasks: UploadTask[];
  empty: string;
  onCancel: (ids: number[]) => void;
}) {
  const { t } = useTranslation();
  const manager = useUploadManager();
  return (
    <Table<UploadTask>
      rowKey="id"
      dataSource={tasks}
      pagination={false}
      locale={{ emptyText: <Empty description={empty} /> }}
      columns={[
        {
          title: t('upload.fileName'),
          dataIndex: 'fileName',
          ellipsis: true,
          render: (name: string) => <span data-testid="task-name">{name}</span>,
        },
        { title: t('upload.target'), dataIndex: 'path', width: 180, ellipsis: true },
        {
          title: t('files.size'),
          dataIndex: 'fileSize',
          width: 100,
          render: (size: number) => formatSize(size),
        },
        {
          title: t('upload.progress'),
          width: 260,
          render: (_v, task) => (
            <Space orientation="vertical" size={0} style={{ width: '100%' }}>
              <Progress
                percent={task.process}
                size="small"
                status={task.status === TaskStatus.failed ? 'exception' : 'active'}
              />
              <Space size={6}>
                {statusTag(t, task)}
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {task.status === TaskStatus.uploading ? remaining(t, task.remainingTime) : ''}
                </Typography.Text>
              </Space>
            </Space>
          ),
        },
        {
          title: '',
          width: 180,
          render: (_v, task) => (
            <Space>
              {task.status === TaskStatus.uploading && (
                <Button size="small" onClick={() => manager.pause(task.id)}>
                  {t('upload.pause')}
                </Button>
              )}
              {(task.status === TaskStatus.paused || task.status === TaskStatus.failed) && (
                <Button size="small" type="primary" onClick={() => manager.resume(task.id)}>
                  {task.status === TaskStatus.failed ? t('upload.reupload') : t('upload.continue')}
                </Button>
              )}
              <Button size="small" danger onClick={() => onCancel([task.id])} data-testid="task-cancel">
                {t('upload.cancel')}
              </Button>
            </Space>
          ),
        },
      ]}
    />
  );
}

/** Uploads finished, page by page: when, whether the preview is damaged, and the notice. */
export function HistoryTable({ history }: { history: ReturnType<typeof useUploadHistory> }) {
  const { t } = useTranslation();
  const finished = useMemo(() => history.data?.pages.flatMap((p) => p.list) ?? [], [history.data]);
  return (
    <Table<UploadRecord>
      rowKey="id"
      loading={history.isPending}
      dataSource={finished}
      pagination={false}
      locale={{ emptyText: <Empty description={t('upload.noHistory')} /> }}
      columns={[
        {
          title: t('upload.fileName'),
          dataIndex: 'fileName',
          ellipsis: true,
          render: (name: string) => <span data-testid="history-name">{name}</span>,
        },
        { title: t('upload.target'), dataIndex: 'path', ellipsis: true },
        {
          title: t('files.size'),
          dataIndex: 'fileSize',
          width: 100,
          render: (size: number) => formatSize(size),
        },
        {
          title: t('upload.finishedAt'),
          dataIndex: 'completedAt',
          width: 170,
          render: (at: string | null, row) => (
            <Space size={4}>
              {formatDate(at)}
              {row.previewStatus === PreviewStatus.damaged && (
                <Tag color="warning">{t('upload.previewDamaged')}</Tag>
              )}
            </Space>
          ),
        },
        {
          title: t('mailNotice.recordLabel'),
          dataIndex: 'mailNotice',
          width: 130,
          render: (notice: UploadRecord['mailNotice']) =>
            notice ? <MailNoticeState notice={notice} /> : null,
        },
      ]}
      footer={loadMoreTableFooter(history, t('common.loading'))}
    />
  );
}
