import type { Readable } from 'node:stream';
import { FingerprintStatusCode, hammingHex, signedToHash } from '@dam/contract';
import { sql } from 'kysely';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadFiles } from '../../test/factories';
import { ADMIN, createTestApp, signIn, type TestApp } from '../../test/harness';
import { createStorage } from '../storage/index';

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * A shoe-like product shot on white: an asymmetric sole and upper, laces and a heel tab. (A
 * symmetric blob has many DCT terms near zero, whose signs any resampling flips.)
 */
function productShot(width: number, height: number, colour = '#cc1111') {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 120 90" width="${width}" height="${height}">
    <rect width="120" height="90" fill="#ffffff"/>
    <path d="M10 62 C 14 40, 40 34, 58 30 L 76 22 C 86 20, 96 26, 100 40 L 110 58 C 112 66, 104 70, 96 70 L 16 70 C 10 70, 8 66, 10 62 Z" fill="${colour}"/>
    <path d="M8 70 L 112 70 L 110 76 L 12 76 Z" fill="#333333"/>
    <path d="M60 34 L 66 44 M 66 30 L 72 40 M 72 27 L 78 36" stroke="#f5f5f5" stroke-width="2.5"/>
    <circle cx="96" cy="34" r="5" fill="#222222"/>
    <path d="M24 58 Q 50 46 86 56" stroke="#ffd700" stroke-width="3" fill="none"/>
  </svg>`;
  return sharp(Buffer.from(svg));
}

describe('fingerprints made by the media job (issue 17)', { timeout: 120_000 }, () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp({ SESSION_IDLE_HOURS: '720' }, { jobs: true });
    token = await signIn(t.app, ADMIN.email, ADMIN.password);
  });
  afterAll(() => t.close());

  async function fingerprintOf(uploadId: number) {
    const row = await t.database.db
      .selectFrom('media_fingerprints')
      .select(['status', 'reason', sql<string | null>`hash::text`.as('hash')])
      .where('upload_id', '=', uploadId)
      .executeTakeFirst();
    const colours = await t.database.db
      .selectFrom('media_colours')
      .selectAll()
      .where('upload_id', '=', uploadId)
      .orderBy('slot')
      .execute();
    return { row, colours };
  }

  async function uploadAndWait(fileName: string, bytes: Buffer): Promise<number> {
    const [id] = await uploadFiles(t, token, [{ fileName, bytes }]);
    await t.jobs!.mediaDone(id!);
    return id!;
  }

  it('hashes an image and its half-size copy alike, with the red among its colours, and copies them to the item', async () => {
    const original = await uploadAndWait('shoe-red.jpg', await productShot(1200, 900).jpeg().toBuffer());
    const copy = await uploadAndWait(
      'shoe-red-small.jpg',
      await productShot(1200, 900).resize(600).jpeg({ quality: 60 }).toBuffer(),
    );
    const a = await fingerprintOf(original);
    const b = await fingerprintOf(copy);
    expect(a.row?.status).toBe(FingerprintStatusCode.ready);
    expect(b.row?.status).toBe(FingerprintStatusCode.ready);
    expect(hammingHex(signedToHash(a.row!.hash!), signedToHash(b.row!.hash!))).toBeLessThanOrEqual(4);
    // OKLab of #cc1111 is about L 0.54, a 0.20, b 0.10: a strongly positive a is red.
    expect(a.colours.some((c) => c.a > 150 && c.weight >= 100)).toBe(true);
    const scene = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="900">
      <rect width="1200" height="900" fill="#2a6f3a"/><circle cx="300" cy="250" r="180" fill="#f0e68c"/>
      <rect x="650" y="420" width="420" height="300" fill="#1d3f8a"/><path d="M0 900 L 600 500 L 1200 900 Z" fill="#553311"/></svg>`;
    const unrelated = await uploadAndWait('landscape.jpg', await sharp(Buffer.from(scene)).jpeg().toBuffer());
    const c = await fingerprintOf(unrelated);
    expect(hammingHex(signedToHash(a.row!.hash!), signedToHash(c.row!.hash!))).toBeGreaterThan(12);
    const upload = await t.database.db
      .selectFrom('uploads')
      .select('item_id')
      .where('id', '=', original)
      .executeTakeFirstOrThrow();
    const itemColours = await t.database.db
      .selectFrom('item_colours')
      .select(['l', 'a', 'b', 'weight'])
      .where('item_id', '=', upload.item_id!)
      .orderBy('slot')
      .execute();
    expect(itemColours).toEqual(
      a.colours.map(({ l, a: ca, b: cb, weight }) => ({ l, a: ca, b: cb, weight })),
    );
  });

  it('flattens a transparent PNG on white for its thumbnail and hashes it like the same picture on white', async () => {
    const transparent = await productShot(800, 600)
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true })
      .then(({ data, info }) => {
        // The white background becomes fully transparent.
        for (let i = 0; i < data.length; i += 4) {
          if (data[i]! > 240 && data[i + 1]! > 240 && data[i + 2]! > 240) data[i + 3] = 0;
        }
        return sharp(data, { raw: info }).png().toBuffer();
      });
    const id = await uploadAndWait('cut-out.png', transparent);
    const onWhite = await uploadAndWait('on-white.png', await productShot(800, 600).png().toBuffer());
    const row = await t.database.db
      .selectFrom('uploads')
      .select('thumb_key')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const storage = createStorage(t.config, () => '');
    const thumb = await sharp(await bytesOf(await storage.read(row.thumb_key!)))
      .raw()
      .toBuffer({ resolveWithObject: true });
    // The corner is white, not the black JPEG makes of transparency.
    expect(Math.min(thumb.data[0]!, thumb.data[1]!, thumb.data[2]!)).toBeGreaterThan(240);
    const a = await fingerprintOf(id);
    const b = await fingerprintOf(onWhite);
    expect(hammingHex(signedToHash(a.row!.hash!), signedToHash(b.row!.hash!))).toBeLessThanOrEqual(2);
  });

  it('says why a file is not compared: too small, blank, animated, no raster preview', async () => {
    const tiny = await uploadAndWait('icon.png', await productShot(20, 20).png().toBuffer());
    const blank = await uploadAndWait(
      'white.jpg',
      await sharp({ create: { width: 800, height: 600, channels: 3, background: '#ffffff' } })
        .jpeg()
        .toBuffer(),
    );
    const frame = (colour: string) =>
      sharp({ create: { width: 200, height: 200, channels: 4, background: colour } })
        .raw()
        .toBuffer();
    const frames = Buffer.concat([await frame('#ff0000'), await frame('#0000ff')]);
    const gif = await sharp(frames, { raw: { width: 200, height: 400, channels: 4, pageHeight: 200 } })
      .gif({ loop: 0, delay: [100, 100] })
      .toBuffer();
    const animated = await uploadAndWait('spinner.gif', gif);
    const document = await uploadAndWait('notes.docx', Buffer.from('not really a document'));
    expect((await fingerprintOf(tiny)).row?.status).toBe(FingerprintStatusCode.tooSmall);
    expect((await fingerprintOf(blank)).row?.status).toBe(FingerprintStatusCode.blank);
    expect((await fingerprintOf(animated)).row?.status).toBe(FingerprintStatusCode.animated);
    expect((await fingerprintOf(document)).row?.status).toBe(FingerprintStatusCode.none);
    for (const id of [tiny, blank, animated, document]) {
      const { row, colours } = await fingerprintOf(id);
      expect(row?.hash).toBeNull();
      expect(colours).toEqual([]);
    }
  });
});
