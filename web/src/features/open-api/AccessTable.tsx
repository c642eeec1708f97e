import { DeleteOutlined, EditOutlined, SyncOutlined } from '@ant-design/icons';
import { ApiAccessStatus, type ApiAccessSummary } from '@dam/contract';
import { Button, Popconfirm, Space, Switch, Table, type TableColumnType, Tooltip, Typography } from 'antd';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../ui/format';
import { secretHintText } from './access';
import styles from './OpenApi.module.css';

type Column = TableColumnType<ApiAccessSummary>;

/** What a row of the access table lets the administrator do. */
export interface AccessRowActions {
  onDetail: (record: ApiAccessSummary) => void;
  /** The record whose status is being switched (its switch is busy). */
  toggling: number | null;
  onToggle: (record: ApiAccessSummary, on: boolean) => void;
  onEdit: (record: ApiAccessSummary) => void;
  onRotate: (record: ApiAccessSummary) => void;
  onDelete: (record: ApiAccessSummary) => Promise<void>;
  deleting: boolean;
}

const nameColumn = (t: TFunction, actions: AccessRowActions): Column => ({
  title: t('openApi.nameAndDescription'),
  key: 'name',
  width: 210,
  fixed: 'left',
  render: (_value, record) => (
    <div style={{ minWidth: 0 }}>
      <Button
        type="link"
        style={{ padding: 0, height: 'auto', textAlign: 'start', whiteSpace: 'normal' }}
        onClick={() => actions.onDetail(record)}
        data-testid="api-access-row-name"
      >
        {record.name}
      </Button>
      <Typography.Paragraph
        type="secondary"
        ellipsis={{ rows: 2, tooltip: record.description }}
        style={{ fontSize: 12, marginBottom: 0 }}
        data-testid="api-access-row-description"
      >
        {record.description}
      </Typography.Paragraph>
    </div>
  ),
});

const enterpriseColumn = (t: TFunction): Column => ({
  title: t('openApi.enterpriseAndUser'),
  key: 'enterprise',
  width: 200,
  render: (_value, record) => (
    <div style={{ minWidth: 0 }}>
      <Typography.Text ellipsis={{ tooltip: record.enterpriseId }} data-testid="api-access-row-enterprise">
        {record.enterpriseName}
      </Typography.Text>
      <Typography.Text
        type="secondary"
        ellipsis={{
          tooltip: record.userName ? `${record.userName} · ${record.userMail}` : record.userMail,
        }}
        style={{ display: 'block', fontSize: 12 }}
        data-testid="api-access-row-mail"
      >
        {record.userMail}
      </Typography.Text>
    </div>
  ),
});

const statusColumn = (t: TFunction, actions: AccessRowActions): Column => ({
  title: t('openApi.status'),
  dataIndex: 'status',
  width: 84,
  render: (status: number, record) => (
    <Switch
      checked={status === ApiAccessStatus.on}
      loading={actions.toggling === record.id}
      checkedChildren={t('openApi.on')}
      unCheckedChildren={t('openApi.off')}
      onChange={(on) => actions.onToggle(record, on)}
      aria-label={t('openApi.status')}
      data-testid="api-access-row-status"
    />
  ),
});

const keyColumn = (t: TFunction): Column => ({
  title: t('openApi.keyAndSecret'),
  key: 'key',
  width: 210,
  render: (_value, record) => (
    <div>
      <Typography.Text
        code
        copyable={{ tooltips: [t('openApi.copy'), t('openApi.copied')] }}
        style={{ whiteSpace: 'nowrap', fontSize: 12 }}
        data-testid="api-access-row-key"
      >
        {record.keyId}
      </Typography.Text>
      <div style={{ marginTop: 2 }}>
        <Tooltip
          title={
            record.previousValidUntil
              ? t('openApi.detail.previousUntil', { time: formatDate(record.previousValidUntil) })
              : t('openApi.secretHintTip')
          }
        >
          <Typography.Text
            code
            type="secondary"
            style={{ whiteSpace: 'nowrap', fontSize: 12 }}
            data-testid="api-access-row-hint"
          >
            {secretHintText(record.secretHint)}
          </Typography.Text>
        </Tooltip>
      </div>
    </div>
  ),
});

