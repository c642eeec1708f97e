import { LeftOutlined, RightOutlined } from '@ant-design/icons';
import type { SharedFile } from '@dam/contract';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import v from './viewer.module.css';

/**
 * A document's page images, paged as in the signed-in viewer: previous / next page, PageUp /
 * PageDown; the next page is fetched ahead so turning a page shows it at once.
 */
export function PdfPages({ file }: { file: SharedFile }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const urls = file.pageUrls;
  const count = urls.length;
  const turn = (to: number) => setPage(Math.min(Math.max(1, to), count));

  useEffect(() => {
    const next = urls[page];
    if (next) new Image().src = next;
  }, [page, urls]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'PageDown') turn(page + 1);
      else if (event.key === 'PageUp') turn(page - 1);
      else return;
      event.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  return (
    <>
      <img
        src={urls[page - 1]}
        alt={t('visit.pageAlt', { name: file.name, page })}
        className={`${v.media} ${v.paged}`}
        data-testid="visit-viewer-page"
        data-page={page}
      />
      <div className={v.pageBar} data-testid="visit-page-bar">
        <button
          type="button"
          className={v.iconButton}
          disabled={page <= 1}
          onClick={() => turn(page - 1)}
          aria-label={t('visit.previousPage')}
          title={t('visit.previousPage')}
          data-testid="visit-page-prev"
        >
          <LeftOutlined />
        </button>
        <span aria-live="polite" data-testid="visit-page-indicator">
          {t('visit.pageOf', { page, count: file.pageCount ?? count })}
        </span>
        <button
          type="button"
          className={v.iconButton}
          disabled={page >= count}
          onClick={() => turn(page + 1)}
          aria-label={t('visit.nextPage')}
          title={t('visit.nextPage')}
          data-testid="visit-page-next"
        >
          <RightOutlined />
        </button>
      </div>
      {(file.pageCount ?? 0) > count && <span className={v.note}>{t('visit.pagesShown', { count })}</span>}
    </>
  );
}
