import { type ColourTolerance, RankStatus } from '@dam/contract';

// The folder listing's request, apart from the hooks that make it: the router asks for a folder's
// first page before the page's code has arrived (issue 12 goal 4), and the page's own call must
// then be the very same request to take that answer.

export const PAGE_SIZE = 60;

/** The listing's sort toggle (SPEC §2), sent as rankStatus. */
export type SortState = RankStatus;

export interface ListingFilter {
  minCreatedAt?: string;
  maxCreatedAt?: string;
  minExpireTime?: string;
  maxExpireTime?: string;
  /** Items carrying these tags (tags of one dimension are alternatives; every dimension must match). */
  tagIdList?: number[];
  /** Items whose dominant colours are near this `#rrggbb` (issue 17). */
  colour?: string;
  /** How near (only with a colour; the server's default is normal). */
  colourTolerance?: ColourTolerance;
}

/** What a folder opens with: newest first, nothing filtered. */
export const DEFAULT_SORT: SortState = RankStatus.normal;

/** The query of one page of a folder's listing (SPEC §7 all-file-v2). */
export function folderListingQuery(
  folderId: string,
  pageNo: number,
  sort: SortState = DEFAULT_SORT,
  filter: ListingFilter = {},
) {
  return { folderDataId: folderId, pageNo, pageSize: PAGE_SIZE, rankStatus: sort, ...filter };
}
