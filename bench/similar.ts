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
// The parts: bench/similar.seed.ts (the data set), similar.measure.ts (the timing), similar.lookups.ts
// (measures 1–3 and the plans), similar.colours.ts (measure 4), similar.report.ts (the tables).
import { sql } from 'kysely';
import { SimilarRepository } from '../server/src/modules/similar/repository';
import { ADMIN, createTestApp, createTestDatabase, signIn } from '../server/test/harness';
import { listenLocally } from './server';
import { measureColours } from './similar.colours';
import { explainLookups, measureLookups } from './similar.lookups';
import {
  apiOf,
  loadAverage,
  type Measure,
  measurerInto,
  type PhaseContext,
  type PhaseReport,
} from './similar.measure';
import { writeReport } from './similar.report';
import { seedArchive } from './similar.seed';

const SERVER_URL =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/postgres';
const PG_ITEMS = Number(process.env.BENCH_ITEMS ?? 1_000_000);
const PGLITE_ITEMS = Number(process.env.BENCH_PGLITE_ITEMS ?? 100_000);

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

    const archive = await seedArchive(database, items);
    const loadBefore = loadAverage();

    const measures: Measure[] = [];
    const notes: string[] = [];
    const ctx: PhaseContext = {
      db,
      repo: new SimilarRepository(db),
      api: apiOf(base),
      measure: measurerInto(measures),
      notes,
      admin: await signIn(t.app, ADMIN.email, ADMIN.password),
      scopedToken: await signIn(t.app, archive.scoped.email, archive.scoped.password),
      total: archive.total,
    };
    const samples = await measureLookups(ctx);
    await measureColours(ctx, archive, items);
    await explainLookups(db, ctx.repo, samples);

    const version =
      kind === 'postgres'
        ? ((await sql<{ v: string }>`SELECT current_setting('server_version') AS v`.execute(db)).rows[0]?.v ??
          '?')
        : `${(await sql<{ v: string }>`SELECT current_setting('server_version') AS v`.execute(db)).rows[0]?.v ?? '?'}, in memory`;
    return {
      kind: kindName,
      version,
      items: archive.total,
      seed: archive.seed,
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
writeReport(reports);
