import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import {
  FunctionCode,
  type ImportChange,
  type ImportDetail,
  type ImportKind,
  type ImportSummary,
} from '@dam/contract';
import {
  Alert,
  Button,
  Card,
  Descriptions,
  Popconfirm,
  Progress,
  Radio,
  Space,
  Table,
  Tabs,
  Tag,
  Typography,
} from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { showApiError } from '../../api/showApiError';
import { functionCodesOf, useCurrentUser } from '../../auth/useCurrentUser';
import { formatDate } from '../../ui/format';
import { WorkbookInput } from '../../ui/WorkbookInput';
import {
  saveErrorReport,
  saveImportTemplate,
  useCreateImport,
  useImportAction,
  useImportDetail,
  useImportHistory,
} from './importsApi';
import { isBusy, progressPercent } from './progress';
import { SkuDataPanel } from './SkuDataPanel';

const STATUS_COLOR: Record<ImportSummary['status'], string> = {
  checking: 'processing',
  checked: 'blue',
  rejected: 'error',
  applying: 'processing',
  applied: 'success',
  discarded: 'default',
  failed: 'error',
};

function StatusTag({ status }: { status: ImportSummary['status'] }) {
  const { t } = useTranslation();
  return (
    <Tag color={STATUS_COLOR[status]} data-testid="import-status">
      {t(`imports.status.${status}`)}
    </Tag>
  );
}

/**
 * Import management (SPEC §2 /manage/import, code 8; issue 14): a workbook is uploaded, checked by
 * a job (the dry run: what would change, every problem by row and column), then applied whole or
 * not at all; the history lists every import with who, when and the result. The SKU data the
 * imports fill is the second tab.
 */
export function ImportPage() {
  const { t } = useTranslation();
  return (
    <Tabs
      data-testid="import-page"
      items={[
        { key: 'imports', label: t('imports.tabImports'), children: <ImportsPanel /> },
        { key: 'sku', label: t('imports.tabSkuData'), children: <SkuDataPanel /> },
      ]}
    />
  );
}

function ImportsPanel() {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const mayTag = functionCodesOf(useCurrentUser().data).includes(FunctionCode.tag);
  const [kind, setKind] = useState<ImportKind>('sku');
  const [current, setCurrent] = useState<number | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const create = useCreateImport();

  const upload = async (file: File) => {
    setRefusal(null);
    try {
      const detail = await create.mutateAsync({ kind, file });
      setCurrent(detail.id);
    } catch (error) {
      if (error instanceof ApiError) setRefusal(error.desc);
      else showApiError(error);
    }
  };

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Card size="small" title={t('imports.newImport')}>
        <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
          <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
            {t('imports.intro')}
          </Typography.Paragraph>
          <Space wrap>
            <Radio.Group
              optionType="button"
              value={kind}
              onChange={(e) => setKind(e.target.value as ImportKind)}
              data-testid="import-kind"
              options={[
                { value: 'sku', label: t('imports.kind.sku') },
                { value: 'tagAssignments', label: t('imports.kind.tagAssignments'), disabled: !mayTag },
              ]}
            />
            <Button icon={<DownloadOutlined />} onClick={() => void saveImportTemplate(kind)}>
              {t('imports.template')}
            </Button>
            <Button
              type="primary"
              icon={<UploadOutlined />}
              loading={create.isPending}
              onClick={() => input.current?.click()}
              data-testid="import-upload"
            >
              {t('imports.upload')}
            </Button>
            <WorkbookInput ref={input} testId="import-input" onFile={(file) => void upload(file)} />
          </Space>
          <Typography.Text type="secondary">
            {kind === 'sku' ? t('imports.hint.sku') : t('imports.hint.tagAssignments')}
          </Typography.Text>
          {refusal && (
            <Alert
              type="error"
              showIcon
              title={t('imports.refused')}
              description={refusal}
              data-testid="import-refused"
              closable={{ onClose: () => setRefusal(null) }}
            />
          )}
        </Space>
      </Card>
      {current !== null && <CurrentImport id={current} />}
      <History onOpen={setCurrent} current={current} />
    </Space>
  );
}

