import type { ShareVisit } from '@dam/contract';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { LanguageSwitch } from '../../layout/LanguageSwitch';
import { formatDate } from '../../ui/format';
import styles from './VisitPage.module.css';
import { PasswordGate } from './visit/PasswordGate';
import { SharedFiles } from './visit/SharedFiles';
import ui from './visit/visit.module.css';
import { failureText, openShare } from './visit/visitApi';

/**
 * /visitfile?code=… (SPEC §2): the page a share link opens, without signing in. A password link
 * asks for its password first; then the shared files and folders, browsable, viewed as signed-in
 * users view them (video, PDF pages), with download of a selection or of everything (counted as
 * share downloads). Drawn with plain elements, without Ant Design, the query cache or the
 * signed-in app's strings: a visitor's first page stays small (issue 39 item 6).
 */
export function VisitPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const code = params.get('code') ?? '';
  const [visit, setVisit] = useState<ShareVisit | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!code) return;
    let live = true;
    setVisit(null);
    setError(null);
    openShare(code).then(
      (answer) => live && setVisit(answer),
      (failure: unknown) => live && setError(failureText(failure, t('common.loadFailed'))),
    );
    return () => {
      live = false;
    };
  }, [code, t]);

  let body: React.ReactNode;
  if (!code) body = <p className={ui.notice}>{t('visit.noCode')}</p>;
  else if (error)
    body = (
      <p className={ui.notice} role="alert" data-testid="visit-error">
        {error}
      </p>
    );
  else if (!visit) body = <span className={ui.spinner} role="progressbar" aria-label={t('common.loading')} />;
  else if (!visit.shareToken) body = <PasswordGate visit={visit} onOpened={setVisit} />;
  else
    body = (
      <>
        {visit.collectionName !== null && (
          <h1 className={ui.collectionTitle} data-testid="visit-collection">
            {visit.collectionName}
          </h1>
        )}
        <p className={ui.muted}>
          {t('visit.sharedBy', { name: visit.ownerName, time: formatDate(visit.createdAt) })}
          {' · '}
          {visit.expiresAt
            ? t('visit.expiresAt', { time: formatDate(visit.expiresAt) })
            : t('visit.permanent')}
        </p>
        <SharedFiles visit={visit} />
      </>
    );

  return (
    <div className={styles.shell}>
      <header className={styles.header}>
        <span className={styles.brand}>
          <img src="/favicon.svg" alt="" width={28} height={28} />
          <span>{t('app.title')}</span>
        </span>
        <LanguageSwitch />
      </header>
      <main className={styles.main}>{body}</main>
    </div>
  );
}
