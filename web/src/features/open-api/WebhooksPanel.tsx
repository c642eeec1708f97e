import { DeleteOutlined, EditOutlined, HistoryOutlined, PlusOutlined, SendOutlined } from '@ant-design/icons';
import { WEBHOOK_FAILURES_TO_DISABLE, WEBHOOKS_PER_ACCESS_MAX, type Webhook } from '@dam/contract';
import {
  Alert,
  App,
  Button,
  Empty,
  Popconfirm,
  Result,
  Skeleton,
  Space,
  Switch,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showApiError } from '../../api/showApiError';
import { formatDate } from '../../ui/format';
import { secretHintText } from './access';
import { EventName } from './EventName';
import styles from './OpenApi.module.css';
import { useDeleteWebhook, useSaveWebhook, useTestWebhook, useWebhooks } from './openApiApi';
import { WebhookDeliveries } from './WebhookDeliveries';
import { WebhookDialog } from './WebhookDialog';
import { type IssuedWebhookSecret, WebhookSecretDialog } from './WebhookSecretDialog';
import {
  canAddWebhook,
  deliveryStateColour,
  orderedEvents,
  webhookHealth,
  webhookToggleRequest,
} from './webhooks';

/** One webhook: its URL and events, whether it is on, how its last delivery went, and its actions. */
function WebhookCard({
  webhook,
  toggling,
  testing,
  onToggle,
  onTest,
  onDeliveries,
  onEdit,
  onDelete,
}: {
  webhook: Webhook;
  toggling: boolean;
  testing: boolean;
  onToggle: (on: boolean) => void;
  onTest: () => void;
  onDeliveries: () => void;
  onEdit: () => void;
  onDelete: () => Promise<void>;
}) {
  const { t } = useTranslation();
  const health = webhookHealth(webhook);
  return (
    <div className={styles.webhook} data-testid="webhook-card" data-webhook={webhook.id} data-health={health}>
      <div className={styles.webhookHead}>
        <Typography.Text
          code
          ellipsis={{ tooltip: webhook.url }}
          copyable={{ text: webhook.url, tooltips: [t('openApi.copy'), t('openApi.copied')] }}
          className={styles.webhookUrl}
          data-testid="webhook-card-url"
        >
          {webhook.url}
        </Typography.Text>
        <Switch
          size="small"
          checked={webhook.status === 1}
          loading={toggling}
          checkedChildren={t('openApi.on')}
          unCheckedChildren={t('openApi.off')}
          onChange={onToggle}
          aria-label={t('openApi.status')}
          data-testid="webhook-card-status"
        />
      </div>
      <Space size={[4, 4]} wrap data-testid="webhook-card-events">
        {orderedEvents(webhook.events).map((event) => (
          <Tag key={event}>
            <EventName eventType={event} />
          </Tag>
        ))}
      </Space>
      <div className={styles.webhookMeta} data-testid="webhook-card-last">
        <span>
          {t('openApi.webhooks.lastDelivery')}
          {webhook.lastDeliveryState ? (
            <>
              <Tag
                color={deliveryStateColour(webhook.lastDeliveryState)}
                style={{ marginInline: 6 }}
                data-testid="webhook-card-last-state"
              >
                {t(`openApi.webhooks.deliveryState.${webhook.lastDeliveryState}`)}
              </Tag>
              <span className={styles.number}>{formatDate(webhook.lastDeliveryAt)}</span>
            </>
          ) : (
            <Typography.Text type="secondary" style={{ marginInlineStart: 6 }}>
              {t('openApi.webhooks.noDeliveryYet')}
            </Typography.Text>
          )}
        </span>
        {webhook.consecutiveFailures > 0 && (
          <Tooltip title={t('openApi.webhooks.failuresHint', { max: WEBHOOK_FAILURES_TO_DISABLE })}>
            <Typography.Text type="danger" data-testid="webhook-card-failures">
              {t('openApi.webhooks.failures', { count: webhook.consecutiveFailures })}
            </Typography.Text>
          </Tooltip>
        )}
        <Tooltip title={t('openApi.webhooks.secretHintTip')}>
          <Typography.Text type="secondary" code style={{ fontSize: 12 }}>
            {secretHintText(webhook.secretHint)}
          </Typography.Text>
        </Tooltip>
      </div>
      {health === 'disabled' && (
        <Alert
          type="error"
          showIcon
          title={t('openApi.webhooks.disabledByServer')}
          description={webhook.disabledReason}
          data-testid="webhook-card-disabled"
        />
      )}
      <Space size={4} wrap>
        <Button
          size="small"
          icon={<SendOutlined />}
          loading={testing}
          onClick={onTest}
          data-testid="webhook-test"
        >
          {t('openApi.webhooks.test')}
        </Button>
        <Button
          size="small"
          icon={<HistoryOutlined />}
          onClick={onDeliveries}
          data-testid="webhook-open-deliveries"
        >
          {t('openApi.webhooks.deliveries')}
        </Button>
        <Button size="small" icon={<EditOutlined />} onClick={onEdit} data-testid="webhook-edit">
          {t('openApi.edit')}
        </Button>
        <Popconfirm
          title={t('openApi.webhooks.deleteConfirm')}
          description={t('openApi.webhooks.deleteHint')}
          okText={t('common.delete')}
          cancelText={t('common.cancel')}
          okButtonProps={{ danger: true }}
          onConfirm={onDelete}
        >
          <Button size="small" danger icon={<DeleteOutlined />} data-testid="webhook-delete">
            {t('openApi.delete')}
          </Button>
        </Popconfirm>
      </Space>
    </div>
  );
}

