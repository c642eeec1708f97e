import {
  ApiOutlined,
  DeleteOutlined,
  EditOutlined,
  ExportOutlined,
  PlusOutlined,
  SyncOutlined,
} from '@ant-design/icons';
import { ApiAccessStatus, type ApiAccessSummary, type IssuedApiKey, OPEN_API_PREFIX } from '@dam/contract';
import {
  App,
  Button,
  Empty,
  Input,
  Popconfirm,
  Result,
  Select,
  Space,
  Switch,
  Table,
  Tabs,
  Tooltip,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showApiError } from '../../api/showApiError';
import { formatDate } from '../../ui/format';
import { AccessDetailDrawer } from './AccessDetailDrawer';
import { AccessDialog } from './AccessDialog';
import { emptyStep, secretHintText, statusToggleRequest } from './access';
import { EnterprisesPanel } from './EnterprisesPanel';
import styles from './OpenApi.module.css';
import {
  useApiAccesses,
  useApiEnterprises,
  useDeleteApiAccess,
  useOpenCalls,
  useSaveApiAccess,
} from './openApiApi';
import { RotateDialog } from './RotateDialog';
import { type IssuedSecret, SecretOnceDialog } from './SecretOnceDialog';

const PAGE_SIZE = 20;
const DOCS_PATH = '/open/docs';
const DOCUMENT_PATH = `${OPEN_API_PREFIX}/openapi.json`;

type TabKey = 'accesses' | 'enterprises';

/**
 * /manage/api (SPEC §2, function code 7): the API access records other systems sign their calls
 * with (SPEC §3: name, description, enterprise ID, user mail, status), their keys and use, and the
 * enterprises that say which open calls their records may make and how often.
 */
