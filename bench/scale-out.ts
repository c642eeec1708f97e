// Issue 12 goal 9: the platform scaled out under load. Two app processes and one `npm run worker`
// on one PostgreSQL database and an S3-protocol store (s3rver), behind a round-robin proxy
// (server/test/cluster.ts). For BENCH_SECONDS (30) lanes of uploads (through the store's presigned
// part URLs) and of listings and article-number searches run through the proxy; then the same load
// against one app process directly, as the baseline of the same run. Counts every error, checks
// that every upload's media job ran exactly once, prints the table and writes it to
// docs/benchmarks.md. Needs PostgreSQL (TEST_DATABASE_URL, default 127.0.0.1:5432).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { endpoints } from '@dam/contract';
import pg from 'pg';
import { call } from '../server/test/call';
import { mediaJobsSettled, startCluster } from '../server/test/cluster';
import { makeJpeg } from '../server/test/fixtures';
import { runLanes, uploadFiles } from '../server/test/over-http';
import { recordGoals, times } from './goals';
import { BENCH_ADMIN } from './server';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const UPLOAD_LANES = 2;
const READ_LANES = 6;
const serverUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

interface LoadResult {
  calls: number;
  errors: string[];
  uploads: number[];
  readMs: number[];
  uploadMs: number[];
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};

