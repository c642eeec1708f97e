// Issue 17 near-duplicates and colour search at scale (docs/plans/issue-17-near-duplicates.md §3.2,
// §8, §10): a scratch PostgreSQL database on BENCH_DATABASE_URL (default: the local server; its own
// database, dropped at the end) seeded by SQL as bench/scale.ts seeds it (`seedFolder`,
// `seedFiles` in bench/server.ts) — a folder of BENCH_ITEMS (default 1,000,000) files and one of a
// twentieth of that, each with a finished upload record — then, by SQL, a fingerprint for every
// upload (90 % random 64-bit hashes, 10 % near copies — 2 bit flips — of 1,000 base hashes, so
// band values clump as in an archive), 5 colours per upload (`media_colours`: a light background
// and 4 colours spread over OKLab; near copies share their base's) and the same per item
// (`item_colours`, with their cells), then VACUUM ANALYZE. Then the same on the embedded PGlite at
// BENCH_PGLITE_ITEMS (default 100,000; 0 skips it). Each lookup is timed through the real HTTP
// server, BENCH_RUNS (default 15) runs after one warm-up, median and p95, beside the bare SQL of
// the same lookup timed in the same run. Goals: < 50 ms per lookup (issue 17), < 100 ms for the
// colour filter and the colour search (plan §10). The tables are printed and written to
// docs/benchmarks.md; the plans of a lookup and of a file's colour neighbours are printed.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  COLOUR_MIN_SHARES,
  COLOUR_TOLERANCES,
  colourCell,
  colourFamilyOfHex,
  endpointPath,
  endpoints,
  type PaletteColour,
  SIMILAR_CHECK_MAX_FILES,
  signedToHash,
} from '@dam/contract';
import { type Kysely, sql } from 'kysely';
import type { Db } from '../server/src/db/database';
import type { Database } from '../server/src/db/schema';
import type { Viewer } from '../server/src/modules/access/visibility.repository';
import { SimilarRepository } from '../server/src/modules/similar/repository';
import { givenUser } from '../server/test/factories';
import { ADMIN, createTestApp, createTestDatabase, signIn } from '../server/test/harness';
import { listenLocally, seedFiles, seedFolder } from './server';

const SERVER_URL =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/postgres';
const PG_ITEMS = Number(process.env.BENCH_ITEMS ?? 1_000_000);
const PGLITE_ITEMS = Number(process.env.BENCH_PGLITE_ITEMS ?? 100_000);
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 15));
const GOAL_MS = 50;
/** The plan's goal for the colour filter and the colour search (§10). */
const COLOUR_GOAL_MS = 100;
/** From this many children a colour filter walks the colour index (items/repository.ts COLOUR_WALK_FOLDER_SIZE). */
const COLOUR_WALK_FOLDER_SIZE = 100_000;
/** Base hashes the clumped tenth of the fingerprints are near copies of. */
const BASES = 1_000;
/** The server's defaults (config.ts SIMILAR_MAX_DISTANCE; service.ts LOOKUP_ROWS, LOOKUP_CONCURRENCY). */
const MAX_DISTANCE = 10;
const LOOKUP_ROWS = 50;
const LOOKUP_CONCURRENCY = 4;
const COLOURS = { common: '#ffffff', rare: '#ff00ff', green: '#2e7d32', red: '#cc0000' } as const;
const ADMIN_VIEWER: Viewer = { userId: 1, view: { kind: 'all' } };

interface Measure {
  label: string;
  /** Divides the times (per-lookup figures of a 200-file check). */
  per: number;
  goalMs: number;
  median: number;
  p95: number;
  bareMedian: number;
  bareLabel: string;
  note?: string;
}
interface PhaseReport {
  kind: string;
  version: string;
  items: number;
  seed: string;
  load: string;
  measures: Measure[];
  notes: string[];
}

const fmt = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(1));
const loadAverage = () =>
  os
    .loadavg()
    .map((v) => v.toFixed(1))
    .join(' / ');
