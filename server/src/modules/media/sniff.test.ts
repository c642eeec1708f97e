import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { makeJpeg, makePdf, makePsd, makeVideo } from '../../../test/fixtures';
import { ffmpegInput } from '../../jobs/video';
import { decodeImage } from './decode';
import { readImageHeader } from './image-limits';
import { type SniffedContent, sniffContent, sniffFile, UndecodableContentError } from './sniff';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dam-sniff-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const square = () => sharp({ create: { width: 16, height: 12, channels: 3, background: '#3366cc' } });
const sniffed = (bytes: Buffer | string): Pick<SniffedContent, 'format' | 'kind'> => {
  const { format, kind } = sniffContent(Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes));
  return { format, kind };
};

describe('sniffContent: the format from the first bytes, never the name', () => {
  it.each([
    ['jpeg', () => square().jpeg().toBuffer()],
    ['png', () => square().png().toBuffer()],
    ['gif', () => square().gif().toBuffer()],
    ['webp', () => square().webp().toBuffer()],
    ['tiff', () => square().tiff().toBuffer()],
    ['heif', () => square().avif().toBuffer()],
  ] as const)('tells a %s raster, the format sharp reads it as', async (format, make) => {
    const bytes = await make();
    expect(sniffed(bytes)).toEqual({ format, kind: 'raster' });
    expect((await sharp(bytes).metadata()).format).toBe(format);
  });

  it('tells a big-endian TIFF, a PSD, a PDF and a BMP (no decoder: no preview)', async () => {
    expect(sniffed(await square().tiff().toBuffer()).kind).toBe('raster');
    expect(sniffed(Buffer.from([0x4d, 0x4d, 0x00, 0x2a, 0, 0, 0, 8]))).toEqual({
      format: 'tiff',
      kind: 'raster',
    });
    expect(sniffed(await makePsd(32, 24))).toEqual({ format: 'psd', kind: 'psd' });
    expect(sniffed(makePdf())).toEqual({ format: 'pdf', kind: 'document' });
    const bmp = Buffer.alloc(64);
    bmp.write('BM', 0, 'latin1');
    bmp.writeUInt32LE(64, 2);
    expect(sniffed(bmp)).toEqual({ format: 'bmp', kind: 'none' });
  });

  it.each([
    ['mp4', 'mp4', 'mov'],
    ['mov', 'mov', 'mov'],
    ['avi', 'avi', 'avi'],
    ['mkv', 'mkv', 'matroska'],
    ['webm', 'webm', 'matroska'],
  ] as const)('tells a %s video and the one demuxer that may read it', (container, format, demuxer) => {
    expect(sniffContent(makeVideo(container, 1))).toEqual({ format, kind: 'video', demuxer });
  });

  it('tells MPEG program and transport streams, RealMedia, FLV and ASF from their magic numbers', () => {
    const withHead = (head: number[] | string, length = 1024) => {
      const bytes = Buffer.alloc(length);
      (typeof head === 'string' ? Buffer.from(head, 'latin1') : Buffer.from(head)).copy(bytes);
      return bytes;
    };
    expect(sniffContent(withHead([0, 0, 1, 0xba])).demuxer).toBe('mpeg');
    expect(sniffContent(withHead([0, 0, 1, 0xb3])).demuxer).toBe('mpegvideo');
    const ts = withHead([0x47]);
    ts[188] = 0x47;
    ts[376] = 0x47;
    expect(sniffContent(ts).demuxer).toBe('mpegts');
    expect(sniffContent(withHead('.RMF\0\0\0\x12')).demuxer).toBe('rm');
    expect(sniffContent(withHead('FLV\x01\x05')).demuxer).toBe('flv');
    expect(sniffContent(withHead([0x30, 0x26, 0xb2, 0x75, 0x8e, 0x66, 0xcf, 0x11])).demuxer).toBe('asf');
    expect(sniffContent(withHead('\0\0\0\x20moov')).demuxer).toBe('mov');
  });

  it.each([
    ['svg', '<svg xmlns="http://www.w3.org/2000/svg"><image href="other.jpg"/></svg>'],
    ['svg', '\uFEFF<?xml version="1.0"?>\n<!-- 图 -->\n<svg><image href="file:///etc/passwd"/></svg>'],
    ['xml', '<?xml version="1.0"?><x:xmpmeta/>'],
    ['html', '<!DOCTYPE html><html><body><img src="http://127.0.0.1/"></body></html>'],
    ['postscript', '%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 10 10\n'],
    [
      'mvg',
      'push graphic-context\nviewbox 0 0 640 480\nimage over 0,0 0,0 "/etc/passwd"\npop graphic-context\n',
    ],
    ['m3u8', '#EXTM3U\n#EXTINF:1,\n/var/data/objects/2026/01/01/other.mp4\n'],
    ['ffconcat', "ffconcat version 1.0\nfile 'other.mp4'\n"],
    ['text', 'just a note\n'],
    ['text', ''],
  ])('refuses %s content as text-like: no preview', (format, text) => {
    expect(sniffed(text)).toEqual({ format, kind: 'none' });
  });

  it('refuses UTF-16 text (an SVG with a byte-order mark) and compressed SVG', () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<svg></svg>', 'utf16le')]);
    expect(sniffed(utf16).kind).toBe('none');
    expect(sniffed(Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0])).format).toBe('gzip');
    expect(sniffed(Buffer.from([0x00, 0x01, 0x02, 0x03, 0xfe])).format).toBe('unknown');
  });

  it('reads only the first bytes of a file', async () => {
    const file = path.join(dir, 'big.bin');
    fs.writeFileSync(file, Buffer.concat([await square().png().toBuffer(), Buffer.alloc(1024 * 1024, 0x3c)]));
    expect(await sniffFile(file)).toEqual({ format: 'png', kind: 'raster' });
  });
});

