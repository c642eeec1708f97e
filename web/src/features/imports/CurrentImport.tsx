import { DownloadOutlined } from '@ant-design/icons';
import type { ImportChange, ImportDetail } from '@dam/contract';
import { Alert, Button, Card, Descriptions, Popconfirm, Progress, Space, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../ui/format';
import { saveErrorReport, useImportAction, useImportDetail } from './importsApi';
import { isBusy, progressPercent } from './progress';
import { StatusTag } from './StatusTag';

/**
 * The import being looked at: who uploaded and applied it, its progress, its summary with applying,
 * discarding or the error report, and its problems and changes.
 */
export function CurrentImport({ id }: { id: number }) {
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
