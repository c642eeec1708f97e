import { CopyOutlined } from '@ant-design/icons';
import { Alert, App, Button, Modal, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * Shows a password the server made (new account, reset) once, with a copy button: it is stored
 * only as a hash, so this is the one chance to pass it on. The person must change it at sign-in.
 */
export function IssuedPasswordDialog({
  issued,
  onClose,
}: {
  issued: { who: string; password: string; kind: 'created' | 'reset' } | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const copy = async () => {
    if (!issued) return;
    try {
      await navigator.clipboard.writeText(issued.password);
      void message.success(t('accounts.copyOk'));
    } catch {
      void message.error(t('accounts.copyFailed'));
    }
  };
  return (
    <Modal
      open={issued !== null}
      title={issued?.kind === 'reset' ? t('accounts.passwordReset') : t('accounts.userCreated')}
      onCancel={onClose}
      footer={
        <Button type="primary" onClick={onClose} data-testid="issued-password-close">
          {t('common.close')}
        </Button>
      }
      destroyOnHidden
    >
      {issued && (
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Typography.Text>{t('accounts.issuedFor', { name: issued.who })}</Typography.Text>
          <Space.Compact style={{ width: '100%' }}>
            <Typography.Text
              code
              copyable={false}
              style={{ fontSize: 18, flex: 1, padding: '4px 8px' }}
              data-testid="issued-password"
            >
              {issued.password}
            </Typography.Text>
            <Button icon={<CopyOutlined />} onClick={() => void copy()}>
              {t('accounts.copy')}
            </Button>
          </Space.Compact>
          <Alert type="warning" showIcon title={t('accounts.issuedHint')} />
        </Space>
      )}
    </Modal>
  );
}
