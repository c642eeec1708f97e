import { oklab } from './fingerprint-colour';
import { bitsToHex } from './fingerprint-hash';

/**
 * The near-duplicate fingerprint of an image (issue 17; docs/plans/issue-17-near-duplicates.md §1):
 * a 64-bit DCT perceptual hash of the picture with its uniform border trimmed, and up to five
 * dominant OKLab colours. Plain TypeScript importing only its own arithmetic (./fingerprint-hash,
 * ./fingerprint-colour), because the same function runs in the media job (sharp's raster) and in
 * the upload dialog's worker (a canvas raster): only the caller's downscale to 256 px may differ
 * between the two, everything after it is this arithmetic.
 */

export * from './fingerprint-colour';
export * from './fingerprint-hash';

/**
 * Stored with every fingerprint; a change of the arithmetic below means a re-hash (the back-fill).
 * 2: the colour-family shares (colour-families.ts) are stored with it (issue 39), so the back-fill
 * counts them again for the files fingerprinted before.
 */
export const FINGERPRINT_ALGO = 2;
/** The caller scales the image to fit this square (never enlarging) over white before hashing. */
export const FINGERPRINT_SIDE = 256;

/**
 * One dominant colour: OKLab L, a, b × 1000 and its share in ‰ of the trimmed picture's subject
 * (the trimmed border's colour left out; see `colourSamples`).
 */
export interface PaletteColour {
  l: number;
  a: number;
  b: number;
  w: number;
}

export interface FingerprintInput {
  /** Row-major RGB or RGBA bytes, already drawn over white (alpha, if any, is ignored). */
  pixels: Uint8Array | Uint8ClampedArray;
  width: number;
  height: number;
  /** 3 (sharp, alpha removed) or 4 (a canvas's RGBA). */
  channels: number;
  /** The original's size: a tiny original is not compared even if its raster were big enough. */
  sourceWidth: number;
  sourceHeight: number;
}

export type FingerprintResult =
  | { status: 'ready'; hash: string; colours: PaletteColour[] }
  | { status: 'tooSmall' }
  | { status: 'blank' };

/** Rasters under this (shorter side) carry too little to hash. */
const MIN_RASTER_SIDE = 16;
/** Originals under this (shorter side) are icons and the like: not compared (plan §1.4). */
const MIN_SOURCE_SIDE = 32;
/** Per-channel tolerance of "the same background colour": survives JPEG noise on white. */
const BORDER_TOLERANCE = 24;
/** A trimmed box narrower or lower than this is a line or a speck: blank. */
const MIN_BOX_SIDE = 8;
/** The luma grid the DCT runs on, and the low-frequency corner kept of it. */
const GRID = 32;
const LOW = 8;
/** A 32×32 luma with less spread than this is flat: its hash would be noise. */
const MIN_LUMA_STD = 2;
/** The colour summary samples the trimmed box on this grid: enough for 2 % clusters, and cheap. */
const COLOUR_GRID = 48;
const PALETTE_SIZE = 5;
const KMEANS_ROUNDS = 10;
/** Colours under this share (‰) are dropped: specks, JPEG ringing. */
const MIN_COLOUR_WEIGHT = 20;
/** Fewer samples than this off the border colour (5 % of the grid): a white subject on white, say. */
const MIN_SUBJECT_SAMPLES = 115;

/** The fingerprint of a raster at most 256 px on its longer side, drawn over white (plan §1.1). */
export function fingerprintOf(input: FingerprintInput): FingerprintResult {
  const { width, height, sourceWidth, sourceHeight } = input;
  if (Math.min(width, height) < MIN_RASTER_SIDE || Math.min(sourceWidth, sourceHeight) < MIN_SOURCE_SIDE)
    return { status: 'tooSmall' };
  const box = trimmedBox(input);
  if (!box) return { status: 'blank' };
  const luma = lumaGrid(input, box);
  if (standardDeviation(luma) < MIN_LUMA_STD) return { status: 'blank' };
  return { status: 'ready', hash: hashOfLuma(luma), colours: paletteOf(input, box) };
}

