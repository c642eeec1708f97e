import { API_USAGE_DAYS, type ApiAccessDetail } from '@dam/contract';
import {
  Alert,
  Descriptions,
  Drawer,
  Empty,
  Skeleton,
  Space,
  Table,
  Tabs,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../ui/format';
import { orderedCalls, secretHintText, usageByCall, usageByDay } from './access';
import styles from './OpenApi.module.css';
import { useApiAccessDetail, useWebhooks } from './openApiApi';

// The webhooks tab, its dialogs and delivery log load when the tab is first opened.
const WebhooksPanel = lazy(() =>
  import('./WebhooksPanel').then((module) => ({ default: module.WebhooksPanel })),
);

type DetailTab = 'overview' | 'webhooks';

/** The last 30 days as small bars, failures in red at the foot of each (no chart library needed). */
function UsageBars({ detail }: { detail: ApiAccessDetail }) {
  const { t } = useTranslation();
  const days = usageByDay(detail.usage, new Date(), API_USAGE_DAYS);
  const most = Math.max(1, ...days.map((day) => day.calls));
  return (
    <div>
      <div className={styles.bars} data-testid="api-usage-bars">
        {days.map((day) => (
          <Tooltip
            key={day.day}
            title={t('openApi.detail.dayTip', { day: day.day, calls: day.calls, failures: day.failures })}
          >
            <div className={styles.barSlot} data-day={day.day} data-calls={day.calls}>
              <div className={styles.bar} style={{ height: `${(day.calls / most) * 100}%` }}>
                {day.failures > 0 && (
                  <div
                    className={styles.barFailures}
                    style={{ height: `${(day.failures / day.calls) * 100}%` }}
                  />
                )}
              </div>
            </div>
          </Tooltip>
        ))}
      </div>
      <div className={styles.barsAxis}>
        <span>{days[0]?.day}</span>
        <span>{t('openApi.detail.maxPerDay', { count: most })}</span>
        <span>{days.at(-1)?.day}</span>
      </div>
    </div>
  );
}

/** The record's overview tab: its fields, the calls its enterprise allows and its use. */
function Overview({ data }: { data: ApiAccessDetail }) {
  const { t } = useTranslation();
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Descriptions column={1} size="small" bordered>
        <Descriptions.Item label={t('openApi.description')}>{data.description}</Descriptions.Item>
        <Descriptions.Item label={t('openApi.enterprise')}>
          {data.enterpriseName} <Typography.Text type="secondary">({data.enterpriseId})</Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label={t('openApi.userMail')}>
          {data.userMail}
          {data.userName && <Typography.Text type="secondary"> · {data.userName}</Typography.Text>}
        </Descriptions.Item>
        <Descriptions.Item label={t('openApi.status')}>
          {data.status === 1 ? <Tag color="success">{t('openApi.on')}</Tag> : <Tag>{t('openApi.off')}</Tag>}
        </Descriptions.Item>
        <Descriptions.Item label={t('openApi.keyId')}>
          <Typography.Text code copyable>
            {data.keyId}
          </Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label={t('openApi.secretHint')}>
          <Typography.Text code>{secretHintText(data.secretHint)}</Typography.Text>
          {data.previousValidUntil && (
            <div>
              <Typography.Text type="secondary">
                {t('openApi.detail.previousUntil', { time: formatDate(data.previousValidUntil) })}
              </Typography.Text>
            </div>
          )}
        </Descriptions.Item>
        <Descriptions.Item label={t('openApi.ratePerMinute')}>
          {t('openApi.detail.rate', { count: data.ratePerMinute })}
        </Descriptions.Item>
        <Descriptions.Item label={t('openApi.lastUsed')}>
          {data.lastUsedAt ? (
            <span data-testid="api-detail-last-used">
              {formatDate(data.lastUsedAt)}
              {data.lastUsedIp && <Typography.Text type="secondary"> · {data.lastUsedIp}</Typography.Text>}
            </span>
          ) : (
            <Typography.Text type="secondary">{t('openApi.neverUsed')}</Typography.Text>
          )}
        </Descriptions.Item>
        <Descriptions.Item label={t('openApi.createdAt')}>{formatDate(data.createdAt)}</Descriptions.Item>
      </Descriptions>

      <div>
        <Typography.Title level={5}>{t('openApi.allowedCalls')}</Typography.Title>
        {data.apiCodes.length === 0 ? (
          <Typography.Text type="warning">{t('openApi.noCallsAllowed')}</Typography.Text>
        ) : (
          <Space size={[4, 4]} wrap data-testid="api-detail-calls">
            {orderedCalls(data.apiCodes).map((code) => (
              <Tag key={code}>{t(`openApi.call.${code}`)}</Tag>
            ))}
          </Space>
        )}
      </div>

      <div>
        <Typography.Title level={5}>
          {t('openApi.detail.usage', { days: API_USAGE_DAYS })}
          <Typography.Text
            type="secondary"
            style={{ fontSize: 13, fontWeight: 'normal', marginInlineStart: 8 }}
          >
            {t('openApi.detail.totals', { calls: data.calls30d, failures: data.failures30d })}
          </Typography.Text>
        </Typography.Title>
        <UsageBars detail={data} />
        <Table
          style={{ marginTop: 16 }}
          size="small"
          rowKey="callCode"
          pagination={false}
          dataSource={usageByCall(data.usage)}
          locale={{
            emptyText: (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('openApi.detail.noUsage')} />
            ),
          }}
          columns={[
            {
              title: t('openApi.detail.call'),
              dataIndex: 'callCode',
              render: (code: string) => t(`openApi.call.${code}`, { defaultValue: code }),
            },
            { title: t('openApi.detail.calls'), dataIndex: 'calls', align: 'right', width: 100 },
            {
              title: t('openApi.detail.failures'),
              dataIndex: 'failures',
              align: 'right',
              width: 100,
              render: (failures: number) =>
                failures > 0 ? <Typography.Text type="danger">{failures}</Typography.Text> : failures,
            },
          ]}
        />
      </div>
    </Space>
  );
}

