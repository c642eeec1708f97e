import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { SecretValue, ShownOnceModal } from './SecretOnceDialog';

/** A new webhook's signing secret as the dialog shows it, with the URL it signs for. */
export interface IssuedWebhookSecret {
  url: string;
  secret: string;
}

/**
 * A new webhook's signing secret (`whsec_…`), right after it is registered: the server keeps it
 * encrypted and never answers it again, so this is the one chance to copy it (ShownOnceModal).
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
    <ShownOnceModal
      title={t('openApi.webhooks.secretTitle')}
      testId="webhook-secret-dialog"
      closeTestId="webhook-secret-close"
      hint={t('openApi.webhooks.secretHint')}
      onClose={onClose}
    >
      <Typography.Text>
        {t('openApi.webhooks.secretFor')}{' '}
        <Typography.Text code style={{ wordBreak: 'break-all' }}>
          {issued.url}
        </Typography.Text>
      </Typography.Text>
      <SecretValue label={t('openApi.webhooks.secret')} value={issued.secret} testId="webhook-secret" />
    </ShownOnceModal>
  );
}
