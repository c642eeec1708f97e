import type { UploadRecord } from '@dam/contract';
import { Alert, Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { useUnfinishedUploads } from './api';
import { interruptedAmong } from './engine/resume';
import { useUploadManager, useUploadState } from './UploadProvider';

// Apart from the records screen's list (InterruptedUploads.tsx): the layout shows this banner on
// every page, and that list's Ant Design List (with its pagination) is not part of the first view
// (issue 39, the home page's weight).

/**
 * Uploads the server holds as unfinished that this page is not running: they were cut off when
 * a page was closed or reloaded. The server keeps their stored parts; the user picks the files
 * again and they continue from there.
 */
export function useInterruptedUploads(): UploadRecord[] {
  // Re-rendered on every change of the manager, whose record of what it took on decides.
  useUploadState();
  const manager = useUploadManager();
  const query = useUnfinishedUploads();
  return interruptedAmong(query.data ?? [], (id) => manager.hasTaken(id));
}

/** On every other screen: one line saying uploads were interrupted, linking to the records. */
export function InterruptedBanner() {
  const { t } = useTranslation();
  const location = useLocation();
  const interrupted = useInterruptedUploads();
  const [dismissed, setDismissed] = useState(false);
  if (dismissed || interrupted.length === 0 || location.pathname.startsWith('/upload-record')) return null;
  return (
    <Alert
      type="warning"
      showIcon
      closable={{ onClose: () => setDismissed(true) }}
      style={{ marginBottom: 12 }}
      data-testid="interrupted-banner"
      title={t('upload.interruptedTitle', { count: interrupted.length })}
      action={
        <Link to="/upload-record/current">
          <Button size="small">{t('upload.continueThem')}</Button>
        </Link>
      }
    />
  );
}
