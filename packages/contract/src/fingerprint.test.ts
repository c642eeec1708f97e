import { describe, expect, it } from 'vitest';
import {
  bandsOf,
  bitsToHex,
  cellsNear,
  colourCell,
  FINGERPRINT_ALGO,
  FINGERPRINT_SIDE,
  fingerprintOf,
  hammingHex,
  hashOfLuma,
  hashToSigned,
  hexToBits,
  lowFrequencies,
  oklabOfHex,
  paletteDistance,
  probes,
  signedToHash,
} from './fingerprint';

/** A small seeded generator, so a failure reproduces. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An RGB raster filled by `paint(x, y)`. */
function raster(width: number, height: number, paint: (x: number, y: number) => [number, number, number]) {
  const pixels = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) pixels.set(paint(x, y), (y * width + x) * 3);
  return { pixels, width, height, channels: 3, sourceWidth: width * 4, sourceHeight: height * 4 };
}

/** Blocky random content whose every edge row and column stands out from white. */
function content(width: number, height: number, seed: number) {
  const random = mulberry32(seed);
  const blocks = Array.from({ length: 64 }, () => [random() * 200, random() * 200, random() * 200]);
  return (x: number, y: number): [number, number, number] => {
    const block = blocks[Math.floor((y / height) * 8) * 8 + Math.floor((x / width) * 8)]!;
    return [Math.round(block[0]!), Math.round(block[1]!), Math.round(block[2]!)];
  };
}

function randomHex(random: () => number): string {
  return Array.from({ length: 16 }, () => Math.floor(random() * 16).toString(16)).join('');
}

