import type { Generated } from 'kysely';
import type { CreatedAt, Timestamp } from './columns';

/** SKUs, tag dimensions, tags and channel tags. */

/** The SKU (article number) master; art_num is unique regardless of case. */
export interface SkuTable {
  id: Generated<number>;
  art_num: string;
  name: string;
  series: string | null;
  category: string | null;
  color: string | null;
  season: string | null;
  gender: string | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

/** A tag dimension (SPEC §3); only top-level ones can be required. */
export interface TagDimensionTable {
  id: Generated<number>;
  name: string;
  required: Generated<boolean>;
  parent_id: number | null;
  /** Position among siblings. */
  position: Generated<number>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

/** A tag of a dimension; parent_id is its superior tag in the parent dimension. */
export interface TagTable {
  id: Generated<number>;
  dimension_id: number;
  name: string;
  parent_id: number | null;
  position: Generated<number>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface ItemTagTable {
  item_id: number;
  tag_id: number;
}

export interface SkuTagTable {
  sku_id: number;
  tag_id: number;
}

/** A channel tag of an item (SPEC §3): at most 10 characters, unique per item regardless of case. */
export interface ChannelTagTable {
  id: Generated<number>;
  item_id: number;
  channel_name: string;
  created_by: number | null;
  created_at: CreatedAt;
}