function CurrentImport({ id }: { id: number }) {
  const { t } = useTranslation();
  const detail = useImportDetail(id).data;
  const apply = useImportAction('apply');
  const discard = useImportAction('discard');
  if (!detail) return null;
  const busy = isBusy(detail);
  const counts = {
    total: String(detail.total),
    created: String(detail.created),
    updated: String(detail.updated),
    unchanged: String(detail.unchanged),
    problems: String(detail.problemCount),
  };
  const act = (mutation: typeof apply) => mutation.mutateAsync(id).catch(() => {});

  return (
    <Card
      size="small"
      data-testid="import-current"
      title={
        <Space>
          {detail.fileName}
          <StatusTag status={detail.status} />
        </Space>
      }
    >
      <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
        <Descriptions size="small" column={{ xs: 1, md: 3 }}>
          <Descriptions.Item label={t('imports.kindLabel')}>
            {t(`imports.kind.${detail.kind}`)}
          </Descriptions.Item>
          <Descriptions.Item label={t('imports.uploadedBy')}>
            {detail.userName ?? '—'} · {formatDate(detail.createdAt)}
          </Descriptions.Item>
          <Descriptions.Item label={t('imports.appliedBy')}>
            {detail.appliedAt ? `${detail.appliedByName ?? '—'} · ${formatDate(detail.appliedAt)}` : '—'}
          </Descriptions.Item>
        </Descriptions>
        <div>
          <Typography.Text type="secondary">
            {busy
              ? t(detail.status === 'applying' ? 'imports.progressApplying' : 'imports.progressChecking', {
                  processed: String(detail.processed),
                  total: String(detail.total),
                })
              : t('imports.rows', { total: String(detail.total) })}
          </Typography.Text>
          <Progress
            percent={progressPercent(detail)}
            status={
              busy
                ? 'active'
                : detail.status === 'rejected' || detail.status === 'failed'
                  ? 'exception'
                  : detail.status === 'applied'
                    ? 'success'
                    : 'normal'
            }
            data-testid="import-progress"
          />
        </div>
        {detail.status === 'checked' && (
          <Alert
            type="info"
            showIcon
            data-testid="import-summary"
            title={t('imports.summary.checked', counts)}
            description={t('imports.summary.checkedHint')}
            action={
              <Space orientation="vertical">
                <Button
                  type="primary"
                  loading={apply.isPending}
                  onClick={() => void act(apply)}
                  data-testid="import-apply"
                >
                  {t('imports.apply')}
                </Button>
                <Popconfirm
                  title={t('imports.discardConfirm')}
                  okText={t('imports.discard')}
                  onConfirm={() => act(discard)}
                >
                  <Button size="small" data-testid="import-discard">
                    {t('imports.discard')}
                  </Button>
                </Popconfirm>
              </Space>
            }
          />
        )}
        {detail.status === 'rejected' && (
          <Alert
            type="error"
            showIcon
            data-testid="import-summary"
            title={t('imports.summary.rejected', counts)}
            description={t('imports.summary.rejectedHint')}
            action={
              <Button
                icon={<DownloadOutlined />}
                onClick={() => void saveErrorReport(id)}
                data-testid="import-report"
              >
                {t('imports.errorReport')}
              </Button>
            }
          />
        )}
        {detail.status === 'applied' && (
          <Alert
            type="success"
            showIcon
            data-testid="import-summary"
            title={t('imports.summary.applied', counts)}
          />
        )}
        {detail.status === 'failed' && (
          <Alert type="error" showIcon data-testid="import-summary" title={t('imports.summary.failed')} />
        )}
        {detail.status === 'discarded' && (
          <Alert
            type="warning"
            showIcon
            data-testid="import-summary"
            title={t('imports.summary.discarded')}
          />
        )}
        {detail.problems.length > 0 && <Problems detail={detail} />}
        {detail.changes.length > 0 && <Changes detail={detail} />}
      </Space>
    </Card>
  );
}

function Problems({ detail }: { detail: ImportDetail }) {
  const { t } = useTranslation();
  return (
    <Table
      size="small"
      rowKey={(p) => `${p.row}-${p.column}-${p.message}`}
      data-testid="import-problems"
      title={() =>
        t('imports.problemsTitle', {
          shown: String(detail.problems.length),
          count: String(detail.problemCount),
        })
      }
      dataSource={detail.problems}
      pagination={{ pageSize: 10, hideOnSinglePage: true, showSizeChanger: false }}
      columns={[
        { title: t('imports.row'), dataIndex: 'row', width: 80 },
        { title: t('imports.column'), dataIndex: 'column', width: 200 },
        {
          title: t('imports.problem'),
          dataIndex: 'message',
          render: (message: string) => <span data-testid="import-problem">{message}</span>,
        },
      ]}
    />
  );
}

