// Upload pipeline benchmark (issue 4 "Scale and speed"), against a real server process on the
// local driver over loopback, in a scratch data directory that is removed afterwards:
//   1. one large file (BENCH_UPLOAD_MB, default 5120 = 5 GB) uploaded the way the browser does it
//      (multipart, 3 parts in flight); throughput against a bare HTTP part writer sent the same
//      parts by the same client (node:http: fetch's own CPU had been half the measure), a plain
//      disk write of the same bytes, and the server's resident memory while it runs; the three
//      alternate BENCH_UPLOAD_ROUNDS times (default 5) and each figure is the median;
//   2. the thumbnail queue draining BENCH_IMAGES camera-size JPEGs (default 100), against a bare
//      sharp loop making the same 500 px thumbnails with the same concurrency (MEDIA_WORKERS).
// Targets: throughput >= 90 % of a bare HTTP part writer (with the `sync; dd` ratio beside it),
// flat server memory, queue >= 90 % of bare sharp. Before both, issue 12 goal 8's idle memory: the
// compiled server's RSS BENCH_IDLE_SECONDS (default 8) after its first start, beside a bare Node
// HTTP server process's. On the embedded PGlite, or with BENCH_DB=postgres or BENCH_DATABASE_URL on
// a scratch database of that PostgreSQL server, dropped afterwards. BENCH_UPLOAD_MB=0 skips the
// upload (`npm run bench` runs the PostgreSQL pass so: the upload hardly touches the database).
// Records issue 12's goals 6–8 for bench/goal-table.ts.
// The phases: 1. in bench/upload.large-file.ts, 2. in bench/upload.thumbnails.ts; what they share
// (the API client, the table rows) in bench/upload.setup.ts.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createPostgresDatabase } from '../server/test/harness';
import { type GoalRow, recordGoals, times } from './goals';
import { rssMiB, startBenchServer } from './server';
import { measureLargeUpload } from './upload.large-file';
import { type UploadRow, type UploadSetup, uploadClient, verdict } from './upload.setup';
import { measureThumbnailQueue } from './upload.thumbnails';

const UPLOAD_MB = Number(process.env.BENCH_UPLOAD_MB ?? 5120);
const IMAGES = Number(process.env.BENCH_IMAGES ?? 100);
// The queue is timed from its first thumbnail to its last: it needs at least one image.
if (!Number.isInteger(IMAGES) || IMAGES < 1)
  throw new Error(`BENCH_IMAGES must be a whole number ≥ 1, not ${IMAGES}`);
const WORKERS = Number(process.env.MEDIA_WORKERS ?? 2);
const PORT = Number(process.env.BENCH_PORT ?? 18_580);
const base = `http://127.0.0.1:${PORT}`;
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 8);
/** How many times the large upload, the bare writer and `dd` each run (alternating; medians). */
const ROUNDS = Number(process.env.BENCH_UPLOAD_ROUNDS ?? 5);
if (!Number.isInteger(ROUNDS) || ROUNDS < 1)
  throw new Error(`BENCH_UPLOAD_ROUNDS must be a whole number ≥ 1, not ${ROUNDS}`);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dam-bench-upload-'));
// PostgreSQL with BENCH_DB=postgres (its server: BENCH_DATABASE_URL, TEST_DATABASE_URL or the local
// one) or when BENCH_DATABASE_URL is set; a scratch database there, dropped afterwards.
const postgresServer =
  process.env.BENCH_DATABASE_URL ??
  (process.env.BENCH_DB === 'postgres'
    ? (process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres')
    : undefined);
const scratch = postgresServer ? await createPostgresDatabase(postgresServer, 'dam_bench_upload') : null;
const databaseName = scratch ? 'PostgreSQL' : 'PGlite';

const startServer = (mediaWorkers: number, extraEnv: Record<string, string> = {}) =>
  startBenchServer({
    port: PORT,
    dataDir,
    // As `npm start` runs it (compiled, no TypeScript loader): its memory is what the goal is about.
    production: true,
    nodeArgs: process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_PROFILE] : [],
    env: {
      MEDIA_WORKERS: String(mediaWorkers),
      ...(scratch ? { DATABASE_URL: scratch.url } : {}),
      ...extraEnv,
    },
  });
const setup: UploadSetup = { ...uploadClient(base), dataDir, databaseName, startServer };

const rows: UploadRow[] = [];
const goals: GoalRow[] = [];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

try {
  // 0. Idle memory (issue 12 goal 8): the server as `npm start` runs it (its media workers
  // included), first start on the fresh data directory, no request but /health; beside it, a bare
  // Node HTTP server process measured the same way at the same time.
  const idle = await startServer(WORKERS);
  const bareNode = spawn(
    process.execPath,
    ['-e', "require('node:http').createServer((q, s) => s.end()).listen(0, '127.0.0.1')"],
    { stdio: 'ignore' },
  );
  let idleRss = 0;
  let bareNodeRss = 0;
  try {
    await sleep(IDLE_SECONDS * 1000);
    idleRss = rssMiB(idle.pid);
    bareNodeRss = rssMiB(bareNode.pid as number);
  } finally {
    // Also when the server died meanwhile (its /proc entry gone): the bare process must not stay.
    bareNode.kill();
  }
  await idle.stop();
  const idleLimit = scratch ? 250 : 350;
  rows.push([
    `server RSS ${IDLE_SECONDS} s after its first start (compiled, ${databaseName})`,
    `${idleRss.toFixed(0)} MiB (a bare Node HTTP server: ${bareNodeRss.toFixed(0)} MiB)`,
    `< ${idleLimit} MiB`,
    verdict(idleRss < idleLimit),
  ]);
  goals.push({
    goal: 8,
    text: `idle RSS of the compiled server as \`npm start\` runs it (${WORKERS} media workers), ${IDLE_SECONDS} s after its first start, ${databaseName}: < ${idleLimit} MiB`,
    measured: `${idleRss.toFixed(0)} MiB`,
    baseline: `${bareNodeRss.toFixed(0)} MiB (a bare Node HTTP server process, same wait)`,
    ratio: times(idleRss, bareNodeRss),
    met: idleRss < idleLimit,
  });

  if (UPLOAD_MB > 0) {
    // 1. One large file, ROUNDS times, each round also timing the bare writer and `dd`.
    const large = await measureLargeUpload(setup, UPLOAD_MB, ROUNDS, PORT + 1);
    rows.push(...large.rows);
    goals.push(...large.goals);
  }

  // 2. The thumbnail queue: upload with no workers, then time a server with workers draining it.
  const queue = await measureThumbnailQueue(setup, IMAGES, WORKERS);
  rows.push(...queue.rows);
  goals.push(...queue.goals);
  let postgres: string | undefined;
  if (scratch) {
    const client = new pg.Client({ connectionString: scratch.url });
    await client.connect();
    postgres = (await client.query<{ v: string }>(`SELECT current_setting('server_version') AS v`)).rows[0]
      ?.v;
    await client.end();
  }
  recordGoals(`upload-${databaseName.toLowerCase()}`, goals, postgres ? { postgres } : {});
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
  await scratch?.drop();
}

console.log('\nUpload pipeline benchmark');
console.table(rows.map(([measure, result, target, status]) => ({ measure, result, target, status })));
