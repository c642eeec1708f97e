import type { ReviewState, SortField } from '@dam/contract';
import type { ItemRow } from '../../db/schema';
import type { ColourFilter } from './colour-filter';

/** The default order (folders, then newest first), or a field up or down (issue 39). */
export type ListOrder = 'normal' | `${SortField}${'Asc' | 'Desc'}`;

export interface ListingFilter {
  minCreatedAt?: Date | undefined;
  maxCreatedAt?: Date | undefined;
  minExpireDate?: string | undefined;
  maxExpireDate?: string | undefined;
  /**
   * Tag filter: the item must carry at least one tag of every group (one group per dimension;
   * see `tagFilterGroups`).
   */
  tagGroups?: number[][] | undefined;
  /** Leaves out files expired on this day (YYYY-MM-DD, SPEC §4); folders stay. */
  validOn?: string | undefined;
  /** Only files mostly of this colour family (issue 39); folders have no colours. */
  colour?: ColourFilter | undefined;
  /**
   * With a colour, in the newest-first order: read the colour index's merged walk (plan §8) rather
   * than probe each row of the folder. `listChildren` decides, when unset, by which side is smaller.
   */
  colourWalk?: boolean | undefined;
  /** Only files in this review state (issue 43); folders are never in one. */
  reviewState?: ReviewState | undefined;
}

export type NewFolder = Pick<
  ItemRow,
  'parent_id' | 'name' | 'folder_path' | 'owner_id' | 'dept_path' | 'visibility' | 'created_at'
> & { parentIdPath: string };
