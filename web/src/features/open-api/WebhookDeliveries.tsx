import { ReloadOutlined, SendOutlined } from '@ant-design/icons';
import type { Webhook, WebhookDelivery } from '@dam/contract';
import { App, Button, Drawer, Empty, Result, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showApiError } from '../../api/showApiError';
import { deliveryColumns } from './deliveryColumns';
import { useRedeliverWebhook, useTestWebhook, useWebhookDeliveries } from './openApiApi';

const PAGE_SIZE = 20;

/**
 * A webhook's delivery log (newest first), over the record's drawer: each event sent, its state,
 * attempts, the receiver's last HTTP status and error, and when; read again every few seconds while
 * a delivery is pending. "Send test" queues a `ping`; a delivery that ended may be sent again.
 */
export function WebhookDeliveries({ webhook, onClose }: { webhook: Webhook | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  // The page shown, of the webhook it was chosen for: another webhook's log starts at page 1.
  const [page, setPage] = useState<{ webhookId: number | null; pageNo: number }>({
    webhookId: null,
    pageNo: 1,
  });
  const pageNo = page.webhookId === webhook?.id ? page.pageNo : 1;
  const setPageNo = (no: number) => setPage({ webhookId: webhook?.id ?? null, pageNo: no });
  const deliveries = useWebhookDeliveries(webhook?.id ?? null, pageNo, PAGE_SIZE);
  const test = useTestWebhook();
  const redeliver = useRedeliverWebhook();
  const [redelivering, setRedelivering] = useState<number | null>(null);

  const sendTest = async () => {
    if (!webhook) return;
    try {
      await test.mutateAsync(webhook.id);
      setPageNo(1);
      void message.success(t('openApi.webhooks.testQueued'));
    } catch (error) {
      showApiError(error);
    }
  };

  const sendAgain = async (delivery: WebhookDelivery) => {
    setRedelivering(delivery.id);
    try {
      await redeliver.mutateAsync(delivery.id);
      setPageNo(1);
      void message.success(t('openApi.webhooks.redeliverQueued'));
    } catch (error) {
      showApiError(error);
    } finally {
      setRedelivering(null);
    }
  };

  return (
    <Drawer
      open={webhook !== null}
      onClose={onClose}
      size={1100}
      title={
        webhook ? (
          <span>
            {t('openApi.webhooks.deliveries')}
            <Typography.Text
              type="secondary"
              style={{ fontWeight: 'normal', marginInlineStart: 8, fontSize: 13 }}
            >
              {webhook.url}
            </Typography.Text>
          </span>
        ) : (
          t('openApi.webhooks.deliveries')
        )
      }
      extra={
        <Space>
          <Button
            icon={<ReloadOutlined />}
            onClick={() => void deliveries.refetch()}
            loading={deliveries.isFetching}
            aria-label={t('openApi.webhooks.refresh')}
          />
          <Button
            type="primary"
            icon={<SendOutlined />}
            onClick={() => void sendTest()}
            loading={test.isPending}
            data-testid="webhook-deliveries-test"
          >
            {t('openApi.webhooks.test')}
          </Button>
        </Space>
      }
      destroyOnHidden
      data-testid="webhook-deliveries"
    >
      {deliveries.isError && !deliveries.data ? (
        <Result
          status="warning"
          title={t('openApi.webhooks.deliveriesLoadFailed')}
          subTitle={deliveries.error.message}
          extra={<Button onClick={() => void deliveries.refetch()}>{t('common.retry')}</Button>}
        />
      ) : (
        <Table<WebhookDelivery>
          rowKey="id"
          size="small"
          loading={deliveries.isPending}
          dataSource={deliveries.data?.list ?? []}
          scroll={{ x: 1040 }}
          onRow={(delivery) => ({ 'data-delivery': delivery.id, 'data-state': delivery.state }) as object}
          locale={{
            emptyText: (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('openApi.webhooks.noDeliveries')} />
            ),
          }}
          pagination={{
            current: pageNo,
            pageSize: PAGE_SIZE,
            total: deliveries.data?.total ?? 0,
            showSizeChanger: false,
            hideOnSinglePage: true,
            showTotal: (total) => t('openApi.total', { count: total }),
            onChange: setPageNo,
          }}
          columns={deliveryColumns({ t, redelivering, onRedeliver: (delivery) => void sendAgain(delivery) })}
        />
      )}
    </Drawer>
  );
}
