import { type Kysely, sql } from 'kysely';

/**
 * Search by colour family (issue 39 defect 1): "green" finds pictures that are mostly green, not
 * those with a colour within ±0.08 of one shade.
 *
 * - `colour_family(l, a, b)`: the family of an OKLab × 1000 colour, the same arithmetic as
 *   `colourFamilyOf` in packages/contract/src/colour-families.ts (a test holds them equal).
 * - `media_colour_families`: per upload, the share (‰) of the picture each family covers, counted
 *   per pixel by the media job (`familySharesOf`); families under 5 % are not stored.
 * - `item_colour_families`: the cover upload's shares per item with the item's creation time, as
 *   `item_colours`. One partial index per tolerance (30, 15, 8 %) on (family, created_at DESC,
 *   item_id DESC): a search by colour alone is one index range, newest first, stopping after a page.
 * - `replace_item_colours` copies the families with the colours.
 * - Back-fill: the stored dominant colours' weights summed per family, until the fingerprint
 *   back-fill (FINGERPRINT_ALGO 2) counts each picture again from its thumbnail. The palette leaves
 *   out a uniform border, so a coloured background counts only after that re-count.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE FUNCTION colour_family(l integer, a integer, b integer) RETURNS smallint
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
    DECLARE
      c2 integer := a * a + b * b;
      h double precision;
    BEGIN
      IF l < 250 OR (l < 350 AND c2 < 2500) THEN RETURN 10; END IF;
      IF c2 < 1225 OR (l >= 930 AND c2 < 4900) THEN
        IF l >= 900 THEN RETURN 11; END IF;
        IF l < 350 THEN RETURN 10; END IF;
        RETURN 12;
      END IF;
      h := (atan2(b::double precision, a::double precision) * 180) / pi();
      IF h < 0 THEN h := h + 360; END IF;
      IF h >= 15 AND h < 100 AND c2 < 8100 AND l < 850 THEN RETURN 9; END IF;
      IF h >= 35 AND h < 100 AND l < 580 THEN RETURN 9; END IF;
      IF h >= 340 OR h < 15 THEN RETURN CASE WHEN l >= 600 THEN 8 ELSE 1 END; END IF;
      IF h < 44 THEN RETURN 1; END IF;
      IF h < 75 THEN RETURN 2; END IF;
      IF h < 118 THEN RETURN CASE WHEN h >= 100 AND l < 680 THEN 4 ELSE 3 END; END IF;
      IF h < 175 THEN RETURN 4; END IF;
      IF h < 215 THEN RETURN 5; END IF;
      IF h < 290 THEN RETURN 6; END IF;
      RETURN 7;
    END $$`.execute(db);
  await sql`
    CREATE TABLE media_colour_families (
      upload_id bigint NOT NULL REFERENCES uploads (id) ON DELETE CASCADE,
      family smallint NOT NULL CHECK (family BETWEEN 1 AND 12),
      share smallint NOT NULL CHECK (share BETWEEN 0 AND 1000),
      PRIMARY KEY (upload_id, family)
    )`.execute(db);
  await sql`
    CREATE TABLE item_colour_families (
      item_id bigint NOT NULL REFERENCES items (id) ON DELETE CASCADE,
      family smallint NOT NULL CHECK (family BETWEEN 1 AND 12),
      share smallint NOT NULL CHECK (share BETWEEN 0 AND 1000),
      created_at timestamptz NOT NULL,
      PRIMARY KEY (item_id, family)
    )`.execute(db);
  for (const share of [300, 150, 80]) {
    await sql`CREATE INDEX ${sql.raw(`item_colour_families_${share}`)} ON item_colour_families (family, created_at DESC, item_id DESC)
      WHERE share >= ${sql.lit(share)}`.execute(db);
  }
  await sql`
    CREATE OR REPLACE FUNCTION replace_item_colours(item bigint, cover_upload bigint) RETURNS void
    LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM item_colours WHERE item_id = item;
      DELETE FROM item_colour_families WHERE item_id = item;
      IF cover_upload IS NOT NULL THEN
        INSERT INTO item_colours (item_id, slot, l, a, b, weight, cell, created_at)
        SELECT i.id, c.slot, c.l, c.a, c.b, c.weight, colour_cell(c.l, c.a, c.b), i.created_at
        FROM media_colours c CROSS JOIN items i
        WHERE c.upload_id = cover_upload AND i.id = item;
        INSERT INTO item_colour_families (item_id, family, share, created_at)
        SELECT i.id, f.family, f.share, i.created_at
        FROM media_colour_families f CROSS JOIN items i
        WHERE f.upload_id = cover_upload AND i.id = item;
      END IF;
    END $$`.execute(db);
  await sql`
    INSERT INTO media_colour_families (upload_id, family, share)
    SELECT upload_id, family, least(1000, sum(weight))
    FROM (SELECT upload_id, colour_family(l, a, b) AS family, weight FROM media_colours) c
    GROUP BY upload_id, family
    HAVING sum(weight) >= 50`.execute(db);
  await sql`
    INSERT INTO item_colour_families (item_id, family, share, created_at)
    SELECT item_id, family, least(1000, sum(weight)), min(created_at)
    FROM (SELECT item_id, colour_family(l, a, b) AS family, weight, created_at FROM item_colours) c
    GROUP BY item_id, family
    HAVING sum(weight) >= 50`.execute(db);
}