const cluster = await startCluster({ serverUrl, admin: BENCH_ADMIN, env: { LOGIN_RATE_LIMIT: '1000' } });
const database = new pg.Client({ connectionString: cluster.databaseUrl });
try {
  await database.connect();
  const token = (
    await call(cluster.url, endpoints.login, {
      body: { userName: BENCH_ADMIN.email, password: BENCH_ADMIN.password, remember: false },
    })
  ).token;
  const { folderId } = await call(cluster.url, endpoints.createFolder, {
    token,
    body: { folderName: 'Scale-out bench' },
  });
  const photo = await makeJpeg(1600, 1200);

  /** The mixed load against `base` for SECONDS: every failed call is kept with its reason. */
  const load = async (base: string, label: string): Promise<LoadResult> => {
    const result: LoadResult = { calls: 0, errors: [], uploads: [], readMs: [], uploadMs: [] };
    result.errors = await runLanes(SECONDS * 1000, [
      ...Array.from({ length: UPLOAD_LANES }, (_, laneNo) => async (round: number) => {
        const since = performance.now();
        const ids = await uploadFiles(
          base,
          token,
          [{ fileName: `SO${laneNo}${round}-01_${label}.jpg`, size: photo.length, part: () => photo }],
          { targetFolderId: folderId, onCall: () => (result.calls += 1) },
        );
        result.uploadMs.push(performance.now() - since);
        result.uploads.push(...ids);
      }),
      ...Array.from({ length: READ_LANES }, (_, laneNo) => async (round: number) => {
        const since = performance.now();
        if ((laneNo + round) % 2 === 0)
          await call(base, endpoints.folderListing, {
            token,
            query: { folderDataId: folderId, pageSize: 50 },
          });
        else
          await call(base, endpoints.search, {
            token,
            body: { searchType: 1, query: `SO${laneNo}`, pageSize: 50 },
          });
        result.calls += 1;
        result.readMs.push(performance.now() - since);
      }),
    ]);
    return result;
  };

  console.log(`load through the proxy for ${SECONDS} s…`);
  const scaled = await load(cluster.url, 'proxy');
  const served = [...cluster.proxy.served];
  console.log(`the same load against one app process for ${SECONDS} s…`);
  const single = await load(cluster.appUrls[0] as string, 'direct');

  // Every upload's media job, once: wait (≤ 3 min) for the worker to finish them, then count.
  const done = await mediaJobsSettled(database, 180_000);
  const uploaded = [...scaled.uploads, ...single.uploads];
  const perUpload = new Map<string, number>();
  for (const job of done) perUpload.set(job.upload_id, (perUpload.get(job.upload_id) ?? 0) + 1);
  const exactlyOnce =
    uploaded.length > 0 &&
    uploaded.every((id) => perUpload.get(String(id)) === 1) &&
    done.every((job) => job.state === 'completed' && job.retry_count === 0);

  const row = (name: string, r: LoadResult) =>
    `| ${name} | ${r.calls.toLocaleString('en')} | ${(r.calls / SECONDS).toFixed(0)}/s | ${r.uploads.length} | ${percentile(r.readMs, 50).toFixed(0)} / ${percentile(r.readMs, 95).toFixed(0)} ms | ${percentile(r.uploadMs, 50).toFixed(0)} ms | ${r.errors.length} |`;
  const table = [
    '| load | calls | rate | uploads | listing/search p50 / p95 | upload p50 (5 calls + part) | errors |',
    '|---|---:|---:|---:|---:|---:|---:|',
    row(`2 apps + worker through the proxy (${served.join(' / ')} requests per app)`, scaled),
    row('baseline: 1 app directly, same cluster, same run', single),
  ].join('\n');
  const verdict = `${scaled.errors.length + single.errors.length === 0 && cluster.proxy.failures === 0 ? '0 errors' : 'ERRORS'}; media jobs: ${uploaded.length} uploads, ${done.length} jobs, ${exactlyOnce ? 'each ran exactly once' : 'NOT each exactly once'}`;
  console.log(`\n${table}\n\n${verdict}`);
  for (const error of [...scaled.errors, ...single.errors].slice(0, 10)) console.log(`  error: ${error}`);

  const version = (await database.query<{ v: string }>(`SELECT current_setting('server_version') AS v`))
    .rows[0]?.v;
  const errors = scaled.errors.length + single.errors.length + cluster.proxy.failures;
  recordGoals(
    'scale-out',
    [
      {
        goal: 9,
        text: `2 app processes + 1 worker behind a round-robin proxy, ${SECONDS} s of ${UPLOAD_LANES} upload and ${READ_LANES} listing/search lanes, then the same against 1 app (PostgreSQL, s3rver): 0 errors, each media job once`,
        measured: `${scaled.calls.toLocaleString('en')} calls through the proxy (${(scaled.calls / SECONDS).toFixed(0)}/s); both loads: ${errors} errors, ${uploaded.length} uploads, ${done.length} media jobs, ${exactlyOnce ? 'each exactly once' : 'NOT each exactly once'}`,
        baseline: `${single.calls.toLocaleString('en')} calls (${(single.calls / SECONDS).toFixed(0)}/s), 1 app directly`,
        ratio: times(scaled.calls, single.calls, 2),
        met: exactlyOnce && errors === 0,
      },
    ],
    version ? { postgres: version } : {},
  );
  const section = `## Scale-out (bench/scale-out.ts, issue 12 goal 9)

${new Date().toISOString().slice(0, 10)} · ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'unknown CPU'} · PostgreSQL ${version} · s3rver ·
two app processes (MEDIA_WORKERS=0) and one \`npm run worker\` (2 media workers) from the TypeScript
sources, behind a round-robin proxy (server/test/cluster.ts); ${UPLOAD_LANES} upload lanes (a 1600×1200
JPEG each time, parts to the store's presigned URLs) and ${READ_LANES} lanes of folder listings and
title searches for ${SECONDS} s, then the same load against one app directly. Every process, the
store, the proxy and the load share the machine's cores, so the figures show that it works and
holds, not how it scales.

${table}

${verdict}. The same set-up runs in \`npm test\`: server/test/scale-out/scale-out.test.ts (journeys
over HTTP, the sign-in limit across processes) and the upload, search, share and download browser
journeys with \`E2E_CLUSTER=1\`.
`;
  const target = path.resolve(import.meta.dirname, '../docs/benchmarks.md');
  const existing = fs.readFileSync(target, 'utf8');
  const pattern = /## Scale-out \(bench\/scale-out\.ts[\s\S]*?(?=\n## |$)/;
  fs.writeFileSync(
    target,
    pattern.test(existing)
      ? existing.replace(pattern, section.trimEnd())
      : `${existing.trimEnd()}\n\n${section}`,
  );
  console.log(`written to ${path.relative(process.cwd(), target)}`);
  if (!exactlyOnce || scaled.errors.length + single.errors.length > 0) process.exitCode = 1;
} finally {
  await database.end();
  await cluster.stop();
}
