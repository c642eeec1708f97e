import {
  AppstoreAddOutlined,
  CopyOutlined,
  DeleteOutlined,
  DownloadOutlined,
  DragOutlined,
  EllipsisOutlined,
  FileExcelOutlined,
  PictureOutlined,
  ShareAltOutlined,
  StarOutlined,
  TagsOutlined,
} from '@ant-design/icons';
import type { Item } from '@dam/contract';
import { Button, Dropdown, type MenuProps, Space } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import styles from './files.module.css';

type MenuItem = NonNullable<MenuProps['items']>[number];

/** An action a page adds to the selection's "more" menu (a collection's "remove from collection"). */
export interface SelectionAction {
  key: string;
  label: string;
  icon: ReactNode;
  run: (items: Item[]) => void;
}

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
  onCollect,
  extraActions = [],
  onClear,
  onSelectAll,
}: {
  items: Item[];
  onMove: () => void;
  /** To the recycle bin; absent where "delete" would be mistaken for taking them out of a list (a collection's page). */
  onDelete?: () => void;
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
  /** Add them to a collection (issue 43). */
  onCollect?: () => void;
  extraActions?: SelectionAction[];
  onClear: () => void;
  onSelectAll: () => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const editable = items.every((i) => i.authList.includes('edit'));
  // Menu items take their test ids as extra attributes of the <li>.
  const entry = (key: string, icon: ReactNode, label: string, onClick: () => void, disabled = false) =>
    ({ key, icon, label, onClick, disabled, 'data-testid': `selection-${key}` }) as MenuItem;
  const more: MenuItem[] = [
    entry('move', <DragOutlined />, t('files.move'), onMove, !editable),
    entry('favourite', <StarOutlined />, t('files.favourite'), onFavourite),
    ...(onCollect ? [entry('collect', <AppstoreAddOutlined />, t('collections.add'), onCollect)] : []),
    ...extraActions.map((action) => entry(action.key, action.icon, action.label, () => action.run(items))),
    // The compose screen reads the article numbers of these files and folders (issue 16).
    entry('compose', <PictureOutlined />, t('files.compose'), () =>
      navigate(`/composite?items=${items.map((i) => i.id).join(',')}`),
    ),
    ...(onSimilar ? [entry('similar', <CopyOutlined />, t('similar.selectionAction'), onSimilar)] : []),
    ...(onExportTags
      ? [entry('export-tags', <FileExcelOutlined />, t('tagImport.export'), onExportTags)]
      : []),
  ];
  return (
    <div className={styles.selectionBar} data-testid="selection-bar">
      {/* The count keeps its line; the actions wrap under each other when the bar is narrow. */}
      <Space size={4} className={styles.selectionCount}>
        <strong>{t('files.selected', { count: items.length })}</strong>
        <Button type="link" size="small" onClick={onSelectAll}>
          {t('files.selectAll')}
        </Button>
        <Button type="link" size="small" onClick={onClear}>
          {t('files.clearSelection')}
        </Button>
      </Space>
      {/* The everyday actions as buttons, the rest in "more": nine buttons wrapped over two or
          three rows at 1366 and 1440 px once the folder tree stood beside the listing. */}
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
        {onDelete && (
          <Button
            icon={<DeleteOutlined />}
            danger
            onClick={onDelete}
            disabled={!editable}
            data-testid="selection-delete"
          >
            {t('files.delete')}
          </Button>
        )}
        <Dropdown trigger={['click']} menu={{ items: more }}>
          <Button icon={<EllipsisOutlined />} data-testid="selection-more">
            {t('files.moreActions')}
          </Button>
        </Dropdown>
      </Space>
    </div>
  );
}
