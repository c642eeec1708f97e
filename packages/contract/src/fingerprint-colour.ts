import type { PaletteColour } from './fingerprint';

/**
 * Colours of a fingerprint (issue 17): OKLab, the distance of two palettes and the colour cells a
 * colour search probes. No imports at run time: the upload dialog's worker loads it too.
 */

/** sRGB byte → linear light, once per byte value rather than per sample. */
const LINEAR: Float64Array = Float64Array.from({ length: 256 }, (_, i) => {
  const c = i / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
});

/** sRGB bytes → OKLab (Björn Ottosson's matrices): a space where Euclidean distance reads as ΔE. */
export function oklab(r: number, g: number, b: number): [number, number, number] {
  const lr = LINEAR[r]!;
  const lg = LINEAR[g]!;
  const lb = LINEAR[b]!;
  const l = Math.cbrt(0.4122214708 * lr + 0.5363325363 * lg + 0.0514459929 * lb);
  const m = Math.cbrt(0.2119034982 * lr + 0.6806995451 * lg + 0.1073969566 * lb);
  const s = Math.cbrt(0.0883024619 * lr + 0.2817188376 * lg + 0.6299787005 * lb);
  return [
    0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s,
    1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s,
    0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s,
  ];
}

/** `#rrggbb` → OKLab × 1000 (integers, as stored), e.g. for a colour search. */
export function oklabOfHex(hex: string): { l: number; a: number; b: number } {
  const value = Number.parseInt(hex.replace(/^#/, ''), 16);
  const [l, a, b] = oklab((value >> 16) & 255, (value >> 8) & 255, value & 255);
  return { l: Math.round(l * 1000), a: Math.round(a * 1000), b: Math.round(b * 1000) };
}

/** Euclidean OKLab distance of two stored colours, in OKLab units. */
function deltaE(p: { l: number; a: number; b: number }, q: { l: number; a: number; b: number }): number {
  return Math.hypot(p.l - q.l, p.a - q.a, p.b - q.b) / 1000;
}

/** Σ_a w_a · min_b ΔE(a, b) / Σ w_a: how far A's colours are, on average, from B's nearest. */
function oneWayDistance(from: PaletteColour[], to: PaletteColour[]): number {
  let total = 0;
  let weight = 0;
  for (const colour of from) {
    total += colour.w * Math.min(...to.map((other) => deltaE(colour, other)));
    weight += colour.w;
  }
  return weight > 0 ? total / weight : Number.POSITIVE_INFINITY;
}

/**
 * The colour check, in OKLab units (0.08 is the default limit): the larger of the two one-way
 * distances, so a palette that is a subset of the other does not pass as the same picture. It
 * separates colourways of one product that the hash alone cannot tell apart. Infinity when either
 * palette is empty (nothing to compare is never "the same").
 */
export function paletteDistance(a: PaletteColour[], b: PaletteColour[]): number {
  if (a.length === 0 || b.length === 0) return Number.POSITIVE_INFINITY;
  return Math.max(oneWayDistance(a, b), oneWayDistance(b, a));
}

/* ------------------------------------------------------------------------------------------- */
/* Colour cells (item_colours.cell) and hash bands (media_fingerprints.b0–b3)                     */
/* ------------------------------------------------------------------------------------------- */

/** Cells per axis: L in 10 steps of 0.1; a and b in 16 steps of 0.05 over ±0.4 (edges open). */
const L_CELLS = 10;
const AB_CELLS = 16;
const L_STEP = 100;
const AB_STEP = 50;
const AB_MIN = -400;

function lCell(l: number): number {
  return Math.max(0, Math.trunc(Math.min(l, L_CELLS * L_STEP - 1) / L_STEP));
}

function abCell(v: number): number {
  const clamped = Math.min(Math.max(v, AB_MIN), -AB_MIN - 1);
  return Math.trunc((clamped - AB_MIN) / AB_STEP);
}

/**
 * The index cell of a colour (OKLab × 1000 integers), `0…2559`:
 * `(least(L,999)/100)*256 + ((clamp(a,-400,399)+400)/50)*16 + ((clamp(b,-400,399)+400)/50)`.
 * The database stores it through `colour_cell` (migration 026), the same arithmetic; a test
 * (server/src/modules/items/colour-cell.test.ts) holds the two equal.
 */
export function colourCell(l: number, a: number, b: number): number {
  return lCell(l) * AB_CELLS * AB_CELLS + abCell(a) * AB_CELLS + abCell(b);
}

/** The integer range a cell covers on one axis; the edge cells are open (everything beyond is clamped in). */
function cellRange(cell: number, cells: number, step: number, min: number): [number, number] {
  const low = cell === 0 ? Number.NEGATIVE_INFINITY : min + cell * step;
  const high = cell === cells - 1 ? Number.POSITIVE_INFINITY : min + (cell + 1) * step - 1;
  return [low, high];
}

/** Distance from a value to a range (0 inside). */
function gap(value: number, [low, high]: [number, number]): number {
  return value < low ? low - value : value > high ? value - high : 0;
}

/**
 * Every cell that may hold a colour within `radius` (OKLab units, e.g. 0.08) of (l, a, b) (× 1000
 * integers): the cells whose box comes within the radius, so the colour search can walk one index
 * range per cell and miss nothing. The corners of the bounding cube are left out, hence 18–36
 * cells at 0.05–0.08 rather than up to 48.
 */
export function cellsNear(l: number, a: number, b: number, radius: number): number[] {
  const r = radius * 1000;
  const cells: number[] = [];
  for (let i = lCell(l - r); i <= lCell(l + r); i++) {
    const dl = gap(l, cellRange(i, L_CELLS, L_STEP, 0));
    for (let j = abCell(a - r); j <= abCell(a + r); j++) {
      const da = gap(a, cellRange(j, AB_CELLS, AB_STEP, AB_MIN));
      for (let k = abCell(b - r); k <= abCell(b + r); k++) {
        const db = gap(b, cellRange(k, AB_CELLS, AB_STEP, AB_MIN));
        if (dl * dl + da * da + db * db <= r * r) cells.push(i * AB_CELLS * AB_CELLS + j * AB_CELLS + k);
      }
    }
  }
  return cells;
}