describe('decoders are given only what the bytes allow', () => {
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30"><rect width="40" height="30" fill="red"/></svg>';

  it('readImageHeader and decodeImage refuse an SVG named .png before any decoder sees it', async () => {
    const file = path.join(dir, 'x.png');
    fs.writeFileSync(file, svg);
    await expect(readImageHeader(file, 'png')).rejects.toBeInstanceOf(UndecodableContentError);
    await expect(
      decodeImage(file, { format: 'image', background: null, limitInputPixels: 1e6, scratchDir: dir }),
    ).rejects.toBeInstanceOf(UndecodableContentError);
    await expect(readImageHeader(file, 'psd')).rejects.toBeInstanceOf(UndecodableContentError);
  });

  it('a PSD named .jpg is no raster, a PNG named .psd no PSD', async () => {
    const psd = path.join(dir, 'layout.jpg');
    fs.writeFileSync(psd, await makePsd(32, 24));
    await expect(readImageHeader(psd, 'image')).rejects.toBeInstanceOf(UndecodableContentError);
    const png = path.join(dir, 'shot.psd');
    fs.writeFileSync(png, await square().png().toBuffer());
    await expect(readImageHeader(png, 'psd')).rejects.toBeInstanceOf(UndecodableContentError);
  });

  it('a JPEG named .png is read as the JPEG it is', async () => {
    const file = path.join(dir, 'photo.png');
    fs.writeFileSync(file, await makeJpeg(64, 48));
    const header = await readImageHeader(file, 'png');
    expect({ format: header.format, width: header.width, height: header.height }).toEqual({
      format: 'jpeg',
      width: 64,
      height: 48,
    });
    const image = await decodeImage(file, {
      format: 'image',
      background: null,
      limitInputPixels: 1e6,
      scratchDir: dir,
    });
    expect((await image.raw().toBuffer({ resolveWithObject: true })).info.width).toBe(64);
  });

  it('ffmpeg reads a video with its sniffed demuxer only, no protocol but the file, and refuses the rest', () => {
    const args = ffmpegInput('relative/clip.mp4', { format: 'mp4', kind: 'video', demuxer: 'mov' });
    expect(args).toEqual([
      '-protocol_whitelist',
      'file',
      '-format_whitelist',
      'mov',
      '-f',
      'mov',
      '-enable_drefs',
      '0',
      '-i',
      `file:${path.resolve('relative/clip.mp4')}`,
    ]);
    expect(() => ffmpegInput('x.mp4', { format: 'm3u8', kind: 'none' })).toThrow(/not a video/);
  });
});
