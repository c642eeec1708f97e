import { type Kysely, sql } from 'kysely';

/**
 * Metadata embedded in files (issue 42): one row per upload record whose bytes were read by
 * ExifTool in the media job (or the back-fill). `status` 1 ready, 2 none (nothing to read: a
 * format without metadata), 3 failed (`reason` says why). The capture time is the camera's wall
 * clock (`captured_local`) with its offset from UTC in minutes where the file gives one: a person
 * filtering by "taken on 4 May" means the local day. `platform_*` are what a download of ours wrote
 * (the round trip: a file downloaded and uploaded again is recognised).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE upload_metadata (
      upload_id bigint PRIMARY KEY REFERENCES uploads (id) ON DELETE CASCADE,
      status smallint NOT NULL CHECK (status BETWEEN 1 AND 3),
      reason text CHECK (char_length(reason) <= 200),
      camera text,
      lens text,
      captured_local timestamp,
      captured_offset smallint CHECK (captured_offset BETWEEN -1080 AND 1080),
      orientation smallint CHECK (orientation BETWEEN 1 AND 8),
      gps_latitude double precision CHECK (gps_latitude BETWEEN -90 AND 90),
      gps_longitude double precision CHECK (gps_longitude BETWEEN -180 AND 180),
      title text,
      description text,
      creator text,
      copyright text,
      usage_terms text,
      keywords text[] NOT NULL DEFAULT '{}',
      rating smallint CHECK (rating BETWEEN -1 AND 5),
      label text,
      icc_profile text,
      colour_space text,
      layer_count integer,
      page_count integer,
      duration real,
      video_codec text,
      frame_rate real,
      platform_file_id text,
      platform_article_numbers text[] NOT NULL DEFAULT '{}',
      platform_signature text,
      read_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
}
