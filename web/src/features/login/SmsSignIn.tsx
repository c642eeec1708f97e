import { type LoginResult, SmsPurpose } from '@dam/contract';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError, RememberMe, SubmitButton } from './fields';
import styles from './LoginPage.module.css';
import { MobileCodeFields, useMobileCode } from './MobileCodeFields';
import { useSignInAttempt } from './useSignInAttempt';

/** The SMS tab: a mobile number, the code sent to it, and "remember me". */
export function SmsSignIn({ onSignedIn }: { onSignedIn: (result: LoginResult, remember: boolean) => void }) {
  const { t } = useTranslation();
  const [remember, setRemember] = useState(false);
  const { error, setError, submitting, attempt } = useSignInAttempt(onSignedIn);
  const sms = useMobileCode(SmsPurpose.signIn, setError);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (submitting || !sms.trySubmit()) return;
    await attempt({ mobile: sms.values.mobile, messageCode: sms.values.code, remember }, remember);
  };

  return (
    <>
      <FormError message={error} />
      <form noValidate onSubmit={(event) => void submit(event)}>
        <MobileCodeFields state={sms} hideNotice={Boolean(error)} testIdPrefix="sms" />
        <div className={styles.options}>
          <RememberMe checked={remember} onChange={setRemember} />
        </div>
        <SubmitButton label={t('login.submit')} busy={submitting} testId="sms-submit" />
      </form>
    </>
  );
}
