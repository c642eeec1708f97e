import type { ItemState, ItemType, ReviewState, Visibility } from '@dam/contract';
import type { Generated } from 'kysely';
import type { Timestamp } from './columns';

/** Items (folders and logical files), favourites, recent views and app settings. */

export interface ItemTable {
  id: Generated<number>;
  type: ItemType;
  parent_id: number | null;
  name: string;
  id_path: string;
  folder_path: string;
  owner_id: number;
  /**
   * Denormalised path of the owner's department: rewritten when a department moves (its whole
   * subtree) and when the owner changes department (their items follow them).
   */
  dept_path: string;
  visibility: Visibility;
  state: Generated<ItemState>;
  removed_at: Date | null;
  removed_by: number | null;
  removed_root_id: number | null;
  art_num: string | null;
  /** Validity dates as YYYY-MM-DD (PostgreSQL `date`, read back as text). */
  expire_start_date: string | null;
  expire_end_date: string | null;
  file_formats: string | null;
  total_size: Generated<number>;
  cover_key: string | null;
  view_count: Generated<number>;
  download_count: Generated<number>;
  /** Of download_count, those made through a share link. */
  share_download_count: Generated<number>;
  /** Review state (migration 040, issue 43); folders stay `draft`. */
  review_state: Generated<ReviewState>;
  review_changed_at: Date | null;
  review_changed_by: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface CollectTable {
  user_id: number;
  item_id: number;
  created_at: Timestamp;
}

export interface RecentViewTable {
  user_id: number;
  item_id: number;
  viewed_at: Timestamp;
  /** The viewer's opening last counted as a view of the file (migration 030, issue 39 item 3). */
  opening: Generated<string | null>;
}

export interface AppSettingTable {
  key: string;
  value: string;
}
