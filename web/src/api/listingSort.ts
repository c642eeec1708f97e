import { RankStatus, SortField } from '@dam/contract';
import { DEFAULT_SORT, type SortState } from './listingQuery';

/** A folder listing's order: the SPEC §2 toggle (default, up, down) and what up/down sort by. */
export interface ListingSort {
  rank: SortState;
  by: SortField;
}

export const DEFAULT_LISTING_SORT: ListingSort = { rank: DEFAULT_SORT, by: SortField.name };

const KEY = 'listingSort';
const LAST_USER_KEY = 'listingSort:lastUser';
const RANKS = new Set<string>(Object.values(RankStatus));
const FIELDS = new Set<string>(Object.values(SortField));

function read(key: string): ListingSort {
  try {
    const stored = JSON.parse(localStorage.getItem(key) ?? 'null') as Partial<ListingSort> | null;
    if (stored && RANKS.has(String(stored.rank)) && FIELDS.has(String(stored.by)))
      return { rank: stored.rank as SortState, by: stored.by as SortField };
  } catch {
    // Not ours or damaged: the default order.
  }
  return DEFAULT_LISTING_SORT;
}

/** The order this user last chose in this browser (issue 39: remembered per user). */
export function storedListingSort(userId: number | undefined): ListingSort {
  if (userId === undefined) return DEFAULT_LISTING_SORT;
  return read(`${KEY}:${userId}`);
}

/**
 * The order of the user who last chose one here, for the folder route's early first-page call,
 * made before the user's info has arrived (usually the same person; otherwise only that early
 * call is wasted).
 */
export function lastUsersListingSort(): ListingSort {
  const last = Number(localStorage.getItem(LAST_USER_KEY));
  return Number.isInteger(last) && last > 0 ? read(`${KEY}:${last}`) : DEFAULT_LISTING_SORT;
}

export function storeListingSort(userId: number, sort: ListingSort): void {
  try {
    localStorage.setItem(`${KEY}:${userId}`, JSON.stringify(sort));
    localStorage.setItem(LAST_USER_KEY, String(userId));
  } catch {
    // Storage full or refused: the order holds for this page only.
  }
}

/** The order a field starts in when it is chosen: newest, largest first; names and types A→Z. */
export const initialRankOf = (by: SortField): SortState =>
  by === SortField.name || by === SortField.type ? RankStatus.up : RankStatus.down;
