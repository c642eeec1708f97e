import sharp, { type Sharp } from 'sharp';

/**
 * A seeded, generated set of originals and their near-duplicate variants (issue 17, plan §1.2 and
 * §10), for measuring the fingerprint's recall and precision without shipping image files:
 * - scenes: an SVG gradient with 15–45 shapes, about one in eight blurred (1200×900);
 * - product shots: a shoe-like blob in a random colour with stripes and a soft shadow on white
 *   (1200×1200): the hard negatives, since every one is "a blob on white";
 * - textures: value noise in two colours (640×480).
 * Originals are JPEG q92; each gets the 9 variants of `VARIANTS`. Same seed, same bytes.
 *
 * Calibrated against the plan's 1,730-file measurements (its generator was not kept): shoes face
 * either way and range from low shoes to boots, so that the hash alone has the plan's precision at
 * distance 10 (0.79); uppers take clear colours (saturation 45–95 %, lightness 25–65 %), since with
 * washed-out ones two of 25 shoes often share a colour, and then no colour check can part them
 * (plan §12: "same colour, different model"). Everything is rendered at the plan's sizes.
 */

export const VARIANTS = [
  'resize50',
  'resize25png',
  'q60',
  'resize50q60',
  'crop3',
  'crop5',
  'bright',
  'hue',
  'warm',
] as const;
export type Variant = (typeof VARIANTS)[number];
export type Family = 'scene' | 'product' | 'texture';

export interface SetFile {
  /** e.g. `product-07-crop3.jpg`. */
  name: string;
  /** Index of the original it was made from: files with the same source are near-duplicates. */
  source: number;
  family: Family;
  variant: Variant | 'original';
  data: Buffer;
}

export interface SetSize {
  scenes: number;
  products: number;
  textures: number;
}

/** The plan's test size: 60 originals × (1 + 9) = 600 files. */
export const DEFAULT_SET: SetSize = { scenes: 25, products: 25, textures: 10 };

