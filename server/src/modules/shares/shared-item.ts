import { ItemType, type SharedItem } from '@dam/contract';
import type { AuthContext } from '../access/access';
import { canDownload } from '../items/policy';
import { isExpired } from '../items/presenter';
import type { ItemWithOwner } from '../items/repository';

/**
 * A file or folder as a share-link visitor sees it. `root` is the item of the link holding it
 * (null when it is one the link names): paths start there, so nothing of the owner's tree above
 * shows. `owner` is the link owner's access of this moment.
 */
export function presentSharedItem(
  row: ItemWithOwner,
  root: ItemWithOwner | null,
  owner: AuthContext,
  /** The visitor's media URL: it lives as long as the link, not a session of the owner's. */
  compactUrl: string | null,
  today: string,
): SharedItem {
  let path = '/';
  if (root)
    path = root.folder_path === '/' ? row.folder_path : row.folder_path.slice(root.folder_path.length);
  // A folder's zip lists what cannot be downloaded instead of refusing it (as signed in).
  const downloadable = row.type === ItemType.folder || canDownload(owner, row);
  return {
    id: row.id,
    folderDataId: row.id,
    type: row.type,
    name: row.name,
    path,
    parentId: root ? row.parent_id : null,
    fileFormat: row.file_formats,
    compactUrl,
    fileSize: row.total_size,
    artNum: row.art_num,
    expireStartTime: row.expire_start_date,
    expireEndTime: row.expire_end_date,
    expired: isExpired(row.expire_start_date, row.expire_end_date, today),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    userName: row.user_name,
    authList: downloadable ? ['view', 'download'] : ['view'],
  };
}
