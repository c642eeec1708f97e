/**
 * Colour management measured against LittleCMS (issue 42 item 4), shared by
 * server/src/modules/media/colour-management.test.ts and bench/colour.ts. A chart of device
 * values is written as an uncompressed TIFF tagged with the source profile; LittleCMS's tificc
 * converts it to libvips' own sRGB profile (perceptual), and the platform converts the same file
 * through its real download path (DownloadConverter: decodeImage, then sRGB, PNG or JPEG).
 * Both are read as plain numbers, each patch's inner pixels averaged, and compared by CIEDE2000.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { differenceCiede2000 } from 'culori';
import sharp from 'sharp';
import { type DownloadColour, DownloadConverter } from '../../src/modules/downloads/converter';
import { ImageWork } from '../../src/modules/media/image-limits';
import { LocalStorage } from '../../src/storage/local';
import { writeTestPsd } from './psd';
import { type TiffImage, writeTiff } from './tiff';

const run = promisify(execFile);

/** Side of a patch in pixels: one JPEG block, so a 4:4:4 JPEG never mixes two patches. */
const PATCH = 8;
/** Pixels left out at each patch edge before averaging. */
const INSET = 2;
const COLUMNS = 16;

/** A source profile the chart is measured with. */
export interface ColourCase {
  label: string;
  space: 'RGB' | 'CMYK';
  /** Embedded in the chart; null = untagged (LittleCMS is then handed `assumed`). */
  profile: string | null;
  /** What the platform reads an untagged chart as, handed to tificc explicitly. */
  assumed?: () => Promise<string>;
}

/** What one case measured: ΔE2000 of our renditions against LittleCMS's conversion. */
export interface ColourResult {
  label: string;
  patches: number;
  png: { mean: number; max: number };
  jpeg: { mean: number; max: number };
  /** Our PNG against LittleCMS with black-point compensation, to tell which one we match. */
  pngVsBpc: { mean: number; max: number };
  /** The chart's numbers shown as they stand (no colour management) against LittleCMS. */
  unmanaged: { mean: number; max: number };
}

const ramp = (steps: number) => Array.from({ length: steps }, (_, i) => Math.round((255 * i) / (steps - 1)));

/**
 * The chart's device values: a 6×6×6 cube of the three chromatic channels (CMY at no black for
 * CMYK), a 17-step grey ramp (K alone for CMYK, plus a CMY ramp), the primaries and secondaries,
 * and for CMYK a few patches over 50 % black and a rich black.
 */
export function chartValues(space: 'RGB' | 'CMYK'): number[][] {
  const cube: number[][] = [];
  for (const a of ramp(6)) for (const b of ramp(6)) for (const c of ramp(6)) cube.push([a, b, c]);
  if (space === 'RGB') {
    const grey = ramp(17).map((v) => [v, v, v]);
    const primaries = [
      [255, 0, 0],
      [0, 255, 0],
      [0, 0, 255],
      [0, 255, 255],
      [255, 0, 255],
      [255, 255, 0],
    ];
    return [...cube, ...grey, ...primaries];
  }
  const withK = (values: number[][], k: number) => values.map(([c, m, y]) => [c, m, y, k] as number[]);
  const black = ramp(17).map((k) => [0, 0, 0, k]);
  const neutral = ramp(17).map((v) => [v, v, v, 0]);
  const inks = [
    [255, 0, 0, 0],
    [0, 255, 0, 0],
    [0, 0, 255, 0],
    [0, 0, 0, 255],
    [255, 255, 0, 0],
    [255, 0, 255, 0],
    [0, 255, 255, 0],
    [191, 166, 166, 255],
  ];
  const overBlack = withK(
    ramp(3).flatMap((c) => ramp(3).flatMap((m) => ramp(3).map((y) => [c, m, y]))),
    128,
  );
  return [...withK(cube, 0), ...black, ...neutral, ...inks, ...overBlack];
}

