import { isStrongPassword, LIMITS } from '@dam/contract';
import { Button, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { notifySuccess } from '../../api/notify';
import { authApi } from '../../auth/api';
import { clearToken } from '../../auth/token';

interface PasswordForm {
  password: string;
  newPassword: string;
  reEnterPassword: string;
}

/**
 * Change one's own password (SPEC §7 self-reset-pwd). On success the server ends every session;
 * the user is told to sign in again and signed out after 1.5 s (SPEC §4).
 */
export function ChangePasswordForm({ onDone }: { onDone?: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [form] = Form.useForm<PasswordForm>();
  const [saving, setSaving] = useState(false);
  // The rule under the new password gives way to the field's error, which says it again (issue 39 item 13).
  const [newPasswordFailed, setNewPasswordFailed] = useState(false);

  const submit = async (values: PasswordForm) => {
    setSaving(true);
    try {
      await authApi.changeOwnPassword(values);
      notifySuccess(t('account.passwordChanged'));
      onDone?.();
      window.setTimeout(() => {
        clearToken();
        void navigate('/login', { replace: true });
      }, LIMITS.logoutAfterPasswordChangeMs);
    } catch {
      // The client already showed the server's message; a failed change is only logged (SPEC §7).
    } finally {
      setSaving(false);
    }
  };

  return (
    <Form<PasswordForm>
      form={form}
      layout="vertical"
      onFinish={submit}
      requiredMark={false}
      data-testid="change-password-form"
      onFieldsChange={() => setNewPasswordFailed(form.getFieldError('newPassword').length > 0)}
    >
      <Form.Item
        name="password"
        label={t('account.oldPassword')}
        rules={[{ required: true, message: t('account.passwordRequired') }]}
      >
        <Input.Password autoComplete="current-password" />
      </Form.Item>
      <Form.Item
        name="newPassword"
        label={t('account.newPassword')}
        extra={
          newPasswordFailed ? undefined : (
            <Typography.Text type="secondary">{t('account.passwordRule')}</Typography.Text>
          )
        }
        dependencies={['password']}
        rules={[
          { required: true, message: t('account.passwordRequired') },
          ({ getFieldValue }) => ({
            validator: (_rule, value: string | undefined) => {
              if (!value) return Promise.resolve();
              if (!isStrongPassword(value)) return Promise.reject(new Error(t('account.passwordWeak')));
              if (value === getFieldValue('password'))
                return Promise.reject(new Error(t('account.passwordSame')));
              return Promise.resolve();
            },
          }),
        ]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        name="reEnterPassword"
        label={t('account.reEnterPassword')}
        dependencies={['newPassword']}
        rules={[
          { required: true, message: t('account.passwordRequired') },
          ({ getFieldValue }) => ({
            validator: (_rule, value: string | undefined) =>
              !value || value === getFieldValue('newPassword')
                ? Promise.resolve()
                : Promise.reject(new Error(t('account.passwordMismatch'))),
          }),
        ]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={saving} block>
        {t('common.save')}
      </Button>
    </Form>
  );
}
