import { type Kysely, sql } from 'kysely';

/**
 * Near-duplicates and colour search (issue 17; docs/plans/issue-17-near-duplicates.md §3, §7, §8).
 *
 * - `media_fingerprints`: one row per upload with a raster preview: a 64-bit perceptual hash stored
 *   as a signed bigint (read it as `hash::text`: the driver turns bigint into a JS number, exact only
 *   to 2^53) and its four 16-bit bands as generated columns, so a hash and its bands cannot
 *   disagree. Each band has a covering index: a lookup is four index-only scans over the ±2-bit
 *   neighbours of each band (multi-index hashing), which finds every hash within 11 bits.
 * - `media_colours`: up to five dominant OKLab colours per upload (×1000, weight ‰).
 * - `item_colours`: the cover upload's colours copied per item with their colour cell and the item's
 *   creation time, so a colour search walks each nearby cell newest-first and stops after a page.
 * - `near_duplicate_pairs`: pairs found when a fingerprint is stored (up to 11 bits and 0.3 in
 *   colour, whatever the configured threshold), for the duplicate report.
 * - `uploads.version_of_item_id`: an upload the uploader asked to add as a version of that item.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE media_fingerprints (
      upload_id bigint PRIMARY KEY REFERENCES uploads (id) ON DELETE CASCADE,
      -- 1 ready, 2 too small, 3 blank, 4 animated, 5 no raster preview, 6 failed
      status smallint NOT NULL CHECK (status BETWEEN 1 AND 6),
      reason text CHECK (char_length(reason) <= 200),
      hash bigint CHECK ((status = 1) = (hash IS NOT NULL)),
      b0 smallint GENERATED ALWAYS AS (((hash & 65535) - 32768)::smallint) STORED,
      b1 smallint GENERATED ALWAYS AS ((((hash >> 16) & 65535) - 32768)::smallint) STORED,
      b2 smallint GENERATED ALWAYS AS ((((hash >> 32) & 65535) - 32768)::smallint) STORED,
      b3 smallint GENERATED ALWAYS AS ((((hash >> 48) & 65535) - 32768)::smallint) STORED,
      algo smallint NOT NULL,
      computed_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  for (const band of ['b0', 'b1', 'b2', 'b3']) {
    await sql`CREATE INDEX ${sql.raw(`media_fp_${band}`)} ON media_fingerprints (${sql.raw(band)}) INCLUDE (hash, upload_id) WHERE hash IS NOT NULL`.execute(
      db,
    );
  }
  await sql`
    CREATE TABLE media_colours (
      upload_id bigint NOT NULL REFERENCES uploads (id) ON DELETE CASCADE,
      slot smallint NOT NULL CHECK (slot BETWEEN 0 AND 4),
      l smallint NOT NULL,
      a smallint NOT NULL,
      b smallint NOT NULL,
      weight smallint NOT NULL CHECK (weight BETWEEN 0 AND 1000),
      PRIMARY KEY (upload_id, slot)
    )`.execute(db);
  await sql`
    CREATE TABLE item_colours (
      item_id bigint NOT NULL REFERENCES items (id) ON DELETE CASCADE,
      slot smallint NOT NULL CHECK (slot BETWEEN 0 AND 4),
      l smallint NOT NULL,
      a smallint NOT NULL,
      b smallint NOT NULL,
      weight smallint NOT NULL CHECK (weight BETWEEN 0 AND 1000),
      cell smallint NOT NULL,
      -- the item's own (items.created_at never changes): the walk's order without a join
      created_at timestamptz NOT NULL,
      PRIMARY KEY (item_id, slot)
    )`.execute(db);
  await sql`CREATE INDEX item_colours_cell_time ON item_colours (cell, created_at DESC, item_id DESC) INCLUDE (l, a, b, weight)`.execute(
    db,
  );
  await sql`
    CREATE TABLE near_duplicate_pairs (
      upload_a bigint NOT NULL REFERENCES uploads (id) ON DELETE CASCADE,
      upload_b bigint NOT NULL REFERENCES uploads (id) ON DELETE CASCADE,
      distance smallint NOT NULL CHECK (distance BETWEEN 0 AND 64),
      -- palette distance × 1000
      colour_distance smallint NOT NULL,
      PRIMARY KEY (upload_a, upload_b),
      CHECK (upload_a < upload_b)
    )`.execute(db);
  await sql`CREATE INDEX near_duplicate_pairs_b ON near_duplicate_pairs (upload_b)`.execute(db);
  await sql`ALTER TABLE uploads ADD COLUMN version_of_item_id bigint REFERENCES items (id) ON DELETE SET NULL`.execute(
    db,
  );
}