/** A small, fast seeded generator (public domain), so the set is the same on every machine. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Random = () => number;

const between = (random: Random, low: number, high: number) => low + random() * (high - low);
const int = (random: Random, low: number, high: number) => Math.floor(between(random, low, high + 1));
const hsl = (hue: number, saturation: number, lightness: number) =>
  `hsl(${Math.round(hue)},${Math.round(saturation)}%,${Math.round(lightness)}%)`;
const randomColour = (random: Random) =>
  hsl(random() * 360, between(random, 20, 95), between(random, 15, 80));

/** A gradient with 15–45 circles, ellipses, rectangles and triangles; about one in eight blurred. */
function sceneSvg(random: Random): string {
  const [w, h] = [1200, 900];
  const angle = random() * Math.PI * 2;
  const [dx, dy] = [Math.cos(angle) / 2, Math.sin(angle) / 2];
  const shapes: string[] = [];
  for (let i = int(random, 15, 45); i > 0; i--) {
    const [x, y, size] = [random() * w, random() * h, between(random, 30, 300)];
    const paint = `fill="${randomColour(random)}" opacity="${between(random, 0.5, 1).toFixed(2)}"${
      random() < 0.12 ? ` filter="url(#blur${int(random, 0, 1)})"` : ''
    }`;
    const kind = int(random, 0, 3);
    if (kind === 0) shapes.push(`<circle cx="${x | 0}" cy="${y | 0}" r="${(size / 2) | 0}" ${paint}/>`);
    else if (kind === 1)
      shapes.push(
        `<ellipse cx="${x | 0}" cy="${y | 0}" rx="${(size / 2) | 0}" ry="${(size / 4) | 0}" transform="rotate(${int(random, 0, 180)} ${x | 0} ${y | 0})" ${paint}/>`,
      );
    else if (kind === 2)
      shapes.push(
        `<rect x="${x | 0}" y="${y | 0}" width="${size | 0}" height="${(size * between(random, 0.3, 1.5)) | 0}" ${paint}/>`,
      );
    else
      shapes.push(
        `<polygon points="${x | 0},${y | 0} ${(x + size) | 0},${(y + between(random, -size, size)) | 0} ${(x + between(random, -size, size)) | 0},${(y + size) | 0}" ${paint}/>`,
      );
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">
<defs><linearGradient id="g" x1="${0.5 - dx}" y1="${0.5 - dy}" x2="${0.5 + dx}" y2="${0.5 + dy}">
<stop offset="0" stop-color="${randomColour(random)}"/><stop offset="1" stop-color="${randomColour(random)}"/></linearGradient>
<filter id="blur0"><feGaussianBlur stdDeviation="6"/></filter><filter id="blur1"><feGaussianBlur stdDeviation="18"/></filter></defs>
<rect width="${w}" height="${h}" fill="url(#g)"/>${shapes.join('')}</svg>`;
}

/**
 * A side view of a shoe-like blob: an upper with heel, collar, tongue and toe at random
 * proportions, clipped stripes, a sole and a blurred ground shadow, on white.
 */
function productSvg(random: Random): string {
  const side = 1200;
  const length = between(random, 650, 900);
  const x0 = (side - length) / 2 + between(random, -60, 60);
  const x1 = x0 + length;
  const ground = between(random, 760, 860);
  const sole = between(random, 30, 60);
  const heel = between(random, 200, 560); // low shoes to boots
  const collar = x0 + length * between(random, 0.2, 0.35);
  const tongue = x0 + length * between(random, 0.38, 0.5);
  const toe = between(random, 70, 200);
  const top = ground - sole;
  const upper = [
    `M${x0},${top}`,
    `C${x0 - 20},${top - heel * 0.5} ${x0 - 10},${ground - heel} ${x0 + 30},${ground - heel}`,
    `Q${(x0 + collar) / 2},${ground - heel + between(random, 20, 70)} ${collar},${ground - heel + 10}`,
    `L${tongue},${ground - heel - between(random, 0, 60)}`,
    `C${tongue + length * 0.15},${ground - heel * 0.6} ${x1 - toe},${top - toe} ${x1 - toe * 0.3},${top - toe * 0.8}`,
    `Q${x1 + 10},${top - toe * 0.4} ${x1},${top}`,
    'Z',
  ].join(' ');
  const stripeColour = random() < 0.5 ? '#ffffff' : randomColour(random);
  const stripes: string[] = [];
  for (let i = int(random, 2, 4); i > 0; i--) {
    const x = between(random, collar, x1 - toe);
    const slant = between(random, -200, 200);
    stripes.push(
      `<line x1="${x | 0}" y1="${(ground - heel - 50) | 0}" x2="${(x + slant) | 0}" y2="${top | 0}" stroke="${stripeColour}" stroke-width="${int(random, 15, 40)}"/>`,
    );
  }
  const soleColour = random() < 0.6 ? '#f2f2f2' : random() < 0.5 ? '#222222' : randomColour(random);
  const tilt = between(random, -10, 10).toFixed(1);
  // Shot facing left or right, as an archive's product shots are.
  const facing = random() < 0.5 ? ` transform="matrix(-1 0 0 1 ${side} 0)"` : '';
  const upperColour = hsl(random() * 360, between(random, 45, 95), between(random, 25, 65));
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${side}" height="${side}">
<defs><clipPath id="c"><path d="${upper}"/></clipPath>
<filter id="s" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="22"/></filter></defs>
<rect width="${side}" height="${side}" fill="#ffffff"/><g${facing}>
<ellipse cx="${((x0 + x1) / 2) | 0}" cy="${(ground + 15) | 0}" rx="${(length * 0.5) | 0}" ry="30" fill="#000" opacity="0.3" filter="url(#s)"/>
<g transform="rotate(${tilt} 600 ${ground | 0})">
<path d="${upper}" fill="${upperColour}"/>
<g clip-path="url(#c)">${stripes.join('')}</g>
<rect x="${(x0 - 15) | 0}" y="${top | 0}" width="${(length + 30) | 0}" height="${sole | 0}" rx="${(sole / 2) | 0}" fill="${soleColour}"/>
</g></g></svg>`;
}

/** One octave of value noise: a random lattice every `cell` px, smooth-stepped bilinear between. */
function valueNoise(random: Random, width: number, height: number, cell: number): Float32Array {
  const columns = Math.ceil(width / cell) + 2;
  const lattice = Float32Array.from({ length: columns * (Math.ceil(height / cell) + 2) }, random);
  const smooth = (t: number) => t * t * (3 - 2 * t);
  const noise = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    const iy = Math.floor(y / cell);
    const fy = smooth(y / cell - iy);
    for (let x = 0; x < width; x++) {
      const ix = Math.floor(x / cell);
      const fx = smooth(x / cell - ix);
      const i = iy * columns + ix;
      const top = lattice[i]! + (lattice[i + 1]! - lattice[i]!) * fx;
      const bottom = lattice[i + columns]! + (lattice[i + columns + 1]! - lattice[i + columns]!) * fx;
      noise[y * width + x] = top + (bottom - top) * fy;
    }
  }
  return noise;
}

