import type { Readable } from 'node:stream';
import { endpoints } from '@dam/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../test/call';
import { givenProcessedFile, uniqueName } from '../../test/factories';
import { makePdf, PDF_PAGE_COLOURS } from '../../test/fixtures';
import { createDriverApp, get, post, type TestApp } from '../../test/harness';
import { pageKeyOf } from '../storage/document-pages';
import { createStorage } from '../storage/index';
import { PAGE_SIDE } from './pages';

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

for (const driver of ['local', 's3'] as const)
  describe(`PDF pages for the viewer on the ${driver} driver (real queue, pdfinfo, pdftoppm)`, () => {
    let t: TestApp;
    let token: string;
    beforeAll(async () => {
      const app = await createDriverApp(driver, { jobs: true });
      t = app;
      token = app.token;
    });
    afterAll(() => t.close());

    const uploadPdf = (pages: number) =>
      givenProcessedFile(t, token, { fileName: `${uniqueName('catalogue')}.pdf`, bytes: makePdf(pages) });

    it('gives every page as an image the viewer can page through, and the page count', async () => {
      const { itemId, upload } = await uploadPdf(5);
      const detail = await call(t.app, endpoints.fileDetail, { token, query: { id: itemId } });
      expect(detail.pageCount).toBe(5);
      expect(detail.pageUrls).toHaveLength(5);
      // Page 3 is page 3: green where pages 1 and 2 are blue and red.
      const page3 = await bytesOf(
        await createStorage(t.config, () => '').read(pageKeyOf(upload.storage_key, 3)),
      );
      if (driver === 'local') {
        // The URL the viewer gets serves it (S3's presigned URLs are checked in media-links.test.ts).
        const served = await t.app.inject({ method: 'GET', url: detail.pageUrls[2] as string });
        expect(served.headers['content-type']).toBe('image/jpeg');
        expect(served.rawPayload.equals(page3)).toBe(true);
      }
      const { data, info } = await sharp(page3).raw().toBuffer({ resolveWithObject: true });
      expect(Math.max(info.width, info.height)).toBe(PAGE_SIDE);
      const centre = (Math.floor(info.height / 2) * info.width + Math.floor(info.width / 2)) * info.channels;
      const [r, g, b] = PDF_PAGE_COLOURS[2].map((c) => Math.round(c * 255));
      expect(Math.abs((data[centre] as number) - (r as number))).toBeLessThan(20);
      expect(Math.abs((data[centre + 1] as number) - (g as number))).toBeLessThan(20);
      expect(Math.abs((data[centre + 2] as number) - (b as number))).toBeLessThan(20);
    });

    it('deletes the page images with the file', async () => {
      const { itemId, upload } = await uploadPdf(3);
      const storage = createStorage(t.config, () => '');
      const keys = [1, 2, 3].map((page) => pageKeyOf(upload.storage_key, page));
      for (const key of keys) expect(await storage.stat(key)).not.toBeNull();
      expect(
        (await post(t.app, '/ske-api/v1_0/file/batch-del', { folderIdList: [itemId] }, { token })).status,
      ).toBe(200);
      expect((await get(t.app, `/ske-api/v1_0/recycle/batch-del?ids=${itemId}`, { token })).status).toBe(200);
      for (const key of keys) await t.jobs!.objectDeletionDone(key);
      for (const key of keys) expect(await storage.stat(key)).toBeNull();
    });
  });
