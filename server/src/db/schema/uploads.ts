import type { PreviewStatus, UploadStatus } from '@dam/contract';
import type { ColumnType, Generated } from 'kysely';
import type { Timestamp } from './columns';

/** Upload records and parts, and what the media job stores of them (fingerprints, colours, near-duplicates). */

export interface UploadTable {
  id: Generated<number>;
  batch_num: string;
  user_id: number;
  folder_id: number | null;
  relative_path: Generated<string>;
  file_name: string;
  base_name: string;
  format: string;
  file_size: number;
  last_modified: Date | null;
  storage_key: string;
  multipart_id: string | null;
  part_size: number | null;
  status: Generated<UploadStatus>;
  upload_schedule: Generated<number>;
  error: string | null;
  art_num: string | null;
  expire_start_date: string | null;
  expire_end_date: string | null;
  tag_ids: ColumnType<number[], number[] | undefined, number[]>;
  item_id: number | null;
  width: number | null;
  height: number | null;
  preview_status: Generated<PreviewStatus>;
  preview_attempts: Generated<number>;
  thumb_key: string | null;
  preview_key: string | null;
  /** A video's playable MP4 rendition (migration 014), when the original does not play. */
  play_key: string | null;
  play_status: PreviewStatus | null;
  /** Pages of a PDF/AI (migration 014). */
  page_count: number | null;
  hidden: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
  completed_at: Date | null;
  /** The item the uploader asked this file to become a version of (migration 025, issue 17). */
  version_of_item_id: Generated<number | null>;
}

/**
 * An upload's perceptual hash (migration 025). `hash` is a signed 64-bit value: write it as the
 * decimal string of `hashToSigned`, read it as `hash::text` (the driver makes bigint a JS number,
 * exact only to 2^53). The bands are generated from it.
 */
export interface MediaFingerprintTable {
  upload_id: number;
  status: number;
  reason: string | null;
  hash: string | null;
  b0: Generated<number | null>;
  b1: Generated<number | null>;
  b2: Generated<number | null>;
  b3: Generated<number | null>;
  algo: number;
  computed_at: Generated<Timestamp>;
}

/** One of an upload's dominant colours: OKLab × 1000, weight in ‰ (migration 025). */
export interface MediaColourTable {
  upload_id: number;
  slot: number;
  l: number;
  a: number;
  b: number;
  weight: number;
}

/** The cover upload's colours per item, with their colour cell and the item's creation time. */
export interface ItemColourTable extends Omit<MediaColourTable, 'upload_id'> {
  item_id: number;
  cell: number;
  created_at: Timestamp;
}

/** The share (‰) of an upload's picture each colour family covers (issue 39; 5 % and more). */
export interface MediaColourFamilyTable {
  upload_id: number;
  family: number;
  share: number;
}

/** The cover upload's family shares per item, with the item's creation time. */
export interface ItemColourFamilyTable {
  item_id: number;
  family: number;
  share: number;
  created_at: Timestamp;
}

/** Two uploads that look alike, found when the later fingerprint was stored (`upload_a < upload_b`). */
export interface NearDuplicatePairTable {
  upload_a: number;
  upload_b: number;
  distance: number;
  colour_distance: number;
}

export interface UploadPartTable {
  upload_id: number;
  part_number: number;
  size: number;
  etag: string;
}

/** What ExifTool read from one upload record (migration 035; issue 42). */
export interface UploadMetadataTable {
  upload_id: number;
  status: number;
  reason: string | null;
  camera: string | null;
  lens: string | null;
  /** The camera's wall clock, without a zone (`2026-05-04 10:20:30`). */
  captured_local: string | null;
  /** Minutes east of UTC, where the file says. */
  captured_offset: number | null;
  orientation: number | null;
  gps_latitude: number | null;
  gps_longitude: number | null;
  title: string | null;
  description: string | null;
  creator: string | null;
  copyright: string | null;
  usage_terms: string | null;
  keywords: string[];
  rating: number | null;
  label: string | null;
  icc_profile: string | null;
  colour_space: string | null;
  layer_count: number | null;
  page_count: number | null;
  duration: number | null;
  video_codec: string | null;
  frame_rate: number | null;
  platform_file_id: string | null;
  platform_article_numbers: string[];
  platform_signature: string | null;
  read_at: Generated<Timestamp>;
}
