import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { classifyIdentifier, PASSWORD_LIMITS } from '@dam/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Checkbox, Form, Input, Typography, theme } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { ApiError } from '../../api/client';
import { authApi } from '../../auth/api';
import { afterLoginTarget } from '../../auth/guard';
import { getToken, setToken } from '../../auth/token';
import { LanguageSwitch } from '../../layout/LanguageSwitch';
import styles from './LoginPage.module.css';

interface LoginForm {
  userName: string;
  password: string;
  remember: boolean;
}

export function LoginPage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  if (getToken()) return <Navigate to={afterLoginTarget(location.search)} replace />;

  const submit = async (values: LoginForm) => {
    setSubmitting(true);
    setError(null);
    try {
      const result = await authApi.login({
        userName: values.userName.trim(),
        password: values.password,
        remember: values.remember,
      });
      setToken(result.token, values.remember);
      queryClient.clear();
      void navigate(afterLoginTarget(location.search), { replace: true });
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.desc : t('errors.system'));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <div className={styles.page}>
      <section className={styles.brand}>
        <div className={styles.logo}>
          <img src="/favicon.svg" alt="" width={40} height={40} />
          <span>{t('app.title')}</span>
        </div>
        <Typography.Title level={2} className={styles.tagline}>
          {t('login.subtitle')}
        </Typography.Title>
      </section>
      <section className={styles.panel}>
        <div className={styles.languages}>
          <LanguageSwitch />
        </div>
        <div className={styles.card}>
          {/* antd gives titles a top margin meant for titles after text; this one opens the card. */}
          <Typography.Title level={3} style={{ marginTop: 0 }}>
            {t('login.heading')}
          </Typography.Title>
          {/* One tab, drawn as Ant Design draws it: its Tabs component would bring the code for
              overflowing tabs (menus, dropdowns) to this page (issue 10 item 7). */}
          <div
            role="tablist"
            className={styles.tabs}
            style={{ borderBottomColor: token.colorBorderSecondary }}
          >
            <div
              role="tab"
              aria-selected="true"
              tabIndex={0}
              className={styles.tab}
              style={{ color: token.colorPrimary, borderBottomColor: token.colorPrimary }}
            >
              {t('login.tabPassword')}
            </div>
          </div>
          {error && (
            <Alert type="error" showIcon title={error} className={styles.error} data-testid="login-error" />
          )}
          <Form<LoginForm>
            layout="vertical"
            size="large"
            initialValues={{ remember: false }}
            onFinish={submit}
            requiredMark={false}
          >
            <Form.Item
              name="userName"
              label={t('login.identifier')}
              rules={[
                { required: true, whitespace: true, message: t('login.identifierRequired') },
                {
                  validator: (_rule, value: string | undefined) =>
                    !value?.trim() || classifyIdentifier(value)
                      ? Promise.resolve()
                      : Promise.reject(new Error(t('login.identifierInvalid'))),
                },
              ]}
            >
              <Input
                prefix={<UserOutlined />}
                placeholder={t('login.identifierPlaceholder')}
                autoComplete="username"
                data-testid="login-identifier"
              />
            </Form.Item>
            <Form.Item
              name="password"
              label={t('login.password')}
              rules={[
                { required: true, message: t('login.passwordRequired') },
                { min: PASSWORD_LIMITS.min, max: PASSWORD_LIMITS.max, message: t('login.passwordLength') },
              ]}
            >
              <Input.Password
                prefix={<LockOutlined />}
                placeholder={t('login.passwordPlaceholder')}
                autoComplete="current-password"
                data-testid="login-password"
              />
            </Form.Item>
            <Form.Item name="remember" valuePropName="checked">
              <Checkbox>{t('login.remember')}</Checkbox>
            </Form.Item>
            <Button type="primary" htmlType="submit" block loading={submitting} data-testid="login-submit">
              {t('login.submit')}
            </Button>
          </Form>
        </div>
      </section>
    </div>
  );
}
