import { Alert, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { ChangePasswordForm } from './ChangePasswordForm';

/**
 * SPEC §4: an expired password (or a first sign-in, `mustChangePassword`) forces the change before
 * anything else. Loaded when first needed (MainLayout), with the form it holds.
 */
export function ForcedPasswordChange({ open }: { open: boolean }) {
  const { t } = useTranslation();
  return (
    <Modal
      open={open}
      closable={false}
      mask={{ closable: false }}
      keyboard={false}
      footer={null}
      title={t('account.mustChangeTitle')}
    >
      <Alert type="info" showIcon title={t('account.mustChangeHint')} style={{ marginBottom: 16 }} />
      <ChangePasswordForm />
    </Modal>
  );
}
