import { ApiOutlined, ExportOutlined } from '@ant-design/icons';
import { type ApiAccessSummary, type IssuedApiKey, OPEN_API_PREFIX } from '@dam/contract';
import { Button, Space, Tabs, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AccessDetailDrawer } from './AccessDetailDrawer';
import { AccessDialog } from './AccessDialog';
import { ACCESS_PAGE_SIZE, AccessesTab, type AccessFilter } from './AccessesTab';
import { EnterprisesPanel } from './EnterprisesPanel';
import { useApiAccesses, useApiEnterprises, useOpenCalls } from './openApiApi';
import { RotateDialog } from './RotateDialog';
import { type IssuedSecret, SecretOnceDialog } from './SecretOnceDialog';

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
  const [tab, setTab] = useState<TabKey>('accesses');
  /** Counts the empty state's "new enterprise" clicks: each opens the enterprise dialog at once. */
  const [newEnterprise, setNewEnterprise] = useState(0);
  const [filter, setFilter] = useState<AccessFilter>({ enterpriseId: undefined, keyword: '', pageNo: 1 });
  const [editing, setEditing] = useState<ApiAccessSummary | 'new' | null>(null);
  const [rotating, setRotating] = useState<ApiAccessSummary | null>(null);
  const [detailId, setDetailId] = useState<number | null>(null);
  // The secret just issued: held here only until its dialog is closed.
  const [issued, setIssued] = useState<IssuedSecret | null>(null);

  const accesses = useApiAccesses({
    ...(filter.enterpriseId ? { enterpriseId: filter.enterpriseId } : {}),
    ...(filter.keyword ? { keyword: filter.keyword } : {}),
    pageNo: filter.pageNo,
    pageSize: ACCESS_PAGE_SIZE,
  });
  const enterprises = useApiEnterprises();
  const calls = useOpenCalls();
  const enterpriseList = enterprises.data ?? [];

  const showIssued = (kind: IssuedSecret['kind']) => (key: IssuedApiKey, name: string) => {
    if (key.secret) setIssued({ kind, name, keyId: key.keyId, secret: key.secret });
  };

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
            children: (
              <AccessesTab
                accesses={accesses}
                enterprises={enterprises}
                filter={filter}
                onFilter={setFilter}
                onNew={() => setEditing('new')}
                onEdit={setEditing}
                onRotate={setRotating}
                onDetail={(record) => setDetailId(record.id)}
                onNewEnterprise={() => {
                  setTab('enterprises');
                  setNewEnterprise((clicks) => clicks + 1);
                }}
              />
            ),
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
