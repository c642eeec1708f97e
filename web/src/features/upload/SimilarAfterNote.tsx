import { DeleteOutlined, DownOutlined, FileImageOutlined } from '@ant-design/icons';
import type { SimilarItem } from '@dam/contract';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Dropdown, Popconfirm, Space, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { endpoints } from '../../api/endpoints';
import { pixelsFrom } from './engine/picturePixels';
import { useKeepCurrentQuestion } from './smallerCopyQuestion';
import styles from './UploadPanel.module.css';
import type { SimilarAfterMatch } from './useSimilarAfter';

/**
 * Menus open inside the panel, which is fixed to the window: one in the page's body would be
 * placed against the document and drift while it scrolls.
 */
const inPanel = (trigger: HTMLElement) => trigger.closest('section') ?? document.body;

const fullPath = (item: SimilarItem) => `${item.path.replace(/\/+$/, '')}/${item.name}`;

/**
 * Under a finished upload in the panel (issue 17, plan §5.2): the files already in the archive it
 * looks like, as thumbnails naming each file and its folder, and what may be done about it, as in
 * the upload dialog: keep both (put the note away), add the upload as a new version of one of them,
 * or move the file it made to the recycle bin (only when the upload made a file of its own). An
 * upload smaller than the file it is to join asks first which stays current (issue 39 item 9).
 */
export default function SimilarAfterNote({
  uploadId,
  fileName,
  match,
  onDismiss,
}: {
  uploadId: number;
  fileName: string;
  match: SimilarAfterMatch;
  onDismiss: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const targets = match.items.filter((item) => item.canAddVersion);

  const settle = async (work: () => Promise<string>) => {
    setBusy(true);
    try {
      const done = await work();
      void message.success(done);
      // Listings and the viewer show the merged or removed file as it is now.
      await queryClient.invalidateQueries();
      onDismiss();
    } catch {
      // The client has shown the server's reason; the note stays for another choice.
    } finally {
      setBusy(false);
    }
  };
  const keepCurrentOf = useKeepCurrentQuestion();
  const addVersion = async (item: SimilarItem) => {
    const keepCurrent = await keepCurrentOf(
      { name: fileName, pixels: pixelsFrom(match.width, match.height) },
      item,
    );
    if (keepCurrent === null) return;
    await settle(async () => {
      const body = { uploadId, itemId: item.id, ...(keepCurrent ? { keepCurrent } : {}) };
      const attached = await call(endpoints.similarAttach, { body });
      return t('similar.after.attached', { name: attached.name });
    });
  };
  const toRecycleBin = (itemId: number) =>
    settle(async () => {
      await call(endpoints.deleteItems, { body: { idList: [itemId], folderIdList: [] } });
      return t('similar.after.removed');
    });

  return (
    <div className={styles.similar} data-testid="upload-panel-similar">
      <Typography.Text type="warning" className={styles.state}>
        {t('similar.after.similarTo')}
      </Typography.Text>
      {match.items.map((item) => (
        <Tooltip key={item.id} title={fullPath(item)}>
          {item.compactUrl ? (
            <img
              src={item.compactUrl}
              alt={item.name}
              className={styles.similarThumb}
              data-testid="upload-panel-similar-item"
              data-id={item.id}
            />
          ) : (
            <span className={styles.similarThumb} data-testid="upload-panel-similar-item" data-id={item.id}>
              <FileImageOutlined />
            </span>
          )}
        </Tooltip>
      ))}
      <Space size={0} wrap>
        <Button
          type="link"
          size="small"
          onClick={onDismiss}
          disabled={busy}
          data-testid="upload-panel-similar-dismiss"
        >
          {t('similar.after.keepBoth')}
        </Button>
        {targets.length === 1 && (
          <Tooltip title={t('similar.after.versionOf', { path: fullPath(targets[0] as SimilarItem) })}>
            <Button
              type="link"
              size="small"
              loading={busy}
              onClick={() => addVersion(targets[0] as SimilarItem)}
              data-testid="upload-panel-similar-version"
            >
              {t('similar.upload.addVersion')}
            </Button>
          </Tooltip>
        )}
        {targets.length > 1 && (
          <Dropdown
            trigger={['click']}
            getPopupContainer={inPanel}
            disabled={busy}
            menu={{
              items: targets.map((item) => ({ key: String(item.id), label: fullPath(item) })),
              onClick: ({ key }) => {
                const item = targets.find((candidate) => String(candidate.id) === key);
                if (item) void addVersion(item);
              },
            }}
          >
            <Button type="link" size="small" loading={busy} data-testid="upload-panel-similar-version">
              {t('similar.upload.addVersion')} <DownOutlined />
            </Button>
          </Dropdown>
        )}
        {match.soleRecord && match.itemId !== null && (
          <Popconfirm
            title={t('similar.after.removeConfirm')}
            okText={t('similar.after.remove')}
            okButtonProps={{ danger: true }}
            getPopupContainer={inPanel}
            onConfirm={() => toRecycleBin(match.itemId as number)}
          >
            <Button
              type="link"
              size="small"
              danger
              icon={<DeleteOutlined />}
              disabled={busy}
              data-testid="upload-panel-similar-remove"
            >
              {t('similar.after.remove')}
            </Button>
          </Popconfirm>
        )}
      </Space>
    </div>
  );
}
