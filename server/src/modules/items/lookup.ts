import { type FolderRef, ItemState, ItemType, isTopLevel } from '@dam/contract';
import { AppError } from '../../http/app-error';
import type { AuthContext } from '../access/access';
import { canSee, requireLiveItem } from './policy';
import { splitPath } from './presenter';
import type { ItemsRepository, ItemWithOwner } from './repository';

/**
 * A live folder the caller can see. Unknown, hidden or not a folder → SE_404 alike, so ids cannot
 * be probed (docs/decisions.md, Errors); in the recycle bin → SEF_04.
 */
export async function visibleFolder(
  repo: ItemsRepository,
  auth: AuthContext,
  id: number,
): Promise<ItemWithOwner> {
  const row = requireLiveItem(auth, await repo.findById(id, auth.userId));
  if (row.type !== ItemType.folder) throw new AppError('SE_404');
  return row;
}

/**
 * A live file (not a folder) the caller can see: unknown, hidden or a folder SE_404 alike, so ids
 * cannot be probed; in the recycle bin SEF_04 (the viewer's detail and its sections).
 */
export async function visibleFile(
  repo: ItemsRepository,
  auth: AuthContext,
  id: number,
): Promise<ItemWithOwner> {
  const row = await repo.findById(id, auth.userId);
  if (!row || row.type === ItemType.folder || !canSee(auth, row)) throw new AppError('SE_404');
  if (row.state !== ItemState.normal) throw new AppError('SEF_04');
  return row;
}

/** A folder named by id or display path, visible to the caller; null is the top level. */
export async function resolveFolder(
  repo: ItemsRepository,
  auth: AuthContext,
  ref: { id?: FolderRef | undefined; path?: string | undefined },
): Promise<ItemWithOwner | null> {
  if (ref.id !== undefined) return isTopLevel(ref.id) ? null : visibleFolder(repo, auth, Number(ref.id));
  const split = splitPath(ref.path ?? '/');
  if (!split) return null;
  const found = await repo.findLiveFolderByPath(split.folderPath, split.name);
  if (!found) throw new AppError('SE_404');
  return visibleFolder(repo, auth, found.id);
}
