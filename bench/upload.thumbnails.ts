// bench/upload.ts's phase 2: the thumbnail queue. BENCH_IMAGES camera-size JPEGs (with EXIF and
// XMP, as a camera and a photographer's tools write them) uploaded to a server with no media
// workers, then a fresh server with MEDIA_WORKERS timed draining the queue, against a bare sharp
// loop making the same 500 px thumbnails with the same concurrency. Records issue 12's goal 6.
// The same images are uploaded and drained twice: once without reading their embedded metadata
// (EMBEDDED_METADATA_READ=false, the queue before issue 42), once with it (the default), which
// gives issue 42's cost of reading metadata (< 10 %).
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { times } from './goals';
import { treeCpuSeconds } from './server';
import { type PhaseResult, type UploadSetup, verdict } from './upload.setup';

/** What a photographer's tools add to a camera's EXIF (issue 42 reads both). */
const XMP = `<?xpacket begin="\u{feff}" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xmpRights="http://ns.adobe.com/xap/1.0/rights/">
<dc:creator><rdf:Seq><rdf:li>Bench Photographer</rdf:li></rdf:Seq></dc:creator>
<dc:rights><rdf:Alt><rdf:li xml:lang="x-default">© 2026 Brand</rdf:li></rdf:Alt></dc:rights>
<dc:subject><rdf:Bag><rdf:li>running</rdf:li><rdf:li>white</rdf:li></rdf:Bag></dc:subject>
<xmpRights:UsageTerms><rdf:Alt><rdf:li xml:lang="x-default">E-commerce only</rdf:li></rdf:Alt></xmpRights:UsageTerms>
</rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>`;

/** `count` 4000 × 3000 JPEGs of grey noise, with a camera's EXIF and a photographer's XMP. */
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
        .withExif({
          IFD0: { Make: 'Canon', Model: 'Canon EOS R5', Artist: 'Bench Photographer' },
          IFD2: { DateTimeOriginal: '2026:05:04 10:20:30', OffsetTimeOriginal: '+08:00' },
        })
        .withXmp(XMP)
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

/**
 * Uploads `images` to a server with no media workers, then times a fresh server with `workers`
 * draining their media jobs (`env` on that server): seconds from its start to the last thumbnail,
 * and the CPU seconds its process tree (ExifTool included) spent meanwhile.
 */
