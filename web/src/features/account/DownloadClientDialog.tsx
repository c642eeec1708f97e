import { AppleOutlined, DownloadOutlined, WindowsOutlined } from '@ant-design/icons';
import type { ClientDownloads } from '@dam/contract';
import { Button, Modal, Space, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** SPEC §2 "download client" dialog: the desktop client for each system a link is configured for. */
export function DownloadClientDialog({ links, onClose }: { links: ClientDownloads; onClose: () => void }) {
  const { t } = useTranslation();
  const systems: Array<{ key: string; url: string | null; icon: ReactNode; label: string }> = [
    { key: 'windows', url: links.windows, icon: <WindowsOutlined />, label: t('client.windows') },
    { key: 'mac', url: links.mac, icon: <AppleOutlined />, label: t('client.mac') },
  ];
  return (
    <Modal open title={t('client.title')} onCancel={onClose} footer={null} width={440}>
      <Typography.Paragraph type="secondary">{t('client.hint')}</Typography.Paragraph>
      <Space orientation="vertical" style={{ width: '100%' }} size="middle">
        {systems.map(
          ({ key, url, icon, label }) =>
            url && (
              <Button
                key={key}
                block
                size="large"
                icon={icon}
                href={url}
                target="_blank"
                rel="noopener noreferrer"
                data-testid={`client-download-${key}`}
              >
                <span>{label}</span>
                <DownloadOutlined />
              </Button>
            ),
        )}
      </Space>
    </Modal>
  );
}