function Changes({ detail }: { detail: ImportDetail }) {
  const { t } = useTranslation();
  return (
    <Table<ImportChange>
      size="small"
      rowKey="row"
      data-testid="import-changes"
      title={() => (detail.status === 'applied' ? t('imports.changesApplied') : t('imports.changesTitle'))}
      dataSource={detail.changes}
      pagination={{ pageSize: 10, hideOnSinglePage: true, showSizeChanger: false }}
      columns={[
        { title: t('imports.row'), dataIndex: 'row', width: 80 },
        {
          title: t('imports.artNum'),
          dataIndex: 'artNum',
          width: 160,
          render: (artNum: string) => <span data-testid="import-change-art-num">{artNum}</span>,
        },
        {
          title: t('imports.action'),
          dataIndex: 'action',
          width: 100,
          render: (action: ImportChange['action']) => (
            <Tag color={action === 'create' ? 'green' : 'blue'}>{t(`imports.actionName.${action}`)}</Tag>
          ),
        },
        {
          title: t('imports.fields'),
          render: (_v, change) => (
            <Space orientation="vertical" size={0}>
              {change.fields.map((field) => (
                <span key={field.column}>
                  <Typography.Text strong>{field.column}</Typography.Text>
                  {'：'}
                  {change.action === 'create' ? (
                    field.after
                  ) : (
                    <>
                      <Typography.Text delete type="secondary">
                        {field.before || t('imports.empty')}
                      </Typography.Text>
                      {' → '}
                      {field.after || t('imports.empty')}
                    </>
                  )}
                </span>
              ))}
            </Space>
          ),
        },
      ]}
    />
  );
}

const HISTORY_PAGE_SIZE = 10;

function History({ onOpen, current }: { onOpen: (id: number) => void; current: number | null }) {
  const { t } = useTranslation();
  const [pageNo, setPageNo] = useState(1);
  const history = useImportHistory(pageNo, HISTORY_PAGE_SIZE);
  return (
    <Card size="small" title={t('imports.history')}>
      <Table<ImportSummary>
        size="middle"
        rowKey="id"
        data-testid="import-history"
        loading={history.isPending}
        dataSource={history.data?.list ?? []}
        rowClassName={(row) => (row.id === current ? 'ant-table-row-selected' : '')}
        scroll={{ x: 1300 }}
        pagination={{
          current: pageNo,
          pageSize: HISTORY_PAGE_SIZE,
          total: history.data?.total ?? 0,
          showSizeChanger: false,
          onChange: setPageNo,
        }}
        columns={[
          {
            title: t('imports.file'),
            dataIndex: 'fileName',
            width: 240,
            ellipsis: true,
            render: (name: string) => <span data-testid="import-history-file">{name}</span>,
          },
          {
            title: t('imports.kindLabel'),
            dataIndex: 'kind',
            width: 120,
            render: (k: ImportKind) => t(`imports.kind.${k}`),
          },
          {
            title: t('imports.statusLabel'),
            dataIndex: 'status',
            width: 110,
            render: (status: ImportSummary['status']) => <StatusTag status={status} />,
          },
          {
            title: t('imports.result'),
            width: 260,
            render: (_v, row) =>
              row.status === 'rejected'
                ? t('imports.resultProblems', { problems: String(row.problemCount) })
                : t('imports.resultCounts', {
                    created: String(row.created),
                    updated: String(row.updated),
                    unchanged: String(row.unchanged),
                  }),
          },
          {
            title: t('imports.uploadedBy'),
            dataIndex: 'userName',
            width: 130,
            render: (name: string | null) => name ?? '—',
          },
          {
            title: t('imports.uploadedAt'),
            dataIndex: 'createdAt',
            width: 150,
            render: (at: string) => formatDate(at),
          },
          {
            title: t('imports.appliedAt'),
            width: 200,
            render: (_v, row) =>
              row.appliedAt ? `${row.appliedByName ?? '—'} · ${formatDate(row.appliedAt)}` : '—',
          },
          {
            title: '',
            width: 90,
            render: (_v, row) => (
              <Button type="link" size="small" onClick={() => onOpen(row.id)} data-testid="import-open">
                {t('imports.open')}
              </Button>
            ),
          },
        ]}
      />
    </Card>
  );
}
