/**
 * A minimal PSD writer for the colour tests: an 8-bit RGB or CMYK composite (no layers), raw or
 * PackBits-compressed, with the ICC profile as image resource 1039 behind another resource (so a
 * reader must walk the resources to find it). ag-psd writes RGB only and no profile.
 */
import type { TiffImage } from './tiff';

export interface TestPsdOptions {
  compression: 0 | 1;
  /** 16: the 8-bit numbers × 257 (RGB, raw compression only). */
  depth?: 8 | 16;
}

/** PackBits: runs of 3+ equal bytes as repeats, the rest as literals of up to 128 bytes. */
function packBits(row: Buffer): Buffer {
  const out: number[] = [];
  let i = 0;
  while (i < row.length) {
    let run = 1;
    while (i + run < row.length && run < 128 && row[i + run] === row[i]) run++;
    if (run >= 3) {
      out.push(257 - run, row[i] as number);
      i += run;
      continue;
    }
    const start = i;
    while (i < row.length && i - start < 128) {
      if (i + 2 < row.length && row[i] === row[i + 1] && row[i] === row[i + 2]) break;
      i++;
    }
    out.push(i - start - 1, ...row.subarray(start, i));
  }
  return Buffer.from(out);
}

function resource(id: number, name: string, data: Buffer): Buffer {
  // A Pascal name padded to an even length, the data padded to an even length.
  const nameField = Buffer.alloc((1 + name.length + 1) & ~1);
  nameField[0] = name.length;
  nameField.write(name, 1, 'latin1');
  const head = Buffer.alloc(6);
  head.write('8BIM', 0, 'latin1');
  head.writeUInt16BE(id, 4);
  const size = Buffer.alloc(4);
  size.writeUInt32BE(data.length, 0);
  return Buffer.concat([head, nameField, size, data, Buffer.alloc(data.length % 2)]);
}

/** The TIFF test image as a PSD: RGB numbers as they are; CMYK stored as 255 − ink, as Photoshop does. */
export function writeTestPsd(image: TiffImage, options: TestPsdOptions): Buffer {
  const { width, height, channels, data } = image;
  const deep = options.depth === 16;
  if (deep && (channels !== 3 || options.compression !== 0)) throw new Error('16 bits: raw RGB only');
  const header = Buffer.alloc(26);
  header.write('8BPS', 0, 'latin1');
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(channels, 12);
  header.writeUInt32BE(height, 14);
  header.writeUInt32BE(width, 18);
  header.writeUInt16BE(deep ? 16 : 8, 22);
  header.writeUInt16BE(channels === 4 ? 4 : 3, 24);
  const resolution = Buffer.alloc(16); // ResolutionInfo: 72 dpi, written first on purpose
  resolution.writeUInt32BE(72 << 16, 0);
  resolution.writeUInt32BE(72 << 16, 8);
  const resources = Buffer.concat([
    resource(1005, 'res', resolution),
    ...(image.icc ? [resource(1039, '', image.icc)] : []),
  ]);
  const resourcesLength = Buffer.alloc(4);
  resourcesLength.writeUInt32BE(resources.length, 0);
  const planes: Buffer[] = [];
  for (let c = 0; c < channels; c++) {
    const plane = Buffer.alloc(width * height * (deep ? 2 : 1));
    for (let i = 0; i < width * height; i++) {
      const value = data[i * channels + c] as number;
      if (deep) plane.writeUInt16BE(value * 257, i * 2);
      else plane[i] = channels === 4 ? 255 - value : value;
    }
    planes.push(plane);
  }
  const compression = Buffer.alloc(2);
  compression.writeUInt16BE(options.compression, 0);
  let pixels: Buffer[];
  if (options.compression === 0) pixels = planes;
  else {
    const rows = planes.flatMap((plane) =>
      Array.from({ length: height }, (_, y) => packBits(plane.subarray(y * width, (y + 1) * width))),
    );
    const counts = Buffer.alloc(rows.length * 2);
    rows.forEach((row, i) => {
      counts.writeUInt16BE(row.length, i * 2);
    });
    pixels = [counts, ...rows];
  }
  return Buffer.concat([
    header,
    Buffer.alloc(4), // no colour mode data
    resourcesLength,
    resources,
    Buffer.alloc(4), // no layers
    compression,
    ...pixels,
  ]);
}
