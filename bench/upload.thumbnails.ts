// bench/upload.ts's phase 2: the thumbnail queue. BENCH_IMAGES camera-size JPEGs uploaded to a
// server with no media workers, then a fresh server with MEDIA_WORKERS timed draining the queue,
// against a bare sharp loop making the same 500 px thumbnails with the same concurrency. Records
// issue 12's goal 6.
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { times } from './goals';
import { type PhaseResult, type UploadSetup, verdict } from './upload.setup';

/** `count` 4000 × 3000 JPEGs of grey noise. */
async function cameraImages(count: number): Promise<Buffer[]> {
  const images: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    images.push(
      await sharp({
        create: {
          width: 4000,
          height: 3000,
          channels: 3,
          background: { r: 128, g: 128, b: 128 },
          noise: { type: 'gaussian', mean: 128, sigma: 40 },
        },
      })
        .jpeg({ quality: 85 })
        .toBuffer(),
    );
  }
  return images;
}

/** Seconds a bare sharp loop takes for the same thumbnails, `workers` at a time: the better of two runs. */
async function bareSharpSeconds(images: Buffer[], workers: number): Promise<number> {
  let bareSeconds = Number.POSITIVE_INFINITY;
  for (let run = 0; run < 2; run++) {
    const started = performance.now();
    const work = [...images];
    await Promise.all(
      Array.from({ length: workers }, async () => {
        for (let image = work.shift(); image; image = work.shift()) {
          const pipeline = sharp(image).rotate();
          await pipeline.clone().metadata();
          await pipeline.resize(500, 500, { fit: 'inside' }).jpeg({ quality: 80 }).toBuffer();
        }
      }),
    );
    bareSeconds = Math.min(bareSeconds, (performance.now() - started) / 1000);
  }
  return bareSeconds;
}

/** Phase 2: the queue drained by a fresh server against bare sharp. */
export async function measureThumbnailQueue(
  setup: UploadSetup,
  imageCount: number,
  workers: number,
): Promise<PhaseResult> {
  const { call, dataDir, databaseName, signIn, startServer, upload } = setup;
  const images = await cameraImages(imageCount);
  const queued = await startServer(0);
  await signIn();
  const ids = await upload(
    images.map((bytes, i) => ({ fileName: `bench-${i}.jpg`, size: bytes.length, part: () => bytes })),
  );
  await queued.stop();

  const previews = path.join(dataDir, 'objects', 'previews');
  const thumbnailsMade = () =>
    fs.existsSync(previews)
      ? (fs.readdirSync(previews, { recursive: true }) as string[]).filter((name) =>
          name.endsWith('.thumb.jpg'),
        ).length
      : 0;
  const pendingOf = async () => {
    const page = await call<{ list: Array<{ id: number; previewStatus: number }> }>(
      'POST',
      `/ske-api/v1_0/file-upload/uploaded-list?pageNo=1&pageSize=${imageCount}`,
    );
    return page.list.filter((r) => ids.includes(r.id) && r.previewStatus === 0).length;
  };
  const draining = await startServer(workers);
  // From /health on: the workers may start a little before it answers, which only flatters the
  // queue by those few milliseconds.
  const started = performance.now();
  await signIn();
  // Watched on disk every 20 ms, which costs the server nothing (an API poll ten times a second
  // took a tenth of the embedded database's thread from the very work it times); once every
  // thumbnail is written, the API must also say every record is done.
  for (;;) {
    if (thumbnailsMade() >= imageCount && (await pendingOf()) === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const queueSeconds = (performance.now() - started) / 1000;
  await draining.stop();

  // The ceiling: the same thumbnails by a bare sharp loop, the better of two runs.
  const bareSeconds = await bareSharpSeconds(images, workers);
  const share = bareSeconds / queueSeconds;
  return {
    rows: [
      [
        `thumbnails of ${imageCount} 4000x3000 JPEGs, ${workers} workers`,
        `queue ${(imageCount / queueSeconds).toFixed(1)}/s vs bare sharp ${(imageCount / bareSeconds).toFixed(1)}/s = ${(share * 100).toFixed(0)} %`,
        '>= 90 %',
        verdict(share >= 0.9),
      ],
    ],
    goals: [
      {
        goal: 6,
        text: `thumbnail queue, ${imageCount} 4000×3000 JPEGs, ${workers} media workers, drained by a fresh compiled server, ${databaseName}: ≥ 0.9× bare sharp`,
        measured: `${(imageCount / queueSeconds).toFixed(1)} images/s`,
        baseline: `${(imageCount / bareSeconds).toFixed(1)} images/s (a bare sharp loop, same concurrency, best of 2)`,
        ratio: times(bareSeconds, queueSeconds, 2),
        met: share >= 0.9,
      },
    ],
  };
}