describe('the perceptual hash', () => {
  it('has the documented constants', () => {
    expect(FINGERPRINT_ALGO).toBe(2);
    expect(FINGERPRINT_SIDE).toBe(256);
  });

  it('computes the same 8×8 DCT-II as the direct O(n⁴) sum', () => {
    const random = mulberry32(1);
    const grid = Float64Array.from({ length: 1024 }, () => random() * 255);
    const fast = lowFrequencies(grid);
    for (let v = 0; v < 8; v++) {
      for (let u = 0; u < 8; u++) {
        let sum = 0;
        for (let y = 0; y < 32; y++)
          for (let x = 0; x < 32; x++)
            sum +=
              grid[y * 32 + x]! *
              Math.cos(((2 * y + 1) * v * Math.PI) / 64) *
              Math.cos(((2 * x + 1) * u * Math.PI) / 64);
        const alpha = (k: number) => (k === 0 ? Math.sqrt(1 / 32) : Math.sqrt(2 / 32));
        expect(fast[v * 8 + u]).toBeCloseTo(alpha(u) * alpha(v) * sum, 9);
      }
    }
  });

  it('sets bit i for coefficient i (row-major, DC first) and writes bit 0 as the top bit of the hex', () => {
    // A grid made of chosen coefficients: +10 at the 31 odd indices 1…61 (u odd), −10 at the 32
    // other AC ones, so the AC median is −10 and exactly the DC and those 31 are above it. A
    // transposed (column-major) order would set the odd *rows* instead.
    const alpha = (k: number) => (k === 0 ? Math.sqrt(1 / 32) : Math.sqrt(2 / 32));
    const wanted = (i: number) => (i === 0 ? 4096 : i % 2 === 1 && i < 63 ? 10 : -10);
    const grid = new Float64Array(1024);
    for (let y = 0; y < 32; y++)
      for (let x = 0; x < 32; x++)
        for (let i = 0; i < 64; i++) {
          const v = Math.floor(i / 8);
          const u = i % 8;
          grid[y * 32 + x]! +=
            wanted(i) *
            alpha(u) *
            alpha(v) *
            Math.cos(((2 * y + 1) * v * Math.PI) / 64) *
            Math.cos(((2 * x + 1) * u * Math.PI) / 64);
        }
    // Bits 0,1,3 | 5,7 | … | 61: d, then 5s, and the last nibble (60–63) only bit 61.
    expect(hashOfLuma(grid)).toBe('d555555555555554');
  });

  it('round-trips bits and hex', () => {
    const random = mulberry32(2);
    for (let n = 0; n < 50; n++) {
      const hex = randomHex(random);
      expect(bitsToHex(hexToBits(hex))).toBe(hex);
    }
    expect(bitsToHex(Array.from({ length: 64 }, (_, i) => i === 0))).toBe('8000000000000000');
    expect(bitsToHex(Array.from({ length: 64 }, (_, i) => i === 63))).toBe('0000000000000001');
  });

  it('counts differing bits', () => {
    const random = mulberry32(3);
    for (let n = 0; n < 50; n++) {
      const a = randomHex(random);
      const b = randomHex(random);
      const expected = hexToBits(a).filter((bit, i) => bit !== hexToBits(b)[i]).length;
      expect(hammingHex(a, b)).toBe(expected);
    }
    expect(hammingHex('ffffffffffffffff', '0000000000000000')).toBe(64);
    expect(hammingHex('8000000000000001', '0000000000000000')).toBe(2);
  });

  it('is tooSmall under 16 px of raster or 32 px of original', () => {
    expect(fingerprintOf(raster(15, 40, content(15, 40, 4))).status).toBe('tooSmall');
    expect(fingerprintOf({ ...raster(64, 64, content(64, 64, 4)), sourceWidth: 31 }).status).toBe('tooSmall');
    expect(fingerprintOf(raster(16, 16, content(16, 16, 4))).status).toBe('ready');
  });

  it('is blank for a uniform raster, a 1-px line and a faint smudge', () => {
    expect(fingerprintOf(raster(100, 80, () => [255, 255, 255])).status).toBe('blank');
    expect(fingerprintOf(raster(100, 80, () => [30, 90, 200])).status).toBe('blank');
    expect(fingerprintOf(raster(100, 80, (_, y) => (y === 40 ? [0, 0, 0] : [255, 255, 255]))).status).toBe(
      'blank',
    );
    // Corners disagree (no trim): two halves of clearly different luma are a picture…
    expect(fingerprintOf(raster(100, 80, (x) => [x < 50 ? 100 : 160, 100, x < 50 ? 100 : 40])).status).toBe(
      'ready',
    );
    // …a faint ripple is not.
    expect(fingerprintOf(raster(100, 80, (x) => [128 + (x % 3), 128, 128])).status).toBe('blank');
  });

  it('trims a uniform white border: the hash and the colours stay the same', () => {
    const paint = content(90, 70, 5);
    const alone = fingerprintOf(raster(90, 70, paint));
    expect(alone.status).toBe('ready');
    for (const [left, top, right, bottom] of [
      [10, 10, 10, 10],
      [0, 25, 40, 3],
      [60, 0, 5, 90], // every corner must be background for a border to be trimmed
    ] as const) {
      const width = 90 + left + right;
      const height = 70 + top + bottom;
      const padded = raster(width, height, (x, y) => {
        const inside = x >= left && x < left + 90 && y >= top && y < top + 70;
        return inside ? paint(x - left, y - top) : [255, 255, 255];
      });
      expect(fingerprintOf(padded)).toEqual(alone);
    }
  });

  it('accepts RGBA (a canvas) and gives what RGB gives', () => {
    const rgb = raster(80, 60, content(80, 60, 6));
    const rgba = new Uint8ClampedArray(80 * 60 * 4);
    for (let i = 0; i < 80 * 60; i++) {
      rgba.set(rgb.pixels.subarray(i * 3, i * 3 + 3), i * 4);
      rgba[i * 4 + 3] = 255;
    }
    expect(fingerprintOf({ ...rgb, pixels: rgba, channels: 4 })).toEqual(fingerprintOf(rgb));
  });
});

