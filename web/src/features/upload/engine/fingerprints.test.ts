import { fingerprintOf } from '@dam/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type BrowserFingerprint,
  type Canvas2D,
  canFingerprint,
  type FingerprintAnswer,
  type FingerprintJob,
  FingerprintPool,
  fingerprintBlob,
  fitSize,
  isAnimatedImage,
  MAX_HASHED_BYTES,
  type WorkerLike,
} from './fingerprints';

/** A PNG's signature and chunks (CRCs left zero: only the layout is read). */
function png(...chunks: string[]): Uint8Array<ArrayBuffer> {
  const parts = [Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])];
  for (const type of chunks) {
    const chunk = new Uint8Array(12 + 4);
    new DataView(chunk.buffer).setUint32(0, 4);
    chunk.set(
      [...type].map((c) => c.charCodeAt(0)),
      4,
    );
    parts.push(chunk);
  }
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    all.set(part, at);
    at += part.length;
  }
  return all;
}

function webp(flags: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(30);
  bytes.set(
    [...'RIFF'].map((c) => c.charCodeAt(0)),
    0,
  );
  bytes.set(
    [...'WEBPVP8X'].map((c) => c.charCodeAt(0)),
    8,
  );
  bytes[20] = flags;
  return bytes;
}

/** A canvas that paints what it is given: a left-dark, right-light picture with a red square. */
function paintingCanvas(drawn: Array<{ width: number; height: number }>) {
  return (width: number, height: number): Canvas2D => {
    drawn.push({ width, height });
    const data = new Uint8ClampedArray(width * height * 4);
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        const at = (y * width + x) * 4;
        const red = x > width / 3 && x < width / 2 && y > height / 3 && y < height / 2;
        const grey = Math.round((x / width) * 200);
        data.set(red ? [220, 0, 0, 255] : [grey, grey, grey, 255], at);
      }
    return {
      fillStyle: '',
      fillRect: vi.fn(),
      drawImage: vi.fn(),
      imageSmoothingEnabled: false,
      imageSmoothingQuality: 'low',
      getImageData: () => ({ data, width, height, colorSpace: 'srgb' }) as ImageData,
    } as unknown as Canvas2D;
  };
}

afterEach(() => vi.unstubAllGlobals());

describe('browser fingerprints', () => {
  it('hashes pictures the browser decodes, up to 50 MB', () => {
    expect(canFingerprint('a.JPG', 1000)).toBe(true);
    expect(canFingerprint('a.avif', MAX_HASHED_BYTES)).toBe(true);
    expect(canFingerprint('a.jpg', MAX_HASHED_BYTES + 1)).toBe(false);
    expect(canFingerprint('a.psd', 1000)).toBe(false);
    expect(canFingerprint('a.gif', 1000)).toBe(false);
  });

  it('fits the raster into 256 px, never enlarging', () => {
    expect(fitSize(1200, 900)).toEqual({ width: 256, height: 192 });
    expect(fitSize(900, 1200)).toEqual({ width: 192, height: 256 });
    expect(fitSize(100, 40)).toEqual({ width: 100, height: 40 });
    expect(fitSize(10_000, 10)).toEqual({ width: 256, height: 1 });
  });

  it('finds animated PNGs and WebPs from their first bytes', () => {
    expect(isAnimatedImage(png('IHDR', 'acTL', 'IDAT'))).toBe(true);
    expect(isAnimatedImage(png('IHDR', 'IDAT', 'acTL'))).toBe(false);
    expect(isAnimatedImage(png('IHDR'))).toBe(false);
    expect(isAnimatedImage(webp(0x02))).toBe(true);
    expect(isAnimatedImage(webp(0x10))).toBe(false);
    expect(isAnimatedImage(Uint8Array.from([0xff, 0xd8, 0xff]))).toBe(false);
  });

  it('draws the picture fitted over white and gives fingerprintOf its raster', async () => {
    const close = vi.fn();
    vi.stubGlobal(
      'createImageBitmap',
      vi.fn(async () => ({ width: 1200, height: 900, close })),
    );
    const drawn: Array<{ width: number; height: number }> = [];
    const makeCanvas = paintingCanvas(drawn);
    const result = await fingerprintBlob(new Blob([Uint8Array.from([0xff, 0xd8, 0xff])]), makeCanvas);
    expect(drawn).toEqual([{ width: 256, height: 192 }]);
    const expected = fingerprintOf({
      pixels: paintingCanvas([])(256, 192).getImageData(0, 0, 256, 192).data,
      width: 256,
      height: 192,
      channels: 4,
      sourceWidth: 1200,
      sourceHeight: 900,
    });
    expect(result.status).toBe('ready');
    expect(result).toEqual(expected);
    expect(close).toHaveBeenCalled();
  });

  it('says animated without decoding, and failed when the browser cannot decode', async () => {
    const decode = vi.fn(async () => {
      throw new Error('cannot decode');
    });
    vi.stubGlobal('createImageBitmap', decode);
    expect(await fingerprintBlob(new Blob([webp(0x02)]), paintingCanvas([]))).toEqual({ status: 'animated' });
    expect(decode).not.toHaveBeenCalled();
    expect(await fingerprintBlob(new Blob([png('IHDR', 'IDAT')]), paintingCanvas([]))).toEqual({
      status: 'failed',
    });
  });
});

