import {
  CopyOutlined,
  DeleteOutlined,
  DownloadOutlined,
  DragOutlined,
  FileExcelOutlined,
  PictureOutlined,
  ShareAltOutlined,
  StarOutlined,
  TagsOutlined,
} from '@ant-design/icons';
import type { Item } from '@dam/contract';
import { Button, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
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
  onSimilar,
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
  /** The selected files' similar images (issue 17); offered for 1–50 files. */
  onSimilar?: () => void;
  onClear: () => void;
  onSelectAll: () => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const editable = items.every((i) => i.authList.includes('edit'));
  return (
    <div className={styles.selectionBar} data-testid="selection-bar">
      {/* The count keeps its line; the actions wrap under each other when the bar is narrow. */}
      <Space className={styles.selectionCount}>
        <strong>{t('files.selected', { count: items.length })}</strong>
        <Button type="link" onClick={onSelectAll}>
          {t('files.selectAll')}
        </Button>
        <Button type="link" onClick={onClear}>
          {t('files.clearSelection')}
        </Button>
      </Space>
      <Space wrap className={styles.selectionActions}>
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
        {/* The compose screen reads the article numbers of these files and folders (issue 16). */}
        <Button
          icon={<PictureOutlined />}
          onClick={() => void navigate(`/composite?items=${items.map((i) => i.id).join(',')}`)}
          data-testid="selection-compose"
        >
          {t('files.compose')}
        </Button>
        {onSimilar && (
          <Button icon={<CopyOutlined />} onClick={onSimilar} data-testid="selection-similar">
            {t('similar.selectionAction')}
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