/** The part of a raster the fingerprint looks at: inclusive-exclusive pixel bounds. */
interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Channel c of pixel (x, y). */
function channel(input: FingerprintInput, x: number, y: number, c: number): number {
  return input.pixels[(y * input.width + x) * input.channels + c]!;
}

/**
 * The box left after trimming a uniform border, or null when nothing stands out from it. Trimming
 * makes the hash describe the subject rather than "a blob on white", so a crop that only takes
 * off background changes nothing (measured: crop-3 % median distance 6 → 4).
 */
function trimmedBox(input: FingerprintInput): Box | null {
  const { width, height } = input;
  const background = borderColour(input);
  if (!background) return { x0: 0, y0: 0, x1: width, y1: height };
  let x0 = width;
  let y0 = height;
  let x1 = -1;
  let y1 = -1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (!differs(input, x, y, background)) continue;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      y1 = y;
    }
  }
  if (x1 < 0 || x1 - x0 + 1 < MIN_BOX_SIDE || y1 - y0 + 1 < MIN_BOX_SIDE) return null;
  return { x0, y0, x1: x1 + 1, y1: y1 + 1 };
}

/** The mean of the four corners when they agree within the tolerance (a uniform border), else null. */
function borderColour(input: FingerprintInput): number[] | null {
  const { width: w, height: h } = input;
  const corners: Array<[number, number]> = [
    [0, 0],
    [w - 1, 0],
    [0, h - 1],
    [w - 1, h - 1],
  ];
  const colour: number[] = [];
  for (let c = 0; c < 3; c++) {
    const values = corners.map(([x, y]) => channel(input, x, y, c));
    if (Math.max(...values) - Math.min(...values) > BORDER_TOLERANCE) return null;
    colour.push(values.reduce((sum, v) => sum + v, 0) / 4);
  }
  return colour;
}

/** Whether pixel (x, y) stands out from the background in any channel. */
function differs(input: FingerprintInput, x: number, y: number, background: number[]): boolean {
  for (let c = 0; c < 3; c++) {
    if (Math.abs(channel(input, x, y, c) - background[c]!) > BORDER_TOLERANCE) return true;
  }
  return false;
}

/**
 * For each of `out` equal cells over `n` source pixels, the source pixels it overlaps and by how
 * much (weights sum to 1). Exact area averaging rather than a filter, so that the browser and the
 * server compute the same 32×32 from the same 256-px raster, and so that enlarging (a box under
 * 32 px) is handled by the same formula.
 */
function areaWeights(n: number, out: number): Array<{ first: number; weights: number[] }> {
  const scale = n / out;
  const cells: Array<{ first: number; weights: number[] }> = [];
  for (let j = 0; j < out; j++) {
    const start = j * scale;
    const end = (j + 1) * scale;
    const first = Math.floor(start);
    const weights: number[] = [];
    for (let k = first; k < end && k < n; k++) {
      weights.push((Math.min(end, k + 1) - Math.max(start, k)) / scale);
    }
    cells.push({ first, weights });
  }
  return cells;
}

/** The box resampled to 32×32 luma (Rec. 601 weights, as the classic pHash), row-major. */
function lumaGrid(input: FingerprintInput, box: Box): Float64Array {
  const columns = areaWeights(box.x1 - box.x0, GRID);
  const rows = areaWeights(box.y1 - box.y0, GRID);
  // Horizontal pass first, one source row at a time: a 32-wide strip per row of the box.
  const strips = new Float64Array((box.y1 - box.y0) * GRID);
  for (let y = box.y0; y < box.y1; y++) {
    for (let j = 0; j < GRID; j++) {
      const { first, weights } = columns[j]!;
      let sum = 0;
      for (let k = 0; k < weights.length; k++) sum += weights[k]! * lumaAt(input, box.x0 + first + k, y);
      strips[(y - box.y0) * GRID + j] = sum;
    }
  }
  const grid = new Float64Array(GRID * GRID);
  for (let i = 0; i < GRID; i++) {
    const { first, weights } = rows[i]!;
    for (let j = 0; j < GRID; j++) {
      let sum = 0;
      for (let k = 0; k < weights.length; k++) sum += weights[k]! * strips[(first + k) * GRID + j]!;
      grid[i * GRID + j] = sum;
    }
  }
  return grid;
}

