// Issue 12 goals 1–3 at a brand's real scale, on PostgreSQL: a scratch database on
// BENCH_DATABASE_URL (default: the local server) seeded with SQL — one folder of BENCH_ITEMS
// (default 1,000,000) files, one of 100,000 and one of 3,000 whose objects exist in storage, each
// file with an upload record and an article number — then timed through the real HTTP server.
// Each figure is the median of BENCH_RUNS (default 5) runs beside its baseline measured in the
// same run: the bare SQL that reads the same rows through the same index (the ceiling the
// application's query could reach). The table is printed and written to docs/benchmarks.md.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BATCH_SEARCH_MAX_VALUES, endpointPath, endpoints } from '@dam/contract';
import { sql } from 'kysely';
import { createStorage } from '../server/src/storage';
import { givenUser } from '../server/test/factories';
import { ADMIN, createTestApp, createTestDatabase, signIn } from '../server/test/harness';
import { median, recordGoals, times } from './goals';
import { listenLocally, seedFiles, seedFolder } from './server';

process.env.TEST_DB = 'postgres';
process.env.TEST_DATABASE_URL =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/postgres';
const ITEMS = Number(process.env.BENCH_ITEMS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const SMALL = 3_000;

const database = await createTestDatabase();
const t = await createTestApp({ LOGIN_RATE_LIMIT: '1000' }, { database });
const db = database.db;
const base = await listenLocally(t.app);

// --- seed --------------------------------------------------------------------------------------
const seedStarted = performance.now();
// Sees the whole archive through its department ("self and below" of the top department), so
// the listing pays for the visibility condition on every row.
const scoped = await givenUser(database, {
  deptId: 1,
  scopes: { view: 'dept', download: 'dept', upload: 'dept' },
});
let nextId = 1_000;
async function folder(name: string): Promise<{ id: number; idPath: string }> {
  nextId += 1;
  return seedFolder(db, nextId, name);
}
/** `count` files in `parent`, ids from `first`; every fifth name holds "detail"; 5 files share an article number. */
const files = (parent: { id: number; idPath: string }, name: string, first: number, count: number) =>
  seedFiles(db, parent, name, first, count);
const big = await folder('big');
const mid = await folder('mid');
const small = await folder('small');
await files(big, 'big', 10_000_000, ITEMS);
await files(mid, 'mid', 20_000_000, 100_000);
await files(small, 'small', 30_000_000, SMALL);
await sql`SELECT setval(pg_get_serial_sequence('items', 'id'), 40000000)`.execute(db);
const storage = createStorage(t.config, () => '');
const bytes = Buffer.alloc(2048, 7);
for (let g = 1; g <= SMALL; g += 100)
  await Promise.all(
    Array.from({ length: Math.min(100, SMALL - g + 1) }, (_, k) =>
      storage.write(`bench/${30_000_000 + g + k}`, bytes, 'image/jpeg'),
    ),
  );
await sql`VACUUM ANALYZE items`.execute(db);
await sql`VACUUM ANALYZE uploads`.execute(db);
const seedSeconds = (performance.now() - seedStarted) / 1000;
console.log(`seeded ${ITEMS + 100_000 + SMALL} items and upload records in ${seedSeconds.toFixed(0)} s`);

const admin = await signIn(t.app, ADMIN.email, ADMIN.password);
const scopedToken = await signIn(t.app, scoped.email, scoped.password);

// --- measuring ---------------------------------------------------------------------------------
async function timed(run: () => Promise<unknown>): Promise<number> {
  await run(); // warm: the first run pays for plans and cold pages
  const times: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  return median(times);
}
async function json(token: string, method: 'GET' | 'POST', url: string, body?: unknown) {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: { token, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const envelope = (await response.json()) as { success: boolean; errorDesc?: string; result: unknown };
  if (!envelope.success) throw new Error(`${url}: ${envelope.errorDesc}`);
  return envelope.result;
}
/** Time to the first byte of a download's body (the rest is cancelled). */
async function firstByte(response: Promise<Response>) {
  const reader = (await response).body?.getReader();
  if (!reader) throw new Error('no body');
  const { value } = await reader.read();
  if (!value || value.length === 0) throw new Error('empty download');
  await reader.cancel();
}
const bare = (query: ReturnType<typeof sql>) => () => query.execute(db);

interface Row {
  goal: string;
  limitMs: number;
  measured: number;
  baseline: number;
  baselineLabel: string;
}
const rows: Row[] = [];
async function goal(
  goalText: string,
  limitMs: number,
  run: () => Promise<unknown>,
  baselineLabel: string,
  baseline: () => Promise<unknown>,
) {
  const measured = await timed(run);
  const baselineMs = await timed(baseline);
  rows.push({ goal: goalText, limitMs, measured, baseline: baselineMs, baselineLabel });
  console.log(`${goalText}: ${measured.toFixed(1)} ms (baseline ${baselineMs.toFixed(1)} ms)`);
}

const smallIds = Array.from({ length: SMALL }, (_, i) => 30_000_001 + i);
const downloadUrl = endpointPath(endpoints.downloadItems);
const bareSources = bare(
  sql`SELECT u.* FROM uploads u WHERE u.item_id = ANY(${smallIds}::bigint[]) AND u.status = 2`,
);
await goal(
  '1. download of 3,000 selected files: first byte',
  1_000,
  () =>
    firstByte(
      fetch(`${base}${downloadUrl}`, {
        method: 'POST',
        headers: { token: admin, 'content-type': 'application/json' },
        body: JSON.stringify({ folderDataIdList: smallIds }),
      }),
    ),
  'bare SQL of their upload records',
  bareSources,
);
await goal(
  '1. download of a 3,000-file folder (1M items in the table): first byte',
  1_000,
  () =>
    firstByte(
      fetch(`${base}${downloadUrl}`, {
        method: 'POST',
        headers: { token: admin, 'content-type': 'application/json' },
        body: JSON.stringify({ folderDataIdList: [small.id] }),
      }),
    ),
  'bare SQL of their upload records',
  bareSources,
);
await goal(
  '1. the web app’s ticket flow, 3,000 selected files: first byte',
  1_000,
  async () => {
    const { url } = (await json(admin, 'POST', endpointPath(endpoints.downloadTicket), {
      folderDataIdList: smallIds,
    })) as { url: string };
    await firstByte(fetch(`${base}${url}`));
  },
  'bare SQL of their upload records',
  bareSources,
);

const listing = endpointPath(endpoints.folderListingByBody);
const bareNewest = bare(
  sql`SELECT id FROM items WHERE parent_id = ${big.id} AND state = 1 ORDER BY (type <> 1), created_at DESC, id DESC LIMIT 51`,
);
for (const [rankStatus, label] of [
  ['0', 'newest first'],
  ['1', 'name A→Z'],
  ['2', 'name Z→A'],
] as const) {
  for (const [token, who] of [
    [admin, 'administrator'],
    [scopedToken, 'department scope'],
  ] as const) {
    await goal(
      `2. 1M-item folder, ${label}, ${who}: first page`,
      100,
      () => json(token, 'POST', `${listing}?pageNo=1&pageSize=50`, { folderDataId: big.id, rankStatus }),
      'bare SQL, newest-first page',
      bareNewest,
    );
  }
}

const search = endpointPath(endpoints.search);
const artNums = [
  ...Array.from({ length: BATCH_SEARCH_MAX_VALUES / 2 }, (_, i) => `AB${String(i * 37).padStart(6, '0')}`),
  ...Array.from({ length: BATCH_SEARCH_MAX_VALUES / 2 }, (_, i) => `ZZ${i}`),
];
for (const [token, who] of [
  [admin, 'administrator'],
  [scopedToken, 'department scope'],
] as const) {
  await goal(
    `3. batch search, ${BATCH_SEARCH_MAX_VALUES.toLocaleString('en')} article numbers, ${who}`,
    300,
    () => json(token, 'POST', search, { searchType: 3, artNumList: artNums, pageSize: 50 }),
    'bare SQL of the matching ids',
    bare(
      sql`SELECT id FROM items WHERE state = 1 AND art_num IS NOT NULL AND (lower(art_num) COLLATE "C") IN (SELECT unnest(${artNums.map((a) => a.toLowerCase())}::text[]))`,
    ),
  );
}
await goal(
  '3. broad search "detail" (a fifth of the archive): newest page',
  100,
  () => json(admin, 'POST', search, { searchType: 1, query: 'detail', pageSize: 50 }),
  'bare SQL, newest page of live items',
  bare(sql`SELECT id FROM items WHERE state = 1 ORDER BY (type <> 1), created_at DESC, id DESC LIMIT 51`),
);

// Issue 43: a 10,000-item collection of the 1M-item folder's files (every hundredth), owned by the
// administrator, the department-scoped user a viewer of it; its first page as each sees it.
const COLLECTION_ITEMS = 10_000;
const owner = await db
  .selectFrom('users')
  .select('id')
  .where('email', '=', ADMIN.email)
  .executeTakeFirstOrThrow();
const collection = await db
  .insertInto('collections')
  .values({ owner_id: owner.id, name: 'bench campaign' })
  .returning('id')
  .executeTakeFirstOrThrow();
await sql`
  INSERT INTO collection_items (collection_id, item_id, position)
  SELECT ${collection.id}, id, row_number() OVER (ORDER BY id) * 1024
    FROM (SELECT id FROM items WHERE parent_id = ${big.id} AND id % 100 = 0 ORDER BY id LIMIT ${COLLECTION_ITEMS}) AS picked`.execute(
  db,
);
await db
  .insertInto('collection_members')
  .values({ collection_id: collection.id, user_id: scoped.id, role: 'viewer' })
  .execute();
await sql`VACUUM ANALYZE collection_items`.execute(db);
const collectionPage = `${endpointPath(endpoints.collectionItems)}?id=${collection.id}&pageNo=1&pageSize=60`;
for (const [token, who] of [
  [admin, 'administrator'],
  [scopedToken, 'department scope'],
] as const) {
  await goal(
    `2. ${COLLECTION_ITEMS.toLocaleString('en')}-item collection (1M items in the archive), ${who}: first page`,
    100,
    () => json(token, 'GET', collectionPage),
    'bare SQL, its first page in order',
    bare(
      sql`SELECT i.id FROM collection_items ci JOIN items i ON i.id = ci.item_id WHERE ci.collection_id = ${collection.id} AND i.state = 1 ORDER BY ci.position, i.id LIMIT 61`,
    ),
  );
}

// --- report ------------------------------------------------------------------------------------
const header =
  '| goal | limit | measured (median) | baseline | ratio | met |\n|---|---:|---:|---|---:|:---:|';
const lines = rows.map(
  (r) =>
    `| ${r.goal} | < ${r.limitMs} ms | ${r.measured.toFixed(1)} ms | ${r.baseline.toFixed(1)} ms (${r.baselineLabel}) | ${(r.measured / r.baseline).toFixed(1)}× | ${r.measured < r.limitMs ? 'yes' : 'no'} |`,
);
const table = [header, ...lines].join('\n');
console.log(`\n${table}`);
const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
const version =
  (await sql<{ v: string }>`SELECT current_setting('server_version') AS v`.execute(db)).rows[0]?.v ?? '?';
const report = `# Benchmarks

## Scale (bench/scale.ts, issue 12 goals 1–3)

${new Date().toISOString().slice(0, 10)} · ${os.cpus().length} × ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB · PostgreSQL ${version} ·
${(ITEMS + 100_000 + SMALL).toLocaleString('en')} items with as many upload records, seeded by SQL in ${seedSeconds.toFixed(0)} s ·
median of ${RUNS} runs after one warm-up, through the HTTP server; the baseline is the bare SQL
reading the same rows, timed in the same run.

${table}
`;
recordGoals(
  'scale',
  rows.map((r) => ({
    goal: Number.parseInt(r.goal, 10),
    text: `${r.goal.replace(/^\d+\. /, '')} (${(ITEMS + 100_000 + SMALL).toLocaleString('en')} items, median of ${RUNS}): < ${r.limitMs.toLocaleString('en')} ms`,
    measured: `${r.measured.toFixed(1)} ms`,
    baseline: `${r.baseline.toFixed(1)} ms (${r.baselineLabel})`,
    ratio: times(r.measured, r.baseline),
    met: r.measured < r.limitMs,
  })),
  { postgres: version },
);
const target = path.resolve(import.meta.dirname, '../docs/benchmarks.md');
const existing = fs.existsSync(target) ? fs.readFileSync(target, 'utf8') : '';
const rest = existing
  .replace(/^# Benchmarks\n+/, '')
  .replace(/## Scale \(bench\/scale\.ts[\s\S]*?(?=\n## |$)/, '')
  .trim();
fs.writeFileSync(target, `${report}${rest ? `\n${rest}\n` : ''}`);
console.log(`written to ${path.relative(process.cwd(), target)}`);
await t.app.close();
await t.close();
