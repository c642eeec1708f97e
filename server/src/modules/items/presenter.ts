import { type Item, ItemType } from '@dam/contract';
import type { AuthContext } from '../access/access';
import { canDownload, canEdit, canSee, canShare, canUploadInto } from './policy';
import type { ItemWithOwner } from './repository';

/** SPEC §4: expired when the end date is before today or the start date after today. */
export function isExpired(start: string | null, end: string | null, today: string): boolean {
  return (end !== null && end < today) || (start !== null && start > today);
}

/** The API shape of an item as the caller sees it, with what they may do with it. */
export function presentItem(row: ItemWithOwner, auth: AuthContext, today: string): Item {
  const authList: Item['authList'] = ['view'];
  // A folder: creating in it. A file: adding versions or formats to it (the viewer's "upload a
  // new version"), which only a caller who may change the file does; others' uploads of the same
  // name become a file of their own.
  if (row.type === ItemType.folder ? canUploadInto(auth, row) : canSee(auth, row) && canEdit(auth, row))
    authList.push('upload');
  if (canDownload(auth, row)) authList.push('download');
  if (canShare(auth, row)) authList.push('share');
  if (canEdit(auth, row)) authList.push('edit');
  return {
    id: row.id,
    folderDataId: row.id,
    type: row.type,
    name: row.name,
    path: row.folder_path,
    parentId: row.parent_id,
    fileFormat: row.file_formats,
    compactUrl: null,
    fileSize: row.total_size,
    artNum: row.art_num,
    expireStartTime: row.expire_start_date,
    expireEndTime: row.expire_end_date,
    expired: isExpired(row.expire_start_date, row.expire_end_date, today),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    ownerId: row.owner_id,
    userName: row.user_name,
    visibility: row.visibility,
    collected: row.collected,
    viewCount: row.view_count,
    downloadCount: row.download_count,
    reviewState: row.review_state,
    authList,
  };
}

/** Joins a folder's display path and a name: `/` + `A` → `/A`, `/A` + `B` → `/A/B`. */
export function joinPath(folderPath: string, name: string): string {
  return folderPath === '/' ? `/${name}` : `${folderPath}/${name}`;
}

/** Splits `/A/B` into its folder path `/A` and name `B`; `/` or empty → null (the top level). */
export function splitPath(path: string): { folderPath: string; name: string } | null {
  const segments = path
    .split('/')
    .map((s) => s.trim())
    .filter(Boolean);
  const name = segments.pop();
  if (name === undefined) return null;
  return { folderPath: segments.length === 0 ? '/' : `/${segments.join('/')}`, name };
}