function lumaAt(input: FingerprintInput, x: number, y: number): number {
  return 0.299 * channel(input, x, y, 0) + 0.587 * channel(input, x, y, 1) + 0.114 * channel(input, x, y, 2);
}

function standardDeviation(values: Float64Array): number {
  let mean = 0;
  for (const v of values) mean += v;
  mean /= values.length;
  let squares = 0;
  for (const v of values) squares += (v - mean) ** 2;
  return Math.sqrt(squares / values.length);
}

/** cos((2x+1)uπ/2N) · α(u) for u < 8, x < 32: the orthonormal DCT-II basis rows that are kept. */
const DCT_BASIS: Float64Array[] = Array.from({ length: LOW }, (_, u) => {
  const alpha = u === 0 ? Math.sqrt(1 / GRID) : Math.sqrt(2 / GRID);
  return Float64Array.from(
    { length: GRID },
    (_, x) => alpha * Math.cos(((2 * x + 1) * u * Math.PI) / (2 * GRID)),
  );
});

/**
 * The 8×8 lowest frequencies of the orthonormal 2-D DCT-II of a 32×32 grid, row-major
 * (index = vertical frequency × 8 + horizontal frequency). Separable: rows, then columns, so
 * 8·32·32 + 8·8·32 products instead of the direct sum's 64·1024.
 */
export function lowFrequencies(grid: Float64Array): Float64Array {
  const rows = new Float64Array(GRID * LOW); // rows[y*8+u] = Σ_x grid[y][x]·basis[u][x]
  for (let y = 0; y < GRID; y++) {
    for (let u = 0; u < LOW; u++) {
      const basis = DCT_BASIS[u]!;
      let sum = 0;
      for (let x = 0; x < GRID; x++) sum += grid[y * GRID + x]! * basis[x]!;
      rows[y * LOW + u] = sum;
    }
  }
  const coefficients = new Float64Array(LOW * LOW);
  for (let v = 0; v < LOW; v++) {
    const basis = DCT_BASIS[v]!;
    for (let u = 0; u < LOW; u++) {
      let sum = 0;
      for (let y = 0; y < GRID; y++) sum += basis[y]! * rows[y * LOW + u]!;
      coefficients[v * LOW + u] = sum;
    }
  }
  return coefficients;
}

/** The 64-bit hash of a 32×32 luma grid as 16 hex digits (see `bitsToHex` for the bit order). */
export function hashOfLuma(grid: Float64Array): string {
  const coefficients = lowFrequencies(grid);
  // The median of the AC terms only: the DC term is the mean brightness and would skew it.
  const ac = Array.from(coefficients.subarray(1)).sort((p, q) => p - q);
  const median = ac[(ac.length - 1) / 2]!;
  return bitsToHex(Array.from(coefficients, (value) => value > median));
}

/* ------------------------------------------------------------------------------------------- */
/* Colours                                                                                       */
/* ------------------------------------------------------------------------------------------- */

/**
 * The box's colours in OKLab, sampled at the centres of a 48×48 grid (flat x,y,z triples),
 * leaving out samples of the trimmed border's colour when there was one (`background`). On a
 * product shot the white around the subject is otherwise a third or more of every palette: it
 * dilutes the colour check between two products (measured on the generated set: precision at
 * 10 / 0.08 rose from 0.81 to 0.92 with look-alike colours) and would make every shot on white
 * "white" to the colour search. A subject nearly all of the border's colour keeps every sample.
 */
function colourSamples(input: FingerprintInput, box: Box): Float64Array {
  const background = borderColour(input);
  const all = new Float64Array(COLOUR_GRID * COLOUR_GRID * 3);
  const subject = new Float64Array(COLOUR_GRID * COLOUR_GRID * 3);
  const w = box.x1 - box.x0;
  const h = box.y1 - box.y0;
  let n = 0;
  let m = 0;
  for (let i = 0; i < COLOUR_GRID; i++) {
    const y = box.y0 + Math.floor(((i + 0.5) * h) / COLOUR_GRID);
    for (let j = 0; j < COLOUR_GRID; j++) {
      const x = box.x0 + Math.floor(((j + 0.5) * w) / COLOUR_GRID);
      const lab = oklab(channel(input, x, y, 0), channel(input, x, y, 1), channel(input, x, y, 2));
      all.set(lab, n);
      n += 3;
      if (background && !differs(input, x, y, background)) continue;
      subject.set(lab, m);
      m += 3;
    }
  }
  return m / 3 >= MIN_SUBJECT_SAMPLES ? subject.subarray(0, m) : all;
}

