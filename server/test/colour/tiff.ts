/**
 * A minimal baseline TIFF writer for the colour tests: one uncompressed strip of 8-bit RGB or
 * CMYK (Photometric 2 or 5 with InkSet 1) and, when given, the source ICC profile in tag 34675.
 * sharp's own `.tiff()` cannot serve: it compresses (JPEG by default) and `withIccProfile`
 * converts the pixels instead of only labelling them; LittleCMS's tificc reads this file as is.
 */
export interface TiffImage {
  width: number;
  height: number;
  /** 3 = RGB, 4 = CMYK (0 = no ink, as Photoshop's TIFFs and LittleCMS count it). */
  channels: 3 | 4;
  /** Interleaved 8-bit samples, `width × height × channels` bytes. */
  data: Buffer;
  icc?: Buffer;
}

const SHORT = 3;
const LONG = 4;
const RATIONAL = 5;
const UNDEFINED = 7;

interface Entry {
  tag: number;
  type: number;
  count: number;
  /** The value when it fits the entry's 4 bytes, else the bytes written after the IFD. */
  value: number | Buffer;
}

export function writeTiff(image: TiffImage): Buffer {
  const { width, height, channels, data } = image;
  if (data.length !== width * height * channels) throw new Error('pixel data of the wrong length');
  const bits = Buffer.alloc(channels * 2);
  for (let i = 0; i < channels; i++) bits.writeUInt16LE(8, i * 2);
  const resolution = Buffer.alloc(8);
  resolution.writeUInt32LE(72, 0);
  resolution.writeUInt32LE(1, 4);
  const entries: Entry[] = [
    { tag: 256, type: LONG, count: 1, value: width },
    { tag: 257, type: LONG, count: 1, value: height },
    { tag: 258, type: SHORT, count: channels, value: bits },
    { tag: 259, type: SHORT, count: 1, value: 1 }, // no compression
    { tag: 262, type: SHORT, count: 1, value: channels === 4 ? 5 : 2 },
    { tag: 273, type: LONG, count: 1, value: 0 }, // the strip's offset, set below
    { tag: 277, type: SHORT, count: 1, value: channels },
    { tag: 278, type: LONG, count: 1, value: height },
    { tag: 279, type: LONG, count: 1, value: data.length },
    { tag: 282, type: RATIONAL, count: 1, value: resolution },
    { tag: 283, type: RATIONAL, count: 1, value: resolution },
    { tag: 284, type: SHORT, count: 1, value: 1 }, // interleaved
    { tag: 296, type: SHORT, count: 1, value: 2 }, // inches
  ];
  if (channels === 4) entries.push({ tag: 332, type: SHORT, count: 1, value: 1 }); // InkSet CMYK
  if (image.icc) entries.push({ tag: 34675, type: UNDEFINED, count: image.icc.length, value: image.icc });
  const ifdLength = 2 + entries.length * 12 + 4;
  let extraAt = 8 + ifdLength;
  const extras: Buffer[] = [];
  const offsets = new Map<Entry, number>();
  for (const entry of entries) {
    if (!Buffer.isBuffer(entry.value)) continue;
    offsets.set(entry, extraAt);
    const padded = entry.value.length % 2 === 0 ? entry.value : Buffer.concat([entry.value, Buffer.alloc(1)]);
    extras.push(padded);
    extraAt += padded.length;
  }
  const stripAt = extraAt;
  const head = Buffer.alloc(8 + ifdLength);
  head.write('II', 0, 'latin1');
  head.writeUInt16LE(42, 2);
  head.writeUInt32LE(8, 4);
  head.writeUInt16LE(entries.length, 8);
  entries.forEach((entry, i) => {
    const at = 10 + i * 12;
    head.writeUInt16LE(entry.tag, at);
    head.writeUInt16LE(entry.type, at + 2);
    head.writeUInt32LE(entry.count, at + 4);
    if (Buffer.isBuffer(entry.value)) head.writeUInt32LE(offsets.get(entry) as number, at + 8);
    else if (entry.tag === 273) head.writeUInt32LE(stripAt, at + 8);
    else if (entry.type === SHORT) head.writeUInt16LE(entry.value, at + 8);
    else head.writeUInt32LE(entry.value, at + 8);
  });
  head.writeUInt32LE(0, 8 + 2 + entries.length * 12); // no next IFD
  return Buffer.concat([head, ...extras, data]);
}
