// bench/similar.ts's data set, by SQL: the folders and files of bench/scale.ts (`seedFolder`,
// `seedFiles` in bench/server.ts), then a fingerprint and 5 colours for every upload and the same
// colours per item (seedFingerprints), then VACUUM ANALYZE.
import { colourCell } from '@dam/contract';
import { type Kysely, sql } from 'kysely';
import type { DatabaseHandle, Db } from '../server/src/db/database';
import type { Database } from '../server/src/db/schema';
import { type GivenUser, givenUser } from '../server/test/factories';
import { seedFiles, seedFolder } from './server';

/** Base hashes the clumped tenth of the fingerprints are near copies of. */
export const BASES = 1_000;

/** Drops the named indexes, returning their definitions to create them again after a bulk load. */
async function dropIndexes(db: Kysely<Database>, names: string[]): Promise<string[]> {
  const { rows } = await sql<{ indexname: string; indexdef: string }>`
    SELECT indexname, indexdef FROM pg_indexes WHERE indexname = ANY(${names}::text[])`.execute(db);
  for (const row of rows) await sql`DROP INDEX ${sql.id(row.indexname)}`.execute(db);
  return rows.map((row) => row.indexdef);
}

/**
 * Fingerprints and colours for every upload, by SQL. Upload ids divisible by 10 are near copies
 * (2 distinct bits flipped) of base hash `(id / 10) % 1000` and share that base's colours; the
 * rest are random hashes with colours of their own. Colours are drawn from `hashint8`, so a base's
 * palette is the same wherever it is computed: slot 0 a light background (L 0.90–0.99, a and b
 * within ±0.01, weight 30–44 %), slots 1–4 L 0.2–0.9 and a, b each a sum of three uniform values
 * (±0.3, spread 0.1), weights 18–26 %, 11–17 %, 6–10 %, 1–3 %. The band and colour indexes are
 * dropped during the load and made again from their own definitions; foreign keys are not checked
 * (`session_replication_role = replica`: every row points at a seeded upload or item).
 */
