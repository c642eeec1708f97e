import zlib from 'node:zlib';
import { PreviewStatus } from '@dam/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadFiles } from '../../test/factories';
import { makeJpeg, makePng, makePsd, makeTiff } from '../../test/fixtures';
import { ADMIN, createTestApp, signIn, type TestApp } from '../../test/harness';

/** The PNG with its IHDR width and height replaced (and the chunk's CRC made right again). */
function pngClaiming(png: Buffer, width: number, height: number): Buffer {
  const out = Buffer.from(png);
  // Signature (8) + IHDR length (4) + "IHDR" (4), then width and height, big-endian.
  out.writeUInt32BE(width, 16);
  out.writeUInt32BE(height, 20);
  out.writeUInt32BE(zlib.crc32(out.subarray(12, 29)), 29);
  return out;
}

/** Issue 9 item 6: an upload whose image is too large to decode gets no preview, and nothing breaks. */
describe('media pipeline pixel limits', () => {
  describe('with the default limits', () => {
    let t: TestApp;
    let token: string;
    beforeAll(async () => {
      t = await createTestApp({ SESSION_IDLE_HOURS: '720' }, { jobs: true });
      token = await signIn(t.app, ADMIN.email, ADMIN.password);
    });
    afterAll(() => t.close());

    it('does not decode a 20000×20000 PNG: preview failed at once (no retry), pixel size kept', async () => {
      // A PNG whose header says 20000×20000 (400 megapixels, 1.2 GB decoded) over a tiny image's
      // data: decoding it would fail as damaged, so "failed" (refused from the header) tells the
      // two apart, without encoding 400 megapixels in the test. Made here, never checked in.
      const huge = pngClaiming(await makePng(8, 8), 20000, 20000);
      const [id, after] = await uploadFiles(t, token, [
        { fileName: 'huge.png', bytes: huge },
        { fileName: 'after-huge.jpg', bytes: await makeJpeg(600, 400) },
      ]);
      await t.jobs!.mediaDone(id!);
      await t.jobs!.mediaDone(after!);
      const row = await t.database.db
        .selectFrom('uploads')
        .selectAll()
        .where('id', '=', id!)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({
        preview_status: PreviewStatus.failed,
        thumb_key: null,
        preview_key: null,
        width: 20000,
        height: 20000,
      });
      const next = await t.database.db
        .selectFrom('uploads')
        .select('preview_status')
        .where('id', '=', after!)
        .executeTakeFirstOrThrow();
      expect(next.preview_status).toBe(PreviewStatus.ready);
    });
  });

  describe('with MAX_IMAGE_PIXELS lowered to 300,000', () => {
    let t: TestApp;
    let token: string;
    beforeAll(async () => {
      t = await createTestApp({ SESSION_IDLE_HOURS: '720', MAX_IMAGE_PIXELS: '300000' }, { jobs: true });
      token = await signIn(t.app, ADMIN.email, ADMIN.password);
    });
    afterAll(() => t.close());

    it.each([
      ['layout.psd', () => makePsd(640, 480), { width: 640, height: 480 }],
      ['scan.tif', () => makeTiff(700, 500), { width: 700, height: 500 }],
      ['photo.jpg', () => makeJpeg(800, 600), { width: 800, height: 600 }],
    ] as const)(
      'reads only the header of an over-limit %s and marks its preview failed',
      async (fileName, make, size) => {
        const [id] = await uploadFiles(t, token, [{ fileName, bytes: await make() }]);
        await t.jobs!.mediaDone(id!);
        const row = await t.database.db
          .selectFrom('uploads')
          .selectAll()
          .where('id', '=', id!)
          .executeTakeFirstOrThrow();
        expect(row).toMatchObject({ preview_status: PreviewStatus.failed, thumb_key: null, ...size });
      },
    );

    it('still thumbnails what is within the limit', async () => {
      const [id] = await uploadFiles(t, token, [{ fileName: 'small.psd', bytes: await makePsd(500, 400) }]);
      await t.jobs!.mediaDone(id!);
      const row = await t.database.db
        .selectFrom('uploads')
        .selectAll()
        .where('id', '=', id!)
        .executeTakeFirstOrThrow();
      expect(row.preview_status).toBe(PreviewStatus.ready);
    });
  });
});
