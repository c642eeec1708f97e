import { type Kysely, sql } from 'kysely';

/**
 * A logical file's summary as one database call (issue 12 goal 6).
 *
 * Every media job, upload and version change ends by recomputing its file's formats, size, cover
 * and colours. As five statements in a transaction that took 6.4 ms of the embedded database's
 * one thread per call (each statement is parsed and planned again, and ~1 ms of protocol on
 * PGlite); as a PL/pgSQL function, whose statements keep their plans for the session, 1.8 ms.
 * On PostgreSQL it is one round trip instead of six.
 *
 * - `colour_cell(l, a, b)`: the colour search's index cell of an OKLab × 1000 colour, the same
 *   arithmetic as `colourCell` in packages/contract/src/fingerprint.ts (a test holds them equal over
 *   the whole range and beyond its edges).
 * - `replace_item_colours(item, cover_upload)`: the item's colours become its cover upload's
 *   (none without a cover), with their cells and the item's creation time; the fingerprint
 *   back-fill calls it on its own.
 * - `refresh_file_summary(item, at)`: what `ItemsRepository.refreshFileSummary` did, in the same
 *   order: the items row is updated (and so locked) first, then its colours are replaced by its
 *   cover upload's, so two refreshes of one item write its colours one after the other.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE FUNCTION colour_cell(l integer, a integer, b integer) RETURNS smallint
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
      SELECT (greatest(0, least(l, 999) / 100) * 256
        + ((least(greatest(a, -400), 399) + 400) / 50) * 16
        + ((least(greatest(b, -400), 399) + 400) / 50))::smallint
    $$`.execute(db);
  await sql`
    CREATE FUNCTION replace_item_colours(item bigint, cover_upload bigint) RETURNS void
    LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM item_colours WHERE item_id = item;
      IF cover_upload IS NOT NULL THEN
        INSERT INTO item_colours (item_id, slot, l, a, b, weight, cell, created_at)
        SELECT i.id, c.slot, c.l, c.a, c.b, c.weight, colour_cell(c.l, c.a, c.b), i.created_at
        FROM media_colours c CROSS JOIN items i
        WHERE c.upload_id = cover_upload AND i.id = item;
      END IF;
    END $$`.execute(db);
  await sql`
    CREATE FUNCTION refresh_file_summary(item bigint, at timestamptz) RETURNS void
    LANGUAGE plpgsql AS $$
    DECLARE
      cover_upload bigint;
    BEGIN
      WITH latest AS (
        SELECT DISTINCT ON (format) id, format, file_size, thumb_key, completed_at
        FROM uploads WHERE item_id = item AND status = 2 AND NOT hidden
        ORDER BY format, completed_at DESC, id DESC
      ), firsts AS (
        SELECT format, min(completed_at) AS first_at FROM uploads
        WHERE item_id = item AND status = 2 AND NOT hidden GROUP BY format
      ), cover AS (
        SELECT id, thumb_key FROM latest WHERE thumb_key IS NOT NULL ORDER BY completed_at DESC, id DESC LIMIT 1
      )
      UPDATE items SET
        file_formats = (SELECT string_agg(f.format, ',' ORDER BY f.first_at, f.format) FROM firsts f),
        total_size = COALESCE((SELECT sum(file_size) FROM latest), 0),
        cover_key = (SELECT thumb_key FROM cover),
        updated_at = at
      WHERE id = item
      RETURNING (SELECT id FROM cover) INTO cover_upload;
      IF FOUND THEN
        PERFORM replace_item_colours(item, cover_upload);
      END IF;
    END $$`.execute(db);
}