describe('the colour summary', () => {
  it('is deterministic and finds the colours with their shares', () => {
    // A red square on a blue field (a quarter of it), the field on a white border that is trimmed.
    const image = raster(140, 140, (x, y) => {
      if (x < 10 || x >= 130 || y < 10 || y >= 130) return [255, 255, 255];
      return x >= 40 && x < 100 && y >= 40 && y < 100 ? [255, 0, 0] : [0, 51, 204];
    });
    const first = fingerprintOf(image);
    expect(fingerprintOf(image)).toEqual(first);
    if (first.status !== 'ready') throw new Error(first.status);
    expect(first.colours).toHaveLength(2);
    const [blue, red] = first.colours;
    expect(blue).toMatchObject(oklabOfHex('#0033cc'));
    expect(red).toMatchObject(oklabOfHex('#ff0000'));
    expect(blue!.w).toBe(750);
    expect(red!.w).toBe(250);
  });

  it('leaves the trimmed border colour out of the palette, unless the subject is that colour', () => {
    // A red disc on white: the palette is the disc's (white corners inside the box are background).
    const disc = fingerprintOf(
      raster(200, 200, (x, y) => ((x - 100) ** 2 + (y - 100) ** 2 < 70 ** 2 ? [255, 0, 0] : [255, 255, 255])),
    );
    if (disc.status !== 'ready') throw new Error(disc.status);
    expect(disc.colours.map(({ l, a, b }) => ({ l, a, b }))).toEqual([oklabOfHex('#ff0000')]);
    // A thin dark outline on white: too few samples off white, so white stays in.
    const outline = fingerprintOf(
      raster(200, 200, (x, y) =>
        x === 20 || x === 180 || y === 20 || y === 180 ? [0, 0, 0] : [255, 255, 255],
      ),
    );
    if (outline.status !== 'ready') throw new Error(outline.status);
    expect(outline.colours[0]).toMatchObject({ l: 1000, a: 0, b: 0 });
  });

  it('keeps at most five colours over 2 %, sorted by weight', () => {
    const random = mulberry32(7);
    for (let seed = 0; seed < 5; seed++) {
      const image = raster(200, 150, () => [random() * 255, random() * 255, random() * 255]);
      const result = fingerprintOf(image);
      if (result.status !== 'ready') throw new Error(result.status);
      expect(result.colours.length).toBeLessThanOrEqual(5);
      expect(result.colours.length).toBeGreaterThan(0);
      for (const [i, colour] of result.colours.entries()) {
        expect(colour.w).toBeGreaterThanOrEqual(20);
        if (i > 0) expect(colour.w).toBeLessThanOrEqual(result.colours[i - 1]!.w);
        for (const value of [colour.l, colour.a, colour.b, colour.w])
          expect(Number.isInteger(value)).toBe(true);
      }
    }
  });

  it('converts hex colours to OKLab × 1000', () => {
    expect(oklabOfHex('#ffffff')).toEqual({ l: 1000, a: 0, b: 0 });
    expect(oklabOfHex('#000000')).toEqual({ l: 0, a: 0, b: 0 });
    // Plan §8: #cc0000 is L 0.53, a 0.19, b 0.11; #0033cc is L 0.43, a −0.03, b −0.23, 0.42 apart.
    const red = oklabOfHex('#cc0000');
    const blue = oklabOfHex('#0033CC');
    expect(red.l).toBeCloseTo(530, -1.5);
    expect(red.a).toBeCloseTo(190, -1.5);
    expect(red.b).toBeCloseTo(110, -1.5);
    expect(blue.l).toBeCloseTo(430, -1.5);
    expect(paletteDistance([{ ...red, w: 1000 }], [{ ...blue, w: 1000 }])).toBeCloseTo(0.42, 2);
  });

  it('measures palette distance as the larger of the two weighted one-way distances', () => {
    const a = [
      { l: 500, a: 0, b: 0, w: 800 },
      { l: 900, a: 0, b: 0, w: 200 },
    ];
    expect(paletteDistance(a, a)).toBe(0);
    const b = [{ l: 500, a: 0, b: 0, w: 1000 }];
    // From a: 0.8·0 + 0.2·0.4 = 0.08; from b: 0. A subset does not pass as the same picture.
    expect(paletteDistance(a, b)).toBeCloseTo(0.08, 10);
    expect(paletteDistance(b, a)).toBeCloseTo(0.08, 10);
    expect(paletteDistance(a, [])).toBe(Number.POSITIVE_INFINITY);
  });
});

