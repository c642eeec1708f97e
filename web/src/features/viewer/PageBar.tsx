import { LeftOutlined, RightOutlined } from '@ant-design/icons';
import { Button, InputNumber, Tooltip } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { keyIsViewers } from './layers';
import styles from './viewer.module.css';

/**
 * Paging through a document's page images (issue 11 item 3): previous / next, a page number to
 * jump to, PageUp / PageDown. The next page is fetched ahead so turning a page shows it at once.
 */
export function PageBar({
  page,
  pageUrls,
  pageCount,
  onPage,
}: {
  page: number;
  pageUrls: string[];
  pageCount: number;
  onPage: (page: number) => void;
}) {
  const { t } = useTranslation();
  const bar = useRef<HTMLDivElement>(null);
  const last = pageUrls.length;
  const turn = (to: number) => onPage(Math.min(Math.max(1, to), last));

  useEffect(() => {
    const next = pageUrls[page];
    if (next) new Image().src = next;
  }, [page, pageUrls]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      // Only the viewer's own keys: not while a dialog or list is open above it (issue 39 item 2).
      if (!keyIsViewers(event, bar.current?.closest('[data-testid="file-viewer"]') ?? null)) return;
      if (event.key === 'PageDown') turn(page + 1);
      if (event.key === 'PageUp') turn(page - 1);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  return (
    <div ref={bar} className={styles.pageBar} data-testid="page-bar">
      <Tooltip title={t('viewer.previousPage')}>
        <Button
          type="text"
          icon={<LeftOutlined />}
          disabled={page <= 1}
          onClick={() => turn(page - 1)}
          aria-label={t('viewer.previousPage')}
          data-testid="page-prev"
        />
      </Tooltip>
      <InputNumber
        size="small"
        min={1}
        max={last}
        value={page}
        controls={false}
        onChange={(value) => {
          if (typeof value === 'number') turn(value);
        }}
        aria-label={t('viewer.pageNumber')}
        className={styles.pageInput}
        data-testid="page-input"
      />
      <span data-testid="page-indicator">{t('viewer.ofPages', { count: pageCount })}</span>
      <Tooltip title={t('viewer.nextPage')}>
        <Button
          type="text"
          icon={<RightOutlined />}
          disabled={page >= last}
          onClick={() => turn(page + 1)}
          aria-label={t('viewer.nextPage')}
          data-testid="page-next"
        />
      </Tooltip>
      {pageCount > last && <span className={styles.pageNote}>{t('viewer.pagesShown', { count: last })}</span>}
    </div>
  );
}