/**
 * An access record's webhooks (issue 15): URLs that receive the signed events of the assets the
 * record may see (created, a new format, metadata or tags changed, deleted), sent from the job
 * queue with retries; each with its delivery log, a test and its signing secret shown once.
 */
export function WebhooksPanel({ accessId }: { accessId: number }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const webhooks = useWebhooks(accessId);
  const save = useSaveWebhook();
  const remove = useDeleteWebhook();
  const test = useTestWebhook();
  const [editing, setEditing] = useState<Webhook | 'new' | null>(null);
  const [deliveriesOf, setDeliveriesOf] = useState<number | null>(null);
  const [toggling, setToggling] = useState<number | null>(null);
  const [testing, setTesting] = useState<number | null>(null);
  // The secret just issued: held here only until its dialog is closed.
  const [issued, setIssued] = useState<IssuedWebhookSecret | null>(null);

  const list = webhooks.data ?? [];
  const addable = canAddWebhook(list.length);

  const toggle = async (webhook: Webhook, on: boolean) => {
    setToggling(webhook.id);
    try {
      await save.mutateAsync(webhookToggleRequest(webhook, on));
      void message.success(on ? t('openApi.webhooks.enabledOk') : t('openApi.webhooks.disabledOk'));
    } catch (error) {
      showApiError(error);
    } finally {
      setToggling(null);
    }
  };

  const sendTest = async (webhook: Webhook) => {
    setTesting(webhook.id);
    try {
      await test.mutateAsync(webhook.id);
      void message.success(t('openApi.webhooks.testQueued'));
      setDeliveriesOf(webhook.id);
    } catch (error) {
      showApiError(error);
    } finally {
      setTesting(null);
    }
  };

  const deleteWebhook = async (webhook: Webhook) => {
    try {
      await remove.mutateAsync(webhook.id);
      void message.success(t('common.deleteOk'));
    } catch (error) {
      showApiError(error);
    }
  };

  const addButton = (
    <Tooltip title={addable ? undefined : t('openApi.webhooks.max', { max: WEBHOOKS_PER_ACCESS_MAX })}>
      <Button
        type="primary"
        icon={<PlusOutlined />}
        disabled={!addable}
        onClick={() => setEditing('new')}
        data-testid="webhook-new"
      >
        {t('openApi.webhooks.add')}
      </Button>
    </Tooltip>
  );

  return (
    <div data-testid="webhooks-panel">
      <div className={styles.toolbar}>
        <Typography.Paragraph type="secondary" style={{ flex: 1, marginBottom: 0, minWidth: 260 }}>
          {t('openApi.webhooks.intro', { max: WEBHOOK_FAILURES_TO_DISABLE })}
        </Typography.Paragraph>
        {list.length > 0 && addButton}
      </div>
      {webhooks.isError && !webhooks.data ? (
        <Result
          status="warning"
          title={t('openApi.webhooks.loadFailed')}
          subTitle={webhooks.error.message}
          extra={<Button onClick={() => void webhooks.refetch()}>{t('common.retry')}</Button>}
        />
      ) : !webhooks.data ? (
        <Skeleton active paragraph={{ rows: 4 }} />
      ) : list.length === 0 ? (
        <Empty description={t('openApi.webhooks.none')} data-testid="webhooks-empty">
          {addButton}
        </Empty>
      ) : (
        <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
          {list.map((webhook) => (
            <WebhookCard
              key={webhook.id}
              webhook={webhook}
              toggling={toggling === webhook.id}
              testing={testing === webhook.id}
              onToggle={(on) => void toggle(webhook, on)}
              onTest={() => void sendTest(webhook)}
              onDeliveries={() => setDeliveriesOf(webhook.id)}
              onEdit={() => setEditing(webhook)}
              onDelete={() => deleteWebhook(webhook)}
            />
          ))}
        </Space>
      )}
      {editing !== null && (
        <WebhookDialog
          accessId={accessId}
          webhook={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onCreated={(secret, url) => setIssued({ secret, url })}
        />
      )}
      <WebhookDeliveries
        webhook={list.find((webhook) => webhook.id === deliveriesOf) ?? null}
        onClose={() => setDeliveriesOf(null)}
      />
      <WebhookSecretDialog issued={issued} onClose={() => setIssued(null)} />
    </div>
  );
}
