import type { Generated } from 'kysely';
import type { Timestamp } from './columns';

/** A keyword → tag mapping rule (migration 037; issue 42). */
export interface MetadataTagRuleTable {
  id: Generated<number>;
  source: string;
  dimension_id: number;
  created_by: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A value a rule could not apply to a file: a conflict or an unmatched value (migration 037). */
export interface MetadataTagFindingTable {
  id: Generated<number>;
  upload_id: number;
  item_id: number;
  source: string;
  dimension_id: number;
  value: string;
  reason: string;
  detail: string[];
  created_at: Timestamp;
}
