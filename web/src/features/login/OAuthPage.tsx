import { LoadingOutlined } from '@ant-design/icons';
import type { TFunction } from 'i18next';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { ApiError } from '../../api/client';
import { setToken } from '../../auth/token';
import { FormError } from './fields';
import { LoginFrame } from './LoginFrame';
import styles from './LoginPage.module.css';
import { ssoApi } from './ssoApi';

/**
 * /oauth (SPEC §2 "single sign-on return"): the company's provider sends the browser back here
 * with a code and a state; the server finishes the sign-in, and the browser goes on to the page
 * the user had asked for. A refusal is explained, with the way back to /login.
 */
export function OAuthPage() {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  // The callback is usable once: the second run of an effect (React's strict mode) must not post it again.
  const posted = useRef(false);

  useEffect(() => {
    if (posted.current) return;
    posted.current = true;
    const params = new URLSearchParams(location.search);
    const problem = params.get('error');
    if (problem) {
      setError(startProblem(problem, t));
      return;
    }
    if (!params.get('state')) {
      setError(t('sso.expired'));
      return;
    }
    ssoApi
      .finish({ callbackUrl: `${location.pathname}${location.search}` })
      .then((result) => {
        setToken(result.token, false, 'sso');
        void navigate(result.redirect, { replace: true });
      })
      .catch((failure: unknown) => setError(finishProblem(failure, t)));
  }, [location, navigate, t]);

  return (
    <LoginFrame heading={t('sso.heading')}>
      {error ? (
        <>
          <FormError message={error} testId="sso-error" />
          <Link to="/login" className={styles.submit} data-testid="sso-back">
            {t('sso.backToLogin')}
          </Link>
        </>
      ) : (
        <p className={styles.ssoPending} role="status">
          <LoadingOutlined /> {t('sso.signingIn')}
        </p>
      )}
    </LoginFrame>
  );
}

/** What went wrong before the provider was reached (login_sso sent the browser back here), or at it. */
function startProblem(code: string, t: TFunction): string {
  if (code === 'SE_503') return t('sso.unavailable');
  if (code === 'SED_11') return t('sso.off');
  // The start's only input is the page to open afterwards: SE_400 means that page was refused.
  if (code === 'SE_400') return t('sso.badRedirect');
  if (/^SE/.test(code)) return t('sso.failed');
  // An OAuth error of the provider: the person cancelled, or may not use this application.
  return t('sso.refused', { code: code.slice(0, 60) });
}

function finishProblem(failure: unknown, t: TFunction): string {
  if (!(failure instanceof ApiError)) return t('errors.system');
  switch (failure.code) {
    case 'SED_02':
      return t('sso.noAccount');
    case 'SED_03':
      return t('sso.disabled');
    case 'SE_400':
      return t('sso.expired');
    case 'SE_503':
      return t('sso.unavailable');
    case 'SED_11':
      return t('sso.off');
    default:
      return failure.desc;
  }
}
