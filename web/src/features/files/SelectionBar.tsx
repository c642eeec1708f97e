import {
  DeleteOutlined,
  DownloadOutlined,
  DragOutlined,
  ShareAltOutlined,
  StarOutlined,
} from '@ant-design/icons';
import type { Item } from '@dam/contract';
import { Button, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import styles from './files.module.css';

/** Actions on the selected items (SPEC §2 multi-select: move, delete, favourite). */
export function SelectionBar({
  items,
  onMove,
  onDelete,
  onFavourite,
  onDownload,
  onShare,
  onClear,
  onSelectAll,
}: {
  items: Item[];
  onMove: () => void;
  onDelete: () => void;
  onFavourite: () => void;
  onDownload: () => void;
  /** Share by link; offered when the caller may share every selected item. */
  onShare?: () => void;
  onClear: () => void;
  onSelectAll: () => void;
}) {
  const { t } = useTranslation();
  const editable = items.every((i) => i.authList.includes('edit'));
  return (
    <div className={styles.selectionBar} data-testid="selection-bar">
      <Space>
        <strong>{t('files.selected', { count: items.length })}</strong>
        <Button type="link" onClick={onSelectAll}>
          {t('files.selectAll')}
        </Button>
        <Button type="link" onClick={onClear}>
          {t('files.clearSelection')}
        </Button>
      </Space>
      <Space>
        <Button icon={<DownloadOutlined />} onClick={onDownload} data-testid="selection-download">
          {t('download.action')}
        </Button>
        {onShare && items.every((i) => i.authList.includes('share')) && (
          <Button icon={<ShareAltOutlined />} onClick={onShare} data-testid="selection-share">
            {t('share.action')}
          </Button>
        )}
        <Button icon={<StarOutlined />} onClick={onFavourite} data-testid="selection-favourite">
          {t('files.favourite')}
        </Button>
        <Button icon={<DragOutlined />} onClick={onMove} disabled={!editable} data-testid="selection-move">
          {t('files.move')}
        </Button>
        <Button
          icon={<DeleteOutlined />}
          danger
          onClick={onDelete}
          disabled={!editable}
          data-testid="selection-delete"
        >
          {t('files.delete')}
        </Button>
      </Space>
    </div>
  );
}
