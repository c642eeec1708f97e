// Measures the streamed zip of file/batch-download against the targets of issue 5, on a scratch
// app (PGlite in memory, or TEST_DB=postgres) whose local storage lives in a temp directory:
//   - time to first byte of a zip of 3,000 items (target < 1 s),
//   - store-only zip throughput vs reading the same bytes from local storage (target >= 80 %),
//   - heap growth while a large zip streams (target: flat, far below the zip's size),
//   - issue 12 goal 8: the peak RSS of the compiled server (as `npm start` runs it, PGlite, its own
//     process) while it streams a zip of BENCH_ZIP_MEMORY_FILES (default 640) × 16 MiB = 10 GiB;
//     the objects are hard links to one file, so seeding takes no time and no disk.
// Data is generated on the spot and removed afterwards. Run: npm run bench (or tsx bench/download-zip.ts).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sql } from 'kysely';
import { openDatabase } from '../server/src/db/database';
import { streamZip } from '../server/src/modules/downloads/zip';
import { ItemsRepository } from '../server/src/modules/items/repository';
import { createStorage } from '../server/src/storage/index';
import { ADMIN, createTestApp, signIn } from '../server/test/harness';
import { callApi } from '../server/test/over-http';
import { recordGoals, times } from './goals';
import { BENCH_ADMIN, peakWhile, rssMiB, startBenchServer } from './server';

const MANY = Number(process.env.BENCH_ZIP_ITEMS ?? 3000);
const MANY_BYTES = 16 * 1024;
const BIG = Number(process.env.BENCH_ZIP_BIG_FILES ?? 24);
const BIG_BYTES = 16 * 1024 * 1024;
const MEMORY_FILES = Number(process.env.BENCH_ZIP_MEMORY_FILES ?? 640);
const MEMORY_PORT = Number(process.env.BENCH_PORT ?? 18_600);
const MiB = 1024 * 1024;

const t = await createTestApp({ LOGIN_RATE_LIMIT: '1000', SESSION_IDLE_HOURS: '24' });
const storage = createStorage(t.config, () => '');
const db = t.database.db;
const admin = await db
  .selectFrom('users')
  .innerJoin('departments', 'departments.id', 'users.dept_id')
  .select(['users.id', 'departments.path'])
  .where('users.email', '=', ADMIN.email)
  .executeTakeFirstOrThrow();

/** A folder of `count` one-format files of `bytes` random (incompressible, like JPEG) bytes each. */
async function seedFolder(
  name: string,
  count: number,
  bytes: number,
): Promise<{ id: number; keys: string[] }> {
  const items = new ItemsRepository(db);
  const id = await items.insertFolder({
    parent_id: null,
    parentIdPath: '/',
    name,
    folder_path: '/',
    owner_id: admin.id,
    dept_path: admin.path,
    visibility: 'shared',
    created_at: new Date(),
  });
  const idPath = `/${id}/`;
  const keys: string[] = [];
  const body = randomBytes(bytes);
  for (let i = 0; i < count; i++) {
    const key = `bench/${name}/${i}.jpg`;
    // Each object differs in its first bytes, the rest is shared to keep seeding quick.
    body.writeUInt32BE(i, 0);
    await storage.write(key, body, 'image/jpeg');
    keys.push(key);
  }
  await sql`
    WITH files AS (
      INSERT INTO items (type, parent_id, name, id_path, folder_path, owner_id, dept_path, file_formats, total_size, created_at)
      SELECT 2, ${id}, ${name} || '-' || lpad(g::text, 5, '0'), ${idPath} || 'f' || g || '/', ${`/${name}`},
             ${admin.id}, ${admin.path}, 'jpg', ${bytes}, now()
      FROM generate_series(0, ${count - 1}) g
      RETURNING id, name
    )
    INSERT INTO uploads (batch_num, user_id, folder_id, file_name, base_name, format, file_size, storage_key,
                         status, upload_schedule, item_id, completed_at)
    SELECT 'bench', ${admin.id}, ${id}, files.name || '.jpg', files.name, 'jpg', ${bytes},
           'bench/' || ${name} || '/' || (split_part(files.name, '-', 2))::int || '.jpg', 2, 100, files.id, now()
    FROM files`.execute(db);
  await sql`ANALYZE items`.execute(db);
  await sql`ANALYZE uploads`.execute(db);
  return { id, keys };
}

const token = await signIn(t.app, ADMIN.email, ADMIN.password);
await t.app.listen({ port: 0, host: '127.0.0.1' });
const { port } = t.app.server.address() as AddressInfo;

