// Detail-page composition benchmark (issue 16, docs/plans/issue-16-composition.md §7 "Bench"),
// against a real server process (embedded PGlite or BENCH_DATABASE_URL, local driver, default
// MEDIA_WORKERS 2 and COMPOSE_WORKERS 1, from the TypeScript sources) in a scratch data directory
// that is removed afterwards:
//   1. uploads 8 distinct BENCH_COMPOSE_PX² JPEGs (default 3000, blurred noise) as
//      `<artNum>_front/_side/_back/_sole/_detail1…4.jpg` for BENCH_COMPOSE_ARTICLES article numbers
//      (default 100; the same 8 byte buffers for every article), and waits for their thumbnails;
//   2. saves a 10-block template (banner asset, 2 texts in a CJK font, 4 view slots, a 2×2 grid
//      of detail views, a 3×2 grid of nth rules, a spacer; slices of at most 1500 px) and renders
//      every article in one makerImage job into a new folder, polling checkMakerImageStatus;
//   3. renders one article alone with a 790 × ~20000 template of many blocks.
// The server's resident memory is sampled every 50 ms from /proc while each job runs.
// The templates (banner, the 10-block page, the tall page) are built in bench/composite.templates.ts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { MakerStatus, TemplateAsset, TemplateFont } from '@dam/contract';
import ExcelJS from 'exceljs';
import sharp from 'sharp';
import { callApi, uploadFiles } from '../server/test/over-http';
import { bannerPng, tallPageBlocks, tenBlockSpec, VIEWS, WIDTH } from './composite.templates';
import { BENCH_ADMIN, type BenchServer, cpuTimes, peakWhile, rssMiB, startBenchServer } from './server';

