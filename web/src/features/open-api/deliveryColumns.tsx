import { RedoOutlined } from '@ant-design/icons';
import type { WebhookDelivery } from '@dam/contract';
import { Button, type TableColumnsType, Tag, Tooltip, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { formatDate } from '../../ui/format';
import { EventName } from './EventName';
import styles from './OpenApi.module.css';
import { canRedeliver, deliveryStateColour } from './webhooks';

interface DeliveryColumnsOptions {
  t: TFunction;
  /** The delivery being sent again, if any: its button spins. */
  redelivering: number | null;
  onRedeliver: (delivery: WebhookDelivery) => void;
}

/** The columns of a webhook's delivery log: when, what, its state, attempts and the receiver's answer. */
export function deliveryColumns({
  t,
  redelivering,
  onRedeliver,
}: DeliveryColumnsOptions): TableColumnsType<WebhookDelivery> {
  return [
    {
      title: t('openApi.webhooks.createdAt'),
      dataIndex: 'createdAt',
      width: 140,
      render: (time: string) => <span className={styles.number}>{formatDate(time)}</span>,
    },
    {
      title: t('openApi.webhooks.event'),
      dataIndex: 'eventType',
      width: 130,
      render: (eventType: string) => <EventName eventType={eventType} />,
    },
    {
      title: t('openApi.webhooks.assetId'),
      dataIndex: 'assetId',
      width: 80,
      render: (assetId: number | null) => assetId ?? <Typography.Text type="secondary">—</Typography.Text>,
    },
    {
      title: t('openApi.webhooks.state'),
      dataIndex: 'state',
      width: 90,
      render: (state: WebhookDelivery['state']) => (
        <Tag color={deliveryStateColour(state)} data-testid="webhook-delivery-state">
          {t(`openApi.webhooks.deliveryState.${state}`)}
        </Tag>
      ),
    },
    {
      title: t('openApi.webhooks.attempts'),
      dataIndex: 'attempts',
      width: 96,
      align: 'right',
    },
    {
      title: t('openApi.webhooks.lastStatus'),
      dataIndex: 'lastStatus',
      width: 104,
      align: 'right',
      render: (status: number | null) =>
        status === null ? (
          <Typography.Text type="secondary">—</Typography.Text>
        ) : (
          <Typography.Text type={status >= 200 && status < 300 ? undefined : 'danger'}>
            {status}
          </Typography.Text>
        ),
    },
    {
      title: t('openApi.webhooks.lastError'),
      dataIndex: 'lastError',
      render: (error: string | null) =>
        error ? (
          <Typography.Text
            type="danger"
            ellipsis={{ tooltip: error }}
            style={{ maxWidth: 220, fontSize: 12 }}
          >
            {error}
          </Typography.Text>
        ) : (
          <Typography.Text type="secondary">—</Typography.Text>
        ),
    },
    {
      title: t('openApi.webhooks.times'),
      key: 'times',
      width: 210,
      render: (_value, delivery) => (
        <div style={{ fontSize: 12, whiteSpace: 'nowrap' }}>
          <div className={styles.number}>
            {t('openApi.webhooks.lastAttemptAt')} {formatDate(delivery.lastAttemptAt)}
          </div>
          <div className={styles.number}>
            {t('openApi.webhooks.deliveredAt')} {formatDate(delivery.deliveredAt)}
          </div>
        </div>
      ),
    },
    {
      title: t('openApi.actions'),
      key: 'actions',
      width: 80,
      fixed: 'right',
      render: (_value, delivery) =>
        canRedeliver(delivery) ? (
          <Tooltip title={t('openApi.webhooks.redeliver')}>
            <Button
              type="text"
              icon={<RedoOutlined />}
              loading={redelivering === delivery.id}
              onClick={() => onRedeliver(delivery)}
              aria-label={t('openApi.webhooks.redeliver')}
              data-testid="webhook-redeliver"
            />
          </Tooltip>
        ) : null,
    },
  ];
}
