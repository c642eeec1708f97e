import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type FingerprintResult, hammingHex, oklabOfHex, paletteDistance } from '@dam/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nearDuplicateSet, type SetFile, VARIANTS } from '../../../test/near-duplicate-set';
import { THUMB_SIDE } from '../../jobs/media';
import { decodeImage } from './decode';
import { animatedOf, fingerprintOfRaster, thumbnailRaster } from './fingerprint';
import { readImageHeader } from './image-limits';

/**
 * The fingerprint measured on a generated set (issue 17, plan §1.2 and §10), through the media
 * job's own path: header, libvips decode, one 500-px raster flattened on white (the thumbnail's),
 * then `fingerprintOfRaster`. The defaults it asserts: distance ≤ 10 and palette distance ≤ 0.08.
 */

const MAX_DISTANCE = 10;
const MAX_COLOUR_DISTANCE = 0.08;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dam-fingerprint-'));
afterAll(() => fsp.rm(dir, { recursive: true, force: true }));

/** A file's fingerprint as `MediaProcessor.store` makes it from a raster source. */
async function fingerprintOfFile(file: string): Promise<FingerprintResult> {
  const header = await readImageHeader(file, path.extname(file).slice(1));
  const image = await decodeImage(file, {
    format: 'image',
    background: null,
    limitInputPixels: 100_000_000,
    scratchDir: dir,
  });
  return fingerprintOfRaster(await thumbnailRaster(image, THUMB_SIDE), {
    width: header.uprightWidth,
    height: header.uprightHeight,
  });
}

async function fingerprintOfBuffer(name: string, data: Buffer): Promise<FingerprintResult> {
  const file = path.join(dir, name);
  await fsp.writeFile(file, data);
  return fingerprintOfFile(file);
}

function ready(result: FingerprintResult) {
  if (result.status !== 'ready') throw new Error(`expected a hash, got ${result.status}`);
  return result;
}

interface Hashed extends SetFile {
  result: FingerprintResult;
}

interface Pair {
  same: boolean;
  /** The variant→original pairs recall is counted over. */
  toOriginal: boolean;
  distance: number;
  colour: number;
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((p, q) => p - q);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
};

/** Every pair of hashed files, with the palette distance only where the hash could match. */
function pairsOf(files: Hashed[]): Pair[] {
  const pairs: Pair[] = [];
  for (let i = 0; i < files.length; i++) {
    for (let j = i + 1; j < files.length; j++) {
      const [p, q] = [files[i]!, files[j]!];
      const same = p.source === q.source;
      const toOriginal = same && (p.variant === 'original' || q.variant === 'original');
      if (p.result.status !== 'ready' || q.result.status !== 'ready') {
        pairs.push({ same, toOriginal, distance: 64, colour: Number.POSITIVE_INFINITY });
        continue;
      }
      const distance = hammingHex(p.result.hash, q.result.hash);
      const colour =
        distance <= 16 ? paletteDistance(p.result.colours, q.result.colours) : Number.POSITIVE_INFINITY;
      pairs.push({ same, toOriginal, distance, colour });
    }
  }
  return pairs;
}

interface Row {
  t: number;
  colour: number;
  recall: number;
  recallAll: number;
  precision: number;
  falsePairs: number;
}

function rowOf(pairs: Pair[], t: number, colour: number): Row {
  const found = pairs.filter((pair) => pair.distance <= t && pair.colour <= colour);
  const right = found.filter((pair) => pair.same).length;
  const toOriginal = pairs.filter((pair) => pair.toOriginal);
  const same = pairs.filter((pair) => pair.same);
  return {
    t,
    colour,
    recall: found.filter((pair) => pair.toOriginal).length / toOriginal.length,
    recallAll: right / same.length,
    precision: found.length ? right / found.length : 1,
    falsePairs: found.length - right,
  };
}

const f3 = (value: number) => value.toFixed(3);