function squaredDistance(points: Float64Array, i: number, centre: number[]): number {
  const d0 = points[i * 3]! - centre[0]!;
  const d1 = points[i * 3 + 1]! - centre[1]!;
  const d2 = points[i * 3 + 2]! - centre[2]!;
  return d0 * d0 + d1 * d1 + d2 * d2;
}

/**
 * Deterministic starting centres: the mean, then repeatedly the sample farthest from every centre
 * so far (first one on ties). No randomness, so the browser and the server agree and a re-run
 * gives the same palette. Fewer than 5 when the picture has fewer distinct colours.
 */
function initialCentres(points: Float64Array, count: number): number[][] {
  const n = points.length / 3;
  const mean = [0, 0, 0];
  for (let i = 0; i < n; i++) for (let c = 0; c < 3; c++) mean[c]! += points[i * 3 + c]! / n;
  const centres = [mean];
  const nearest = Float64Array.from({ length: n }, (_, i) => squaredDistance(points, i, mean));
  while (centres.length < count) {
    let farthest = 0;
    for (let i = 1; i < n; i++) if (nearest[i]! > nearest[farthest]!) farthest = i;
    if (nearest[farthest]! < 1e-9) break;
    const centre = Array.from(points.subarray(farthest * 3, farthest * 3 + 3));
    centres.push(centre);
    for (let i = 0; i < n; i++) nearest[i] = Math.min(nearest[i]!, squaredDistance(points, i, centre));
  }
  return centres;
}

/** Each sample's nearest centre (the first one on ties). */
function assign(points: Float64Array, centres: number[][]): Int32Array {
  const n = points.length / 3;
  const labels = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    let best = 0;
    let bestDistance = Number.POSITIVE_INFINITY;
    for (let k = 0; k < centres.length; k++) {
      const d = squaredDistance(points, i, centres[k]!);
      if (d < bestDistance) {
        bestDistance = d;
        best = k;
      }
    }
    labels[i] = best;
  }
  return labels;
}

/** Moves each centre to the mean of its samples; an empty cluster keeps its centre. */
function update(points: Float64Array, labels: Int32Array, centres: number[][]): void {
  const sums = centres.map(() => [0, 0, 0, 0]);
  labels.forEach((k, i) => {
    const sum = sums[k]!;
    for (let c = 0; c < 3; c++) sum[c]! += points[i * 3 + c]!;
    sum[3]!++;
  });
  sums.forEach((sum, k) => {
    if (sum[3]! > 0) centres[k] = [sum[0]! / sum[3]!, sum[1]! / sum[3]!, sum[2]! / sum[3]!];
  });
}

/** Up to 5 dominant colours of the box's subject: k-means in OKLab, 10 rounds, under 2 % dropped (plan §1.1 step 5). */
function paletteOf(input: FingerprintInput, box: Box): PaletteColour[] {
  const points = colourSamples(input, box);
  const centres = initialCentres(points, PALETTE_SIZE);
  for (let round = 0; round < KMEANS_ROUNDS; round++) update(points, assign(points, centres), centres);
  const labels = assign(points, centres);
  const counts = centres.map(() => 0);
  for (const k of labels) counts[k]!++;
  return centres
    .map((centre, k) => ({
      l: Math.round(centre[0]! * 1000),
      a: Math.round(centre[1]! * 1000),
      b: Math.round(centre[2]! * 1000),
      w: Math.round((counts[k]! * 1000) / labels.length),
    }))
    .filter((colour) => colour.w >= MIN_COLOUR_WEIGHT)
    .sort((p, q) => q.w - p.w);
}
