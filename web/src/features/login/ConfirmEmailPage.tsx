import { CheckCircleFilled, LoadingOutlined } from '@ant-design/icons';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { ApiError } from '../../api/client';
import { authApi } from '../../auth/api';
import { getToken } from '../../auth/token';
import { FormError } from './fields';
import { LoginFrame } from './LoginFrame';
import styles from './LoginPage.module.css';

type State = { kind: 'confirming' } | { kind: 'done' } | { kind: 'failed'; message: string };

/**
 * /login/confirm-email: the link mailed to a new e-mail address. Opening it confirms the change
 * (once); it needs no session, as it may be opened from a phone's mailbox.
 */
export function ConfirmEmailPage() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const token = search.get('token') ?? '';
  const [state, setState] = useState<State>({ kind: 'confirming' });
  // One confirmation per page, though React runs effects twice in development.
  const asked = useRef(false);

  useEffect(() => {
    if (asked.current) return;
    asked.current = true;
    authApi
      .confirmEmail({ token })
      .then(() => setState({ kind: 'done' }))
      .catch((failure: unknown) =>
        setState({
          kind: 'failed',
          message: failure instanceof ApiError ? failure.desc : t('errors.system'),
        }),
      );
  }, [token, t]);

  return (
    <LoginFrame heading={t('confirmEmail.heading')}>
      {state.kind === 'confirming' && (
        <p className={styles.hint} role="status">
          <LoadingOutlined /> {t('confirmEmail.confirming')}
        </p>
      )}
      {state.kind === 'done' && (
        <div className={styles.success} role="status" data-testid="email-confirmed">
          <CheckCircleFilled className={styles.successIcon} />
          <span>{t('confirmEmail.done')}</span>
        </div>
      )}
      {state.kind === 'failed' && <FormError message={state.message} testId="email-confirm-error" />}
      <div className={styles.footer}>
        <Link to={getToken() ? '/' : '/login'} className={styles.link}>
          {getToken() ? t('confirmEmail.toHome') : t('reset.backToLogin')}
        </Link>
      </div>
    </LoginFrame>
  );
}
