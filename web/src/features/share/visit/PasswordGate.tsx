import { LockOutlined } from '@ant-design/icons';
import type { ShareVisit } from '@dam/contract';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../ui/format';
import ui from './visit.module.css';
import { failureText, unlockShare } from './visitApi';

/** A password link's first step: who shared it, and its password. */
export function PasswordGate({
  visit,
  onOpened,
}: {
  visit: ShareVisit;
  onOpened: (visit: ShareVisit) => void;
}) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const titleId = useId();
  const errorId = useId();
  const submit = async () => {
    if (!password.trim() || checking) return;
    setChecking(true);
    setError(null);
    try {
      onOpened(await unlockShare(visit.code, password.trim()));
    } catch (failure) {
      setError(failureText(failure, t('common.loadFailed')));
    } finally {
      setChecking(false);
    }
  };
  return (
    <form
      className={ui.gate}
      aria-labelledby={titleId}
      data-testid="visit-password"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <h1 id={titleId}>
        <LockOutlined /> {t('visit.passwordTitle')}
      </h1>
      <span className={ui.muted}>
        {t('visit.sharedBy', { name: visit.ownerName, time: formatDate(visit.createdAt) })}
      </span>
      <input
        type="password"
        className={ui.input}
        // biome-ignore lint/a11y/noAutofocus: the page asks for nothing else
        autoFocus
        value={password}
        maxLength={64}
        autoComplete="off"
        placeholder={t('visit.passwordPlaceholder')}
        aria-label={t('visit.passwordPlaceholder')}
        aria-invalid={error !== null}
        aria-describedby={error ? errorId : undefined}
        onChange={(event) => setPassword(event.target.value)}
        data-testid="visit-password-input"
      />
      {error && (
        <div id={errorId} className={ui.error} role="alert" data-testid="visit-password-error">
          {error}
        </div>
      )}
      <button
        type="submit"
        className={`${ui.button} ${ui.primary}`}
        disabled={!password.trim() || checking}
        aria-busy={checking}
        data-testid="visit-open"
      >
        {t('visit.open')}
      </button>
    </form>
  );
}
