import { Button, Space } from 'antd';
import { useTranslation } from 'react-i18next';

/** The batch upload dialog's buttons: cancel, "upload and continue", "finish". */
export function BatchUploadFooter({
  busy,
  readingNames,
  onCancel,
  onStart,
}: {
  /** Starting, or still reading the names' article numbers. */
  busy: boolean;
  readingNames: boolean;
  onCancel: () => void;
  onStart: (andContinue: boolean) => void;
}) {
  const { t } = useTranslation();
  return (
    <Space>
      <Button onClick={onCancel}>{t('common.cancel')}</Button>
      <Button
        onClick={() => onStart(true)}
        loading={busy}
        disabled={readingNames}
        data-testid="upload-continue"
      >
        {t('upload.uploadAndContinue')}
      </Button>
      <Button
        type="primary"
        onClick={() => onStart(false)}
        loading={busy}
        disabled={readingNames}
        data-testid="upload-finish"
      >
        {t('upload.finish')}
      </Button>
    </Space>
  );
}
