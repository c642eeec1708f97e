import { oklab } from './fingerprint-colour';
/**
 * Colour families (issue 39 defect 1): what a person means by "a green picture". A colour belongs
 * to one family by its OKLCH lightness, chroma and hue (OKLCH is OKLab in polar form, so hue
 * ranges read as colour names and lightness as light or dark); a picture's family shares are the
 * part of it each family covers, counted per pixel. The colour filter finds files whose share of
 * the chosen family reaches the tolerance's minimum, so a small accent is not the picture's colour.
 *
 * Plain TypeScript with no imports: the same arithmetic as `colour_family` in the database
 * (migration 031, used by its back-fill); a test holds the two equal.
 */

/** Family codes as stored (`item_colour_families.family`); never renumber. */
export const ColourFamily = {
  red: 1,
  orange: 2,
  yellow: 3,
  green: 4,
  cyan: 5,
  blue: 6,
  purple: 7,
  pink: 8,
  brown: 9,
  black: 10,
  white: 11,
  grey: 12,
} as const;
export type ColourFamilyName = keyof typeof ColourFamily;
export type ColourFamilyCode = (typeof ColourFamily)[ColourFamilyName];

/** The share of a picture one family covers, in ‰. */
export interface FamilyShare {
  family: ColourFamilyCode;
  share: number;
}

/** A family share under this (‰) is not stored: the loosest filter asks for more (see similar-values). */
export const MIN_FAMILY_SHARE = 50;

/**
 * The family of an OKLab colour given as × 1000 integers (as stored). In order:
 * - very dark (L < 0.25, or L < 0.35 with chroma under 0.05): black;
 * - near-neutral (C < 0.035), or very light and pale (L ≥ 0.93, C < 0.07): white (L ≥ 0.9), black
 *   (L < 0.35) or grey;
 * - warm hues turn brown when dull or dark: 15–100° with C < 0.09 under L 0.85 (tan, khaki, taupe),
 *   35–100° under L 0.58 (sienna, chocolate);
 * - by hue (degrees): pink 340–15 when light (L ≥ 0.6; darker is red: burgundy), red 15–44
 *   (crimson, brick, salmon, coral), orange 44–75, yellow 75–118 (100–118° under L 0.68 is olive:
 *   green), green 118–175, cyan/teal 175–215, blue 215–290, purple 290–340.
 * Lightness and chroma compare as integers (C² against squared limits) and no hue limit falls on an
 * integer (a, b) point, so the database's copy decides every stored colour the same way.
 */
export function colourFamilyOf(l: number, a: number, b: number): ColourFamilyCode {
  const c2 = a * a + b * b;
  if (l < 250 || (l < 350 && c2 < 2500)) return ColourFamily.black;
  if (c2 < 1225 || (l >= 930 && c2 < 4900)) {
    if (l >= 900) return ColourFamily.white;
    return l < 350 ? ColourFamily.black : ColourFamily.grey;
  }
  let h = (Math.atan2(b, a) * 180) / Math.PI;
  if (h < 0) h += 360;
  if (h >= 15 && h < 100 && c2 < 8100 && l < 850) return ColourFamily.brown;
  if (h >= 35 && h < 100 && l < 580) return ColourFamily.brown;
  if (h >= 340 || h < 15) return l >= 600 ? ColourFamily.pink : ColourFamily.red;
  if (h < 44) return ColourFamily.red;
  if (h < 75) return ColourFamily.orange;
  if (h < 118) return h >= 100 && l < 680 ? ColourFamily.green : ColourFamily.yellow;
  if (h < 175) return ColourFamily.green;
  if (h < 215) return ColourFamily.cyan;
  if (h < 290) return ColourFamily.blue;
  return ColourFamily.purple;
}

/** The family of a `#rrggbb` colour (the swatch or picker colour a person chose). */
export function colourFamilyOfHex(hex: string): ColourFamilyCode {
  const [l, a, b] = oklab(
    Number.parseInt(hex.slice(1, 3), 16),
    Number.parseInt(hex.slice(3, 5), 16),
    Number.parseInt(hex.slice(5, 7), 16),
  );
  return colourFamilyOf(Math.round(l * 1000), Math.round(a * 1000), Math.round(b * 1000));
}

