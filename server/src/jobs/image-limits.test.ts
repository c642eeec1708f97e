import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writePsd } from 'ag-psd';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { makePng, makePsd, makeTiff } from '../../test/fixtures';
import {
  ImageTooLargeError,
  ImageWork,
  readImageHeader,
  tiffRowsPerPiece,
} from '../modules/media/image-limits';
import { readPsdComposite } from '../modules/media/psd';

const MB = 1024 * 1024;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dam-image-limits-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const fileOf = (name: string, bytes: Buffer | Uint8Array) => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, bytes);
  return file;
};

/** A promise resolved from outside, to hold a task running while the test looks. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => {};
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('image work budget', () => {
  it('runs decodes while their estimated memory fits, the rest in arrival order once it is freed', async () => {
    const work = new ImageWork({ maxPixels: 1_000_000, memoryBytes: 100 * MB });
    const started: string[] = [];
    const gates = { a: deferred(), b: deferred(), c: deferred(), d: deferred() };
    const task = (name: keyof typeof gates, cost: number) =>
      work.run(cost * MB, async () => {
        started.push(name);
        await gates[name].promise;
      });
    const a = task('a', 60);
    const b = task('b', 30);
    const c = task('c', 50);
    const d = task('d', 5); // fits, but waits behind c: a large image is not overtaken forever
    await Promise.resolve();
    expect(started).toEqual(['a', 'b']);
    expect(work.activity).toEqual({ usedBytes: 90 * MB, waiting: 2 });
    gates.b.resolve();
    await b;
    expect(started).toEqual(['a', 'b']);
    gates.a.resolve();
    await a;
    await Promise.resolve();
    expect(started).toEqual(['a', 'b', 'c', 'd']);
    gates.c.resolve();
    gates.d.resolve();
    await Promise.all([c, d]);
    expect(work.activity).toEqual({ usedBytes: 0, waiting: 0 });
  });

  it('gives the budget back when a decode fails', async () => {
    const work = new ImageWork({ maxPixels: 1_000_000, memoryBytes: 10 * MB });
    await expect(work.run(10 * MB, async () => Promise.reject(new Error('corrupt')))).rejects.toThrow(
      'corrupt',
    );
    expect(work.activity.usedBytes).toBe(0);
  });

  it('refuses from the header an image over the pixel limit or over the whole budget', async () => {
    const work = new ImageWork({ maxPixels: 1_000_000, memoryBytes: 64 * MB });
    expect(() => work.check({ width: 1001, height: 1000, cost: MB })).toThrow(ImageTooLargeError);
    expect(() => work.check({ width: 1000, height: 1000, cost: 65 * MB })).toThrow(ImageTooLargeError);
    expect(() => work.check({ width: 1000, height: 1000, cost: 64 * MB })).not.toThrow();
  });
});

describe('image headers', () => {
  it('counts an interlaced PNG as decoded whole and a plain one as streamed', async () => {
    const plain = await readImageHeader(fileOf('plain.png', await makePng(4000, 3000)), 'image');
    const interlaced = await readImageHeader(
      fileOf(
        'interlaced.png',
        await sharp({ create: { width: 4000, height: 3000, channels: 4, background: '#336699' } })
          .png({ progressive: true })
          .toBuffer(),
      ),
      'image',
    );
    expect(plain).toMatchObject({ format: 'png', width: 4000, height: 3000 });
    expect(interlaced.cost).toBeGreaterThanOrEqual(4000 * 3000 * 4);
    expect(plain.cost).toBeLessThan(interlaced.cost);
  });

  it('reads a TIFF’s strip height, wherever its directory is', async () => {
    const rowsOf = async (file: string) => {
      const handle = await fs.promises.open(file, 'r');
      try {
        return await tiffRowsPerPiece(handle);
      } finally {
        await handle.close();
      }
    };
    const striped = fileOf('scan.tif', await makeTiff(2000, 1500));
    expect(await readImageHeader(striped, 'image')).toMatchObject({
      format: 'tiff',
      width: 2000,
      height: 1500,
    });
    // libvips writes strips of some rows, and its directory after the pixels.
    const rows = await rowsOf(striped);
    expect(rows).toBeGreaterThan(0);
    expect(rows).toBeLessThan(1500);
    const tiled = fileOf(
      'tiled.tif',
      await sharp(await makeTiff(2000, 1500))
        .tiff({ tile: true, tileWidth: 64, tileHeight: 64 })
        .toBuffer(),
    );
    expect(await rowsOf(tiled)).toBe(64);
  });

  it('reads a PSD’s size from its header and its composite without its layers', async () => {
    const width = 300;
    const height = 200;
    const pixels = (r: number, g: number, b: number) => {
      const data = new Uint8ClampedArray(width * height * 4);
      for (let i = 0; i < data.length; i += 4) data.set([r, g, b, 255], i);
      return { width, height, data } as never;
    };
    // A layer whose pixels differ from the composite: what comes back must be the composite.
    const bytes = writePsd(
      {
        width,
        height,
        imageData: pixels(10, 120, 240),
        children: [{ name: 'Layer 1', top: 0, left: 0, imageData: pixels(250, 0, 0) }],
      },
      { generateThumbnail: false },
    );
    const file = fileOf('layered.psd', new Uint8Array(bytes));
    const header = await readImageHeader(file, 'psd');
    expect(header).toMatchObject({ format: 'psd', width, height });
    const composite = await readPsdComposite(file, '#ffffff');
    expect(composite.raw).toMatchObject({ width, height, channels: 4 });
    expect([...(composite.data as Buffer).subarray(0, 4)]).toEqual([10, 120, 240, 255]);
  });
});

/**
 * A PSD whose colour-mode data or image-resources section claims `claimed` bytes, written
 * sparsely (the section reads as zeros and takes no disk): the rest of a valid PSD follows it.
 */