/** Workers that answer only when the test says so. */
function fakeWorkers() {
  const workers: Array<
    WorkerLike & { jobs: FingerprintJob[]; answer: (result: BrowserFingerprint) => void }
  > = [];
  const create = (): WorkerLike => {
    const worker = {
      jobs: [] as FingerprintJob[],
      onmessage: null as WorkerLike['onmessage'],
      onerror: null as WorkerLike['onerror'],
      postMessage(job: FingerprintJob) {
        worker.jobs.push(job);
      },
      terminate: vi.fn(),
      answer(result: BrowserFingerprint) {
        const job = worker.jobs.at(-1) as FingerprintJob;
        worker.onmessage?.({ data: { id: job.id, result } } as MessageEvent<FingerprintAnswer>);
      },
    };
    workers.push(worker);
    return worker;
  };
  return { workers, create };
}

describe('the fingerprint pool', () => {
  it('hashes two files at a time, each worker one at a time, in order', async () => {
    const { workers, create } = fakeWorkers();
    const pool = new FingerprintPool(create, 2);
    const files = [1, 2, 3, 4].map((n) => new Blob([String(n)]));
    const results = files.map((file) => pool.fingerprint(file));
    expect(workers).toHaveLength(2);
    expect(workers.map((w) => w.jobs.length)).toEqual([1, 1]);
    expect(workers[0]?.jobs[0]?.file).toBe(files[0]);

    workers[1]?.answer({ status: 'blank' });
    expect(await results[1]).toEqual({ status: 'blank' });
    expect(workers.map((w) => w.jobs.length)).toEqual([1, 2]);
    expect(workers[1]?.jobs[1]?.file).toBe(files[2]);

    pool.close();
    expect(await results[0]).toEqual({ status: 'failed' });
    expect(await results[3]).toEqual({ status: 'failed' });
    expect(workers[0]?.terminate).toHaveBeenCalled();
  });

  it('fails only the file of a worker that breaks, and goes on with a new one', async () => {
    const { workers, create } = fakeWorkers();
    const pool = new FingerprintPool(create, 1);
    const first = pool.fingerprint(new Blob(['1']));
    const second = pool.fingerprint(new Blob(['2']));
    workers[0]?.onerror?.({} as ErrorEvent);
    expect(await first).toEqual({ status: 'failed' });
    expect(workers).toHaveLength(2);
    workers[1]?.answer({ status: 'tooSmall' });
    expect(await second).toEqual({ status: 'tooSmall' });
    pool.close();
  });
});