/** The chart as an image: patches left to right, top to bottom, the rest white (no ink). */
export function buildChart(space: 'RGB' | 'CMYK', icc?: Buffer): TiffImage {
  const values = chartValues(space);
  const channels = space === 'RGB' ? 3 : 4;
  const rows = Math.ceil(values.length / COLUMNS);
  const width = COLUMNS * PATCH;
  const height = rows * PATCH;
  const data = Buffer.alloc(width * height * channels, space === 'RGB' ? 255 : 0);
  values.forEach((value, i) => {
    const left = (i % COLUMNS) * PATCH;
    const top = Math.floor(i / COLUMNS) * PATCH;
    for (let y = top; y < top + PATCH; y++)
      for (let x = left; x < left + PATCH; x++)
        for (let c = 0; c < channels; c++) data[(y * width + x) * channels + c] = value[c] as number;
  });
  return { width, height, channels, data, ...(icc ? { icc } : {}) };
}

/** Each patch's mean 8-bit RGB numbers, read as they stand (any attached profile ignored). */
export async function patchColours(image: Buffer | string, patches: number): Promise<number[][]> {
  const { data, info } = await sharp(image, { ignoreIcc: true })
    .toColourspace('srgb')
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  const out: number[][] = [];
  for (let i = 0; i < patches; i++) {
    const left = (i % COLUMNS) * PATCH;
    const top = Math.floor(i / COLUMNS) * PATCH;
    const sum = [0, 0, 0];
    let count = 0;
    for (let y = top + INSET; y < top + PATCH - INSET; y++)
      for (let x = left + INSET; x < left + PATCH - INSET; x++) {
        const at = (y * info.width + x) * info.channels;
        for (let c = 0; c < 3; c++) sum[c] = (sum[c] as number) + (data[at + c] as number);
        count++;
      }
    out.push(sum.map((s) => s / count));
  }
  return out;
}

const ciede2000 = differenceCiede2000();

/** Mean and largest CIEDE2000 between two lists of 8-bit sRGB colours. */
export function deltaE(ours: number[][], reference: number[][]): { mean: number; max: number } {
  let total = 0;
  let max = 0;
  ours.forEach((colour, i) => {
    const other = reference[i] as number[];
    const rgb = (v: number[]) => ({
      mode: 'rgb' as const,
      r: (v[0] as number) / 255,
      g: (v[1] as number) / 255,
      b: (v[2] as number) / 255,
    });
    const difference = ciede2000(rgb(colour), rgb(other));
    total += difference;
    max = Math.max(max, difference);
  });
  return { mean: total / ours.length, max };
}

/** Whether LittleCMS's tificc is installed (scripts/setup-system.sh installs liblcms2-utils). */
export async function hasTificc(): Promise<boolean> {
  try {
    await run('tificc', ['-h']);
    return true;
  } catch (error) {
    // tificc prints its usage and exits non-zero: only a missing program is no tificc.
    return (error as NodeJS.ErrnoException).code !== 'ENOENT';
  }
}

/** libvips' own profile of that name, as sharp attaches it, written to `file`. */
export async function libvipsProfile(name: 'srgb' | 'cmyk', file: string): Promise<string> {
  const made = await sharp({ create: { width: 2, height: 2, channels: 3, background: '#808080' } })
    .withIccProfile(name)
    .toColourspace(name === 'cmyk' ? 'cmyk' : 'srgb')
    .tiff()
    .toBuffer();
  const icc = (await sharp(made).metadata()).icc;
  if (!icc) throw new Error(`libvips attached no ${name} profile`);
  await fsp.writeFile(file, icc);
  return file;
}

