import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writePsd } from 'ag-psd';
import sharp from 'sharp';

/** Real files of each format the media pipeline reads, made on the spot (nothing checked in). */

const gradient = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 60, b: 40 } } }).composite([
    {
      input: Buffer.from(
        `<svg width="${width}" height="${height}"><rect x="${width / 4}" y="${height / 4}" width="${width / 2}" height="${height / 2}" fill="#1d6fd8"/></svg>`,
      ),
    },
  ]);

export const makeJpeg = (width = 1600, height = 1200) => gradient(width, height).jpeg().toBuffer();
export const makePng = (width = 800, height = 600) => gradient(width, height).png().toBuffer();
export const makeTiff = (width = 1200, height = 900) => gradient(width, height).tiff().toBuffer();

export async function makePsd(width = 640, height = 480): Promise<Buffer> {
  const { data } = await gradient(width, height).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const psd = writePsd(
    { width, height, imageData: { width, height, data: new Uint8ClampedArray(data) } as never, children: [] },
    { generateThumbnail: false },
  );
  return Buffer.from(psd);
}

/** Fill colours of makePdf's pages, in turn (RGB 0–1): page 1 blue, page 2 red, page 3 green… */
export const PDF_PAGE_COLOURS = [
  [0.11, 0.44, 0.85],
  [0.85, 0.15, 0.15],
  [0.1, 0.7, 0.2],
  [0.95, 0.75, 0.1],
  [0.5, 0.2, 0.7],
] as const;

/**
 * A PDF of `pages` 600×800 pages, each a filled rectangle in PDF_PAGE_COLOURS order, written by
 * hand with a correct cross-reference table.
 */
export function makePdf(pages = 1): Buffer {
  const pageIds = Array.from({ length: pages }, (_, i) => 3 + i * 2);
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages} >>`,
  ];
  for (let i = 0; i < pages; i += 1) {
    const [r, g, b] = PDF_PAGE_COLOURS[i % PDF_PAGE_COLOURS.length] as readonly number[];
    const content = `${r} ${g} ${b} rg 100 300 400 300 re f`;
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 600 800] /Contents ${4 + i * 2} 0 R >>`,
      `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    );
  }
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/** A 3-second 320×240 test-pattern MP4 (needs ffmpeg, installed by scripts/setup-system.sh). */
export function makeMp4(): Buffer {
  return makeVideo('mp4');
}

/** Video codecs per container, as cameras and editors write them (none that every browser plays but MP4's). */
const VIDEO_CODECS: Record<string, string[]> = {
  mp4: ['-c:v', 'libx264', '-c:a', 'aac'],
  mov: ['-c:v', 'libx264', '-c:a', 'pcm_s16le'],
  avi: ['-c:v', 'mpeg4', '-c:a', 'pcm_s16le'],
  mkv: ['-c:v', 'libx264', '-c:a', 'aac'],
  webm: ['-c:v', 'libvpx', '-c:a', 'libvorbis'],
};

/** A `seconds`-long 320×240 test pattern with a tone, in the given container (needs ffmpeg). */
export function makeVideo(format: 'mp4' | 'mov' | 'avi' | 'mkv' | 'webm', seconds = 3): Buffer {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dam-fixture-'));
  const file = path.join(dir, `clip.${format}`);
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    `testsrc=duration=${seconds}:size=320x240:rate=10`,
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=440:duration=${seconds}`,
    '-pix_fmt',
    'yuv420p',
    ...(VIDEO_CODECS[format] as string[]),
    '-shortest',
    file,
  ]);
  const bytes = fs.readFileSync(file);
  fs.rmSync(dir, { recursive: true, force: true });
  return bytes;
}

/** Starts like a JPEG, then garbage: what a broken copy from a camera card looks like. */
export function makeCorruptJpeg(): Buffer {
  return Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.alloc(2000, 0x5a)]);
}

/** A multipart/form-data body as a browser sends it. */
export function multipart(parts: Array<{ name: string; filename?: string; content: Buffer | string }>) {
  const boundary = `----dam${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename ? `; filename="${part.filename}"` : ''}`;
    const type = part.filename ? 'Content-Type: application/octet-stream\r\n' : '';
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`));
    chunks.push(Buffer.isBuffer(part.content) ? part.content : Buffer.from(part.content));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}