/**
 * A record in full (getUserApiById): its key, the calls and rate its enterprise allows, when it
 * was last used and its calls per day and per call over the last 30 days; and, on a second tab,
 * its webhooks with their delivery logs.
 */
export function AccessDetailDrawer({ id, onClose }: { id: number | null; onClose: () => void }) {
  const { t } = useTranslation();
  const detail = useApiAccessDetail(id);
  const webhooks = useWebhooks(id);
  const data = detail.data;
  // The tab shown, of the record it was chosen for: another record opens on its overview.
  const [tab, setTab] = useState<{ id: number | null; key: DetailTab }>({ id: null, key: 'overview' });
  const activeTab = tab.id === id ? tab.key : 'overview';

  return (
    <Drawer
      open={id !== null}
      onClose={onClose}
      size={640}
      title={data ? data.name : t('openApi.detail.title')}
      destroyOnHidden
      data-testid="api-access-detail"
    >
      {detail.isError ? (
        <Alert type="error" showIcon title={t('openApi.loadFailed')} description={detail.error.message} />
      ) : !data ? (
        <Skeleton active paragraph={{ rows: 10 }} />
      ) : (
        <Tabs
          activeKey={activeTab}
          onChange={(key) => setTab({ id, key: key as DetailTab })}
          data-testid="api-detail-tabs"
          items={[
            { key: 'overview', label: t('openApi.detail.overview'), children: <Overview data={data} /> },
            {
              key: 'webhooks',
              label: t('openApi.webhooks.tab', { count: webhooks.data?.length ?? 0 }),
              children: (
                <Suspense fallback={<Skeleton active paragraph={{ rows: 4 }} />}>
                  <WebhooksPanel accessId={data.id} />
                </Suspense>
              ),
            },
          ]}
        />
      )}
    </Drawer>
  );
}
