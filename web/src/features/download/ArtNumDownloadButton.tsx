import { BarcodeOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { lazyDialog } from '../../ui/lazyPage';

const ArtNumDownloadDialog = lazyDialog(
  async () => (await import('./ArtNumDownloadDialog')).ArtNumDownloadDialog,
);

/** Top-bar entry of the download by article numbers: reachable from every screen, no selection needed. */
export function ArtNumDownloadButton() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Tooltip title={t('artNumDownload.tooltip')}>
        <Button
          type="text"
          icon={<BarcodeOutlined />}
          onClick={() => setOpen(true)}
          data-testid="art-num-download"
        >
          {t('artNumDownload.entry')}
        </Button>
      </Tooltip>
      {open && <ArtNumDownloadDialog onClose={() => setOpen(false)} />}
    </>
  );
}
