import { DownloadOutlined } from '@ant-design/icons';
import { ItemType, type SharedItem, type ShareVisit } from '@dam/contract';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSharedFolder } from './useFolder';
import { VisitCard } from './VisitCard';
import ui from './visit.module.css';
import { downloadTicket, failureText } from './visitApi';

// The viewer (video player, PDF pages) loads when a visitor first opens a file.
const VisitViewer = lazy(() => import('./VisitViewer'));

/** Starts a browser download of a URL the server signed (no token needed to GET it). */
export function startDownload(url: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
}

/** The files and folders of an opened link: browse, select, download, open in the viewer. */
export function SharedFiles({ visit }: { visit: ShareVisit }) {
  const { t } = useTranslation();
  const [folder, setFolder] = useState<number | null>(null);
  const [checked, setChecked] = useState<Set<number>>(new Set());
  const [viewing, setViewing] = useState<number | null>(null);
  const [downloading, setDownloading] = useState(false);
  const [status, setStatus] = useState('');
  const listing = useSharedFolder(visit.code, folder);
  const files = useMemo(() => listing.items.filter((item) => item.type !== ItemType.folder), [listing.items]);

  useEffect(() => {
    if (!status) return;
    const timer = window.setTimeout(() => setStatus(''), 4000);
    return () => window.clearTimeout(timer);
  }, [status]);

  const download = async (ids: number[]) => {
    setDownloading(true);
    try {
      const { url } = await downloadTicket(visit.code, { folderDataIdList: ids });
      startDownload(url);
      setStatus(t('visit.downloadStarted'));
    } catch (error) {
      setStatus(failureText(error, t('common.loadFailed')));
    } finally {
      setDownloading(false);
    }
  };

  const open = (item: SharedItem) => {
    if (item.type !== ItemType.folder) return setViewing(item.id);
    setFolder(item.id);
    setChecked(new Set());
  };
  const toggle = (id: number) =>
    setChecked((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <section className={ui.files} data-testid="visit-files">
      <div className={ui.bar}>
        <nav aria-label={t('visit.root')}>
          <ol className={ui.crumbs}>
            {[{ id: null, name: t('visit.root') }, ...listing.breadcrumb].map((crumb, index, all) => (
              <li key={crumb.id ?? 'root'}>
                {index === all.length - 1 ? (
                  <span aria-current="page">{crumb.name}</span>
                ) : (
                  <button type="button" className={ui.link} onClick={() => setFolder(crumb.id)}>
                    {crumb.name}
                  </button>
                )}
              </li>
            ))}
          </ol>
        </nav>
        <div className={ui.actions}>
          <button
            type="button"
            className={ui.button}
            disabled={checked.size === 0 || downloading}
            onClick={() => void download([...checked])}
            data-testid="visit-download-selected"
          >
            <DownloadOutlined />
            {t('visit.downloadSelected', { count: String(checked.size) })}
          </button>
          <button
            type="button"
            className={`${ui.button} ${ui.primary}`}
            disabled={downloading}
            onClick={() => void download([])}
            data-testid="visit-download-all"
          >
            <DownloadOutlined />
            {t('visit.downloadAll')}
          </button>
        </div>
      </div>
      {listing.error && (
        <p className={ui.error} role="alert">
          {listing.error}
        </p>
      )}
      {listing.items.length === 0 && !listing.loading && !listing.error && (
        <p className={ui.notice}>{t('visit.emptyFolder')}</p>
      )}
      <ul className={ui.grid} style={{ padding: 0, margin: 0, listStyle: 'none' }}>
        {listing.items.map((item) => (
          <VisitCard
            key={item.id}
            item={item}
            checked={checked.has(item.id)}
            onOpen={() => open(item)}
            onCheck={() => toggle(item.id)}
          />
        ))}
      </ul>
      {listing.loading && <span className={ui.spinner} role="progressbar" aria-label={t('common.loading')} />}
      {listing.hasMore && !listing.loading && (
        <button type="button" className={ui.button} onClick={listing.more}>
          {t('visit.more')}
        </button>
      )}
      <div className={ui.status} role="status">
        {status}
      </div>
      {viewing !== null && (
        <Suspense fallback={null}>
          <VisitViewer
            code={visit.code}
            files={files}
            id={viewing}
            onShow={setViewing}
            onDownload={(id) => void download([id])}
            onClose={() => setViewing(null)}
          />
        </Suspense>
      )}
    </section>
  );
}
