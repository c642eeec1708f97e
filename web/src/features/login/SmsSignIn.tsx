import { MobileOutlined, SafetyOutlined } from '@ant-design/icons';
import { type LoginResult, MOBILE_PATTERN, SMS_CODE_PATTERN, SmsPurpose } from '@dam/contract';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { authApi } from '../../auth/api';
import { useCodeCountdown } from '../../auth/useCodeCountdown';
import { Field, FormError, SendCodeButton, SubmitButton, TextInput } from './fields';
import styles from './LoginPage.module.css';

/** The SMS tab: a mobile number, the code sent to it, and "remember me". */
export function SmsSignIn({ onSignedIn }: { onSignedIn: (result: LoginResult, remember: boolean) => void }) {
  const { t } = useTranslation();
  const [mobile, setMobile] = useState('');
  const [code, setCode] = useState('');
  const [remember, setRemember] = useState(false);
  const [tried, setTried] = useState<'send' | 'submit' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const countdown = useCodeCountdown();

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
  const problems = {
    mobile: tried ? mobileProblem : undefined,
    code: tried === 'submit' ? codeProblem : undefined,
  };

  const sendCode = async () => {
    setTried((was) => was ?? 'send');
    if (mobileProblem) return;
    setSending(true);
    setError(null);
    try {
      const sent = await authApi.sendSignInCode({ mobile: mobile.trim(), purpose: SmsPurpose.signIn });
      countdown.start(sent.resendAfterSeconds);
      setNotice(t('login.codeSent'));
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.desc : t('login.codeNotSent'));
    } finally {
      setSending(false);
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (submitting) return;
    setTried('submit');
    if (mobileProblem || codeProblem) return;
    setSubmitting(true);
    setError(null);
    try {
      const result = await authApi.login({ mobile: mobile.trim(), messageCode: code.trim(), remember });
      onSignedIn(result, remember);
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.desc : t('errors.system'));
      setSubmitting(false);
    }
  };

  return (
    <>
      <FormError message={error} />
      {notice && !error && (
        <p className={styles.hint} role="status" data-testid="sms-notice">
          {notice}
        </p>
      )}
      <form noValidate onSubmit={(event) => void submit(event)}>
        <Field label={t('login.mobile')} problem={problems.mobile}>
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
              invalid={Boolean(problems.mobile)}
              describedBy={describedBy}
              testId="sms-mobile"
              after={
                <SendCodeButton
                  secondsLeft={countdown.secondsLeft}
                  sending={sending}
                  onClick={() => void sendCode()}
                  testId="sms-send"
                />
              }
            />
          )}
        </Field>
        <Field label={t('login.code')} problem={problems.code}>
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
              invalid={Boolean(problems.code)}
              describedBy={describedBy}
              testId="sms-code"
            />
          )}
        </Field>
        <div className={styles.options}>
          <label className={styles.remember}>
            <input
              type="checkbox"
              checked={remember}
              onChange={(event) => setRemember(event.target.checked)}
            />
            <span>{t('login.remember')}</span>
          </label>
        </div>
        <SubmitButton label={t('login.submit')} busy={submitting} testId="sms-submit" />
      </form>
    </>
  );
}
