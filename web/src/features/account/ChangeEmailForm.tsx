import { isMailAddress } from '@dam/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { authApi } from '../../auth/api';

/**
 * Change one's own e-mail address (My info): a link is mailed to the new address, and the address
 * changes when it is opened (/login/confirm-email).
 */
export function ChangeEmailForm({ current }: { current: string | null }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ email: string }>();
  const [saving, setSaving] = useState(false);
  const [sent, setSent] = useState<{ email: string; mailId: number } | null>(null);
  // The confirmation mail is sent by a job: followed until it went or failed for good.
  const { data: delivery } = useQuery({
    queryKey: ['mail-status', sent?.mailId],
    queryFn: () => authApi.mailStatus(sent?.mailId ?? 0),
    enabled: sent !== null,
    refetchInterval: (query) => (query.state.data?.state === 'queued' || !query.state.data ? 2000 : false),
  });

  const submit = async ({ email }: { email: string }) => {
    setSaving(true);
    try {
      const { mailId } = await authApi.changeOwnEmail({ email: email.trim() });
      setSent({ email: email.trim(), mailId });
    } catch (failure) {
      form.setFields([
        { name: 'email', errors: [failure instanceof ApiError ? failure.desc : t('errors.system')] },
      ]);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Form<{ email: string }>
      form={form}
      layout="vertical"
      onFinish={submit}
      requiredMark={false}
      data-testid="change-email-form"
    >
      <Typography.Paragraph type="secondary">
        {t('account.currentEmail', { email: current ?? '—' })}
      </Typography.Paragraph>
      {sent && (
        <Alert
          type={delivery?.state === 'sent' ? 'success' : delivery?.state === 'failed' ? 'error' : 'info'}
          showIcon
          style={{ marginBottom: 16 }}
          title={
            delivery?.state === 'sent'
              ? t('account.emailLinkSent', { email: sent.email, minutes: 30 })
              : delivery?.state === 'failed'
                ? t('account.emailLinkFailed', { email: sent.email, error: delivery.lastError ?? '' })
                : delivery?.lastError
                  ? t('account.emailLinkRetrying', { email: sent.email, error: delivery.lastError })
                  : t('account.emailLinkSending', { email: sent.email })
          }
          data-testid="email-link-sent"
          data-state={delivery?.state ?? 'queued'}
        />
      )}
      <Form.Item
        name="email"
        label={t('account.newEmail')}
        rules={[
          { required: true, message: t('reset.emailRequired') },
          {
            // The server's own check (zod's pattern), without zod in this chunk.
            validator: (_rule, value: string | undefined) =>
              !value || isMailAddress(value)
                ? Promise.resolve()
                : Promise.reject(new Error(t('reset.emailInvalid'))),
          },
          {
            validator: (_rule, value: string | undefined) =>
              value && current && value.trim().toLowerCase() === current.toLowerCase()
                ? Promise.reject(new Error(t('account.emailSame')))
                : Promise.resolve(),
          },
        ]}
      >
        <Input inputMode="email" autoComplete="email" data-testid="new-email" />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={saving} block data-testid="send-email-link">
        {t(sent ? 'reset.sendAgain' : 'account.sendEmailLink')}
      </Button>
    </Form>
  );
}