describe('colour cells', () => {
  it('numbers cells as the plan formula does', () => {
    const formula = (l: number, a: number, b: number) =>
      Math.trunc(Math.min(l, 999) / 100) * 256 +
      Math.trunc((Math.min(Math.max(a, -400), 399) + 400) / 50) * 16 +
      Math.trunc((Math.min(Math.max(b, -400), 399) + 400) / 50);
    const random = mulberry32(8);
    for (let n = 0; n < 2000; n++) {
      const l = Math.floor(random() * 1001);
      const a = Math.floor(random() * 1001) - 500;
      const b = Math.floor(random() * 1001) - 500;
      expect(colourCell(l, a, b)).toBe(formula(l, a, b));
    }
    expect(colourCell(1000, 500, 500)).toBe(2559);
    expect(colourCell(0, -500, -500)).toBe(0);
  });

  it('cellsNear covers every colour within the radius (brute force), and not the whole cube', () => {
    const centres = [
      oklabOfHex('#ff0000'),
      oklabOfHex('#ffffff'),
      oklabOfHex('#000000'),
      oklabOfHex('#0033cc'),
      { l: 500, a: 0, b: 0 },
      { l: 449, a: -351, b: 399 },
    ];
    for (const radius of [0.05, 0.08, 0.12]) {
      const r = Math.round(radius * 1000);
      for (const c of centres) {
        const cells = new Set(cellsNear(c.l, c.a, c.b, radius));
        for (let dl = -r; dl <= r; dl += 2)
          for (let da = -r; da <= r; da += 2)
            for (let db = -r; db <= r; db += 2) {
              if (dl * dl + da * da + db * db > r * r) continue;
              const l = Math.min(Math.max(c.l + dl, 0), 1000);
              if (!cells.has(colourCell(l, c.a + da, c.b + db)))
                throw new Error(
                  `cell of ${l},${c.a + da},${c.b + db} missing near ${JSON.stringify(c)} r ${radius}`,
                );
            }
      }
    }
    const grey = cellsNear(500, 25, 25, 0.08);
    expect(grey.length).toBeLessThan(5 * 5 * 3);
    expect(new Set(grey).size).toBe(grey.length);
    expect(cellsNear(550, 25, 25, 0.05).length).toBeGreaterThanOrEqual(8);
  });
});

describe('bands, probes and the bigint column', () => {
  it('gives 137 distinct band values within 2 bits', () => {
    for (const band of [-32768, -1, 0, 12345, 32767]) {
      const values = probes(band);
      expect(values).toHaveLength(137);
      expect(new Set(values).size).toBe(137);
      expect(values).toContain(band);
      for (const value of values) {
        expect(value).toBeGreaterThanOrEqual(-32768);
        expect(value).toBeLessThanOrEqual(32767);
        expect(
          hammingHex(
            (value + 32768).toString(16).padStart(16, '0'),
            (band + 32768).toString(16).padStart(16, '0'),
          ),
        ).toBeLessThanOrEqual(2);
      }
    }
  });

  it('round-trips hex, signed decimal and bands as PostgreSQL computes them', () => {
    const random = mulberry32(9);
    const hexes = ['0000000000000000', 'ffffffffffffffff', '8000000000000000', '7fffffffffffffff'];
    for (let n = 0; n < 100; n++) hexes.push(randomHex(random));
    for (const hex of hexes) {
      const signed = hashToSigned(hex);
      expect(signedToHash(signed)).toBe(hex);
      expect(signedToHash(BigInt(signed))).toBe(hex);
      // The generated columns: ((hash >> 16i) & 65535) - 32768 on the signed value (arithmetic shift).
      const sql = [0n, 1n, 2n, 3n].map((i) => Number(((BigInt(signed) >> (16n * i)) & 65535n) - 32768n));
      expect(bandsOf(hex)).toEqual(sql);
    }
    expect(hashToSigned('ffffffffffffffff')).toBe('-1');
    expect(hashToSigned('8000000000000000')).toBe('-9223372036854775808');
    expect(hashToSigned('7fffffffffffffff')).toBe('9223372036854775807');
    expect(bandsOf('0001000200030004')).toEqual([4 - 32768, 3 - 32768, 2 - 32768, 1 - 32768]);
  });

  it('finds every hash within 11 bits through one band within 2 (the lookup guarantee)', () => {
    const random = mulberry32(10);
    for (let n = 0; n < 200; n++) {
      const hex = randomHex(random);
      const bits = hexToBits(hex);
      const flips = 1 + Math.floor(random() * 11);
      for (let k = 0; k < flips; k++) {
        const i = Math.floor(random() * 64);
        bits[i] = !bits[i];
      }
      const near = bitsToHex(bits);
      const query = bandsOf(hex);
      const stored = bandsOf(near);
      expect(query.some((band, i) => probes(band).includes(stored[i]!))).toBe(true);
    }
  });
});
