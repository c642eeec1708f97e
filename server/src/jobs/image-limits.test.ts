import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writePsd } from 'ag-psd';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { makePng, makeTiff } from '../../test/fixtures';
import { ImageTooLargeError, ImageWork, readImageHeader, tiffRowsPerPiece } from './image-limits';
import { readPsdComposite } from './psd';

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