function stats(times: number[]) {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] as number;
  return { median: at(0.5), p95: at(0.95) };
}
/** One warm-up (run -1), then RUNS timed runs; `before` runs untimed before each. */
async function sample(run: (i: number) => Promise<unknown>, before?: () => Promise<unknown>) {
  await before?.();
  await run(-1);
  const times: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    await before?.();
    const started = performance.now();
    await run(i);
    times.push(performance.now() - started);
  }
  return stats(times);
}
const randomHash = () => randomBytes(8).toString('hex');
/** `hex` with bit `bit` flipped. */
const flip = (hex: string, bit: number) =>
  (BigInt(`0x${hex}`) ^ (1n << BigInt(bit))).toString(16).padStart(16, '0');
/** `work` over `values`, `size` at a time (as the service's lookups run). */
async function inBatches<T>(values: T[], size: number, work: (value: T) => Promise<unknown>) {
  for (let start = 0; start < values.length; start += size)
    await Promise.all(values.slice(start, start + size).map(work));
}
function committed(paths: string[]): boolean {
  try {
    execFileSync('git', ['diff', '--quiet', 'HEAD', '--', ...paths], { stdio: 'ignore' });
    execFileSync('git', ['ls-files', '--error-unmatch', ...paths], { stdio: 'ignore' });
    const untracked = execFileSync('git', ['ls-files', '--others', '--exclude-standard', '--', ...paths], {
      encoding: 'utf8',
    });
    return untracked.trim() === '';
  } catch {
    return false;
  }
}

// --- seeding -----------------------------------------------------------------------------------

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

// --- one database --------------------------------------------------------------------------------

