import { FINGERPRINT_SIDE, fingerprintOf, type PaletteColour } from '@dam/contract';

/**
 * The upload dialog's fingerprints of picked files (issue 17, plan §2.3): the same function as the
 * media job's (fingerprintOf), fed a canvas raster the browser makes. Run in a module worker, two
 * files at a time; without OffscreenCanvas, on the page, one at a time.
 */

/** What the browser decodes and hashes; anything else is compared after upload, by the server. */
const HASHABLE = /\.(jpe?g|png|webp|bmp|avif)$/i;
/** Bigger files are left to the server: decoding a 50 MP picture takes ~200 MB (plan §12). */
export const MAX_HASHED_BYTES = 50 * 1024 * 1024;
/** How much of a file the animation check reads. */
const HEAD_BYTES = 64 * 1024;
/** Files hashed at once (each worker one at a time). */
export const HASH_LANES = 2;

export type BrowserFingerprint =
  | { status: 'ready'; hash: string; colours: PaletteColour[] }
  | { status: 'tooSmall' | 'blank' | 'animated' | 'failed' };

/** Whether the browser hashes this file (by its name and size). */
export function canFingerprint(fileName: string, size: number): boolean {
  return HASHABLE.test(fileName) && size > 0 && size <= MAX_HASHED_BYTES;
}