describe('near-duplicate fingerprints of the generated set', { timeout: 120_000 }, () => {
  const files: Hashed[] = [];
  let pairs: Pair[] = [];
  const timings: string[] = [];

  beforeAll(async () => {
    let started = performance.now();
    const set = await nearDuplicateSet();
    timings.push(`generated ${set.length} files in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    started = performance.now();
    for (const file of set) files.push({ ...file, result: await fingerprintOfBuffer(file.name, file.data) });
    const each = (performance.now() - started) / set.length;
    timings.push(
      `hashed them in ${((performance.now() - started) / 1000).toFixed(1)} s (${each.toFixed(1)} ms a file)`,
    );
    started = performance.now();
    pairs = pairsOf(files);
    timings.push(`compared ${pairs.length} pairs in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }, 120_000);

  it('gives every generated file a hash', () => {
    expect(files).toHaveLength(600);
    expect(files.filter((file) => file.result.status !== 'ready').map((file) => file.name)).toEqual([]);
  });

  it(`finds ≥ 95 % of variants at distance ≤ ${MAX_DISTANCE} and colour ≤ ${MAX_COLOUR_DISTANCE}, with ≥ 95 % precision`, () => {
    const lines = [
      ...timings,
      `${pairs.filter((p) => p.toOriginal).length} variant→original pairs, ${pairs.filter((p) => p.same).length} same-source pairs, ${pairs.length} pairs in all`,
      '   t | colour ≤ | recall v→o | recall all same | precision | false pairs',
    ];
    for (const colour of [Number.POSITIVE_INFINITY, MAX_COLOUR_DISTANCE]) {
      for (let t = 6; t <= 12; t++) {
        const row = rowOf(pairs, t, colour);
        lines.push(
          `  ${String(t).padStart(2)} | ${(Number.isFinite(colour) ? String(colour) : '∞').padStart(8)} | ${f3(row.recall).padStart(10)} | ${f3(row.recallAll).padStart(15)} | ${f3(row.precision).padStart(9)} | ${String(row.falsePairs).padStart(11)}`,
        );
      }
    }
    lines.push(
      `per variant at ${MAX_DISTANCE} / ${MAX_COLOUR_DISTANCE}: found, distance to the original median / p95 / max, colour p95`,
    );
    const originals = new Map(files.filter((f) => f.variant === 'original').map((f) => [f.source, f]));
    for (const variant of VARIANTS) {
      const stats = files
        .filter((file) => file.variant === variant)
        .map((file) => {
          const [v, o] = [ready(file.result), ready(originals.get(file.source)!.result)];
          return { distance: hammingHex(v.hash, o.hash), colour: paletteDistance(v.colours, o.colours) };
        });
      const found = stats.filter((s) => s.distance <= MAX_DISTANCE && s.colour <= MAX_COLOUR_DISTANCE).length;
      const distances = stats.map((s) => s.distance);
      lines.push(
        `  ${variant.padEnd(12)} ${found}/${stats.length}  ${quantile(distances, 0.5)} / ${quantile(distances, 0.95)} / ${Math.max(...distances)}  colour p95 ${f3(
          quantile(
            stats.map((s) => s.colour),
            0.95,
          ),
        )}`,
      );
    }
    const falseByFamily = new Map<string, number>();
    for (let i = 0; i < files.length; i++)
      for (let j = i + 1; j < files.length; j++) {
        const [p, q] = [files[i]!, files[j]!];
        if (p.source === q.source || p.result.status !== 'ready' || q.result.status !== 'ready') continue;
        if (hammingHex(p.result.hash, q.result.hash) > MAX_DISTANCE) continue;
        if (paletteDistance(p.result.colours, q.result.colours) > MAX_COLOUR_DISTANCE) continue;
        const key = [p.family, q.family].sort().join('↔');
        falseByFamily.set(key, (falseByFamily.get(key) ?? 0) + 1);
      }
    lines.push(`false pairs at the defaults by family: ${JSON.stringify(Object.fromEntries(falseByFamily))}`);
    console.log(lines.join('\n'));

    const chosen = rowOf(pairs, MAX_DISTANCE, MAX_COLOUR_DISTANCE);
    expect(chosen.recall).toBeGreaterThanOrEqual(0.95);
    expect(chosen.precision).toBeGreaterThanOrEqual(0.95);
  });

  it('finds every resized and recompressed copy', () => {
    const originals = new Map(files.filter((f) => f.variant === 'original').map((f) => [f.source, f]));
    for (const file of files.filter((f) =>
      ['resize50', 'resize25png', 'q60', 'resize50q60'].includes(f.variant),
    )) {
      const [v, o] = [ready(file.result), ready(originals.get(file.source)!.result)];
      expect(hammingHex(v.hash, o.hash), file.name).toBeLessThanOrEqual(MAX_DISTANCE);
    }
  });
});

describe('fingerprints of awkward files', () => {
  /** A picture with soft edges and half-transparent parts, on a transparent background. */
  const transparentSvg = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="640" height="480">
    <circle cx="240" cy="220" r="150" fill="#c0392b"/>
    <rect x="320" y="120" width="220" height="260" fill="#2e86c1" opacity="0.5"/>
    <path d="M100 420 L560 400 L330 330 Z" fill="#27ae60" opacity="0.8"/></svg>`);

  it('hashes a transparent PNG as the same picture pre-flattened on white', async () => {
    const png = await sharp(transparentSvg).png().toBuffer();
    expect((await sharp(png).metadata()).hasAlpha).toBe(true);
    const flat = await sharp(png).flatten({ background: '#ffffff' }).png().toBuffer();
    const [a, b] = [
      ready(await fingerprintOfBuffer('alpha.png', png)),
      ready(await fingerprintOfBuffer('flat.png', flat)),
    ];
    expect(hammingHex(a.hash, b.hash)).toBe(0);
    expect(paletteDistance(a.colours, b.colours)).toBeLessThan(0.005);
    // Transparency reads as white, not black: nothing dark in the palette, and the half-transparent
    // blue is the light blue it is over white.
    expect(a.colours.every((colour) => colour.l > 400)).toBe(true);
    const lightBlue = oklabOfHex('#97c3e0');
    expect(a.colours.some((colour) => paletteDistance([colour], [{ ...lightBlue, w: 1 }]) < 0.03)).toBe(true);
  });

  // (With their colour-family shares since issue 39: a blank or tiny picture has colours too.)
  it('calls a 20×20 image tooSmall and a white one blank', async () => {
    const tiny = await sharp({
      create: {
        width: 20,
        height: 20,
        channels: 3,
        background: '#808080',
        noise: { type: 'gaussian', mean: 128, sigma: 60 },
      },
    })
      .png()
      .toBuffer();
    expect(await fingerprintOfBuffer('tiny.png', tiny)).toMatchObject({ status: 'tooSmall' });
    const white = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#ffffff' } })
      .jpeg({ quality: 90 })
      .toBuffer();
    expect(await fingerprintOfBuffer('white.jpg', white)).toMatchObject({ status: 'blank' });
    const clear = await sharp({ create: { width: 300, height: 300, channels: 4, background: '#00000000' } })
      .png()
      .toBuffer();
    expect(await fingerprintOfBuffer('clear.png', clear)).toMatchObject({ status: 'blank' });
  });

  it('takes an encoded buffer or a sharp instance as the raster too', async () => {
    const jpeg = await sharp(transparentSvg)
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 90 })
      .toBuffer();
    const size = { width: 640, height: 480 };
    const fromBuffer = ready(await fingerprintOfRaster(jpeg, size));
    const instance = sharp(jpeg);
    const fromInstance = ready(await fingerprintOfRaster(instance, size));
    expect(fromInstance).toEqual(fromBuffer);
    // The caller's instance is cloned, not changed: it still gives the full-size picture.
    expect((await instance.toBuffer({ resolveWithObject: true })).info.width).toBe(640);
    expect(await fingerprintOfRaster(jpeg, { width: 640, height: 31 })).toMatchObject({ status: 'tooSmall' });
  });

  it('detects an animated GIF (2 frames), and not a single-frame one', async () => {
    const frames = Buffer.alloc(64 * 128 * 3);
    for (let i = 0; i < frames.length; i += 3)
      frames.set(i < frames.length / 2 ? [200, 30, 30] : [30, 30, 200], i);
    const gif = await sharp(frames, { raw: { width: 64, height: 128, channels: 3, pageHeight: 64 } })
      .gif()
      .toBuffer();
    const file = path.join(dir, 'animated.gif');
    await fsp.writeFile(file, gif);
    const metadata = await sharp(file).metadata();
    expect(metadata.pages).toBe(2);
    expect(animatedOf(metadata)).toBe(true);
    expect((await readImageHeader(file, 'gif')).animated).toBe(true);

    const still = await sharp(frames, { raw: { width: 64, height: 128, channels: 3 } })
      .gif()
      .toBuffer();
    expect(animatedOf(await sharp(still).metadata())).toBe(false);
    // Extra pages of a TIFF or a PDF are pages, not frames.
    expect(animatedOf({ format: 'tiff', pages: 3 })).toBe(false);
    expect(animatedOf({ format: 'webp', pages: 3 })).toBe(true);
  });
});
