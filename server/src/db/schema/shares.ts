import type {
  PresetColourProfile,
  PresetFormat,
  PresetMetadata,
  ShareState,
  ShareValidity,
} from '@dam/contract';
import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt, Timestamp } from './columns';

/** Download presets and tickets, share links. */

export interface DownloadPresetTable {
  id: Generated<number>;
  name: string;
  format: PresetFormat;
  long_side_px: number | null;
  background: string | null;
  file_name_template: string;
  /** What downloads do with embedded metadata (migration 036). */
  metadata: Generated<PresetMetadata>;
  /** Output colour profile: converted to sRGB, or the source's kept (migration 036). */
  colour_profile: Generated<PresetColourProfile>;
  created_by: number | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface DownloadTicketTable {
  token_hash: string;
  /** The session of a signed-in download, or null for a share link's visitor (share_id set). */
  session_id: number | null;
  share_id: number | null;
  /** An open API access record's link (migration 022); exactly one of the three holders is set. */
  api_access_id: ColumnType<number | null, number | null | undefined, number | null>;
  kind: string;
  request: ColumnType<unknown, string, string>;
  expires_at: Timestamp;
  created_at: CreatedAt;
}

/** A share link (SPEC §2 share-link dialog, §4 sharing/stopped). */
export interface ShareTable {
  id: Generated<number>;
  /** 144 random bits in base64url: the link's secret. */
  code: string;
  owner_id: number;
  /** The share password, kept so the owner can see it again; null = public link. */
  password: string | null;
  status: Generated<ShareState>;
  validity: ShareValidity;
  /** null = permanent. */
  expires_at: Date | null;
  view_count: Generated<number>;
  download_count: Generated<number>;
  created_at: Timestamp;
  stopped_at: Date | null;
  /** A link to a collection (migration 041): it shows the collection's items of each visit; null = its own items. */
  collection_id: ColumnType<number | null, number | null | undefined, number | null>;
}

/** The files and folders a link names, in the order chosen. */
export interface ShareItemTable {
  share_id: number;
  item_id: number;
  position: number;
}