/** Two octaves of value noise (a coarse one at 70 %, a fine one at 30 %) between two colours. */
function textureRaw(random: Random): { data: Buffer; width: number; height: number } {
  const [width, height] = [640, 480];
  const coarse = valueNoise(random, width, height, between(random, 40, 120));
  const fine = valueNoise(random, width, height, between(random, 8, 24));
  const colour = () => [random() * 255, random() * 255, random() * 255];
  const luma = (rgb: number[]) => 0.299 * rgb[0]! + 0.587 * rgb[1]! + 0.114 * rgb[2]!;
  const from = colour();
  let to = colour();
  // A texture, not a flat field: the two colours differ clearly in brightness.
  while (Math.abs(luma(to) - luma(from)) < 90) to = colour();
  const data = Buffer.alloc(width * height * 3);
  for (let i = 0; i < width * height; i++) {
    const value = coarse[i]! * 0.7 + fine[i]! * 0.3;
    for (let c = 0; c < 3; c++) data[i * 3 + c] = from[c]! + (to[c]! - from[c]!) * value;
  }
  return { data, width, height };
}

/** 3×3 product of row-major matrices. */
const times = (p: number[][], q: number[][]) =>
  p.map((row) => q[0]!.map((_, j) => row.reduce((sum, value, k) => sum + value * q[k]![j]!, 0)));

/**
 * Hue +10° then saturation ×1.15 as one RGB matrix (the CSS filter-effects `hue-rotate` and
 * `saturate` matrices). sharp's `modulate` does the same through LCh at ~70 ms a 1200-px image,
 * which would double the set's cost; the matrix is a few ms.
 */
const HUE_SATURATION = (() => {
  const [cos, sin] = [Math.cos((10 * Math.PI) / 180), Math.sin((10 * Math.PI) / 180)];
  const hue = [
    [0.213 + cos * 0.787 - sin * 0.213, 0.715 - cos * 0.715 - sin * 0.715, 0.072 - cos * 0.072 + sin * 0.928],
    [0.213 - cos * 0.213 + sin * 0.143, 0.715 + cos * 0.285 + sin * 0.14, 0.072 - cos * 0.072 - sin * 0.283],
    [0.213 - cos * 0.213 - sin * 0.787, 0.715 - cos * 0.715 + sin * 0.715, 0.072 + cos * 0.928 + sin * 0.072],
  ];
  const s = 1.15;
  const saturation = [
    [0.213 + 0.787 * s, 0.715 - 0.715 * s, 0.072 - 0.072 * s],
    [0.213 - 0.213 * s, 0.715 + 0.285 * s, 0.072 - 0.072 * s],
    [0.213 - 0.213 * s, 0.715 - 0.715 * s, 0.072 + 0.928 * s],
  ];
  return times(saturation, hue) as [
    [number, number, number],
    [number, number, number],
    [number, number, number],
  ];
})();

/** An original's decoded RGB bytes, and a fresh sharp pipeline over them for each variant. */
interface Decoded {
  data: Buffer;
  width: number;
  height: number;
  (): Sharp;
}

