import type { Item } from '@dam/contract';
import { type Clock, calendarDate } from '../../lib/clock';
import { type AuthContext, fileScopeFilter } from '../access/access';
import type { Viewer } from '../access/visibility.repository';
import type { MediaUrls } from '../media/urls';
import { presentItem } from './presenter';
import type { ItemWithOwner } from './queries.repository';

export interface Paging {
  pageNo: number;
  pageSize: number;
}

/** The visibility rule's view of a caller. */
export const viewerOf = (auth: AuthContext): Viewer => ({
  userId: auth.userId,
  view: fileScopeFilter(auth, 'view'),
});

/** Rows to fetch for a page: one more than its size tells whether another follows. */
export const pageWindow = (paging: Paging) => ({
  limit: paging.pageSize + 1,
  offset: (paging.pageNo - 1) * paging.pageSize,
});

/** One page of a list fetched with `pageWindow`. */
export function pageOf<T>(
  rows: T[],
  paging: Paging,
): { list: T[]; pageNo: number; pageSize: number; hasMore: boolean } {
  return {
    list: rows.slice(0, paging.pageSize),
    pageNo: paging.pageNo,
    pageSize: paging.pageSize,
    hasMore: rows.length > paging.pageSize,
  };
}

/** Items as the API shows them in lists: validity judged on today's date, signed thumbnail URLs. */
export class ItemPresenter {
  constructor(
    private readonly clock: Clock,
    /** Time zone whose calendar decides "today" for file validity (SPEC §4). */
    private readonly timeZone: string,
    private readonly mediaUrls: MediaUrls,
  ) {}

  today(): string {
    return calendarDate(this.clock.now(), this.timeZone);
  }

  /** API items with signed thumbnail URLs. */
  async present(rows: ItemWithOwner[], auth: AuthContext): Promise<Item[]> {
    const today = this.today();
    return Promise.all(
      rows.map(async (row) => ({
        ...presentItem(row, auth, today),
        compactUrl: await this.mediaUrls.urlOf(row.cover_key, auth),
      })),
    );
  }
}