/** Downloads over a real socket, discarding the bytes: first-byte time, total time and size. */
function download(
  body: unknown,
  target = { port, token },
): Promise<{ firstByteMs: number; totalMs: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let firstByteMs = -1;
    let bytes = 0;
    const request = http.request(
      {
        host: '127.0.0.1',
        port: target.port,
        method: 'POST',
        path: '/ske-api/v1_0/file/batch-download',
        headers: { token: target.token, 'content-type': 'application/json' },
      },
      (response) => {
        if (response.statusCode !== 200) reject(new Error(`HTTP ${response.statusCode}`));
        response.on('data', (chunk: Buffer) => {
          if (firstByteMs < 0) firstByteMs = performance.now() - started;
          bytes += chunk.length;
        });
        response.on('end', () => resolve({ firstByteMs, totalMs: performance.now() - started, bytes }));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(JSON.stringify(body));
  });
}
const downloadZip = (folderId: number) => download({ folderDataIdList: [folderId] });

const discard = () =>
  new Writable({
    write(_chunk, _encoding, callback) {
      callback();
    },
  });

// No --expose-gc: under tsx it slows every stream several times over and would skew the rest.
const heapNow = () => process.memoryUsage().heapUsed;

console.log(
  `seeding ${MANY} × ${MANY_BYTES / 1024} KiB and ${BIG} × ${BIG_BYTES / MiB} MiB in ${t.config.DATA_DIR}`,
);
const many = await seedFolder('many', MANY, MANY_BYTES);
const big = await seedFolder('big', BIG, BIG_BYTES);

// Warm-up (JIT, first query plans), then the measured runs.
await downloadZip(many.id);
const manyRuns = [await downloadZip(many.id), await downloadZip(many.id), await downloadZip(many.id)];
const ttfb = manyRuns.map((r) => r.firstByteMs).sort((a, b) => a - b)[1] as number;
const manyTotal = manyRuns.map((r) => r.totalMs).sort((a, b) => a - b)[1] as number;
// Issue 39: the same files selected one by one (the web app's selection), each id checked and
// counted; the bare read of their items in the same run is the baseline.
const manyIds = (await db.selectFrom('items').select('id').where('parent_id', '=', many.id).execute()).map(
  (row) => row.id,
);
await download({ folderDataIdList: manyIds });
const selectionRuns: number[] = [];
const bareRuns: number[] = [];
for (let run = 0; run < 3; run++) {
  selectionRuns.push((await download({ folderDataIdList: manyIds })).firstByteMs);
  const started = performance.now();
  await sql`SELECT * FROM items WHERE id = ANY(${manyIds}::bigint[])`.execute(db);
  bareRuns.push(performance.now() - started);
}
const selectionTtfb = selectionRuns.sort((a, b) => a - b)[1] as number;
const bareSelection = bareRuns.sort((a, b) => a - b)[1] as number;

// 1. The zip itself: the same objects read from local storage one after another, bare and zipped.
const mibps = (bytes: number, ms: number) => bytes / MiB / (ms / 1000);
let rawBest = 0;
let streamBest = 0;
for (let run = 0; run < 2; run++) {
  let started = performance.now();
  for (const key of big.keys) await pipeline(await storage.read(key), discard());
  rawBest = Math.max(rawBest, mibps(BIG * BIG_BYTES, performance.now() - started));
  started = performance.now();
  const { stream } = streamZip(
    big.keys.map((key, i) => ({
      path: `${i}.jpg`,
      compress: false,
      mtime: new Date(),
      open: async () => ({ stream: await storage.read(key) }),
    })),
    [],
  );
  await pipeline(stream, discard());
  streamBest = Math.max(streamBest, mibps(BIG * BIG_BYTES, performance.now() - started));
}

// 2. Over HTTP: the zip vs the same files downloaded one by one (each streamed as itself).
const bigItems = await db.selectFrom('items').select('id').where('parent_id', '=', big.id).execute();
let singlesBest = 0;
for (let run = 0; run < 2; run++) {
  const started = performance.now();
  let bytes = 0;
  for (const item of bigItems) {
    bytes += (
      await download({ downloadFolderDataDTOList: [{ folderDataId: item.id, fileFormatList: ['jpg'] }] })
    ).bytes;
  }
  singlesBest = Math.max(singlesBest, mibps(bytes, performance.now() - started));
}