export function ApiAccessPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [tab, setTab] = useState<TabKey>('accesses');
  /** Counts the empty state's "new enterprise" clicks: each opens the enterprise dialog at once. */
  const [newEnterprise, setNewEnterprise] = useState(0);
  const [enterpriseId, setEnterpriseId] = useState<string | undefined>();
  const [keyword, setKeyword] = useState('');
  const [pageNo, setPageNo] = useState(1);
  const [editing, setEditing] = useState<ApiAccessSummary | 'new' | null>(null);
  const [rotating, setRotating] = useState<ApiAccessSummary | null>(null);
  const [detailId, setDetailId] = useState<number | null>(null);
  // The secret just issued: held here only until its dialog is closed.
  const [issued, setIssued] = useState<IssuedSecret | null>(null);
  const [toggling, setToggling] = useState<number | null>(null);

  const accesses = useApiAccesses({
    ...(enterpriseId ? { enterpriseId } : {}),
    ...(keyword ? { keyword } : {}),
    pageNo,
    pageSize: PAGE_SIZE,
  });
  const enterprises = useApiEnterprises();
  const calls = useOpenCalls();
  const save = useSaveApiAccess();
  const remove = useDeleteApiAccess();
  const enterpriseList = enterprises.data ?? [];

  const showIssued = (kind: IssuedSecret['kind']) => (key: IssuedApiKey, name: string) => {
    if (key.secret) setIssued({ kind, name, keyId: key.keyId, secret: key.secret });
  };

  const toggle = async (record: ApiAccessSummary, on: boolean) => {
    setToggling(record.id);
    try {
      await save.mutateAsync(statusToggleRequest(record, on));
      void message.success(
        on ? t('openApi.enabledOk', { name: record.name }) : t('openApi.disabledOk', { name: record.name }),
      );
    } catch (error) {
      showApiError(error);
    } finally {
      setToggling(null);
    }
  };

  const deleteAccess = async (record: ApiAccessSummary) => {
    try {
      await remove.mutateAsync(record.id);
      void message.success(t('common.deleteOk'));
      if (accesses.data && accesses.data.list.length === 1 && pageNo > 1) setPageNo(pageNo - 1);
    } catch (error) {
      showApiError(error);
    }
  };

  const filtered = Boolean(enterpriseId || keyword);
  const step =
    filtered || !accesses.data || !enterprises.data
      ? null
      : emptyStep(enterpriseList.length, accesses.data.total);
  const noEnterprise = enterprises.isSuccess && enterpriseList.length === 0;

  const createButton = (testId: string) => (
    <Tooltip title={noEnterprise ? t('openApi.createEnterpriseFirst') : undefined}>
      <Button
        type="primary"
        icon={<PlusOutlined />}
        disabled={noEnterprise}
        onClick={() => setEditing('new')}
        data-testid={testId}
      >
        {t('openApi.createAccess')}
      </Button>
    </Tooltip>
  );

  const emptyText =
    step === 'enterprise' ? (
      <Empty description={t('openApi.emptyTitle')} data-testid="api-accesses-empty">
        <Typography.Paragraph type="secondary">{t('openApi.emptyEnterpriseHint')}</Typography.Paragraph>
        <Button
          type="primary"
          onClick={() => {
            setTab('enterprises');
            setNewEnterprise((clicks) => clicks + 1);
          }}
          data-testid="api-empty-to-enterprises"
        >
          {t('openApi.createEnterprise')}
        </Button>
      </Empty>
    ) : step === 'record' ? (
      <Empty description={t('openApi.emptyTitle')} data-testid="api-accesses-empty">
        <Typography.Paragraph type="secondary">{t('openApi.emptyRecordHint')}</Typography.Paragraph>
        {createButton('api-empty-new')}
      </Empty>
    ) : (
      <Empty description={t('openApi.noMatch')} />
    );

  const accessesTab =
    accesses.isError && !accesses.data ? (
      <Result
        status="warning"
        title={t('openApi.loadFailed')}
        subTitle={accesses.error.message}
        extra={<Button onClick={() => void accesses.refetch()}>{t('common.retry')}</Button>}
        data-testid="api-accesses-error"
      />
    ) : (
      <>
        <div className={styles.toolbar}>
          <Select
            allowClear
            showSearch
            optionFilterProp="label"
            value={enterpriseId}
            onChange={(value: string | undefined) => {
              setEnterpriseId(value);
              setPageNo(1);
            }}
            placeholder={t('openApi.allEnterprises')}
            style={{ width: 220 }}
            options={enterpriseList.map((enterprise) => ({
              value: enterprise.enterpriseId,
              label: enterprise.name,
            }))}
            aria-label={t('openApi.allEnterprises')}
            data-testid="api-filter-enterprise"
          />
          <Input.Search
            allowClear
            maxLength={50}
            placeholder={t('openApi.search')}
            onSearch={(text) => {
              setKeyword(text.trim());
              setPageNo(1);
            }}
            style={{ width: 300 }}
            data-testid="api-filter-keyword"
          />
          <div style={{ flex: 1 }} />
          {createButton('api-access-new')}
        </div>
        <Table<ApiAccessSummary>
          rowKey="id"
          loading={accesses.isPending || accesses.isFetching}
          dataSource={accesses.data?.list ?? []}
          scroll={{ x: 1090 }}
          size="middle"
          locale={{ emptyText }}
          onRow={(record) => ({ 'data-key-id': record.keyId }) as object}
          pagination={{
            current: pageNo,
            pageSize: PAGE_SIZE,
            total: accesses.data?.total ?? 0,
            showSizeChanger: false,
            hideOnSinglePage: true,
            showTotal: (total) => t('openApi.total', { count: total }),
            onChange: setPageNo,
          }}
          columns={[
            {
              title: t('openApi.nameAndDescription'),
              key: 'name',
              width: 210,
              fixed: 'left',
              render: (_value, record) => (
                <div style={{ minWidth: 0 }}>
                  <Button
                    type="link"
                    style={{ padding: 0, height: 'auto', textAlign: 'start', whiteSpace: 'normal' }}
                    onClick={() => setDetailId(record.id)}
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
            },
            {
              title: t('openApi.enterpriseAndUser'),
              key: 'enterprise',
              width: 200,
              render: (_value, record) => (
                <div style={{ minWidth: 0 }}>
                  <Typography.Text
                    ellipsis={{ tooltip: record.enterpriseId }}
                    data-testid="api-access-row-enterprise"
                  >
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
            },
            {
              title: t('openApi.status'),
              dataIndex: 'status',
              width: 84,
              render: (status: number, record) => (
                <Switch
                  checked={status === ApiAccessStatus.on}
                  loading={toggling === record.id}
                  checkedChildren={t('openApi.on')}
                  unCheckedChildren={t('openApi.off')}
                  onChange={(on) => void toggle(record, on)}
                  aria-label={t('openApi.status')}
                  data-testid="api-access-row-status"
                />
              ),
            },
            {
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
            },
            {
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
            },
            {
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
            },
            {
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
                      onClick={() => setEditing(record)}
                      aria-label={t('openApi.edit')}
                      data-testid="api-access-edit"
                    />
                  </Tooltip>
                  <Tooltip title={t('openApi.rotate.action')}>
                    <Button
                      type="text"
                      icon={<SyncOutlined />}
                      onClick={() => setRotating(record)}
                      aria-label={t('openApi.rotate.action')}
                      data-testid="api-access-rotate"
                    />
                  </Tooltip>
                  <Popconfirm
                    title={t('openApi.deleteConfirm', { name: record.name })}
                    description={t('openApi.deleteHint')}
                    okText={t('common.delete')}
                    cancelText={t('common.cancel')}
                    okButtonProps={{ danger: true, loading: remove.isPending }}
                    onConfirm={() => deleteAccess(record)}
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
            },
          ]}
        />
      </>
    );

  return (
    <div data-testid="api-access-page">
      <div style={{ display: 'flex', alignItems: 'flex-start', gap: 16, marginBottom: 8, flexWrap: 'wrap' }}>
        <Typography.Paragraph type="secondary" style={{ flex: 1, minWidth: 320, marginBottom: 0 }}>
          {t('openApi.intro')}
        </Typography.Paragraph>
        <Space wrap>
          <Button
            icon={<ApiOutlined />}
            href={DOCS_PATH}
            target="_blank"
            rel="noopener noreferrer"
            data-testid="api-docs-link"
          >
            {t('openApi.docs')} <ExportOutlined />
          </Button>
          <Tooltip title={t('openApi.documentHint')}>
            <Typography.Text
              type="secondary"
              copyable={{ text: `${window.location.origin}${DOCUMENT_PATH}` }}
              data-testid="api-document-url"
            >
              {t('openApi.document')}: <Typography.Text code>{DOCUMENT_PATH}</Typography.Text>
            </Typography.Text>
          </Tooltip>
        </Space>
      </div>
      <Tabs
        activeKey={tab}
        onChange={(key) => setTab(key as TabKey)}
        items={[
          {
            key: 'accesses',
            label: t('openApi.accessesTab', { count: accesses.data?.total ?? 0 }),
            children: accessesTab,
          },
          {
            key: 'enterprises',
            label: t('openApi.enterprisesTab', { count: enterpriseList.length }),
            children: (
              <EnterprisesPanel
                enterprises={enterpriseList}
                loading={enterprises.isPending || enterprises.isFetching}
                error={enterprises.error?.message ?? null}
                calls={calls.data ?? []}
                openNew={newEnterprise}
              />
            ),
          },
        ]}
        data-testid="api-tabs"
      />
      {editing !== null && (
        <AccessDialog
          record={editing === 'new' ? null : editing}
          enterprises={enterpriseList}
          defaultMail=""
          onClose={() => setEditing(null)}
          onCreated={showIssued('created')}
        />
      )}
      {rotating !== null && (
        <RotateDialog record={rotating} onClose={() => setRotating(null)} onRotated={showIssued('rotated')} />
      )}
      <AccessDetailDrawer id={detailId} onClose={() => setDetailId(null)} />
      <SecretOnceDialog issued={issued} onClose={() => setIssued(null)} />
    </div>
  );
}
