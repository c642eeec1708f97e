import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { useUploadManager, useUploadState } from './UploadProvider';

/** SPEC §4: once nothing is pending any more, a dismissible "finished" banner. */
export function FinishedBanner() {
  const { t } = useTranslation();
  const manager = useUploadManager();
  const { finishedBanner } = useUploadState();
  if (!finishedBanner) return null;
  return (
    <Alert
      type="success"
      showIcon
      closable={{ onClose: () => manager.dismissBanner() }}
      title={t('upload.finishedBanner')}
      style={{ marginBottom: 12 }}
      data-testid="upload-finished-banner"
    />
  );
}
