import type { EndpointBody, Endpoints, LoginResult } from '@dam/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { authApi } from '../../auth/api';

/**
 * One sign-in try of a tab (password or SMS): busy while it runs, the server's reason shown when
 * refused, and the tab stays busy once signed in (the page moves on).
 */
export function useSignInAttempt(onSignedIn: (result: LoginResult, remember: boolean) => void) {
  const { t } = useTranslation();
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const attempt = async (body: EndpointBody<Endpoints['login']>, remember: boolean) => {
    setSubmitting(true);
    setError(null);
    try {
      onSignedIn(await authApi.login(body), remember);
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.desc : t('errors.system'));
      setSubmitting(false);
    }
  };
  return { error, setError, submitting, attempt };
}