const lastUsedColumn = (t: TFunction): Column => ({
  title: t('openApi.lastUsed'),
  key: 'lastUsed',
  width: 140,
  render: (_value, record) =>
    record.lastUsedAt ? (
      <div data-testid="api-access-row-last-used">
        <div className={styles.number}>{formatDate(record.lastUsedAt)}</div>
        {record.lastUsedIp && (
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {record.lastUsedIp}
          </Typography.Text>
        )}
      </div>
    ) : (
      <Typography.Text type="secondary" data-testid="api-access-row-last-used">
        {t('openApi.neverUsed')}
      </Typography.Text>
    ),
});

const callsColumn = (t: TFunction): Column => ({
  title: (
    <Tooltip title={t('openApi.callsHint')}>
      <div>
        {t('openApi.calls')}
        <div style={{ fontSize: 12, fontWeight: 'normal' }}>{t('openApi.callsParts')}</div>
      </div>
    </Tooltip>
  ),
  key: 'calls',
  width: 130,
  render: (_value, record) => (
    <span className={styles.number} data-testid="api-access-row-calls">
      {record.callsToday.toLocaleString()} / {record.calls30d.toLocaleString()}
      {' / '}
      <Typography.Text type={record.failures30d > 0 ? 'danger' : 'secondary'}>
        {record.failures30d.toLocaleString()}
      </Typography.Text>
    </span>
  ),
});

const actionsColumn = (t: TFunction, actions: AccessRowActions): Column => ({
  title: t('openApi.actions'),
  key: 'actions',
  width: 124,
  fixed: 'right',
  render: (_value, record) => (
    <Space size={0}>
      <Tooltip title={t('openApi.edit')}>
        <Button
          type="text"
          icon={<EditOutlined />}
          onClick={() => actions.onEdit(record)}
          aria-label={t('openApi.edit')}
          data-testid="api-access-edit"
        />
      </Tooltip>
      <Tooltip title={t('openApi.rotate.action')}>
        <Button
          type="text"
          icon={<SyncOutlined />}
          onClick={() => actions.onRotate(record)}
          aria-label={t('openApi.rotate.action')}
          data-testid="api-access-rotate"
        />
      </Tooltip>
      <Popconfirm
        title={t('openApi.deleteConfirm', { name: record.name })}
        description={t('openApi.deleteHint')}
        okText={t('common.delete')}
        cancelText={t('common.cancel')}
        okButtonProps={{ danger: true, loading: actions.deleting }}
        onConfirm={() => actions.onDelete(record)}
      >
        <Button
          type="text"
          danger
          icon={<DeleteOutlined />}
          aria-label={t('openApi.delete')}
          data-testid="api-access-delete"
        />
      </Popconfirm>
    </Space>
  ),
});

/** One page of API access records as a table, with each record's status switch and actions. */
export function AccessTable({
  records,
  total,
  loading,
  pageNo,
  pageSize,
  onPage,
  emptyText,
  actions,
}: {
  records: ApiAccessSummary[];
  total: number;
  loading: boolean;
  pageNo: number;
  pageSize: number;
  onPage: (pageNo: number) => void;
  emptyText: ReactNode;
  actions: AccessRowActions;
}) {
  const { t } = useTranslation();
  return (
    <Table<ApiAccessSummary>
      rowKey="id"
      loading={loading}
      dataSource={records}
      scroll={{ x: 1090 }}
      size="middle"
      locale={{ emptyText }}
      onRow={(record) => ({ 'data-key-id': record.keyId }) as object}
      pagination={{
        current: pageNo,
        pageSize,
        total,
        showSizeChanger: false,
        hideOnSinglePage: true,
        showTotal: (count) => t('openApi.total', { count }),
        onChange: onPage,
      }}
      columns={[
        nameColumn(t, actions),
        enterpriseColumn(t),
        statusColumn(t, actions),
        keyColumn(t),
        lastUsedColumn(t),
        callsColumn(t),
        actionsColumn(t, actions),
      ]}
    />
  );
}
