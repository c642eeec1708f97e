import {
  ArrowLeftOutlined,
  DownloadOutlined,
  FolderOpenOutlined,
  ReloadOutlined,
  StopOutlined,
} from '@ant-design/icons';
import {
  COMPOSE_DOWNLOAD_KINDS,
  type ComposeArticleResult,
  type ComposeArticleStatus,
  type ComposeDownloadKind,
  type ComposeJobSummary,
  parseLanguage,
  ruleSlotName,
} from '@dam/contract';
import {
  App,
  Button,
  Card,
  Dropdown,
  Image,
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
import { useNavigate } from 'react-router';
import { ApiError } from '../../api/client';
import { notifySuccess } from '../../api/notify';
import {
  cancelJob,
  downloadJobZip,
  renderMissingAgain,
  useJobStatus,
  useMyJobs,
  useSlotLabels,
} from './compositeApi';

const STATUS_COLOURS: Record<ComposeArticleStatus, string> = {
  pending: 'default',
  rendering: 'processing',
  done: 'success',
  missing: 'warning',
  failed: 'error',
  cancelled: 'default',
};

/** What "render missing again" would take: articles that did not end done. */
const retryable = (job: ComposeJobSummary) =>
  (job.counts.missing ?? 0) + (job.counts.failed ?? 0) + (job.counts.cancelled ?? 0);

function JobCounts({ job }: { job: ComposeJobSummary }) {
  const { t } = useTranslation();
  return (
    <Space size={4} wrap>
      {(Object.entries(job.counts) as [ComposeArticleStatus, number][])
        .filter(([, count]) => count > 0)
        .map(([status, count]) => (
          <Tag key={status} color={STATUS_COLOURS[status]} data-testid={`job-count-${status}`}>
            {t(`composite.articleStatus.${status}`)} × {count}
          </Tag>
        ))}
    </Space>
  );
}

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
  const { t, i18n } = useTranslation();
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const status = useJobStatus(jobId);
  const lang = parseLanguage(i18n.language);
  const labels = useSlotLabels(
    status.data?.job.templateId ?? 0,
    status.data?.job.version ?? 0,
    status.isSuccess,
  );
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
  const done = job.counts.done ?? 0;

  const columns: TableColumnsType<ComposeArticleResult> = [
    { title: '#', dataIndex: 'position', width: 50, render: (p: number) => p + 1 },
    { title: t('composite.compose.artNum'), dataIndex: 'artNum', width: 160 },
    {
      title: t('composite.progress.status'),
      dataIndex: 'status',
      width: 110,
      render: (s: ComposeArticleStatus) => (
        <Tag color={STATUS_COLOURS[s]} data-testid="article-status" data-status={s}>
          {t(`composite.articleStatus.${s}`)}
        </Tag>
      ),
    },
    {
      title: t('composite.progress.preview'),
      width: 90,
      render: (_, row) => {
        const first = row.outputs.find((o) => o.kind === 'slice' && o.index === 1) ?? row.outputs[0];
        return first?.thumbUrl ? <Image src={first.thumbUrl} width={60} alt="" /> : null;
      },
    },
    {
      title: t('composite.progress.slices'),
      width: 170,
      render: (_, row) =>
        row.sliceCount !== null
          ? t('composite.progress.sliceCount', { count: row.sliceCount, height: row.pageHeight ?? 0 })
          : '—',
    },
    {
      title: t('composite.progress.details'),
      render: (_, row) => (
        <Space orientation="vertical" size={2}>
          {row.missing.length > 0 && (
            <span>
              {t('composite.progress.missing')}{' '}
              {row.missing.map((m) => (
                <Tag key={m.slot} color="red">
                  {m.rule.kind === 'nth' ? ruleSlotName(m.rule, { lang }) : m.viewName}
                </Tag>
              ))}
            </span>
          )}
          {row.warnings.map((warning, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: warnings have no identity; the list is fixed once shown
            <Typography.Text key={index} type="warning" style={{ fontSize: 12 }}>
              {t(`composite.warning.${warning.code}`, {
                slot: warning.slot ? (labels.data?.[warning.slot] ?? warning.slot) : '',
                detail: warning.detail ?? '',
              })}
            </Typography.Text>
          ))}
          {row.error && <Typography.Text type="danger">{row.error}</Typography.Text>}
        </Space>
      ),
    },
  ];

  const downloadItems = COMPOSE_DOWNLOAD_KINDS.map((kind) => ({
    key: kind,
    label: t(`composite.progress.include.${kind}`),
    'data-testid': `job-download-${kind}`,
  }));
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
                        await status.refetch();
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