/** What LittleCMS makes of the chart file: perceptual into libvips' sRGB, 8-bit. */
async function littleCms(chart: string, out: string, srgb: string, extra: string[]): Promise<Buffer> {
  await run('tificc', ['-t0', `-o${srgb}`, ...extra, chart, out]);
  return fsp.readFile(out);
}

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The chart through the platform's JPG/PNG download conversion, from a local store. */
export async function downloadConversion(
  dir: string,
  chart: Buffer,
  output: 'jpg' | 'png',
  colour: DownloadColour = 'srgb',
  format: 'tif' | 'psd' = 'tif',
): Promise<Buffer> {
  const storage = new LocalStorage(path.join(dir, 'objects'), () => '');
  const key = `2026/01/01/chart.${format}`;
  await storage.write(key, chart);
  const images = new ImageWork({ maxPixels: 100_000_000, memoryBytes: 512 * 1024 * 1024 });
  const converter = new DownloadConverter(
    storage,
    images,
    (k) => storage.pathOf(k),
    () => undefined,
  );
  const entry = await converter.convert(
    {
      path: `chart.${output}`,
      itemId: 1,
      source: { storage_key: key, format, file_size: chart.length },
      output,
      scalePx: null,
      background: null,
      naming: null,
    },
    output,
    colour,
  );
  return bytesOf(entry.stream);
}

/** Debian's profiles the issue names (libgs-common, argyll-ref), and the untagged CMYK default. */
export const COLOUR_CASES: ColourCase[] = [
  {
    label: 'CMYK: Artifex SWOP (default_cmyk.icc, v2 LUT)',
    space: 'CMYK',
    profile: '/usr/share/color/icc/ghostscript/default_cmyk.icc',
  },
  {
    label: 'Adobe RGB (ClayRGB1998.icm)',
    space: 'RGB',
    profile: '/usr/share/color/argyll/ref/ClayRGB1998.icm',
  },
  { label: 'Display P3 (DisplayP3.icm)', space: 'RGB', profile: '/usr/share/color/argyll/ref/DisplayP3.icm' },
  { label: 'ProPhoto (ProPhoto.icm)', space: 'RGB', profile: '/usr/share/color/argyll/ref/ProPhoto.icm' },
];

/** Untagged CMYK: read as libvips' built-in "Chemical proof" profile (media/icc.ts). */
export const UNTAGGED_CMYK_CASE: ColourCase = {
  label: 'CMYK untagged (libvips default)',
  space: 'CMYK',
  profile: null,
};

/**
 * Measures one case in a scratch folder of its own, removed afterwards. `psd`: the platform is
 * handed the same chart as a PSD (PackBits, profile in resource 1039); LittleCMS still the TIFF.
 */
export async function measureCase(
  colourCase: ColourCase,
  container: 'tif' | 'psd' | 'psd16' = 'tif',
): Promise<ColourResult> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'dam-colour-'));
  try {
    const srgb = await libvipsProfile('srgb', path.join(dir, 'srgb.icc'));
    const icc = colourCase.profile ? fs.readFileSync(colourCase.profile) : undefined;
    const image = buildChart(colourCase.space, icc);
    const patches = chartValues(colourCase.space).length;
    const chart = writeTiff(image);
    const chartFile = path.join(dir, 'chart.tif');
    await fsp.writeFile(chartFile, chart);
    // An untagged chart: LittleCMS is told the profile the platform assumes.
    const input = colourCase.profile
      ? []
      : ['-n', `-i${await libvipsProfile('cmyk', path.join(dir, 'cmyk.icc'))}`];
    const reference = await patchColours(
      await littleCms(chartFile, path.join(dir, 'ref.tif'), srgb, input),
      patches,
    );
    const withBpc = await patchColours(
      await littleCms(chartFile, path.join(dir, 'bpc.tif'), srgb, ['-b', ...input]),
      patches,
    );
    const source =
      container === 'psd'
        ? writeTestPsd(image, { compression: 1 })
        : container === 'psd16'
          ? writeTestPsd(image, { compression: 0, depth: 16 })
          : chart;
    const format = container === 'tif' ? 'tif' : 'psd';
    const png = await patchColours(await downloadConversion(dir, source, 'png', 'srgb', format), patches);
    const jpeg = await patchColours(await downloadConversion(dir, source, 'jpg', 'srgb', format), patches);
    return {
      label:
        container === 'tif'
          ? colourCase.label
          : `${container === 'psd' ? 'PSD' : 'PSD 16-bit'} ${colourCase.label}`,
      patches,
      png: deltaE(png, reference),
      jpeg: deltaE(jpeg, reference),
      pngVsBpc: deltaE(png, withBpc),
      unmanaged: deltaE(await patchColours(chart, patches), reference),
    };
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}
