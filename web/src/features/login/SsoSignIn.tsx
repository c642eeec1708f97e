import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { afterLoginTarget } from '../../auth/guard';
import { SubmitButton } from './fields';
import styles from './LoginPage.module.css';
import { ssoApi } from './ssoApi';

/**
 * The company-account tab of /login (SPEC §1, §2): one button that opens the company's sign-in
 * page; the provider sends the browser back to /oauth, which finishes the sign-in (OAuthPage).
 */
export function SsoSignIn() {
  const { t } = useTranslation();
  const location = useLocation();
  const [leaving, setLeaving] = useState(false);

  // Back from the provider with the browser's back button: the page may come from its cache.
  useEffect(() => {
    const shown = (event: PageTransitionEvent) => {
      if (event.persisted) setLeaving(false);
    };
    window.addEventListener('pageshow', shown);
    return () => window.removeEventListener('pageshow', shown);
  }, []);

  const start = (event: FormEvent) => {
    event.preventDefault();
    if (leaving) return;
    setLeaving(true);
    window.location.assign(ssoApi.startUrl(afterLoginTarget(location.search)));
  };

  return (
    <form noValidate onSubmit={start} className={styles.sso}>
      <p className={styles.ssoHint}>{t('sso.hint')}</p>
      <SubmitButton label={t('sso.button')} busy={leaving} testId="sso-submit" />
    </form>
  );
}
