import { MobileOutlined, SafetyOutlined } from '@ant-design/icons';
import { MOBILE_PATTERN, SMS_CODE_PATTERN, type SmsPurpose } from '@dam/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { authApi } from '../../auth/api';
import { useCodeCountdown } from '../../auth/useCodeCountdown';
import { Field, SendCodeButton, TextInput } from './fields';
import styles from './LoginPage.module.css';

/** When the fields are judged: not before a try, the number from a send, both from a submit. */
export type CodeTry = 'send' | 'submit' | null;

/**
 * A mobile number and the SMS code sent to it for `purpose` (sign-in, password reset): the values,
 * their problems, and asking for a code (refused with the server's reason through `onError`).
 */
export function useMobileCode(
  purpose: typeof SmsPurpose.signIn | typeof SmsPurpose.resetPassword,
  onError: (message: string | null) => void,
) {
  const { t } = useTranslation();
  const [mobile, setMobile] = useState('');
  const [code, setCode] = useState('');
  const [tried, setTried] = useState<CodeTry>(null);
  const [sending, setSending] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
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

  const sendCode = async () => {
    setTried((was) => was ?? 'send');
    if (mobileProblem) return;
    setSending(true);
    onError(null);
    try {
      const sent = await authApi.sendSignInCode({ mobile: mobile.trim(), purpose });
      countdown.start(sent.resendAfterSeconds);
      setNotice(t('login.codeSent'));
    } catch (failure) {
      onError(failure instanceof ApiError ? failure.desc : t('login.codeNotSent'));
    } finally {
      setSending(false);
    }
  };

  return {
    mobile,
    code,
    /** What is sent: the fields without surrounding spaces. */
    values: { mobile: mobile.trim(), code: code.trim() },
    setMobile,
    setCode,
    /** Marks a submit: both fields are judged from now on; answers whether both are right. */
    trySubmit: () => {
      setTried('submit');
      return !mobileProblem && !codeProblem;
    },
    problems: {
      mobile: tried ? mobileProblem : undefined,
      code: tried === 'submit' ? codeProblem : undefined,
    },
    sending,
    notice,
    secondsLeft: countdown.secondsLeft,
    sendCode,
  };
}

export type MobileCode = ReturnType<typeof useMobileCode>;

/** The notice that a code was sent, and the two fields; `testIdPrefix` names them for the journeys. */
export function MobileCodeFields({
  state,
  hideNotice,
  testIdPrefix,
}: {
  state: MobileCode;
  /** The form shows an error instead. */
  hideNotice: boolean;
  testIdPrefix: 'sms' | 'reset';
}) {
  const { t } = useTranslation();
  return (
    <>
      {state.notice && !hideNotice && (
        <p className={styles.hint} role="status" data-testid={`${testIdPrefix}-notice`}>
          {state.notice}
        </p>
      )}
      <Field label={t('login.mobile')} problem={state.problems.mobile}>
        {(id, describedBy) => (
          <TextInput
            id={id}
            icon={<MobileOutlined />}
            value={state.mobile}
            onChange={state.setMobile}
            placeholder={t('login.mobilePlaceholder')}
            autoComplete="tel-national"
            inputMode="tel"
            maxLength={11}
            invalid={Boolean(state.problems.mobile)}
            describedBy={describedBy}
            testId={`${testIdPrefix}-mobile`}
            after={
              <SendCodeButton
                secondsLeft={state.secondsLeft}
                sending={state.sending}
                onClick={() => void state.sendCode()}
                testId={testIdPrefix === 'sms' ? 'sms-send' : 'reset-send-code'}
              />
            }
          />
        )}
      </Field>
      <Field label={t('login.code')} problem={state.problems.code}>
        {(id, describedBy) => (
          <TextInput
            id={id}
            icon={<SafetyOutlined />}
            value={state.code}
            onChange={state.setCode}
            placeholder={t('login.codePlaceholder')}
            autoComplete="one-time-code"
            inputMode="numeric"
            maxLength={6}
            invalid={Boolean(state.problems.code)}
            describedBy={describedBy}
            testId={`${testIdPrefix}-code`}
          />
        )}
      </Field>
    </>
  );
}
