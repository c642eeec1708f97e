import { Alert, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../auth/useCurrentUser';
import { ChangePasswordForm } from './ChangePasswordForm';

/** Whether the signed-in user must choose a new password before anything else (SPEC §4). */
export function mustChangePassword(user: { passwordExpireFlag: boolean; loginNum: number } | undefined) {
  return Boolean(user && (user.passwordExpireFlag || user.loginNum === 0));
}

/** SPEC §4: an expired password (or a first sign-in) forces the change before anything else. */
export function ForcedPasswordChange() {
  const { t } = useTranslation();
  const { data: user } = useCurrentUser();
  const required = mustChangePassword(user);
  return (
    <Modal
      open={required}
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
