import { CheckCircleFilled, MailOutlined, MobileOutlined, SafetyOutlined } from '@ant-design/icons';
import { isStrongPassword, MOBILE_PATTERN, SMS_CODE_PATTERN, SmsPurpose } from '@dam/contract';
import { type FormEvent, type KeyboardEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { ApiError } from '../../api/client';
import { authApi } from '../../auth/api';
import { useCodeCountdown } from '../../auth/useCodeCountdown';
import { Field, FormError, PasswordInput, SendCodeButton, SubmitButton, TextInput } from './fields';
import { LoginFrame } from './LoginFrame';
import styles from './LoginPage.module.css';

// The same check the server makes (zod's, as classifyIdentifier reads it), without zod.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

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

  const onTabKey = (event: KeyboardEvent) => {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
    const next = way === 'email' ? 'mobile' : 'email';
    setWay(next);
    document.getElementById(`reset-tab-${next}`)?.focus();
  };

  return (
    <LoginFrame heading={t('reset.heading')}>
      <div role="tablist" className={styles.tabs} onKeyDown={onTabKey}>
        {WAYS.map((each) => (
          <button
            key={each}
            id={`reset-tab-${each}`}
            type="button"
            role="tab"
            aria-selected={way === each}
            aria-controls={`reset-panel-${each}`}
            tabIndex={way === each ? 0 : -1}
            className={styles.tab}
            onClick={() => setWay(each)}
            data-testid={`reset-tab-${each}`}
          >
            {t(each === 'email' ? 'reset.byEmail' : 'reset.byMobile')}
          </button>
        ))}
      </div>
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
      : EMAIL_PATTERN.test(email.trim())
        ? undefined
        : t('reset.emailInvalid');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (busy || !EMAIL_PATTERN.test(email.trim())) return;
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
  const [mobile, setMobile] = useState('');
  const [code, setCode] = useState('');
  const [triedSend, setTriedSend] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const countdown = useCodeCountdown();
  const [tried, setTried] = useState(false);

  const mobileProblem = !mobile.trim()
    ? t('login.mobileRequired')
    : MOBILE_PATTERN.test(mobile.trim())
      ? undefined
      : t('login.mobileInvalid');
  const codeProblem = !code.trim()
    ? t('login.codeRequired')
    : SMS_CODE_PATTERN.test(code.trim())
      ? undefined
      : t('login.codeInvalid');

  const sendCode = async () => {
    setTriedSend(true);
    if (mobileProblem) return;
    setSending(true);
    setError(null);
    try {
      const sent = await authApi.sendSignInCode({ mobile: mobile.trim(), purpose: SmsPurpose.resetPassword });
      countdown.start(sent.resendAfterSeconds);
      setNotice(t('login.codeSent'));
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.desc : t('login.codeNotSent'));
    } finally {
      setSending(false);
    }
  };

  return (
    <>
      <FormError message={error} />
      {notice && !error && (
        <p className={styles.hint} role="status">
          {notice}
        </p>
      )}
      <Field label={t('login.mobile')} problem={triedSend || tried ? mobileProblem : undefined}>
        {(id, describedBy) => (
          <TextInput
            id={id}
            icon={<MobileOutlined />}
            value={mobile}
            onChange={setMobile}
            placeholder={t('login.mobilePlaceholder')}
            autoComplete="tel-national"
            inputMode="tel"
            maxLength={11}
            invalid={Boolean((triedSend || tried) && mobileProblem)}
            describedBy={describedBy}
            testId="reset-mobile"
            after={
              <SendCodeButton
                secondsLeft={countdown.secondsLeft}
                sending={sending}
                onClick={() => void sendCode()}
                testId="reset-send-code"
              />
            }
          />
        )}
      </Field>
      <Field label={t('login.code')} problem={tried ? codeProblem : undefined}>
        {(id, describedBy) => (
          <TextInput
            id={id}
            icon={<SafetyOutlined />}
            value={code}
            onChange={setCode}
            placeholder={t('login.codePlaceholder')}
            autoComplete="one-time-code"
            inputMode="numeric"
            maxLength={6}
            invalid={Boolean(tried && codeProblem)}
            describedBy={describedBy}
            testId="reset-code"
          />
        )}
      </Field>
      <NewPasswordForm
        submitLabel={t('reset.submit')}
        onTry={() => setTried(true)}
        blocked={Boolean(mobileProblem || codeProblem)}
        reset={(password) =>
          authApi.loginResetPassword({
            mobile: mobile.trim(),
            messageCode: code.trim(),
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
  onTry,
  blocked = false,
  onError,
}: {
  submitLabel: string;
  reset: (password: string) => Promise<unknown>;
  onDone: () => void;
  /** Fields outside this form are judged too when a try is made. */
  onTry?: () => void;
  blocked?: boolean;
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
    onTry?.();
    if (busy || blocked || !isStrongPassword(password) || again !== password) return;
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
