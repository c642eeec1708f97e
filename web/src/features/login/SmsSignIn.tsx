import { type LoginResult, SmsPurpose } from '@dam/contract';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { authApi } from '../../auth/api';
import { FormError, RememberMe, SubmitButton } from './fields';
import styles from './LoginPage.module.css';
import { MobileCodeFields, useMobileCode } from './MobileCodeFields';

/** The SMS tab: a mobile number, the code sent to it, and "remember me". */
export function SmsSignIn({ onSignedIn }: { onSignedIn: (result: LoginResult, remember: boolean) => void }) {
  const { t } = useTranslation();
  const [remember, setRemember] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const sms = useMobileCode(SmsPurpose.signIn, setError);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (submitting || !sms.trySubmit()) return;
    setSubmitting(true);
    setError(null);
    try {
      const result = await authApi.login({
        mobile: sms.values.mobile,
        messageCode: sms.values.code,
        remember,
      });
      onSignedIn(result, remember);
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.desc : t('errors.system'));
      setSubmitting(false);
    }
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