async function psdWithHugeSection(section: 'colour' | 'resources', claimed: number): Promise<string> {
  const psd = await makePsd(4, 3);
  const colourLength = psd.readUInt32BE(26);
  const at = section === 'colour' ? 26 : 30 + colourLength;
  const length = psd.readUInt32BE(at);
  const lengthField = Buffer.alloc(4);
  lengthField.writeUInt32BE(claimed);
  const file = path.join(dir, `huge-${section}.psd`);
  const handle = await fs.promises.open(file, 'w');
  try {
    await handle.write(psd.subarray(0, at), 0, at, 0);
    await handle.write(lengthField, 0, 4, at);
    const rest = psd.subarray(at + 4 + length);
    await handle.write(rest, 0, rest.length, at + 4 + claimed);
  } finally {
    await handle.close();
  }
  return file;
}

describe('PSD sections the composite does not need', () => {
  it.each(['colour', 'resources'] as const)(
    'never reads a %s section however large it claims to be: the estimate stays small, the composite decodes',
    async (section) => {
      // 100 MiB, sparse: before the fix the whole section was read into memory (twice), uncounted.
      const file = await psdWithHugeSection(section, 100 * MB);
      expect(fs.statSync(file).size).toBeGreaterThan(100 * MB);
      const reference = await readPsdComposite(fileOf('reference.psd', await makePsd(4, 3)), '#ffffff');
      // Counts the bytes asked of files: a pass-through wrapper on Node's FileHandle, nothing faked.
      const probe = await fs.promises.open(file, 'r');
      const handles = Object.getPrototypeOf(probe) as { read: (...args: unknown[]) => Promise<unknown> };
      await probe.close();
      const read = handles.read;
      let bytesAsked = 0;
      handles.read = function (this: unknown, ...args: unknown[]) {
        bytesAsked += typeof args[2] === 'number' ? args[2] : 0;
        return read.apply(this, args);
      };
      let header: Awaited<ReturnType<typeof readImageHeader>>;
      let composite: Awaited<ReturnType<typeof readPsdComposite>>;
      try {
        header = await readImageHeader(file, 'psd');
        composite = await readPsdComposite(file, '#ffffff');
      } finally {
        handles.read = read;
      }
      expect(bytesAsked).toBeLessThan(MB);
      expect(header).toMatchObject({ format: 'psd', width: 4, height: 3 });
      expect(header.cost).toBeLessThan(20 * MB);
      expect(composite.raw).toEqual(reference.raw);
      expect(Buffer.compare(composite.data as Buffer, reference.data as Buffer)).toBe(0);
    },
  );
});