async function drainSeconds(
  setup: UploadSetup,
  images: Buffer[],
  workers: number,
  env: Record<string, string>,
  round: string,
): Promise<{ seconds: number; cpu: number; exiftool: number }> {
  const { call, dataDir, signIn, startServer, upload } = setup;
  const imageCount = images.length;
  const queued = await startServer(0);
  await signIn();
  const ids = await upload(
    images.map((bytes, i) => ({
      fileName: `bench-${round}-${i}.jpg`,
      size: bytes.length,
      part: () => bytes,
    })),
  );
  await queued.stop();

  const previews = path.join(dataDir, 'objects', 'previews');
  const before = thumbnailsIn(previews);
  const pendingOf = async () => {
    const page = await call<{ list: Array<{ id: number; previewStatus: number }> }>(
      'POST',
      `/ske-api/v1_0/file-upload/uploaded-list?pageNo=1&pageSize=${imageCount}`,
    );
    return page.list.filter((r) => ids.includes(r.id) && r.previewStatus === 0).length;
  };
  const draining = await startServer(workers, env);
  // From /health on: the workers may start a little before it answers, which only flatters the
  // queue by those few milliseconds.
  const started = performance.now();
  // ExifTool starts with the first read: it has used nothing before.
  const cpuBefore = treeCpuSeconds(draining.pid).total;
  await signIn();
  // Watched on disk every 20 ms, which costs the server nothing (an API poll ten times a second
  // took a tenth of the embedded database's thread from the very work it times); once every
  // thumbnail is written, the API must also say every record is done.
  for (;;) {
    if (thumbnailsIn(previews) - before >= imageCount && (await pendingOf()) === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const seconds = (performance.now() - started) / 1000;
  const tree = treeCpuSeconds(draining.pid);
  await draining.stop();
  return { seconds, cpu: tree.total - cpuBefore, exiftool: tree.byCommand.get('perl') ?? 0 };
}

const thumbnailsIn = (previews: string) =>
  fs.existsSync(previews)
    ? (fs.readdirSync(previews, { recursive: true }) as string[]).filter((name) =>
        name.endsWith('.thumb.jpg'),
      ).length
    : 0;

/** Rounds of the metadata comparison (each drains the images once without and once with the read). */
const METADATA_ROUNDS = Number(process.env.BENCH_METADATA_ROUNDS ?? 2);
if (!Number.isInteger(METADATA_ROUNDS) || METADATA_ROUNDS < 1)
  throw new Error(`BENCH_METADATA_ROUNDS must be a whole number ≥ 1, not ${METADATA_ROUNDS}`);
const WITHOUT_READ = { EMBEDDED_METADATA_READ: 'false' };
// The back-fill would also read the other side's records (never read) during this side's drain:
// once-only work for files from before issue 42, not the queue's cost of reading new ones.
const WITH_READ = { EMBEDDED_METADATA_READ: 'true', METADATA_BACKFILL: 'false' };
type Drained = Awaited<ReturnType<typeof drainSeconds>>;

/** Phase 2: the queue drained by a fresh server against bare sharp, without and with the metadata read. */
export async function measureThumbnailQueue(
  setup: UploadSetup,
  imageCount: number,
  workers: number,
): Promise<PhaseResult> {
  const { databaseName } = setup;
  const images = await cameraImages(imageCount);
  // Without and with alternate, each first in turn, and each keeps its best round: a machine
  // busy for a moment costs one round of one side, not the comparison.
  const without: Drained[] = [];
  const withRead: Drained[] = [];
  for (let round = 0; round < METADATA_ROUNDS; round++) {
    const sides = [
      async () => without.push(await drainSeconds(setup, images, workers, WITHOUT_READ, `a${round}`)),
      async () => withRead.push(await drainSeconds(setup, images, workers, WITH_READ, `b${round}`)),
    ];
    for (const side of round % 2 === 0 ? sides : sides.reverse()) await side();
  }
  const withoutSeconds = Math.min(...without.map((run) => run.seconds));
  const queueSeconds = Math.min(...withRead.map((run) => run.seconds));
  const metadataCost = queueSeconds / withoutSeconds - 1;
  const cpuPerImage = (runs: Drained[]) =>
    `${((Math.min(...runs.map((run) => run.cpu)) / imageCount) * 1000).toFixed(0)} ms`;
  // ExifTool's own process (its start included): the read's cost a noisy machine cannot blur.
  const exiftoolPerImage = `${((Math.min(...withRead.map((run) => run.exiftool)) / imageCount) * 1000).toFixed(1)} ms`;

  // The ceiling: the same thumbnails by a bare sharp loop, the better of two runs.
  const bareSeconds = await bareSharpSeconds(images, workers);
  const share = bareSeconds / queueSeconds;
  return {
    rows: [
      [
        `metadata read (issue 42): thumbnail queue with vs without, ${imageCount} JPEGs with EXIF+XMP`,
        `${(imageCount / queueSeconds).toFixed(1)}/s vs ${(imageCount / withoutSeconds).toFixed(1)}/s = ${metadataCost >= 0 ? '+' : ''}${(metadataCost * 100).toFixed(1)} % time; CPU ${cpuPerImage(withRead)} vs ${cpuPerImage(without)} an image, of which ExifTool ${exiftoolPerImage} (best of ${METADATA_ROUNDS})`,
        '< 10 %',
        verdict(metadataCost < 0.1),
      ],
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
