import {
  DeleteOutlined,
  DownloadOutlined,
  DragOutlined,
  FileExcelOutlined,
  ShareAltOutlined,
  StarOutlined,
  TagsOutlined,
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
  onTag,
  onExportTags,
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
  /** Tag them all at once (SPEC §2 add-tag dialog; needs edit permission on each). */
  onTag?: () => void;
  /** The tag workbook of the selection (holders of the tag management code). */
  onExportTags?: () => void;
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
        {onTag && (
          <Button icon={<TagsOutlined />} onClick={onTag} disabled={!editable} data-testid="selection-tag">
            {t('tagging.action')}
          </Button>
        )}
        {onExportTags && (
          <Button icon={<FileExcelOutlined />} onClick={onExportTags} data-testid="selection-export-tags">
            {t('tagImport.export')}
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
