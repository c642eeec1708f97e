import { Alert, Button, Modal, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { SecretValue } from './SecretOnceDialog';

/** A new webhook's signing secret as the dialog shows it, with the URL it signs for. */
export interface IssuedWebhookSecret {
  url: string;
  secret: string;
}

/**
 * A new webhook's signing secret (`whsec_…`), right after it is registered: the server keeps it
 * encrypted and never answers it again, so this is the one chance to copy it (SecretOnceDialog's
 * pattern: closed only through its button, taken out at once, the holder forgets the secret).
 */
export function WebhookSecretDialog({
  issued,
  onClose,
}: {
  issued: IssuedWebhookSecret | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  if (!issued) return null;
  return (
    <Modal
      open
      title={t('openApi.webhooks.secretTitle')}
      onCancel={onClose}
      closable={false}
      maskClosable={false}
      keyboard={false}
      width={640}
      footer={
        <Button type="primary" onClick={onClose} data-testid="webhook-secret-close">
          {t('openApi.secret.done')}
        </Button>
      }
      destroyOnHidden
    >
      <Space
        orientation="vertical"
        size="middle"
        style={{ width: '100%' }}
        data-testid="webhook-secret-dialog"
      >
        <Typography.Text>
          {t('openApi.webhooks.secretFor')}{' '}
          <Typography.Text code style={{ wordBreak: 'break-all' }}>
            {issued.url}
          </Typography.Text>
        </Typography.Text>
        <SecretValue label={t('openApi.webhooks.secret')} value={issued.secret} testId="webhook-secret" />
        <Alert
          type="warning"
          showIcon
          title={t('openApi.secret.warning')}
          description={t('openApi.webhooks.secretHint')}
        />
      </Space>
    </Modal>
  );
}