/**
 * Each channel multiplied (and clipped) through a lookup table: `linear()` does the same in
 * floating point at twice the cost, which the set's budget (~8 s) notices.
 */
function scaled(original: Decoded, factors: [number, number, number]): Sharp {
  const tables = factors.map((factor) =>
    Uint8Array.from({ length: 256 }, (_, v) => Math.min(255, Math.round(v * factor))),
  );
  const data = Buffer.alloc(original.data.length);
  for (let i = 0; i < data.length; i += 3) {
    data[i] = tables[0]![original.data[i]!]!;
    data[i + 1] = tables[1]![original.data[i + 1]!]!;
    data[i + 2] = tables[2]![original.data[i + 2]!]!;
  }
  return sharp(data, { raw: { width: original.width, height: original.height, channels: 3 } });
}

/** The variant of an original, from its decoded pixels (one decode per original, not nine). */
function variantOf(original: Decoded, width: number, height: number, variant: Variant): Promise<Buffer> {
  const jpeg = (image: Sharp, quality = 90) => image.jpeg({ quality }).toBuffer();
  switch (variant) {
    case 'resize50':
      return jpeg(original().resize(Math.round(width / 2)));
    case 'resize25png':
      return original()
        .resize(Math.round(width / 4))
        .png()
        .toBuffer();
    case 'q60':
      return jpeg(original(), 60);
    case 'resize50q60':
      return jpeg(original().resize(Math.round(width / 2)), 60);
    case 'crop3': {
      const [dx, dy] = [Math.round(width * 0.03), Math.round(height * 0.03)];
      return jpeg(original().extract({ left: dx, top: dy, width: width - 2 * dx, height: height - 2 * dy }));
    }
    case 'crop5': {
      const [dx, dy] = [Math.round(width * 0.05), Math.round(height * 0.05)];
      return jpeg(original().extract({ left: dx, top: 0, width: width - dx, height: height - dy }));
    }
    case 'bright':
      return jpeg(scaled(original, [1.08, 1.08, 1.08]));
    case 'hue':
      return jpeg(original().recomb(HUE_SATURATION));
    case 'warm':
      return jpeg(scaled(original, [1.06, 1, 0.92]));
  }
}

/** One original (JPEG q92) and its 9 variants. */
async function familyOf(source: number, family: Family, random: Random): Promise<SetFile[]> {
  let input: Sharp;
  if (family === 'texture') {
    const { data, width, height } = textureRaw(random);
    input = sharp(data, { raw: { width, height, channels: 3 } });
  } else {
    input = sharp(Buffer.from(family === 'scene' ? sceneSvg(random) : productSvg(random)));
  }
  const original = await input.jpeg({ quality: 92 }).toBuffer();
  const { data, info } = await sharp(original).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const decoded: Decoded = Object.assign(
    () => sharp(data, { raw: { width: info.width, height: info.height, channels: 3 } }),
    {
      data,
      width: info.width,
      height: info.height,
    },
  );
  const base = `${family}-${String(source).padStart(2, '0')}`;
  const variants = await Promise.all(
    VARIANTS.map(async (variant) => ({
      name: `${base}-${variant}.${variant === 'resize25png' ? 'png' : 'jpg'}`,
      source,
      family,
      variant,
      data: await variantOf(decoded, info.width, info.height, variant),
    })),
  );
  return [{ name: `${base}-original.jpg`, source, family, variant: 'original', data: original }, ...variants];
}

/** The whole set, originals in order scenes, products, textures. Seeded: the same files every run. */
export async function nearDuplicateSet(size: SetSize = DEFAULT_SET, seed = 17): Promise<SetFile[]> {
  const random = mulberry32(seed);
  const families: Family[] = [
    ...Array<Family>(size.scenes).fill('scene'),
    ...Array<Family>(size.products).fill('product'),
    ...Array<Family>(size.textures).fill('texture'),
  ];
  const files: SetFile[] = [];
  // One family at a time: the random draws stay in a fixed order, and memory stays small.
  for (const [source, family] of families.entries()) files.push(...(await familyOf(source, family, random)));
  return files;
}
