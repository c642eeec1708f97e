import {
  CloseCircleFilled,
  EyeInvisibleOutlined,
  EyeOutlined,
  LoadingOutlined,
  LockOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { classifyIdentifier, PASSWORD_LIMITS } from '@dam/contract';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { ApiError } from '../../api/client';
import { authApi } from '../../auth/api';
import { afterLoginTarget } from '../../auth/guard';
import { getToken, setToken } from '../../auth/token';
import { LanguageSwitch } from '../../layout/LanguageSwitch';
import styles from './LoginPage.module.css';

interface LoginFields {
  userName: string;
  password: string;
}
type FieldProblems = Partial<Record<keyof LoginFields, string>>;

/**
 * /login (SPEC §2, §3 Login). Drawn without Ant Design, in its look: the first page most people
 * open loads only React, the router, the strings and this (issue 10 item 7).
 */
export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const [fields, setFields] = useState<LoginFields>({ userName: '', password: '' });
  const [remember, setRemember] = useState(false);
  // Until the first try, fields are not judged while typed (as Ant Design's forms do).
  const [tried, setTried] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  if (getToken()) return <Navigate to={afterLoginTarget(location.search)} replace />;

  const problemsOf = (values: LoginFields): FieldProblems => {
    const found: FieldProblems = {};
    const identifier = values.userName.trim();
    if (!identifier) found.userName = t('login.identifierRequired');
    else if (!classifyIdentifier(identifier)) found.userName = t('login.identifierInvalid');
    if (!values.password) found.password = t('login.passwordRequired');
    else if (values.password.length < PASSWORD_LIMITS.min || values.password.length > PASSWORD_LIMITS.max)
      found.password = t('login.passwordLength');
    return found;
  };

  // Judged from the fields themselves once a try has been made.
  const problems = tried ? problemsOf(fields) : {};
  const change = (name: keyof LoginFields, value: string) => setFields({ ...fields, [name]: value });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (submitting) return;
    setTried(true);
    if (Object.keys(problemsOf(fields)).length > 0) return;
    setSubmitting(true);
    setError(null);
    try {
      const result = await authApi.login({
        userName: fields.userName.trim(),
        password: fields.password,
        remember,
      });
      setToken(result.token, remember);
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
        <h2 className={styles.tagline}>{t('login.subtitle')}</h2>
      </section>
      <section className={styles.panel}>
        <div className={styles.languages}>
          <LanguageSwitch />
        </div>
        <div className={styles.card}>
          <h3 className={styles.heading}>{t('login.heading')}</h3>
          <div role="tablist" className={styles.tabs}>
            <div role="tab" aria-selected="true" tabIndex={0} className={styles.tab}>
              {t('login.tabPassword')}
            </div>
          </div>
          {error && (
            <div role="alert" className={styles.error}>
              <CloseCircleFilled className={styles.errorIcon} />
              <span data-testid="login-error">{error}</span>
            </div>
          )}
          <form noValidate onSubmit={(event) => void submit(event)}>
            <Field label={t('login.identifier')} problem={problems.userName}>
              {(id, describedBy) => (
                <span className={styles.input} data-invalid={problems.userName ? '' : undefined}>
                  <UserOutlined className={styles.prefix} />
                  <input
                    id={id}
                    value={fields.userName}
                    onChange={(event) => change('userName', event.target.value)}
                    placeholder={t('login.identifierPlaceholder')}
                    autoComplete="username"
                    aria-invalid={problems.userName ? true : undefined}
                    aria-describedby={describedBy}
                    data-testid="login-identifier"
                  />
                </span>
              )}
            </Field>
            <Field label={t('login.password')} problem={problems.password}>
              {(id, describedBy) => (
                <PasswordInput
                  id={id}
                  value={fields.password}
                  onChange={(value) => change('password', value)}
                  placeholder={t('login.passwordPlaceholder')}
                  invalid={Boolean(problems.password)}
                  describedBy={describedBy}
                />
              )}
            </Field>
            <label className={styles.remember}>
              <input
                type="checkbox"
                checked={remember}
                onChange={(event) => setRemember(event.target.checked)}
              />
              <span>{t('login.remember')}</span>
            </label>
            <button type="submit" className={styles.submit} aria-busy={submitting} data-testid="login-submit">
              {submitting && <LoadingOutlined />}
              <span className={/^\p{Script=Han}{2}$/u.test(t('login.submit')) ? styles.spaced : undefined}>
                {t('login.submit')}
              </span>
            </button>
          </form>
        </div>
      </section>
    </div>
  );
}

/** A labelled field with its problem under it, tied to the input for screen readers. */
function Field({
  label,
  problem,
  children,
}: {
  label: string;
  problem: string | undefined;
  children: (id: string, describedBy: string | undefined) => ReactNode;
}) {
  const id = useId();
  const problemId = `${id}-problem`;
  return (
    <div className={styles.field}>
      <label htmlFor={id} className={styles.label}>
        {label}
      </label>
      {children(id, problem ? problemId : undefined)}
      <div id={problemId} className={styles.problem} aria-live="polite">
        {problem}
      </div>
    </div>
  );
}

function PasswordInput({
  id,
  value,
  onChange,
  placeholder,
  invalid,
  describedBy,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
  invalid: boolean;
  describedBy: string | undefined;
}) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);
  return (
    <span className={styles.input} data-invalid={invalid ? '' : undefined}>
      <LockOutlined className={styles.prefix} />
      <input
        id={id}
        type={shown ? 'text' : 'password'}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        placeholder={placeholder}
        autoComplete="current-password"
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        data-testid="login-password"
      />
      <button
        type="button"
        className={styles.reveal}
        onClick={() => setShown((visible) => !visible)}
        aria-label={shown ? t('login.hidePassword') : t('login.showPassword')}
        aria-pressed={shown}
      >
        {shown ? <EyeOutlined /> : <EyeInvisibleOutlined />}
      </button>
    </span>
  );
}
