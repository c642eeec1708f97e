import { CloudUploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import styles from './DropOverlay.module.css';

/** Shown over the listing while files are dragged over it: where a drop uploads to. */
export function DropOverlay({ path }: { path: string }) {
  const { t } = useTranslation();
  return (
    <div className={styles.overlay} data-testid="drop-overlay" aria-live="polite">
      <div className={styles.card}>
        <CloudUploadOutlined className={styles.icon} aria-hidden />
        <strong>{t('upload.dropHere')}</strong>
        <span className={styles.path}>{t('upload.dropTarget', { path })}</span>
      </div>
    </div>
  );
}
