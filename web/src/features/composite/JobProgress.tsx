import { ArrowLeftOutlined } from '@ant-design/icons';
import type { ComposeArticleResult, ComposeJobSummary } from '@dam/contract';
import {
  Button,
  Card,
  Progress,
  Result,
  Space,
  Spin,
  Table,
  type TableColumnsType,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { useJobStatus, useMyJobs, useSlotLabels } from './compositeApi';
import { useArticleColumns } from './progress/articleColumns';
import { JobActions } from './progress/JobActions';
import { JobCounts } from './progress/JobCounts';

/** One job, polled every 2 s while it runs: each article's status, slices, first slice, missing views and warnings. */
export function JobProgress({
  jobId,
  onOpenJob,
  onBack,
}: {
  jobId: number;
  onOpenJob: (jobId: number) => void;
  onBack: () => void;
}) {
  const { t } = useTranslation();
  const status = useJobStatus(jobId);
  const labels = useSlotLabels(
    status.data?.job.templateId ?? 0,
    status.data?.job.version ?? 0,
    status.isSuccess,
  );
  const columns = useArticleColumns(labels.data);

  if (status.isPending) return <Spin />;
  if (status.isError || !status.data)
    return (
      <Result
        status="warning"
        title={status.error instanceof ApiError ? status.error.desc : t('common.loadFailed')}
        extra={<Button onClick={onBack}>{t('composite.progress.back')}</Button>}
      />
    );
  const { job, articles } = status.data;
  const running = job.status === 'running';
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="job-progress">
      <Card
        size="small"
        title={
          <Space>
            <Button type="text" icon={<ArrowLeftOutlined />} onClick={onBack} data-testid="job-back" />
            {t('composite.progress.title', { id: job.id, template: job.templateName, version: job.version })}
            <Tag
              color={running ? 'processing' : job.status === 'done' ? 'success' : 'default'}
              data-testid="job-status"
              data-status={job.status}
            >
              {t(`composite.jobStatus.${job.status}`)}
            </Tag>
          </Space>
        }
        extra={
          <JobActions jobId={jobId} job={job} onOpenJob={onOpenJob} onCancelled={() => status.refetch()} />
        }
      >
        <Progress percent={job.percent} status={running ? 'active' : undefined} data-testid="job-percent" />
        <Space style={{ marginTop: 8 }} wrap>
          <JobCounts job={job} />
          {job.targetFolderName && (
            <Typography.Text type="secondary">
              {t('composite.progress.into', { folder: job.targetFolderName })}
            </Typography.Text>
          )}
        </Space>
      </Card>
      <Table<ComposeArticleResult>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={articles}
        pagination={articles.length > 50 ? { pageSize: 50 } : false}
        data-testid="job-articles"
      />
    </Space>
  );
}

const RESULTS_PAGE_SIZE = 20;

/** The caller's composition jobs, newest first; a row opens its progress. */
export function MyResults({ onOpen }: { onOpen: (jobId: number) => void }) {
  const { t } = useTranslation();
  const [pageNo, setPageNo] = useState(1);
  const jobs = useMyJobs(pageNo, RESULTS_PAGE_SIZE);
  const columns: TableColumnsType<ComposeJobSummary> = [
    { title: '#', dataIndex: 'id', width: 70 },
    {
      title: t('composite.compose.template'),
      render: (_, job) => `${job.templateName} · v${job.version}`,
    },
    { title: t('composite.results.articles'), dataIndex: 'articleCount', width: 90 },
    {
      title: t('composite.progress.status'),
      render: (_, job) => (
        <Space orientation="vertical" size={2}>
          <Tag
            color={job.status === 'running' ? 'processing' : job.status === 'done' ? 'success' : 'default'}
          >
            {t(`composite.jobStatus.${job.status}`)}
          </Tag>
          <JobCounts job={job} />
        </Space>
      ),
    },
    {
      title: t('composite.results.folder'),
      dataIndex: 'targetFolderName',
      render: (name: string | null) => name ?? '—',
    },
    {
      title: t('composite.results.created'),
      dataIndex: 'createdAt',
      width: 180,
      render: (at: string) => new Date(at).toLocaleString(),
    },
    {
      title: '',
      width: 90,
      render: (_, job) => (
        <Button size="small" onClick={() => onOpen(job.id)} data-testid="result-open">
          {t('composite.results.open')}
        </Button>
      ),
    },
  ];
  return (
    <Table<ComposeJobSummary>
      rowKey="id"
      size="small"
      loading={jobs.isPending}
      columns={columns}
      dataSource={jobs.data?.list ?? []}
      locale={{ emptyText: t('composite.results.empty') }}
      pagination={{
        current: pageNo,
        pageSize: RESULTS_PAGE_SIZE,
        total: jobs.data?.total ?? 0,
        onChange: setPageNo,
        showSizeChanger: false,
      }}
      data-testid="my-results"
    />
  );
}