/** The raster size a picture is drawn at: fitted into the 256-px square, never enlarged. */
export function fitSize(
  width: number,
  height: number,
  side = FINGERPRINT_SIDE,
): { width: number; height: number } {
  const scale = Math.min(1, side / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

const ascii = (bytes: Uint8Array, at: number, length: number) =>
  String.fromCharCode(...bytes.subarray(at, at + length));

/**
 * An animated PNG (an `acTL` chunk before the first `IDAT`) or WebP (the VP8X animation flag), from
 * the file's first bytes. (GIFs are not hashed in the browser at all.)
 */
export function isAnimatedImage(bytes: Uint8Array): boolean {
  if (bytes.length >= 8 && bytes[0] === 0x89 && ascii(bytes, 1, 3) === 'PNG') {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let at = 8; at + 8 <= bytes.length; ) {
      const type = ascii(bytes, at + 4, 4);
      if (type === 'acTL') return true;
      if (type === 'IDAT') return false;
      at += 12 + view.getUint32(at);
    }
    return false;
  }
  if (bytes.length >= 21 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP')
    return ascii(bytes, 12, 4) === 'VP8X' && ((bytes[20] as number) & 0x02) !== 0;
  return false;
}

/** What fingerprintBlob draws on: an OffscreenCanvas in the worker, a canvas element on the page. */
export type Canvas2D = Pick<
  CanvasRenderingContext2D,
  'fillStyle' | 'fillRect' | 'drawImage' | 'getImageData' | 'imageSmoothingEnabled' | 'imageSmoothingQuality'
>;
export type MakeCanvas = (width: number, height: number) => Canvas2D | null;

/** The canvas of a worker. */
export const offscreenCanvas: MakeCanvas = (width, height) =>
  new OffscreenCanvas(width, height).getContext('2d', { willReadFrequently: true }) as Canvas2D | null;

/** The canvas of a page without OffscreenCanvas. */
export const pageCanvas: MakeCanvas = (width, height) => {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  return canvas.getContext('2d', { willReadFrequently: true });
};

/**
 * One file's fingerprint: decoded by createImageBitmap (EXIF orientation applied), drawn fitted
 * into 256 px over white with high-quality smoothing, then fingerprintOf. Never throws.
 */
export async function fingerprintBlob(blob: Blob, makeCanvas: MakeCanvas): Promise<BrowserFingerprint> {
  try {
    const head = new Uint8Array(await blob.slice(0, HEAD_BYTES).arrayBuffer());
    if (isAnimatedImage(head)) return { status: 'animated' };
    const bitmap = await createImageBitmap(blob);
    try {
      const { width, height } = fitSize(bitmap.width, bitmap.height);
      const context = makeCanvas(width, height);
      if (!context) return { status: 'failed' };
      context.fillStyle = '#ffffff';
      context.fillRect(0, 0, width, height);
      context.imageSmoothingEnabled = true;
      context.imageSmoothingQuality = 'high';
      context.drawImage(bitmap, 0, 0, width, height);
      const { data } = context.getImageData(0, 0, width, height);
      return fingerprintOf({
        pixels: data,
        width,
        height,
        channels: 4,
        sourceWidth: bitmap.width,
        sourceHeight: bitmap.height,
      });
    } finally {
      bitmap.close();
    }
  } catch {
    return { status: 'failed' };
  }
}

/** A message to the worker, and its answer. */
export interface FingerprintJob {
  id: number;
  file: Blob;
}
export interface FingerprintAnswer {
  id: number;
  result: BrowserFingerprint;
}

/** The part of a Worker the pool uses (a fake in the tests). */
export interface WorkerLike {
  postMessage(message: FingerprintJob): void;
  terminate(): void;
  onmessage: ((event: MessageEvent<FingerprintAnswer>) => void) | null;
  onerror: ((event: ErrorEvent) => void) | null;
}

const makeWorker = (): WorkerLike =>
  new Worker(new URL('./fingerprint.worker.ts', import.meta.url), {
    type: 'module',
  }) as unknown as WorkerLike;

/**
 * Fingerprints files in `lanes` workers, each one file at a time, in the order asked; on a page
 * without OffscreenCanvas (or Worker), on the page itself, one at a time. `close` ends the workers.
 */
export class FingerprintPool {
  private readonly queue: Array<{ file: Blob; resolve: (result: BrowserFingerprint) => void }> = [];
  private readonly idle: WorkerLike[] = [];
  private readonly busy = new Map<WorkerLike, (result: BrowserFingerprint) => void>();
  private created = 0;
  private nextId = 1;
  private closed = false;
  private onPage = false;

  constructor(
    private readonly createWorker: (() => WorkerLike) | null = typeof Worker !== 'undefined' &&
    typeof OffscreenCanvas !== 'undefined'
      ? makeWorker
      : null,
    private readonly lanes = HASH_LANES,
  ) {}

  fingerprint(file: Blob): Promise<BrowserFingerprint> {
    if (this.closed) return Promise.resolve({ status: 'failed' });
    return new Promise((resolve) => {
      this.queue.push({ file, resolve });
      this.pump();
    });
  }

  close(): void {
    this.closed = true;
    for (const worker of [...this.idle, ...this.busy.keys()]) worker.terminate();
    for (const done of this.busy.values()) done({ status: 'failed' });
    for (const job of this.queue.splice(0)) job.resolve({ status: 'failed' });
    this.idle.length = 0;
    this.busy.clear();
  }

  private pump(): void {
    if (!this.createWorker) {
      this.pumpOnPage();
      return;
    }
    while (this.queue.length > 0) {
      const worker = this.idle.pop() ?? (this.created < this.lanes ? this.spawn() : null);
      if (!worker) return;
      const job = this.queue.shift() as (typeof this.queue)[number];
      this.busy.set(worker, job.resolve);
      worker.postMessage({ id: this.nextId++, file: job.file });
    }
  }

  private spawn(): WorkerLike | null {
    let worker: WorkerLike;
    try {
      worker = (this.createWorker as () => WorkerLike)();
    } catch {
      return null;
    }
    this.created += 1;
    const finish = (result: BrowserFingerprint, keep: boolean) => {
      const resolve = this.busy.get(worker);
      this.busy.delete(worker);
      resolve?.(result);
      if (keep && !this.closed) this.idle.push(worker);
      else worker.terminate();
      if (!keep) this.created -= 1;
      this.pump();
    };
    worker.onmessage = (event) => finish(event.data.result, true);
    // A worker that fails (it could not load, say) takes its file down with it, not the dialog.
    worker.onerror = () => finish({ status: 'failed' }, false);
    return worker;
  }

  private pumpOnPage(): void {
    if (this.onPage) return;
    const job = this.queue.shift();
    if (!job) return;
    this.onPage = true;
    void fingerprintBlob(job.file, pageCanvas).then((result) => {
      this.onPage = false;
      job.resolve(result);
      if (!this.closed) this.pumpOnPage();
    });
  }
}
