import { CheckCircleFilled, MailOutlined } from '@ant-design/icons';
import { isMailAddress, isStrongPassword, SmsPurpose } from '@dam/contract';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { ApiError } from '../../api/client';
import { authApi } from '../../auth/api';
import { Field, FormError, PasswordInput, SubmitButton, TextInput, WayTabs } from './fields';
import { LoginFrame } from './LoginFrame';
import styles from './LoginPage.module.css';
import { MobileCodeFields, useMobileCode } from './MobileCodeFields';

type Way = 'email' | 'mobile';
const WAYS: readonly Way[] = ['email', 'mobile'];

/**
 * /login/reset-password (SPEC §1 find/reset password): without a token, ask for a link by e-mail
 * or reset with an SMS code; with the token of a mailed link, choose the new password. Every
 * session of the account ends once it is reset.
 */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const token = search.get('token');
  const [way, setWay] = useState<Way>('email');
  const [done, setDone] = useState(false);

  if (done) {
    return (
      <LoginFrame heading={t('reset.heading')}>
        <div className={styles.success} role="status" data-testid="reset-done">
          <CheckCircleFilled className={styles.successIcon} />
          <span>{t('reset.done')}</span>
        </div>
        <Link to="/login" className={styles.submit} data-testid="reset-to-login">
          {t('reset.toLogin')}
        </Link>
      </LoginFrame>
    );
  }

  if (token) {
    return (
      <LoginFrame heading={t('reset.chooseHeading')}>
        <NewPasswordForm
          submitLabel={t('reset.submit')}
          reset={(password) => authApi.loginResetPassword({ token, password, reEnterPassword: password })}
          onDone={() => setDone(true)}
        />
        <BackToLogin />
      </LoginFrame>
    );
  }

  return (
    <LoginFrame heading={t('reset.heading')}>
      <WayTabs
        ways={WAYS}
        current={way}
        onChange={setWay}
        labelOf={(each) => t(each === 'email' ? 'reset.byEmail' : 'reset.byMobile')}
        idPrefix="reset"
      />
      <div role="tabpanel" id={`reset-panel-${way}`} aria-labelledby={`reset-tab-${way}`}>
        {way === 'email' ? <EmailReset /> : <MobileReset onDone={() => setDone(true)} />}
      </div>
      <BackToLogin />
    </LoginFrame>
  );
}

function BackToLogin() {
  const { t } = useTranslation();
  return (
    <div className={styles.footer}>
      <Link to="/login" className={styles.link}>
        {t('reset.backToLogin')}
      </Link>
    </div>
  );
}

/** Asks for a link by e-mail; the answer is the same whether or not the address has an account. */
function EmailReset() {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [tried, setTried] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const problem = !tried
    ? undefined
    : !email.trim()
      ? t('reset.emailRequired')
      : isMailAddress(email)
        ? undefined
        : t('reset.emailInvalid');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (busy || !isMailAddress(email)) return;
    setBusy(true);
    setError(null);
    try {
      await authApi.emailResetPassword({ email: email.trim() });
      setSent(email.trim());
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.desc : t('errors.system'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <FormError message={error} />
      {sent ? (
        <div className={styles.success} role="status" data-testid="reset-mail-sent">
          <CheckCircleFilled className={styles.successIcon} />
          <span>{t('reset.mailSent', { email: sent, minutes: 30 })}</span>
        </div>
      ) : (
        <p className={styles.hint}>{t('reset.emailHint')}</p>
      )}
      <form noValidate onSubmit={(event) => void submit(event)}>
        <Field label={t('reset.email')} problem={problem}>
          {(id, describedBy) => (
            <TextInput
              id={id}
              icon={<MailOutlined />}
              value={email}
              onChange={setEmail}
              placeholder={t('reset.emailPlaceholder')}
              autoComplete="email"
              inputMode="email"
              invalid={Boolean(problem)}
              describedBy={describedBy}
              testId="reset-email"
            />
          )}
        </Field>
        <SubmitButton
          label={t(sent ? 'reset.sendAgain' : 'reset.sendLink')}
          busy={busy}
          testId="reset-send-link"
        />
      </form>
    </>
  );
}

/** Resets with a code sent to the account's mobile number. */
function MobileReset({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const [error, setError] = useState<string | null>(null);
  const sms = useMobileCode(SmsPurpose.resetPassword, setError);
  return (
    <>
      <FormError message={error} />
      <MobileCodeFields state={sms} hideNotice={Boolean(error)} testIdPrefix="reset" />
      <NewPasswordForm
        submitLabel={t('reset.submit')}
        ready={sms.trySubmit}
        reset={(password) =>
          authApi.loginResetPassword({
            mobile: sms.values.mobile,
            messageCode: sms.values.code,
            password,
            reEnterPassword: password,
          })
        }
        onDone={onDone}
        onError={setError}
      />
    </>
  );
}

/** The new password twice, checked as the server checks it, then `reset`. */
function NewPasswordForm({
  submitLabel,
  reset,
  onDone,
  ready = () => true,
  onError,
}: {
  submitLabel: string;
  reset: (password: string) => Promise<unknown>;
  onDone: () => void;
  /** Judges the fields outside this form when a try is made; answers whether they are right. */
  ready?: () => boolean;
  /** Where the server's refusal is shown; this form's own alert when absent. */
  onError?: (message: string | null) => void;
}) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const [tried, setTried] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const showError = onError ?? setError;

  const problems = {
    password: !tried
      ? undefined
      : !password
        ? t('account.passwordRequired')
        : isStrongPassword(password)
          ? undefined
          : t('account.passwordWeak'),
    again: !tried
      ? undefined
      : !again
        ? t('account.passwordRequired')
        : again === password
          ? undefined
          : t('account.passwordMismatch'),
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    const othersReady = ready();
    if (busy || !othersReady || !isStrongPassword(password) || again !== password) return;
    setBusy(true);
    showError(null);
    try {
      await reset(password);
      onDone();
    } catch (failure) {
      showError(failure instanceof ApiError ? failure.desc : t('errors.system'));
      setBusy(false);
    }
  };

  return (
    <>
      {!onError && <FormError message={error} />}
      <form noValidate onSubmit={(event) => void submit(event)}>
        <Field label={t('account.newPassword')} problem={problems.password}>
          {(id, describedBy) => (
            <PasswordInput
              id={id}
              value={password}
              onChange={setPassword}
              placeholder={t('account.passwordRule')}
              invalid={Boolean(problems.password)}
              describedBy={describedBy}
              autoComplete="new-password"
              testId="reset-password"
            />
          )}
        </Field>
        <Field label={t('account.reEnterPassword')} problem={problems.again}>
          {(id, describedBy) => (
            <PasswordInput
              id={id}
              value={again}
              onChange={setAgain}
              placeholder={t('account.reEnterPassword')}
              invalid={Boolean(problems.again)}
              describedBy={describedBy}
              autoComplete="new-password"
              testId="reset-password-again"
            />
          )}
        </Field>
        <div className={styles.options} />
        <SubmitButton label={submitLabel} busy={busy} testId="reset-submit" />
      </form>
    </>
  );
}