const ARTICLES = Number(process.env.BENCH_COMPOSE_ARTICLES ?? 100);
const SOURCE_PX = Number(process.env.BENCH_COMPOSE_PX ?? 3000);
const PORT = Number(process.env.BENCH_PORT ?? 18_600);
const base = `http://127.0.0.1:${PORT}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dam-bench-composite-'));

let token = '';
function call<T>(method: 'GET' | 'POST', url: string, body?: unknown): Promise<T> {
  return callApi<T>(base, token, method, url, body);
}

/** A multipart/form-data POST of one file in the field `file`, as the web app sends it. */
async function postFile<T>(url: string, fileName: string, bytes: Buffer): Promise<T> {
  const form = new FormData();
  form.append('file', new Blob([bytes]), fileName);
  const response = await fetch(`${base}${url}`, { method: 'POST', headers: { token }, body: form });
  const envelope = (await response.json()) as { success: boolean; result: T; errorDesc: string };
  if (!envelope.success) throw new Error(`${url}: ${envelope.errorDesc}`);
  return envelope.result;
}

/** CPU time (user + system) a process has used so far. */
function cpuSeconds(pid: number): number {
  const { user, system } = cpuTimes(pid);
  return user + system;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;

/** A blurred-noise JPEG with its own tint: real photos' size and decode cost, distinct bytes. */
async function source(index: number): Promise<Buffer> {
  const hue = (index * 47) % 256;
  const { data, info } = await sharp({
    create: {
      width: SOURCE_PX,
      height: SOURCE_PX,
      channels: 3,
      background: { r: hue, g: 255 - hue, b: (hue * 3) % 256 },
      noise: { type: 'gaussian', mean: 100 + index * 10, sigma: 60 },
    },
  })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return sharp(data, { raw: info }).blur(2).jpeg({ quality: 88 }).toBuffer();
}

/** Starts a job and polls it until it is finished; the articles' results. */
async function runJob(
  templateId: number,
  version: number,
  artNums: string[],
  targetFolderId: number,
): Promise<{ seconds: number; serverSeconds: number | null; status: MakerStatus }> {
  const started = performance.now();
  const { jobId } = await call<{ jobId: number }>('POST', '/ske-api/v1_0/image/makerImage', {
    templateId,
    version,
    artNums,
    targetFolderId,
    tagIdList: [],
    subfolderPerArticle: false,
  });
  for (;;) {
    // Once a second: the answer is read on the database the render writes to (PGlite: the same thread).
    await sleep(1000);
    const status = await call<MakerStatus>('GET', `/ske-api/v1_0/image/checkMakerImageStatus?jobId=${jobId}`);
    if (status.job.status !== 'running') {
      // The job's own start and end (the poll adds up to a second).
      const serverMs = Date.parse(status.job.finishedAt ?? '') - Date.parse(status.job.createdAt);
      return {
        seconds: (performance.now() - started) / 1000,
        serverSeconds: Number.isFinite(serverMs) ? serverMs / 1000 : null,
        status,
      };
    }
    if (process.env.BENCH_TRACE) console.log(`job ${jobId}: ${status.job.percent} %`);
  }
}

const rows: Array<{ measure: string; result: string }> = [];
const mb = (bytes: number) => (bytes / 1e6).toFixed(2);

let server: BenchServer | null = null;
try {
  const sources: Buffer[] = [];
  for (let i = 0; i < VIEWS.length; i++) sources.push(await source(i));
  const artNums = Array.from({ length: ARTICLES }, (_, i) => `BC${1000 + i}-001`);

  server = await startBenchServer({
    port: PORT,
    dataDir,
    env: {
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'error',
      ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
    },
    showOutput: Boolean(process.env.BENCH_LOG_LEVEL),
  });
  const pid = server.pid;
  token = (
    await call<{ token: string }>('POST', '/security-api/login', {
      userName: BENCH_ADMIN.email,
      password: BENCH_ADMIN.password,
    })
  ).token;
  const folder = async (folderName: string) =>
    (await call<{ folderId: number }>('POST', '/ske-api/v1_0/file/creat-folder', { folderName, path: '/' }))
      .folderId;

  // SKU rows, so `{name}` has a value.
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('SKU');
  sheet.addRow(['货号*', '名称*', '系列', '品类', '颜色', '季节', '性别']);
  for (const artNum of artNums)
    sheet.addRow([artNum, `轻量跑鞋 ${artNum.slice(2, 6)}`, '疾风', '跑步鞋', '黑/白', '2026SS', '男']);
  await postFile('/ske-api/v1_0/sku/import', 'sku.xlsx', Buffer.from(await book.xlsx.writeBuffer()));

  // 1. Sources: 4 articles at a time, each article's 8 files in one upload batch.
  const sourceFolder = await folder('bench-sources');
  const started = performance.now();
  const pending = [...artNums];
  const ids: number[] = [];
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let artNum = pending.shift(); artNum; artNum = pending.shift()) {
        const files = VIEWS.map((view, i) => {
          const bytes = sources[i] as Buffer;
          return { fileName: `${artNum}_${view}.jpg`, size: bytes.length, artNum, part: () => bytes };
        });
        ids.push(...(await uploadFiles(base, token, files, { targetFolderId: sourceFolder })));
      }
    }),
  );
  const uploadSeconds = (performance.now() - started) / 1000;
  const sourceBytes = sources.reduce((sum, b) => sum + b.length, 0);
  rows.push({
    measure: `upload ${ids.length} sources (${VIEWS.length} distinct ${SOURCE_PX}x${SOURCE_PX} JPEGs, ${mb(sourceBytes / VIEWS.length)} MB each, 4 articles in flight)`,
    result: `${uploadSeconds.toFixed(1)} s (${(ids.length / uploadSeconds).toFixed(1)} files/s)`,
  });
  // Their thumbnails (2 media workers) before composing, so that the job does not share the cores with them.
  const wanted = new Set(ids);
  for (;;) {
    let waiting = 0;
    let seen = 0;
    for (let pageNo = 1; seen < wanted.size; pageNo++) {
      const page = await call<{ list: Array<{ id: number; previewStatus: number }> }>(
        'POST',
        `/ske-api/v1_0/file-upload/uploaded-list?pageNo=${pageNo}&pageSize=200`,
      );
      if (page.list.length === 0) break;
      for (const r of page.list)
        if (wanted.has(r.id)) {
          seen += 1;
          if (r.previewStatus === 0) waiting += 1;
        }
    }
    if (seen === wanted.size && waiting === 0) break;
    await sleep(1000);
  }
  rows.push({
    measure: '  their thumbnails ready (2 media workers, from the start of the upload)',
    result: `${((performance.now() - started) / 1000).toFixed(1)} s`,
  });

  // 2. The template.
  const fonts = await call<TemplateFont[]>('GET', '/ske-api/v1_0/template/fonts');
  const font =
    fonts.find((f) => f.id === 'wqy-zenhei' && f.available) ??
    fonts.find((f) => f.cjk && f.available) ??
    fonts.find((f) => f.available);
  if (!font) throw new Error(`no font available: ${JSON.stringify(fonts)}`);
  const banner = await postFile<TemplateAsset>(
    '/ske-api/v1_0/template/asset',
    'banner.png',
    await bannerPng(),
  );
  const saved = await call<{ id: number; version: number }>('POST', '/ske-api/v1_0/template/save', {
    name: 'Bench 10 blocks',
    status: 1,
    spec: tenBlockSpec(banner.id, font.id),
  });

  const pagesFolder = await folder('bench-pages');
  const idle = rssMiB(pid);
  const cpuBefore = cpuSeconds(pid);
  const batch = await peakWhile(pid, () => runJob(saved.id, saved.version, artNums, pagesFolder));
  const jobCpu = cpuSeconds(pid) - cpuBefore;
  const articles = batch.result.status.articles;
  const done = articles.filter((a) => a.status === 'done');
  const notDone = articles.filter((a) => a.status !== 'done');
  if (notDone.length > 0)
    console.log(
      'not done:',
      notDone
        .slice(0, 5)
        .map((a) => ({ artNum: a.artNum, status: a.status, error: a.error, missing: a.missing })),
    );
  const durations = done.map((a) => a.durationMs ?? 0).sort((a, b) => a - b);
  const mean = durations.reduce((sum, d) => sum + d, 0) / Math.max(1, durations.length);
  const bytesOf = (kind: 'page' | 'slice') =>
    done.reduce(
      (sum, a) => sum + a.outputs.filter((o) => o.kind === kind).reduce((s, o) => s + o.bytes, 0),
      0,
    ) / Math.max(1, done.length);
  const first = done[0];
  const warnings = new Map<string, number>();
  for (const warning of done.flatMap((a) => a.warnings))
    warnings.set(warning.code, (warnings.get(warning.code) ?? 0) + 1);
  rows.push({
    measure: `one makerImage job of ${ARTICLES} articles, 10-block template (font ${font.id}), slices <= 1500 px`,
    result: `${done.length} done, ${notDone.length} not; page ${WIDTH}x${first?.pageHeight ?? '?'}, ${first?.sliceCount ?? '?'} slices; warnings: ${[...warnings].map(([code, n]) => `${code} ×${n}`).join(', ') || 'none'}`,
  });
  const total = batch.result.serverSeconds ?? batch.result.seconds;
  rows.push({
    measure: '  total time (job created to job finished, server clock)',
    result: `${total.toFixed(1)} s (client, polling once a second: ${batch.result.seconds.toFixed(1)} s)`,
  });
  rows.push({
    measure: '  time per page (durationMs of each article)',
    result: `mean ${(mean / 1000).toFixed(2)} s, p95 ${(quantile(durations, 0.95) / 1000).toFixed(2)} s, max ${((durations.at(-1) ?? 0) / 1000).toFixed(2)} s`,
  });
  rows.push({
    measure: '  pages per minute',
    result: `${((done.length / total) * 60).toFixed(1)}`,
  });
  rows.push({
    measure: "  server CPU per page (render, save, the outputs' thumbnails, polls)",
    result: `${(jobCpu / Math.max(1, done.length)).toFixed(2)} s (${jobCpu.toFixed(0)} s over ${batch.result.seconds.toFixed(0)} s)`,
  });
  rows.push({
    measure: '  output per page (whole page + slices)',
    result: `${mb(bytesOf('page') + bytesOf('slice'))} MB (page ${mb(bytesOf('page'))} MB, slices ${mb(bytesOf('slice'))} MB)`,
  });
  rows.push({
    measure: '  server RSS (tsx, PGlite in the process)',
    result: `baseline ${idle.toFixed(0)} MiB before the job -> peak ${batch.peak.toFixed(0)} MiB (+${(batch.peak - idle).toFixed(0)})`,
  });

  // 3. One tall page alone: 790 × ~20000 of many blocks.
  const tallBlocks = tallPageBlocks(banner.id, font.id);
  const tall = await call<{ id: number; version: number }>('POST', '/ske-api/v1_0/template/save', {
    name: 'Bench tall page',
    status: 1,
    spec: { width: WIDTH, blocks: tallBlocks, output: { sliceMaxHeight: 1500 } },
  });
  const tallFolder = await folder('bench-tall');
  const tallIdle = rssMiB(pid);
  const single = await peakWhile(pid, () =>
    runJob(tall.id, tall.version, [artNums[0] as string], tallFolder),
  );
  const one = single.result.status.articles[0];
  const oneBytes = one?.outputs.reduce((sum, o) => sum + o.bytes, 0) ?? 0;
  rows.push({
    measure: `one tall page alone (${tallBlocks.length} blocks)`,
    result:
      one?.status === 'done'
        ? `${WIDTH}x${one.pageHeight}, ${one.sliceCount} slices, ${mb(oneBytes)} MB, ${((one.durationMs ?? 0) / 1000).toFixed(2)} s render; RSS ${tallIdle.toFixed(0)} -> peak ${single.peak.toFixed(0)} MiB (+${(single.peak - tallIdle).toFixed(0)})`
        : `${one?.status}: ${one?.error ?? JSON.stringify(one?.missing)}`,
  });
} finally {
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
  // Printed even when a step failed: what was measured before it.
  printRows();
}

function printRows() {
  console.log(
    `\nDetail-page composition benchmark (${os.cpus().length} cores, load ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')})`,
  );
  console.table(rows);
}