// 3. The ceiling issue 12 names: a bare Node HTTP server streaming the same objects back to back
// in one response (no zip, no database, no checks), read by the same client code.
const bare = http.createServer(async (_request, response) => {
  for (const key of big.keys) await pipeline(await storage.read(key), response, { end: false });
  response.end();
});
await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
const barePort = (bare.address() as AddressInfo).port;
const bareStream = () =>
  new Promise<{ totalMs: number; bytes: number }>((resolve, reject) => {
    const started = performance.now();
    let bytes = 0;
    http
      .get({ host: '127.0.0.1', port: barePort, path: '/' }, (response) => {
        response.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
        });
        response.on('end', () => resolve({ totalMs: performance.now() - started, bytes }));
        response.on('error', reject);
      })
      .on('error', reject);
  });
let bareBest = 0;
for (let run = 0; run < 2; run++) {
  const result = await bareStream();
  bareBest = Math.max(bareBest, mibps(result.bytes, result.totalMs));
}
bare.close();

const baseline = heapNow();
let peak = baseline;
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().heapUsed);
}, 50);
let zipBest = 0;
let zipBytes = 0;
for (let run = 0; run < 2; run++) {
  const result = await downloadZip(big.id);
  zipBytes = result.bytes;
  zipBest = Math.max(zipBest, mibps(result.bytes, result.totalMs));
}
clearInterval(sampler);
const growthMiB = (peak - baseline) / MiB;
const after = (heapNow() - baseline) / MiB;

const rows: Array<[string, string, string, boolean]> = [
  [`time to first byte, zip of ${MANY} items`, `${ttfb.toFixed(0)} ms`, '< 1000 ms', ttfb < 1000],
  [
    `time to first byte, zip of ${MANY} selected files (bare read of their items ${bareSelection.toFixed(0)} ms)`,
    `${selectionTtfb.toFixed(0)} ms`,
    '< 1000 ms',
    selectionTtfb < 1000,
  ],
  [
    `whole zip of ${MANY} items (${((MANY * MANY_BYTES) / MiB).toFixed(0)} MiB)`,
    `${manyTotal.toFixed(0)} ms`,
    '—',
    true,
  ],
  [`local storage read, ${BIG} × ${BIG_BYTES / MiB} MiB`, `${rawBest.toFixed(0)} MiB/s`, '—', true],
  [
    'store-only zip stream of the same bytes',
    `${streamBest.toFixed(0)} MiB/s = ${((streamBest / rawBest) * 100).toFixed(0)} %`,
    '>= 80 % of read',
    streamBest / rawBest >= 0.8,
  ],
  ['the same files one by one over HTTP', `${singlesBest.toFixed(0)} MiB/s`, '—', true],
  ['the same bytes from a bare Node HTTP server, one stream', `${bareBest.toFixed(0)} MiB/s`, '—', true],
  [
    'store-only zip over HTTP vs that bare stream (issue 12 goal 5)',
    `${((zipBest / bareBest) * 100).toFixed(0)} %`,
    '>= 80 % of bare',
    zipBest / bareBest >= 0.8,
  ],
  [
    `store-only zip over HTTP (${(zipBytes / MiB).toFixed(0)} MiB)`,
    `${zipBest.toFixed(0)} MiB/s = ${((zipBest / singlesBest) * 100).toFixed(0)} %`,
    '>= 80 % of singles',
    zipBest / singlesBest >= 0.8,
  ],
  [
    'heap growth while zipping',
    `peak +${growthMiB.toFixed(1)} MiB, after +${after.toFixed(1)} MiB`,
    'flat (< 64 MiB)',
    growthMiB < 64,
  ],
];
const widths = [0, 1, 2].map((c) => Math.max(...rows.map((r) => String(r[c]).length), 8));
const line = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join(' | ');
console.log(`\n${line(['measure', 'result', 'target'])} | ok`);
console.log(`${widths.map((w) => '-'.repeat(w)).join('-|-')}-|---`);
for (const [name, value, target, ok] of rows)
  console.log(`${line([name, value, target])} | ${ok ? 'yes' : 'NO'}`);

await t.close();

