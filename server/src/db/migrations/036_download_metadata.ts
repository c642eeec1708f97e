import { type Kysely, sql } from 'kysely';

/**
 * Download presets decide what happens to embedded metadata (issue 42): `embed` (the platform's
 * XMP/IPTC written into JPG, PNG, TIFF and PSD) or `strip` (everything but the ICC profile), and
 * the colour profile of their output: `srgb` (converted and tagged) or `keep` (the source's).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE download_presets
      ADD COLUMN metadata text NOT NULL DEFAULT 'embed' CHECK (metadata IN ('embed', 'strip')),
      ADD COLUMN colour_profile text NOT NULL DEFAULT 'srgb' CHECK (colour_profile IN ('srgb', 'keep'))`.execute(
    db,
  );
}
