import type { Generated } from 'kysely';
import type { Timestamp } from './columns';

/** A collection of references to files and folders (migration 039; issue 43). */
export interface CollectionTable {
  id: Generated<number>;
  name: string;
  description: Generated<string>;
  owner_id: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A colleague the owner let in: `editor` (adds, removes, orders) or `viewer`. */
export interface CollectionMemberTable {
  collection_id: number;
  user_id: number;
  role: 'editor' | 'viewer';
}

export interface CollectionItemTable {
  collection_id: number;
  item_id: number;
  position: number;
  added_by: number | null;
  added_at: Timestamp;
}
