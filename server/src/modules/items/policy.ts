import { ItemState, PermissionScope } from '@dam/contract';
import { AppError } from '../../http/app-error';
import type { AuthContext } from '../access/access';
import { canOnDepartment } from '../access/access';

/** The columns the item rules look at. */
export interface ItemAccessFacts {
  owner_id: number;
  visibility: 'shared' | 'private';
  dept_path: string;
}

/** Private items are their owner's alone; shared ones follow the view scope. */
export function canSee(auth: AuthContext, item: ItemAccessFacts): boolean {
  if (item.owner_id === auth.userId) return true;
  return item.visibility === 'shared' && canOnDepartment(auth, 'view', item.dept_path);
}

/**
 * Renaming, moving and deleting: the owner, or whoever may upload within the item's department.
 * (SPEC §6 names only view/upload/download/share; upload is the permission to change content.)
 */
export function canEdit(auth: AuthContext, item: ItemAccessFacts): boolean {
  if (item.owner_id === auth.userId) return true;
  return item.visibility === 'shared' && canOnDepartment(auth, 'upload', item.dept_path);
}

/** Creating in a folder (`null`: the top level). */
export function canUploadInto(auth: AuthContext, folder: ItemAccessFacts | null): boolean {
  if (folder === null) return auth.fileScopes.upload !== 'none';
  return canSee(auth, folder) && canEdit(auth, folder);
}

export function canDownload(auth: AuthContext, item: ItemAccessFacts): boolean {
  return (
    canSee(auth, item) && (item.owner_id === auth.userId || canOnDepartment(auth, 'download', item.dept_path))
  );
}

/** Sharing by link needs the role's share permission even for one's own items. */
export function canShare(auth: AuthContext, item: ItemAccessFacts): boolean {
  if (auth.fileScopes.share === PermissionScope.none || !canSee(auth, item)) return false;
  return item.owner_id === auth.userId || canOnDepartment(auth, 'share', item.dept_path);
}

/**
 * The item a caller acts on, or the error that says why not: unknown or not visible SE_404 alike
 * (docs/decisions.md, Errors), in the recycle bin SEF_04; with `edit`, one the caller may not
 * change SE_502.
 */
export function requireLiveItem<T extends ItemAccessFacts & { state: number }>(
  auth: AuthContext,
  row: T | undefined,
  access: 'see' | 'edit' = 'see',
): T {
  if (!row || !canSee(auth, row)) throw new AppError('SE_404');
  if (row.state !== ItemState.normal) throw new AppError('SEF_04');
  if (access === 'edit' && !canEdit(auth, row)) throw new AppError('SE_502');
  return row;
}
