import { WEBHOOK_EVENTS, WEBHOOK_URL_MAX_CHARS, type Webhook } from '@dam/contract';
import { Checkbox, Form, Input, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../ui/FormModal';
import { useSaveWebhook } from './openApiApi';
import {
  eventLabelKey,
  type WebhookForm,
  webhookEventsProblem,
  webhookFormOf,
  webhookRequest,
  webhookUrlProblem,
} from './webhooks';

/**
 * Registering (no `webhook`) or editing an access record's webhook: the URL the signed events go
 * to, which events, and whether it is on. The server refuses a URL it may not reach (SEOA_06, with
 * its reason) under the URL field. A new webhook's signing secret goes to `onCreated`, once.
 */
export function WebhookDialog({
  accessId,
  webhook,
  onClose,
  onCreated,
}: {
  accessId: number;
  webhook: Webhook | null;
  onClose: () => void;
  onCreated: (secret: string, url: string) => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<WebhookForm>();
  const save = useSaveWebhook();

  const submit = async (values: WebhookForm) => {
    const saved = await save.mutateAsync(webhookRequest(values, accessId, webhook?.id ?? null));
    if (!webhook && saved.secret) onCreated(saved.secret, values.url.trim());
  };

  return (
    <FormModal<WebhookForm>
      form={form}
      title={webhook ? t('openApi.webhooks.edit') : t('openApi.webhooks.add')}
      onSave={submit}
      onClose={onClose}
      successText={webhook ? undefined : null}
      saveTestId="webhook-save"
      width={560}
      fieldOfCode={{ SEOA_06: 'url' }}
      formProps={{ initialValues: webhookFormOf(webhook), requiredMark: true }}
    >
      <Form.Item
        name="url"
        label={t('openApi.webhooks.url')}
        required
        extra={t('openApi.webhooks.form.urlHint')}
        rules={[
          {
            validator: async (_rule, value: string | undefined) => {
              const problem = webhookUrlProblem(value);
              if (problem)
                throw new Error(t(`openApi.webhooks.form.${problem}`, { max: WEBHOOK_URL_MAX_CHARS }));
            },
          },
        ]}
      >
        <Input
          maxLength={WEBHOOK_URL_MAX_CHARS}
          placeholder="https://erp.example.com/dam/webhook"
          autoComplete="off"
          data-testid="webhook-url"
        />
      </Form.Item>
      <Form.Item
        name="events"
        label={t('openApi.webhooks.events')}
        required
        rules={[
          {
            validator: async (_rule, value: string[] | undefined) => {
              if (webhookEventsProblem(value)) throw new Error(t('openApi.webhooks.form.noEvents'));
            },
          },
        ]}
      >
        <Checkbox.Group
          style={{ display: 'flex', flexDirection: 'column', gap: 6 }}
          data-testid="webhook-events"
        >
          {WEBHOOK_EVENTS.map((event) => (
            <Checkbox key={event} value={event} data-event={event}>
              {t(eventLabelKey(event) ?? event)}{' '}
              <Typography.Text type="secondary" code style={{ fontSize: 12 }}>
                {event}
              </Typography.Text>
            </Checkbox>
          ))}
        </Checkbox.Group>
      </Form.Item>
      <Form.Item
        name="on"
        label={t('openApi.status')}
        valuePropName="checked"
        extra={webhook?.disabledReason ? t('openApi.webhooks.form.onAgainHint') : undefined}
      >
        <Switch
          checkedChildren={t('openApi.on')}
          unCheckedChildren={t('openApi.off')}
          data-testid="webhook-status"
        />
      </Form.Item>
    </FormModal>
  );
}