/** A raster as the fingerprint takes it: row-major bytes, 3 or 4 channels, drawn over white. */
export interface FamilyRaster {
  pixels: Uint8Array | Uint8ClampedArray;
  width: number;
  height: number;
  channels: number;
}

/** Samples per axis: 48 × 48 = 2,304 pixels, each one a 0.04 % step of share. */
const GRID = 48;
/** Per-channel tolerance of "the border's colour" (as fingerprint.ts's trim). */
const BORDER_TOLERANCE = 24;
/** With fewer samples than this (5 %) off a white border, the picture is white on white: keep all. */
const MIN_SUBJECT_SAMPLES = 115;

/**
 * The family shares of a whole picture (‰, largest first, those under `MIN_FAMILY_SHARE` left
 * out). Every part counts, a coloured background included ("green-background shots are green").
 * Only a uniform white border (a studio backdrop, or transparency drawn over white) is left out,
 * as the near-duplicate palette does, or every product shot would be "white"; a picture nearly all
 * of that white keeps it (a white sheet is white).
 */
export function familySharesOf(raster: FamilyRaster): FamilyShare[] {
  const { width, height, channels, pixels } = raster;
  if (width < 1 || height < 1) return [];
  const at = (x: number, y: number) => (y * width + x) * channels;
  const border = whiteBorder(raster);
  const all = new Map<number, number>();
  const subject = new Map<number, number>();
  let subjectCount = 0;
  const cache = new Map<number, ColourFamilyCode>();
  for (let i = 0; i < GRID; i++) {
    const y = Math.min(height - 1, Math.floor(((i + 0.5) * height) / GRID));
    for (let j = 0; j < GRID; j++) {
      const x = Math.min(width - 1, Math.floor(((j + 0.5) * width) / GRID));
      const p = at(x, y);
      const r = pixels[p]!;
      const g = pixels[p + 1]!;
      const b = pixels[p + 2]!;
      const key = (r << 16) | (g << 8) | b;
      let family = cache.get(key);
      if (family === undefined) {
        const [ol, oa, ob] = oklab(r, g, b);
        family = colourFamilyOf(Math.round(ol * 1000), Math.round(oa * 1000), Math.round(ob * 1000));
        cache.set(key, family);
      }
      all.set(family, (all.get(family) ?? 0) + 1);
      if (
        border &&
        Math.abs(r - border[0]!) <= BORDER_TOLERANCE &&
        Math.abs(g - border[1]!) <= BORDER_TOLERANCE &&
        Math.abs(b - border[2]!) <= BORDER_TOLERANCE
      )
        continue;
      subject.set(family, (subject.get(family) ?? 0) + 1);
      subjectCount++;
    }
  }
  const [counts, total] =
    border && subjectCount >= MIN_SUBJECT_SAMPLES ? [subject, subjectCount] : [all, GRID * GRID];
  return [...counts]
    .map(([family, count]) => ({
      family: family as ColourFamilyCode,
      share: Math.round((count * 1000) / total),
    }))
    .filter((entry) => entry.share >= MIN_FAMILY_SHARE)
    .sort((p, q) => q.share - p.share || p.family - q.family);
}

/** The four corners' mean colour when they agree and it is white (a studio backdrop), else null. */
function whiteBorder(raster: FamilyRaster): number[] | null {
  const { width: w, height: h, channels, pixels } = raster;
  const corners = [0, w - 1, (h - 1) * w, (h - 1) * w + w - 1].map((index) => index * channels);
  const colour: number[] = [];
  for (let c = 0; c < 3; c++) {
    const values = corners.map((p) => pixels[p + c]!);
    if (Math.max(...values) - Math.min(...values) > BORDER_TOLERANCE) return null;
    colour.push(values.reduce((sum, v) => sum + v, 0) / 4);
  }
  const [l, a, b] = oklab(Math.round(colour[0]!), Math.round(colour[1]!), Math.round(colour[2]!));
  return colourFamilyOf(Math.round(l * 1000), Math.round(a * 1000), Math.round(b * 1000)) ===
    ColourFamily.white
    ? colour
    : null;
}