async function seedFingerprints(db: Db): Promise<string> {
  const parts: string[] = [];
  const step = async (label: string, work: () => Promise<unknown>) => {
    const started = performance.now();
    await work();
    parts.push(`${label} ${((performance.now() - started) / 1000).toFixed(0)} s`);
  };
  await db.connection().execute(async (c) => {
    await sql`SET session_replication_role = replica`.execute(c);
    const indexes = await dropIndexes(c, ['media_fp_b0', 'media_fp_b1', 'media_fp_b2', 'media_fp_b3']);
    const colourIndexes = await dropIndexes(c, [
      'item_colours_cell_time',
      'item_colour_families_300',
      'item_colour_families_150',
      'item_colour_families_80',
    ]);
    await step('fingerprints', () =>
      sql`WITH bases AS (
          SELECT k, ((hashint4(2 * k + 1)::bigint << 32) | (hashint4(2 * k + 2)::bigint & 4294967295)) AS hash
          FROM generate_series(0, ${BASES - 1}::int) k)
        INSERT INTO media_fingerprints (upload_id, status, hash, algo)
        SELECT u.id, 1,
          CASE WHEN u.id % 10 = 0
            THEN ((b.hash # (1::bigint << u.f1)) # (1::bigint << ((u.f1 + 1 + u.f2) % 64)))
            ELSE ((floor(random() * 4294967296)::bigint << 32) | floor(random() * 4294967296)::bigint) END,
          1
        FROM (SELECT id, floor(random() * 64)::int AS f1, floor(random() * 63)::int AS f2 FROM uploads) u
        LEFT JOIN bases b ON u.id % 10 = 0 AND b.k = (u.id / 10) % ${BASES}::int`.execute(c),
    );
    await step('band indexes', async () => {
      for (const definition of indexes) await sql.raw(definition).execute(c);
    });
    await step('upload colours', () =>
      sql`INSERT INTO media_colours (upload_id, slot, l, a, b, weight)
        SELECT id, slot,
          CASE WHEN slot = 0 THEN 900 + v1 % 90 ELSE 200 + v1 % 700 END,
          CASE WHEN slot = 0 THEN v2 % 21 - 10 ELSE v2 % 201 + (v2 / 201) % 201 + (v2 / 40401) % 201 - 300 END,
          CASE WHEN slot = 0 THEN v3 % 21 - 10 ELSE v3 % 201 + (v3 / 201) % 201 + (v3 / 40401) % 201 - 300 END,
          CASE slot WHEN 0 THEN 300 + v4 % 150 WHEN 1 THEN 180 + v4 % 80 WHEN 2 THEN 110 + v4 % 60
            WHEN 3 THEN 60 + v4 % 40 ELSE 10 + v4 % 20 END
        FROM (
          SELECT id, slot,
            abs(hashint8(s * 64 + slot * 8 + 1)::bigint) AS v1, abs(hashint8(s * 64 + slot * 8 + 2)::bigint) AS v2,
            abs(hashint8(s * 64 + slot * 8 + 3)::bigint) AS v3, abs(hashint8(s * 64 + slot * 8 + 4)::bigint) AS v4
          FROM (SELECT id, CASE WHEN id % 10 = 0 THEN -1 - (id / 10) % ${BASES}::int ELSE id END AS s FROM uploads) u
          CROSS JOIN generate_series(0, 4) slot) v`.execute(c),
    );
    // As refreshFileSummary copies them: the cover upload's colours, their cells, the item's time.
    await step('item colours', () =>
      sql`INSERT INTO item_colours (item_id, slot, l, a, b, weight, cell, created_at)
        SELECT u.item_id, mc.slot, mc.l, mc.a, mc.b, mc.weight,
          ((least(mc.l, 999) / 100) * 256 + ((least(greatest(mc.a, -400), 399) + 400) / 50) * 16
            + ((least(greatest(mc.b, -400), 399) + 400) / 50))::smallint,
          i.created_at
        FROM media_colours mc JOIN uploads u ON u.id = mc.upload_id JOIN items i ON i.id = u.item_id`.execute(
        c,
      ),
    );
    // The colour families as migration 031 back-fills them from the palettes (its own statements).
    await step('colour families', async () => {
      await sql`INSERT INTO media_colour_families (upload_id, family, share)
        SELECT upload_id, family, least(1000, sum(weight))
        FROM (SELECT upload_id, colour_family(l, a, b) AS family, weight FROM media_colours) c
        GROUP BY upload_id, family HAVING sum(weight) >= 50`.execute(c);
      await sql`INSERT INTO item_colour_families (item_id, family, share, created_at)
        SELECT item_id, family, least(1000, sum(weight)), min(created_at)
        FROM (SELECT item_id, colour_family(l, a, b) AS family, weight, created_at FROM item_colours) c
        GROUP BY item_id, family HAVING sum(weight) >= 50`.execute(c);
    });
    await step('colour index', async () => {
      for (const definition of colourIndexes) await sql.raw(definition).execute(c);
    });
    await sql`SET session_replication_role = DEFAULT`.execute(c);
  });
  await step('VACUUM ANALYZE', () =>
    sql`VACUUM ANALYZE items, uploads, media_fingerprints, media_colours, item_colours, media_colour_families, item_colour_families`.execute(
      db,
    ),
  );
  // The SQL's cells are colourCell's (fingerprint.ts is the one definition).
  const sampleRows = await sql<{ l: number; a: number; b: number; cell: number }>`
    SELECT l, a, b, cell FROM item_colours TABLESAMPLE SYSTEM (1) LIMIT 2000`.execute(db);
  for (const row of sampleRows.rows)
    if (colourCell(row.l, row.a, row.b) !== row.cell) throw new Error(`cell of ${JSON.stringify(row)}`);
  return parts.join(', ');
}

export interface SeededArchive {
  /** A user who sees, downloads and uploads in their own department only. */
  scoped: GivenUser;
  big: { id: number; idPath: string };
  side: { id: number; idPath: string };
  sideItems: number;
  /** Files in both folders. */
  total: number;
  /** What was seeded and how long it took, for the report. */
  seed: string;
}

/** A folder `big` of `items` files and one `side` of a twentieth of that, with fingerprints and colours. */
export async function seedArchive(database: DatabaseHandle, items: number): Promise<SeededArchive> {
  const db = database.db;
  const seedStarted = performance.now();
  const scoped = await givenUser(database, {
    deptId: 1,
    scopes: { view: 'dept', download: 'dept', upload: 'dept' },
  });
  const big = await seedFolder(db, 1_001, 'big');
  const side = await seedFolder(db, 1_002, 'side');
  const sideItems = Math.round(items / 20);
  await seedFiles(db, big, 'big', 10_000_000, items);
  await seedFiles(db, side, 'side', 20_000_000, sideItems);
  await sql`SELECT setval(pg_get_serial_sequence('items', 'id'), 40000000)`.execute(db);
  const filesSeconds = (performance.now() - seedStarted) / 1000;
  const detail = await seedFingerprints(db);
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  const total = items + sideItems;
  const seed = `${total.toLocaleString('en')} items with as many upload records, fingerprints and 5 colours each (as many item colours) seeded in ${seedSeconds.toFixed(0)} s (files ${filesSeconds.toFixed(0)} s, ${detail})`;
  console.log(`seeded: ${seed}`);
  return { scoped, big, side, sideItems, total, seed };
}