// 4. Issue 12 goal 8: the compiled server's peak memory while it streams a 10 GiB zip. A folder is
// made through the API, the server stopped, its files seeded into the embedded database by SQL
// (objects: hard links to one 16 MiB file), then the server started again and the zip downloaded.
const memoryDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dam-bench-zip-memory-'));
let zipRss = { before: 0, peak: 0, bytes: 0, seconds: 0 };
try {
  const startServer = () => startBenchServer({ port: MEMORY_PORT, dataDir: memoryDir, production: true });
  const serverBase = `http://127.0.0.1:${MEMORY_PORT}`;
  const login = async () =>
    (
      await callApi<{ token: string }>(serverBase, '', 'POST', '/security-api/login', {
        userName: BENCH_ADMIN.email,
        password: BENCH_ADMIN.password,
      })
    ).token;
  let server = await startServer();
  const { folderId } = await callApi<{ folderId: number }>(
    serverBase,
    await login(),
    'POST',
    '/ske-api/v1_0/file/creat-folder',
    { folderName: 'bench-zip-memory', path: '/' },
  );
  await server.stop();
  const embedded = await openDatabase({ pgliteDir: path.join(memoryDir, 'db') });
  const folder = await embedded.db
    .selectFrom('items')
    .select(['id_path', 'owner_id', 'dept_path', 'name'])
    .where('id', '=', folderId)
    .executeTakeFirstOrThrow();
  await sql`
    WITH files AS (
      INSERT INTO items (type, parent_id, name, id_path, folder_path, owner_id, dept_path, file_formats, total_size, created_at)
      SELECT 2, ${folderId}, 'm-' || lpad(g::text, 5, '0'), ${folder.id_path} || 'm' || g || '/', ${`/${folder.name}`},
             ${folder.owner_id}, ${folder.dept_path}, 'jpg', ${BIG_BYTES}, now()
      FROM generate_series(0, ${MEMORY_FILES - 1}) g
      RETURNING id, name
    )
    INSERT INTO uploads (batch_num, user_id, folder_id, file_name, base_name, format, file_size, storage_key,
                         status, upload_schedule, item_id, preview_status, completed_at)
    SELECT 'bench', ${folder.owner_id}, ${folderId}, files.name || '.jpg', files.name, 'jpg', ${BIG_BYTES},
           'bench/zip-memory/' || (split_part(files.name, '-', 2))::int || '.jpg', 2, 100, files.id, 4, now()
    FROM files`.execute(embedded.db);
  await embedded.close();
  const objects = path.join(memoryDir, 'objects', 'bench', 'zip-memory');
  fs.mkdirSync(objects, { recursive: true });
  fs.writeFileSync(path.join(objects, '0.jpg'), randomBytes(BIG_BYTES));
  for (let i = 1; i < MEMORY_FILES; i++)
    fs.linkSync(path.join(objects, '0.jpg'), path.join(objects, `${i}.jpg`));

  server = await startServer();
  try {
    const target = { port: MEMORY_PORT, token: await login() };
    const before = rssMiB(server.pid);
    const { peak, result } = await peakWhile(server.pid, () =>
      download({ folderDataIdList: [folderId] }, target),
    );
    zipRss = { before, peak, bytes: result.bytes, seconds: result.totalMs / 1000 };
  } finally {
    await server.stop();
  }
  console.log(
    `compiled server, zip of ${MEMORY_FILES} × ${BIG_BYTES / MiB} MiB (${(zipRss.bytes / 2 ** 30).toFixed(1)} GiB in ${zipRss.seconds.toFixed(0)} s): RSS ${zipRss.before.toFixed(0)} -> peak ${zipRss.peak.toFixed(0)} MiB`,
  );
} finally {
  fs.rmSync(memoryDir, { recursive: true, force: true });
}

recordGoals('download-zip', [
  {
    goal: 5,
    text: `store-only zip of ${BIG} × ${BIG_BYTES / MiB} MiB over HTTP (test app in the bench's process, PGlite, best of 2): ≥ 0.8× a bare HTTP stream of the same files`,
    measured: `${zipBest.toFixed(0)} MiB/s`,
    baseline: `${bareBest.toFixed(0)} MiB/s (bare Node HTTP server streaming the same objects in one response)`,
    ratio: times(zipBest, bareBest, 2),
    met: zipBest / bareBest >= 0.8,
  },
  {
    goal: 8,
    text: `peak RSS while streaming a zip of ${MEMORY_FILES} × ${BIG_BYTES / MiB} MiB (${((MEMORY_FILES * BIG_BYTES) / 2 ** 30).toFixed(1)} GiB; compiled server in its own process, as \`npm start\` runs it, PGlite, sampled every 50 ms): < 400 MiB`,
    measured: `${zipRss.peak.toFixed(0)} MiB`,
    baseline: `${zipRss.before.toFixed(0)} MiB (the same server just before)`,
    ratio: times(zipRss.peak, zipRss.before, 2),
    met: zipRss.peak < 400 && zipRss.bytes > MEMORY_FILES * BIG_BYTES,
  },
]);
