// Image limits benchmark (issue 9 item 6 "No single request can exhaust memory or CPU"), against a
// real server process (embedded PGlite, local driver, MEDIA_WORKERS 2) in a scratch data
// directory that is removed afterwards. The server's resident memory is sampled every 50 ms while
//   1. it thumbnails hostile and heavy uploads: a 20000×20000 PNG (refused from its header), a
//      59 MP interlaced PNG and a 45 MP progressive JPEG (decoded whole by libvips), a 35 MP PSD;
//   2. it answers downloads: equalScalingPx 20000 (refused), a preset enlarging a 40×30 JPEG to
//      10000 px, and 4 concurrent preset conversions of the heavy images.
// Target: the server stays under 1 GiB RSS throughout (docs/decisions.md "Image limits").
// BENCH_ONLY=huge,psd… thumbnails only the files whose names contain one of those words.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writePsd } from 'ag-psd';
import sharp from 'sharp';
import { callApi, uploadFiles } from '../server/test/over-http';
import { BENCH_ADMIN, type BenchServer, peakWhile, rssMiB, startBenchServer } from './server';

const PORT = Number(process.env.BENCH_PORT ?? 18_590);
const base = `http://127.0.0.1:${PORT}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dam-bench-images-'));
const LIMIT_MIB = 1024;

let token = '';
function call<T>(method: 'GET' | 'POST', url: string, body?: unknown): Promise<T> {
  return callApi<T>(base, token, method, url, body);
}

const upload = (files: Array<{ fileName: string; bytes: Buffer }>) =>
  uploadFiles(
    base,
    token,
    files.map(({ fileName, bytes }) => ({
      fileName,
      size: bytes.length,
      part: (n, size) => bytes.subarray((n - 1) * size, n * size),
    })),
  );

const pattern = (width: number, height: number) =>
  sharp({
    create: { width, height, channels: 4, background: { r: 200, g: 60, b: 40, alpha: 1 } },
    limitInputPixels: false,
  }).composite([
    { input: { create: { width: 200, height: 200, channels: 4, background: '#1d6fd8' } }, tile: true },
  ]);

async function makePsd(width: number, height: number): Promise<Buffer> {
  const { data } = await pattern(width, height).raw().toBuffer({ resolveWithObject: true });
  const imageData = { width, height, data: new Uint8ClampedArray(data.buffer, data.byteOffset, data.length) };
  return Buffer.from(
    writePsd({ width, height, imageData: imageData as never, children: [] }, { generateThumbnail: false }),
  );
}

const rows: Array<[string, string, string, string]> = [];
const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');

let server: BenchServer | null = null;
try {
  const files = [
    {
      fileName: 'huge-20000.png',
      bytes: await sharp({
        create: { width: 20000, height: 20000, channels: 3, background: '#c83c28' },
        limitInputPixels: false,
      })
        .png({ compressionLevel: 9 })
        .toBuffer(),
    },
    {
      fileName: 'interlaced-59mp.png',
      bytes: await pattern(9000, 6600).png({ progressive: true }).toBuffer(),
    },
    {
      fileName: 'progressive-45mp.jpg',
      bytes: await pattern(8000, 5600).jpeg({ progressive: true, chromaSubsampling: '4:4:4' }).toBuffer(),
    },
    { fileName: 'layout-35mp.psd', bytes: await makePsd(7000, 5000) },
    {
      fileName: 'tiny.jpg',
      bytes: await sharp({ create: { width: 40, height: 30, channels: 3, background: '#1d6fd8' } })
        .jpeg()
        .toBuffer(),
    },
  ];
  const only = process.env.BENCH_ONLY?.split(',');
  if (only) files.splice(0, files.length, ...files.filter((f) => only.some((o) => f.fileName.includes(o))));
  server = await startBenchServer({
    port: PORT,
    dataDir,
    env: { MEDIA_WORKERS: '2', LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'error' },
    showOutput: Boolean(process.env.BENCH_LOG_LEVEL),
  });
  const pid = server.pid;
  token = (
    await call<{ token: string }>('POST', '/security-api/login', {
      userName: BENCH_ADMIN.email,
      password: BENCH_ADMIN.password,
    })
  ).token;
  const idle = rssMiB(pid);

  // 1. Thumbnails.
  const started = performance.now();
  const thumbnails = await peakWhile(pid, async () => {
    const ids = await upload(files);
    for (;;) {
      const page = await call<{ list: Array<{ id: number; previewStatus: number }> }>(
        'POST',
        '/ske-api/v1_0/file-upload/uploaded-list?pageNo=1&pageSize=200',
      );
      const mine = page.list.filter((r) => ids.includes(r.id));
      if (mine.length === ids.length && mine.every((r) => r.previewStatus !== 0)) return { ids, mine };
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
  const seconds = (performance.now() - started) / 1000;
  const statuses = thumbnails.result.ids.map((id, i) => {
    const status = thumbnails.result.mine.find((r) => r.id === id)?.previewStatus;
    return `${files[i]?.fileName} ${status === 1 ? 'ready' : status === 2 ? 'refused' : `status ${status}`}`;
  });
  rows.push([
    'thumbnailing: 20000x20000 PNG, 59 MP interlaced PNG, 45 MP progressive JPEG, 35 MP PSD, tiny JPEG',
    `RSS idle ${idle.toFixed(0)} -> peak ${thumbnails.peak.toFixed(0)} MiB in ${seconds.toFixed(1)} s (${statuses.join(', ')})`,
    `< ${LIMIT_MIB} MiB`,
    verdict(thumbnails.peak < LIMIT_MIB),
  ]);

  // 2. Downloads (of every file: skipped when BENCH_ONLY picks some).
  if (!only) await downloads(pid, thumbnails.result.ids);
} finally {
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

console.log('\nImage limits benchmark');
console.table(rows.map(([measure, result, target, status]) => ({ measure, result, target, status })));

async function downloads(pid: number, ids: number[]): Promise<void> {
  const [, interlaced, progressive, psd, tiny] = ids;
  const download = async (body: unknown) => {
    const response = await fetch(`${base}/ske-api/v1_0/file/batch-download`, {
      method: 'POST',
      headers: { token, 'content-type': 'application/json', lang: 'en' },
      body: JSON.stringify(body),
    });
    const bytes = Buffer.from(await response.arrayBuffer());
    return { status: response.status, bytes };
  };
  const refused = await download({ uploadIdList: [tiny], equalScalingPx: 20000 });
  const poster = await call<{ id: number }>('POST', '/ske-api/v1_0/download-preset/save', {
    name: 'Poster 10000',
    format: 'jpg',
    longSidePx: 10000,
    fileNameTemplate: '{name}_{width}',
  });
  const web = await call<{ id: number }>('POST', '/ske-api/v1_0/download-preset/save', {
    name: 'Web 3000',
    format: 'jpg',
    longSidePx: 3000,
    fileNameTemplate: '{name}_{width}',
  });
  const downloaded = await peakWhile(pid, async () => {
    const enlarged = await download({ uploadIdList: [tiny], presetId: poster.id });
    const concurrent = await Promise.all(
      Array.from({ length: 4 }, () =>
        download({ uploadIdList: [interlaced, progressive, psd], presetId: web.id }),
      ),
    );
    return { enlarged, concurrent };
  });
  const enlargedSize = await sharp(downloaded.result.enlarged.bytes).metadata();
  rows.push([
    'download: equalScalingPx 20000',
    `HTTP ${refused.status} (${JSON.parse(refused.bytes.toString()).errorDesc})`,
    'refused (SE_400)',
    verdict(refused.status === 400),
  ]);
  rows.push([
    'download: preset enlarging 40x30 JPEG to 10000 px, then 4 concurrent zips of the heavy images at 3000 px',
    `${enlargedSize.width}x${enlargedSize.height}; zips ${downloaded.result.concurrent.map((r) => `${r.status} ${(r.bytes.length / 1e6).toFixed(1)} MB`).join(', ')}; RSS peak ${downloaded.peak.toFixed(0)} MiB`,
    `< ${LIMIT_MIB} MiB`,
    verdict(downloaded.peak < LIMIT_MIB),
  ]);
}
