import { PreviewStatus, type UploadRecord } from '@dam/contract';
import { Button, Empty, Progress, Space, Table, Tabs, Tag, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { formatDate, formatSize } from '../../ui/format';
import { loadMoreTableFooter } from '../../ui/LoadMoreFooter';
import { useUploadHistory } from './api';
import { TaskStatus, type UploadTask } from './engine/types';
import { InterruptedUploads } from './InterruptedUploads';
import { MailNoticeState } from './MailNoticeState';
import { remaining } from './remaining';
import { useUploadManager, useUploadState } from './UploadProvider';
import { useCancelUploads } from './useCancelUploads';

const TABS = ['current', 'await', 'history'] as const;
type Tab = (typeof TABS)[number];

/** SPEC §2/§4 upload records: uploading, waiting, uploaded; continue, pause all, cancel all, re-upload. */
export function UploadRecordsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { tab = 'current' } = useParams();
  const manager = useUploadManager();
  const state = useUploadState();
  const history = useUploadHistory();
  const active = TABS.includes(tab as Tab) ? (tab as Tab) : 'current';

  const current = state.tasks.filter((task) => task.status !== TaskStatus.waiting);
  const waiting = state.tasks.filter((task) => task.status === TaskStatus.waiting);
  const finished = useMemo(() => history.data?.pages.flatMap((p) => p.list) ?? [], [history.data]);

  const cancel = useCancelUploads();

  const statusTag = (task: UploadTask) => {
    if (task.status === TaskStatus.uploading)
      return <Tag color="processing">{t('upload.statusUploading')}</Tag>;
    if (task.status === TaskStatus.paused) return <Tag>{t('upload.statusPaused')}</Tag>;
    if (task.status === TaskStatus.failed) return <Tag color="error">{t('upload.statusFailed')}</Tag>;
    return <Tag color="default">{t('upload.statusWaiting')}</Tag>;
  };

  const taskTable = (tasks: UploadTask[], empty: string) => (
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
                {statusTag(task)}
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
              <Button size="small" danger onClick={() => cancel([task.id])} data-testid="task-cancel">
                {t('upload.cancel')}
              </Button>
            </Space>
          ),
        },
      ]}
    />
  );

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="upload-records">
      <Space style={{ width: '100%', justifyContent: 'space-between' }} wrap>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('upload.records')}
        </Typography.Title>
        <Space>
          <Button
            onClick={() => manager.resumeAll()}
            disabled={!state.tasks.some((x) => x.status === TaskStatus.paused)}
          >
            {t('upload.continueAll')}
          </Button>
          <Button onClick={() => manager.pauseAll()} disabled={state.uploading === 0}>
            {t('upload.pauseAll')}
          </Button>
          <Button
            danger
            onClick={() => cancel(state.tasks.map((x) => x.id))}
            disabled={state.tasks.length === 0}
          >
            {t('upload.cancelAll')}
          </Button>
        </Space>
      </Space>
      <InterruptedUploads />
      <Tabs
        activeKey={active}
        onChange={(key) => navigate(`/upload-record/${key}`)}
        items={[
          {
            key: 'current',
            label: `${t('upload.tabCurrent')} (${current.length})`,
            children: taskTable(current, t('upload.noCurrent')),
          },
          {
            key: 'await',
            label: `${t('upload.tabAwait')} (${waiting.length})`,
            children: taskTable(waiting, t('upload.noAwait')),
          },
          {
            key: 'history',
            label: t('upload.tabHistory'),
            children: (
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
            ),
          },
        ]}
      />
    </Space>
  );
}
