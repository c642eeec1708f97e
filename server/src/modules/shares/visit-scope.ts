import { ItemState } from '@dam/contract';
import { AppError } from '../../http/app-error';
import type { AuthContext } from '../access/access';
import { canSee } from '../items/policy';
import type { ItemsRepository, ItemWithOwner } from '../items/repository';
import { expiredFile } from './link-rules';
import type { ShareWithOwner } from './repository';

/** A visitor's view of one live link: the link, what its owner may do now, what it still names. */
export interface Visit {
  share: ShareWithOwner;
  owner: AuthContext;
  roots: ItemWithOwner[];
  /** Id paths of everything the link names, removed items included (to tell "deleted" apart). */
  named: string[];
}

/**
 * The outermost item the link names that holds `row` (or is it), when `row` lies inside the link.
 */
export function rootOf(visit: Visit, row: { id_path: string }): ItemWithOwner | undefined {
  return visit.roots
    .filter((root) => row.id_path.startsWith(root.id_path))
    .sort((a, b) => a.id_path.length - b.id_path.length)[0];
}

/**
 * An item of the link for a visitor: it must lie inside what the link offers (else SE_502, also
 * for unknown ids: a visitor learns nothing of items outside), be live (SEF_04 when it was in
 * the link and has been deleted since) and visible to the owner (SE_502).
 */
export async function itemInside(
  items: Pick<ItemsRepository, 'findById'>,
  visit: Visit,
  today: string,
  id: number,
): Promise<{ row: ItemWithOwner; root: ItemWithOwner }> {
  const row = await items.findById(id, visit.share.owner_id);
  if (!row) throw new AppError('SE_502');
  const wasInside = visit.named.some((path) => row.id_path.startsWith(path));
  if (row.state !== ItemState.normal && wasInside) throw new AppError('SEF_04');
  const root = rootOf(visit, row);
  if (!root) throw new AppError('SE_502');
  if (!canSee(visit.owner, row)) throw new AppError('SE_502');
  if (expiredFile(row, today)) throw new AppError('SE_502');
  return { row, root };
}
