import { routes } from './endpoints/routes';
import { RankStatus, SortField } from './items-values';
import type { ReviewState } from './review-values';
import type { ColourTolerance } from './similar-values';

// The calls a page of the web app makes first, by the page's address (issue 12 goal 4). The web
// app's router asks for them as it starts, before the page's code has loaded, and the server
// answers them inside the page's HTML when the browser holds a session: one definition, so that
// the two agree on every byte of each call's address.

/** Items per page of a folder's listing in the web app. */
export const FOLDER_PAGE_SIZE = 60;

/** The listing's sort toggle (SPEC §2), sent as rankStatus. */
export type SortState = RankStatus;

/** What a folder opens with: newest first, nothing filtered. */
export const DEFAULT_SORT: SortState = RankStatus.normal;

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
  /** Only files in this review state (issue 43). */
  reviewState?: ReviewState;
}

/** The query of one page of a folder's listing (SPEC §7 all-file-v2). */
export function folderListingQuery(
  folderId: string,
  pageNo: number,
  sort: SortState = DEFAULT_SORT,
  filter: ListingFilter = {},
  sortBy: SortField = SortField.name,
) {
  // By name, or in the default order, the address is the one it was before sortBy existed.
  const by = sort !== RankStatus.normal && sortBy !== SortField.name ? { sortBy } : {};
  return { folderDataId: folderId, pageNo, pageSize: FOLDER_PAGE_SIZE, rankStatus: sort, ...by, ...filter };
}

export type QueryValues = Record<
  string,
  string | number | boolean | readonly (string | number)[] | undefined | null
>;

// Both users of the contract, Node and the browser, have it; the contract's own settings name
// neither one's library of types.
declare const URLSearchParams: new () => {
  append(name: string, value: string): void;
  set(name: string, value: string): void;
  toString(): string;
};

/** A path with its query as the web app sends it: a list as the same name repeated, empty values left out. */
export function urlWithQuery(path: string, query: QueryValues = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (Array.isArray(value)) for (const each of value) params.append(key, String(each));
    else if (value !== undefined && value !== null) params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

/** A call without a body, as `METHOD address`. */
export interface FirstCall {
  method: 'GET' | 'POST';
  url: string;
}

/** Pages shown without a session: they make no call of the signed-in layout. */
const SIGNED_OUT_PAGE = /^\/(login|oauth|visitfile)(\/|$)/i;
// Without regard to case, as the app's router matches its paths.
const FOLDER_PAGE = /^\/allfiles\/([^/]+)\/?$/i;

/**
 * The calls the web app makes first on the page at `pathname` when signed in: the signed-in
 * layout's user, and a folder page's first page of items.
 */
export function firstPageCalls(pathname: string): FirstCall[] {
  if (SIGNED_OUT_PAGE.test(pathname)) return [];
  const calls: FirstCall[] = [{ method: 'POST', url: routes.userInfo.path }];
  const folder = FOLDER_PAGE.exec(pathname)?.[1];
  let folderId: string | undefined;
  try {
    folderId = folder === undefined ? undefined : decodeURIComponent(folder);
  } catch {
    // Not an address the app's router would decode either: its page asks for nothing early.
  }
  if (folderId !== undefined)
    calls.push({
      method: 'GET',
      url: urlWithQuery(routes.folderListing.path, folderListingQuery(folderId, 1)),
    });
  return calls;
}

/**
 * The id of the `application/json` script in which the server hands the page the answers to its
 * first calls, by `METHOD address`: each a success envelope of SPEC §8.
 */
export const FIRST_ANSWERS_ELEMENT_ID = 'dam-first-answers';

/** The key of a first call's answer in that script. */
export const firstCallKey = (call: FirstCall): string => `${call.method} ${call.url}`;
