import { UserOutlined } from '@ant-design/icons';
import { classifyIdentifier, type LoginResult, PASSWORD_LIMITS } from '@dam/contract';
import { type FormEvent, lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { afterLoginTarget, isServerPage } from '../../auth/guard';
import { getToken, setToken } from '../../auth/token';
import { Field, FormError, PasswordInput, RememberMe, SubmitButton, TextInput, WayTabs } from './fields';
import { LoginFrame } from './LoginFrame';
import styles from './LoginPage.module.css';
import { useSsoStatus } from './ssoApi';
import { useSignInAttempt } from './useSignInAttempt';

// The other ways in load when their tab is chosen: the password form is all most people need.
const SmsSignIn = lazy(() => import('./SmsSignIn').then((m) => ({ default: m.SmsSignIn })));
const SsoSignIn = lazy(() => import('./SsoSignIn').then((m) => ({ default: m.SsoSignIn })));

type Way = 'password' | 'sms' | 'sso';
const TAB_LABELS: Record<Way, string> = {
  password: 'login.tabPassword',
  sms: 'login.tabSms',
  sso: 'sso.tab',
};

interface LoginFields {
  userName: string;
  password: string;
}
type FieldProblems = Partial<Record<keyof LoginFields, string>>;

/**
 * /login (SPEC §2, §3 Login): a tab per way in — password, SMS code, and the company account when
 * single sign-on is on (iam-on-off). Drawn without Ant Design, in
 * its look: the first page most people open loads only React, the router, the strings and this
 * (issue 10 item 7).
 */
export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const [way, setWay] = useState<Way>('password');
  const ssoEnabled = useSsoStatus();
  const ways: Way[] = ssoEnabled ? ['password', 'sms', 'sso'] : ['password', 'sms'];

  const target = afterLoginTarget(location.search);
  // A server page sent here holds a token it did not accept: sign in again rather than loop back.
  if (getToken() && !isServerPage(target)) return <Navigate to={target} replace />;

  const signedIn = (result: LoginResult, remember: boolean) => {
    setToken(result.token, remember);
    if (isServerPage(target)) window.location.assign(target);
    else void navigate(target, { replace: true });
  };

  return (
    <LoginFrame heading={t('login.heading')}>
      <WayTabs
        ways={ways}
        current={way}
        onChange={setWay}
        labelOf={(each) => t(TAB_LABELS[each])}
        idPrefix="login"
      />
      <div role="tabpanel" id={`login-panel-${way}`} aria-labelledby={`login-tab-${way}`}>
        {way === 'password' ? (
          <PasswordSignIn onSignedIn={signedIn} />
        ) : (
          <Suspense fallback={null}>
            {way === 'sms' ? <SmsSignIn onSignedIn={signedIn} /> : <SsoSignIn />}
          </Suspense>
        )}
      </div>
    </LoginFrame>
  );
}

/** The password tab: a phone number or an e-mail address, and the password. */
function PasswordSignIn({ onSignedIn }: { onSignedIn: (result: LoginResult, remember: boolean) => void }) {
  const { t } = useTranslation();
  const [fields, setFields] = useState<LoginFields>({ userName: '', password: '' });
  const [remember, setRemember] = useState(false);
  // Until the first try, fields are not judged while typed (as Ant Design's forms do).
  const [tried, setTried] = useState(false);
  const { error, submitting, attempt } = useSignInAttempt(onSignedIn);

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
    await attempt({ userName: fields.userName.trim(), password: fields.password, remember }, remember);
  };

  return (
    <>
      <FormError message={error} />
      <form noValidate onSubmit={(event) => void submit(event)}>
        <Field label={t('login.identifier')} problem={problems.userName}>
          {(id, describedBy) => (
            <TextInput
              id={id}
              icon={<UserOutlined />}
              value={fields.userName}
              onChange={(value) => change('userName', value)}
              placeholder={t('login.identifierPlaceholder')}
              autoComplete="username"
              invalid={Boolean(problems.userName)}
              describedBy={describedBy}
              testId="login-identifier"
            />
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
        <div className={styles.options}>
          <RememberMe checked={remember} onChange={setRemember} />
          <Link to="/login/reset-password" className={styles.link} data-testid="login-forgot">
            {t('login.forgot')}
          </Link>
        </div>
        <SubmitButton label={t('login.submit')} busy={submitting} testId="login-submit" />
      </form>
    </>
  );
}