async function phase(kind: 'postgres' | 'pglite', items: number): Promise<PhaseReport> {
  if (kind === 'postgres') {
    process.env.TEST_DB = 'postgres';
    process.env.TEST_DATABASE_URL = SERVER_URL;
  } else delete process.env.TEST_DB;
  const kindName = kind === 'postgres' ? 'PostgreSQL' : 'PGlite';
  console.log(`\n== ${kindName}, ${items.toLocaleString('en')} items (load ${loadAverage()}) ==`);
  const database = await createTestDatabase();
  const t = await createTestApp({ LOGIN_RATE_LIMIT: '1000' }, { database });
  try {
    const db = database.db;
    const base = await listenLocally(t.app);

    // Seed.
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
    const loadBefore = loadAverage();

    const admin = await signIn(t.app, ADMIN.email, ADMIN.password);
    const scopedToken = await signIn(t.app, scoped.email, scoped.password);
    const repo = new SimilarRepository(db);
    const json = async (token: string, method: 'GET' | 'POST', url: string, body?: unknown) => {
      const response = await fetch(`${base}${url}`, {
        method,
        headers: { token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const envelope = (await response.json()) as { success: boolean; errorDesc?: string; result: unknown };
      if (!envelope.success) throw new Error(`${url}: ${envelope.errorDesc}`);
      return envelope.result;
    };
    const measures: Measure[] = [];
    const notes: string[] = [];
    const measure = async (
      label: string,
      run: (i: number) => Promise<unknown>,
      bareLabel: string,
      bare: (i: number) => Promise<unknown>,
      options: { per?: number; goalMs?: number; before?: () => Promise<unknown>; note?: string } = {},
    ) => {
      const per = options.per ?? 1;
      const app = await sample(run, options.before);
      const baseline = await sample(bare);
      const row: Measure = {
        label,
        per,
        goalMs: options.goalMs ?? GOAL_MS,
        median: app.median / per,
        p95: app.p95 / per,
        bareMedian: baseline.median / per,
        bareLabel,
        ...(options.note ? { note: options.note } : {}),
      };
      measures.push(row);
      console.log(
        `${label}: median ${fmt(row.median)} ms, p95 ${fmt(row.p95)} ms (bare SQL ${fmt(row.bareMedian)} ms)${options.note ? ` — ${options.note}` : ''}`,
      );
    };

    // The query material: random hashes; base hashes (1 bit flipped) with their base's colours.
    const bases = (
      await sql<{ k: number; hash: string }>`
        SELECT k, ((hashint4(2 * k + 1)::bigint << 32) | (hashint4(2 * k + 2)::bigint & 4294967295))::text AS hash
        FROM generate_series(1, ${BASES - 1}::int) k ORDER BY k`.execute(db)
    ).rows.map((row) => ({ k: Number(row.k), hash: signedToHash(row.hash) }));
    const palettes = await repo.palettes(bases.map((b) => 10 * b.k));
    const clumped = (i: number) => {
      const b = bases[(i + 1 + bases.length * 4) % bases.length] as { k: number; hash: string };
      return { hash: flip(b.hash, (i + 64) % 64), colours: palettes.get(10 * b.k) ?? [] };
    };
    const someColours: PaletteColour[] = [
      { l: 950, a: 0, b: 0, w: 400 },
      { l: 500, a: 100, b: 50, w: 250 },
      { l: 300, a: -50, b: -80, w: 150 },
    ];
    const randoms = Array.from({ length: RUNS + 1 }, () => randomHash());
    const random = (i: number) => ({ hash: randoms[i + 1] as string, colours: someColours });
    const checkUrl = endpointPath(endpoints.similarCheck);
    const resetLimit = () => sql`DELETE FROM rate_limit_counters`.execute(db);
    const check = (token: string, files: Array<{ hash: string; colours: PaletteColour[] }>) =>
      json(token, 'POST', checkUrl, { files: files.map((file, key) => ({ key: String(key), ...file })) });
    const bareLookup = (hash: string) => repo.lookup(hash, MAX_DISTANCE, null, LOOKUP_ROWS);

    // How many hits a clumped query finds (the heavy case), for the record.
    const hitsOfClumped = (await bareLookup(clumped(0).hash)).length;
    const found = (await check(admin, [clumped(0)])) as { list: Array<{ items: unknown[] }> };
    notes.push(
      `a clumped query finds ${hitsOfClumped} uploads within ${MAX_DISTANCE} bits (LIMIT ${LOOKUP_ROWS}) and the check answers ${found.list[0]?.items.length ?? 0} items; a random one finds ${(await bareLookup(random(0).hash)).length}`,
    );

    // 1. similarCheck, 1 hash.
    for (const [who, token] of [
      ['administrator', admin],
      ['department scope', scopedToken],
    ] as const) {
      for (const [what, file] of [
        ['random hash', random],
        [`clumped hash (~${Math.round(total / 10 / BASES)} near copies)`, clumped],
      ] as const) {
        if (who !== 'administrator' && file === random) continue;
        await measure(
          `similar-check, 1 file, ${what}, ${who}`,
          (i) => check(token, [file(i)]),
          'the lookup query alone',
          (i) => bareLookup(file(i).hash),
          { before: resetLimit },
        );
      }
    }
    // 2. similarCheck, 200 hashes (a tenth clumped, as the archive), per lookup.
    const batch = (i: number) =>
      Array.from({ length: SIMILAR_CHECK_MAX_FILES }, (_, j) =>
        j % 10 === 0 ? clumped(i * 20 + j / 10) : { hash: randomHash(), colours: someColours },
      );
    const batches = Array.from({ length: RUNS + 1 }, (_, i) => batch(i - 1));
    await measure(
      `similar-check, ${SIMILAR_CHECK_MAX_FILES} files (a tenth clumped), per lookup`,
      (i) => check(admin, batches[i + 1] as ReturnType<typeof batch>),
      `${SIMILAR_CHECK_MAX_FILES} lookup queries, ${LOOKUP_CONCURRENCY} at a time`,
      (i) =>
        inBatches(batches[i + 1] as ReturnType<typeof batch>, LOOKUP_CONCURRENCY, (f) => bareLookup(f.hash)),
      { per: SIMILAR_CHECK_MAX_FILES, before: resetLimit },
    );

    // 3. similarOfFile: a file among near copies, and one without.
    const ofFileUrl = endpointPath(endpoints.similarOfFile);
    const itemOfUpload = async (uploadIds: number[]) =>
      (
        await sql<{ id: number; item_id: number; hash: string }>`
          SELECT u.id, u.item_id, f.hash::text AS hash FROM uploads u JOIN media_fingerprints f ON f.upload_id = u.id
          WHERE u.id = ANY(${uploadIds}::bigint[]) ORDER BY u.id`.execute(db)
      ).rows.map((row) => ({
        item: Number(row.item_id),
        upload: Number(row.id),
        hash: signedToHash(row.hash),
      }));
    const clumpedFiles = await itemOfUpload(Array.from({ length: RUNS + 1 }, (_, i) => 10 * (i * 37 + 5)));
    const randomFiles = await itemOfUpload(Array.from({ length: RUNS + 1 }, (_, i) => 10 * (i * 41 + 3) + 7));
    const byColourOf = async (file: { item: number }) => {
      const palette = await repo.itemPalette(file.item);
      const cells = [...new Set(palette.slice(0, 2).map((c) => colourCell(c.l, c.a, c.b)))];
      await repo.byColour(
        palette,
        cells,
        { viewer: ADMIN_VIEWER, excludeItemIds: [file.item] },
        COLOUR_TOLERANCES.loose,
        20,
      );
    };
    const bareOfFile = async (file: { item: number; upload: number; hash: string }) => {
      await bareLookup(file.hash);
      await byColourOf(file);
    };
    for (const [what, list] of [
      ['among near copies', clumpedFiles],
      ['with no near copy', randomFiles],
    ] as const) {
      const file = (i: number) => list[i + 1] as (typeof list)[number];
      // The share of the colour neighbours ("same colours", the ranked 2,000 candidates) in it.
      const colourPart = await sample((i) => byColourOf(file(i)));
      await measure(
        `a file's similar images, ${what}`,
        (i) => json(admin, 'GET', `${ofFileUrl}?folderDataId=${file(i).item}`),
        'its lookup and colour-neighbour queries',
        (i) => bareOfFile(file(i)),
        { note: `of which the colour-neighbour query alone: median ${fmt(colourPart.median)} ms` },
      );
    }

    // 4. Colour filter of a folder listing and colour search, common and rare colours.
    const listingUrl = endpointPath(endpoints.folderListingByBody);
    const searchUrl = endpointPath(endpoints.search);
    const colourCode = [
      'server/src/modules/items/colour-filter.ts',
      'server/src/modules/items/repository.ts',
      'server/src/modules/items/queries.repository.ts',
      'server/src/modules/items/service.ts',
      'server/src/modules/search/repository.ts',
      'server/src/modules/search/service.ts',
    ];
    const colourCommitted = committed(colourCode);
    if (!colourCommitted)
      notes.push(
        'the colour filter and colour search were timed from the working tree: their server code (modules/items, modules/search) was not committed yet at the time of the run',
      );
    for (const [which, hex] of Object.entries(COLOURS)) {
      // The colour family of the swatch, at the normal tolerance (15 % of the picture, issue 39).
      const family = colourFamilyOfHex(hex);
      const minShare = COLOUR_MIN_SHARES.normal;
      const ofFamily = (alias: string) =>
        sql.raw(`${alias}.family = ${family} AND ${alias}.share >= ${minShare}`);
      const matching = Number(
        (
          await sql<{
            n: string;
          }>`SELECT count(*) AS n FROM item_colour_families f WHERE ${ofFamily('f')}`.execute(db)
        ).rows[0]?.n,
      );
      const share = `${matching.toLocaleString('en')} files (${((100 * matching) / total).toFixed(2)} %) match`;
      notes.push(
        `${which} colour ${hex} (family ${family}, at least ${minShare / 10} % of the picture): ${share}`,
      );
      const walk = (folder: number | null) => sql`
        SELECT x.item_id
        FROM (SELECT f.item_id, f.created_at FROM item_colour_families f WHERE ${ofFamily('f')}
          ORDER BY f.created_at DESC, f.item_id DESC) x
        JOIN items i ON i.id = x.item_id AND i.state = 1 ${folder === null ? sql`` : sql`AND i.parent_id = ${folder}`}
        ORDER BY x.created_at DESC, x.item_id DESC LIMIT 51`;
      const probe = (folder: number) => sql`
        SELECT i.id FROM items i WHERE i.parent_id = ${folder} AND i.state = 1
          AND EXISTS (SELECT 1 FROM item_colour_families f WHERE f.item_id = i.id AND ${ofFamily('f')})
        ORDER BY (i.type <> 1), i.created_at DESC, i.id DESC LIMIT 51`;
      if (which === 'common' || which === 'rare')
        for (const [label, query] of [
          ['walk', walk(null)],
          ['probe', probe(side.id)],
        ] as const) {
          const { rows } = await sql<{ 'QUERY PLAN': string }>`EXPLAIN (ANALYZE, BUFFERS) ${query}`.execute(
            db,
          );
          console.log(`\n${which} colour ${hex}, ${label}:\n${rows.map((r) => r['QUERY PLAN']).join('\n')}`);
        }
      // Is the filter applied (every file listed is of the family)?
      const unfiltered = async (result: unknown) => {
        const ids = (result as { list: Array<{ id: number }> }).list.map((item) => item.id);
        if (ids.length === 0) return 0;
        const { rows } = await sql<{ n: string }>`SELECT count(*) AS n FROM unnest(${ids}::bigint[]) AS x(id)
          WHERE NOT EXISTS (SELECT 1 FROM item_colour_families f WHERE f.item_id = x.id AND ${ofFamily('f')})`.execute(
          db,
        );
        return Number(rows[0]?.n);
      };
      for (const [folderName, folder, count, bare] of [
        ['big', big.id, items, walk(big.id)],
        ['side', side.id, sideItems, probe(side.id)],
      ] as const) {
        const list = () =>
          json(admin, 'POST', `${listingUrl}?pageNo=1&pageSize=50`, {
            folderDataId: folder,
            rankStatus: '0',
            colour: hex,
          });
        const wrong = await unfiltered(await list());
        // What the listing pays to choose its branch: counting the folder's children up to the threshold.
        const counting = await sample(() =>
          sql`SELECT count(*) FROM (SELECT 1 FROM items WHERE parent_id = ${folder} AND state = 1
            LIMIT ${COLOUR_WALK_FOLDER_SIZE}::int) c`.execute(db),
        );
        const countNote = `counting its children up to ${COLOUR_WALK_FOLDER_SIZE.toLocaleString('en')} alone: median ${fmt(counting.median)} ms`;
        await measure(
          `folder listing of ${count.toLocaleString('en')} files, ${which} colour ${hex}: first page`,
          list,
          folderName === 'big' ? 'family index range, page' : 'probe per row of the folder, page',
          () => bare.execute(db),
          {
            goalMs: COLOUR_GOAL_MS,
            note: wrong > 0 ? `NOT FILTERED: ${wrong} of the page lack the colour; ${countNote}` : countNote,
          },
        );
      }
      for (const [who, token] of [
        ['administrator', admin],
        ['department scope', scopedToken],
      ] as const) {
        const search = () => json(token, 'POST', searchUrl, { searchType: 1, colour: hex, pageSize: 50 });
        const wrong = await unfiltered(await search());
        await measure(
          `colour search (colour alone), ${which} colour ${hex}, ${who}: first page`,
          search,
          'family index range, page',
          () => walk(null).execute(db),
          {
            goalMs: COLOUR_GOAL_MS,
            ...(wrong > 0 ? { note: `NOT FILTERED: ${wrong} of the page lack the colour` } : {}),
          },
        );
      }
    }

    // The plans of the two lookups (printed, not written): a clumped hash, and a file's colour neighbours.
    const explain = async (label: string, query: unknown) => {
      const { rows } = await sql<{ 'QUERY PLAN': string }>`EXPLAIN (ANALYZE, COSTS off) ${query}`.execute(db);
      console.log(`plan, ${label}:\n${rows.map((row) => `  ${row['QUERY PLAN']}`).join('\n')}`);
    };
    await explain(
      'lookup of a clumped hash (administrator)',
      repo.lookupQuery(
        clumped(0).hash,
        MAX_DISTANCE,
        { viewer: ADMIN_VIEWER, excludeItemIds: [] },
        LOOKUP_ROWS,
      ),
    );
    const sampleFile = clumpedFiles[1] as (typeof clumpedFiles)[number];
    const samplePalette = await repo.itemPalette(sampleFile.item);
    await explain(
      "a file's colour neighbours (byColour)",
      repo.colourCandidatesQuery(
        [...new Set(samplePalette.slice(0, 2).map((c) => colourCell(c.l, c.a, c.b)))],
        {
          viewer: ADMIN_VIEWER,
          excludeItemIds: [sampleFile.item],
        },
      ),
    );

    const version =
      kind === 'postgres'
        ? ((await sql<{ v: string }>`SELECT current_setting('server_version') AS v`.execute(db)).rows[0]?.v ??
          '?')
        : `${(await sql<{ v: string }>`SELECT current_setting('server_version') AS v`.execute(db)).rows[0]?.v ?? '?'}, in memory`;
    return {
      kind: kindName,
      version,
      items: total,
      seed,
      load: `${loadBefore} before timing, ${loadAverage()} after`,
      measures,
      notes,
    };
  } finally {
    await t.close();
  }
}

// --- run, report -------------------------------------------------------------------------------

const reports: PhaseReport[] = [];
if (PG_ITEMS > 0) reports.push(await phase('postgres', PG_ITEMS));
if (PGLITE_ITEMS > 0) reports.push(await phase('pglite', PGLITE_ITEMS));

const tableOf = (report: PhaseReport) =>
  [
    `| ${report.kind}, ${report.items.toLocaleString('en')} files | median | p95 | goal | bare SQL (median) | ratio | met |`,
    '|---|---:|---:|---:|---|---:|:---:|',
    ...report.measures.map(
      (m) =>
        `| ${m.label}${m.note ? ` (${m.note})` : ''} | ${fmt(m.median)} ms | ${fmt(m.p95)} ms | < ${m.goalMs} ms | ${fmt(m.bareMedian)} ms (${m.bareLabel}) | ${(m.median / m.bareMedian).toFixed(1)}× | ${m.p95 < m.goalMs ? 'yes' : m.median < m.goalMs ? 'median' : 'no'} |`,
    ),
  ].join('\n');
const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
const sections = reports.map(
  (
    report,
  ) => `${report.kind} ${report.version} · ${report.seed} · load average (1 / 5 / 15 min) ${report.load}.

${tableOf(report)}

${report.notes.map((note) => `- ${note[0]?.toUpperCase()}${note.slice(1)}.`).join('\n')}
`,
);
for (const section of sections) console.log(`\n${section}`);
const report = `## Near-duplicates and colour search (bench/similar.ts, issue 17)

${new Date().toISOString().slice(0, 10)} · ${os.cpus().length} × ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB ·
median and p95 of ${RUNS} runs after one warm-up (${RUNS - Math.ceil(0.95 * RUNS) === 0 ? 'the p95 is the slowest run' : `the p95 is the slowest but ${RUNS - Math.ceil(0.95 * RUNS)}`}), through the HTTP server (one
process, the TypeScript sources), each beside the bare SQL of the same lookup timed in the same run
(no visibility rule, nothing presented). Goals: < ${GOAL_MS} ms per lookup (issue 17), < ${COLOUR_GOAL_MS} ms
for the colour filter and the colour search (plan §10); "median" in the last column: the median
meets it, the p95 does not. Fingerprints by SQL: 90 % random 64-bit hashes, 10 % near copies (2
bits flipped) of 1,000 base hashes, so each base has a ten-thousandth of the uploads as near copies
(~105 at 1M) and band values clump; a clumped query is a base with 1 bit flipped, a random query a fresh
random hash. Colours: 5 per upload (a light background and 4 spread over OKLab), copied per item.
The 200-file check sends a tenth clumped; its figures are per lookup (the call's time / 200).

${sections.join('\n')}`;
const target = path.resolve(import.meta.dirname, '../docs/benchmarks.md');
const existing = fs.existsSync(target) ? fs.readFileSync(target, 'utf8') : '# Benchmarks\n';
const section = /## Near-duplicates and colour search \(bench\/similar\.ts[\s\S]*?(?=\n## |$)/;
const updated = section.test(existing)
  ? existing.replace(section, report.trimEnd())
  : `${existing.trimEnd()}\n\n${report.trimEnd()}\n`;
fs.writeFileSync(target, updated.endsWith('\n') ? updated : `${updated}\n`);
console.log(`written to ${path.relative(process.cwd(), target)}`);
