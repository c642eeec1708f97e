import type { Readable } from 'node:stream';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadFiles } from '../../test/factories';
import { ADMIN, createTestApp, signIn, type TestApp } from '../../test/harness';
import { createStorage } from '../storage/index';

const SWOP = '/usr/share/color/icc/ghostscript/default_cmyk.icc';
const ADOBE_RGB = '/usr/share/color/argyll/ref/ClayRGB1998.icm';
const BLUE = { r: 48, g: 128, b: 192 };

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A flat 640×480 sheet of sRGB `BLUE`, converted into the profile (or CMYK space) given. */
const sheet = () => sharp({ create: { width: 640, height: 480, channels: 3, background: BLUE } });

/** The centre pixel's 8-bit numbers, read as they are (no profile applied). */
async function centre(image: Buffer): Promise<number[]> {
  const { data, info } = await sharp(image, { ignoreIcc: true })
    .toColourspace('srgb')
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  const at = (Math.floor(info.height / 2) * info.width + Math.floor(info.width / 2)) * info.channels;
  return [...data.subarray(at, at + 3)];
}

const near = (actual: number[], expected: number[], within: number) =>
  actual.every((value, i) => Math.abs(value - (expected[i] as number)) <= within);

// Real queue and sharp; a 640×480 decode takes well under a second, the queue's start the rest.
describe('media job colour management (issue 42 item 4)', { timeout: 120_000 }, () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp({}, { jobs: true });
    token = await signIn(t.app, ADMIN.email, ADMIN.password);
  });
  afterAll(() => t.close());

  async function processed(fileName: string, bytes: Buffer) {
    const [id] = await uploadFiles(t, token, [{ fileName, bytes }]);
    await t.jobs!.mediaDone(id!);
    const row = await t.database.db
      .selectFrom('uploads')
      .selectAll()
      .where('id', '=', id!)
      .executeTakeFirstOrThrow();
    const storage = createStorage(t.config, () => '');
    const thumb = await bytesOf(await storage.read(row.thumb_key!));
    const preview = row.preview_key ? await bytesOf(await storage.read(row.preview_key)) : null;
    return { thumb, preview };
  }

  it('shows an sRGB JPEG as it is: no preview', async () => {
    const { thumb, preview } = await processed('plain.jpg', await sheet().jpeg({ quality: 95 }).toBuffer());
    expect(preview).toBeNull();
    expect(near(await centre(thumb), [48, 128, 192], 3)).toBe(true);
  });

  it.each([
    ['display-p3.jpg', () => sheet().withIccProfile('p3').jpeg({ quality: 95 }).toBuffer(), 3],
    ['adobe-rgb.png', () => sheet().withIccProfile(ADOBE_RGB).png().toBuffer(), 3],
    // Into CMYK and back is two perceptual LUTs (gamut mapping both ways): up to 12 levels apart
    // in red here. How exact the conversion itself is, colour-management.test.ts measures.
    ['swop-cmyk.jpg', () => sheet().withIccProfile(SWOP).jpeg({ quality: 95 }).toBuffer(), 18],
    ['untagged-cmyk.jpg', () => sheet().toColourspace('cmyk').jpeg({ quality: 95 }).toBuffer(), 18],
  ] as const)('gives %s an sRGB preview and thumbnail from its colours', async (fileName, make, within) => {
    const source = await make();
    const { thumb, preview } = await processed(fileName, source);
    expect(preview).not.toBeNull();
    // Untagged sRGB numbers: what a browser assumes of a JPEG without a profile.
    expect((await sharp(preview!).metadata()).icc).toBeUndefined();
    const shown = await centre(preview!);
    expect(near(shown, [BLUE.r, BLUE.g, BLUE.b], within), `${fileName}: ${shown}`).toBe(true);
    expect(near(await centre(thumb), shown, 2)).toBe(true);
    // The source's own numbers are not sRGB: shown as they stand, they would be wrong.
    if (!fileName.includes('cmyk')) expect(near(await centre(source), shown, 3)).toBe(false);
  });

  it('converts a 16-bit tagged PNG like the same numbers at 8 bits (not P3 numbers read as sRGB)', async () => {
    const green = { width: 64, height: 64, channels: 3 as const };
    const deep = new Uint16Array(64 * 64 * 3);
    for (let i = 0; i < 64 * 64; i++) deep[i * 3 + 1] = 200 * 257;
    const untagged = await sharp(deep, { raw: green }).toColourspace('rgb16').png().toBuffer();
    const tagged16 = await sharp(untagged).withIccProfile(ADOBE_RGB).toColourspace('rgb16').png().toBuffer();
    expect((await sharp(tagged16).metadata()).depth).toBe('ushort');
    const tagged8 = await sharp(tagged16).keepIccProfile().toColourspace('srgb').png().toBuffer();
    expect((await sharp(tagged8).metadata()).depth).toBe('uchar');
    const deepThumb = await processed('deep.png', tagged16);
    const flatThumb = await processed('flat.png', tagged8);
    const deepShown = await centre(deepThumb.thumb);
    expect(near(deepShown, await centre(flatThumb.thumb), 2), `${deepShown}`).toBe(true);
    expect(near(await centre(deepThumb.preview!), deepShown, 2)).toBe(true);
  });
});
