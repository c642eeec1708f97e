import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { endpoints } from '@dam/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { resultOf } from '../../../test/call';
import { createFolder, givenUser, uploadFiles } from '../../../test/factories';
import { makeJpeg, makePsd, makeTiff } from '../../../test/fixtures';
import { ADMIN, createDriverApp, post, signIn, type TestApp } from '../../../test/harness';
import { readZip } from '../../../test/zip';
import { type ZipSettled, zipActivity } from './zip';

/** A PNG transparent everywhere but an opaque blue square in the middle. */
const makeTransparentPng = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
    .composite([
      {
        input: {
          create: {
            width: width / 2,
            height: height / 2,
            channels: 4,
            background: { r: 20, g: 60, b: 220, alpha: 1 },
          },
        },
        left: width / 4,
        top: height / 4,
      },
    ])
    .png()
    .toBuffer();

const pixelAt = async (image: Buffer, x: number, y: number) => {
  const { data, info } = await sharp(image).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * 4;
  return { r: data[at]!, g: data[at + 1]!, b: data[at + 2]!, a: data[at + 3]! };
};

for (const driver of ['local', 's3'] as const) {
  describe(`download presets and downloads by article number on the ${driver} driver`, () => {
    let t: TestApp;
    let token: string;
    let folderId: number;
    let files: Record<string, number>;

    const itemOf = async (uploadId: number) =>
      (
        await t.database.db
          .selectFrom('uploads')
          .select('item_id')
          .where('id', '=', uploadId)
          .executeTakeFirstOrThrow()
      ).item_id!;
    const setArtNum = async (folderDataId: number, artNum: string, as = token) => {
      const edited = await post(t.app, '/ske-api/v1_0/file/edit', { folderDataId, artNum }, { token: as });
      expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    };
    const savePreset = async (body: Record<string, unknown>) => {
      const saved = await post(t.app, '/ske-api/v1_0/download-preset/save', body, { token });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      return resultOf(endpoints.saveDownloadPreset, saved.body).id;
    };

    beforeAll(async () => {
      const app = await createDriverApp(driver);
      t = app;
      token = app.token;
      folderId = await createFolder(t, token, 'Campaign');
      const ids = await uploadFiles(
        t,
        token,
        [
          { fileName: 'SHOE1.jpg', bytes: await makeJpeg(1200, 800) },
          { fileName: 'SHOE1.psd', bytes: await makePsd(600, 400) },
          { fileName: 'SHOE1-side.png', bytes: await makeTransparentPng(400, 200) },
          { fileName: 'SHOE2.tif', bytes: await makeTiff(900, 300), path: 'Details' },
          { fileName: 'notes.txt', bytes: Buffer.from('care instructions') },
        ],
        { targetFolderId: folderId },
      );
      files = {
        SHOE1: await itemOf(ids[0]!),
        side: await itemOf(ids[2]!),
        SHOE2: await itemOf(ids[3]!),
        notes: await itemOf(ids[4]!),
      };
      await setArtNum(files.SHOE1!, 'SHOE-1');
      await setArtNum(files.side!, 'SHOE-1');
      await setArtNum(files.notes!, 'SHOE-1');
      await setArtNum(files.SHOE2!, 'SHOE-2');
    });
    afterAll(() => t.close());

    const download = (url: string, body: Record<string, unknown>, as = token, lang = 'en') =>
      t.app.inject({ method: 'POST', url, payload: body, headers: { token: as, lang } });
    const batch = (body: Record<string, unknown>, as = token) =>
      download('/ske-api/v1_0/file/batch-download', body, as);
    const byArtNum = (body: Record<string, unknown>, as = token, lang = 'en') =>
      download('/ske-api/v1_0/file/download-by-art-num', body, as, lang);

    it('converts every image of a selection per the preset: format, longer side, background, names', async () => {
      const presetId = await savePreset({
        name: 'Tmall main image',
        format: 'jpg',
        longSidePx: 500,
        background: '#00ff00',
        fileNameTemplate: '{artNum}_{index}_{width}x{height}.jpg',
      });
      const response = await batch({ folderDataIdList: [folderId], presetId });
      expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
      const zip = await readZip(response.rawPayload);
      expect([...zip.keys()].sort()).toEqual([
        'Campaign/Details/SHOE-2_1_500x167.jpg',
        'Campaign/SHOE-1_1_500x333.jpg',
        'Campaign/SHOE-1_2_500x250.jpg',
        // Not an image: as it is.
        'Campaign/notes.txt',
      ]);
      expect(await sharp(zip.get('Campaign/SHOE-1_1_500x333.jpg')).metadata()).toMatchObject({
        format: 'jpeg',
        width: 500,
        height: 333,
      });
      expect(await sharp(zip.get('Campaign/Details/SHOE-2_1_500x167.jpg')).metadata()).toMatchObject({
        format: 'jpeg',
        width: 500,
        height: 167,
      });
      // The transparent corner of the PNG is filled with the preset's green, its middle stays blue.
      const side = zip.get('Campaign/SHOE-1_2_500x250.jpg')!;
      const corner = await pixelAt(side, 2, 2);
      expect(corner.g).toBeGreaterThan(230);
      expect(corner.r + corner.b).toBeLessThan(30);
      const middle = await pixelAt(side, 250, 125);
      expect(middle.b).toBeGreaterThan(190);
      expect(zip.get('Campaign/notes.txt')!.toString()).toBe('care instructions');
    });

    it('keeps PNG transparency without a background, appends the extension and makes names unique', async () => {
      const keepAlpha = await savePreset({
        name: 'Transparent PNG',
        format: 'png',
        longSidePx: null,
        background: null,
        fileNameTemplate: '{artNum}-{format}',
      });
      const response = await batch({
        downloadFolderDataDTOList: [
          { folderDataId: files.side, fileFormatList: ['png'] },
          { folderDataId: files.SHOE1, fileFormatList: ['psd'] },
        ],
        presetId: keepAlpha,
      });
      const zip = await readZip(response.rawPayload);
      // Both files carry SHOE-1: the second name gets a counter.
      expect([...zip.keys()].sort()).toEqual(['SHOE-1-png (2).png', 'SHOE-1-png.png']);
      const side = zip.get('SHOE-1-png (2).png')!;
      expect(await sharp(side).metadata()).toMatchObject({ format: 'png', width: 400, height: 200 });
      expect((await pixelAt(side, 1, 1)).a).toBe(0);
      // The PSD's composite, converted at its own size.
      expect(await sharp(zip.get('SHOE-1-png.png')).metadata()).toMatchObject({ width: 600, height: 400 });
    });

    it('names a single file by the template and streams it as itself', async () => {
      const presetId = await savePreset({
        name: 'Square thumbs',
        format: 'png',
        longSidePx: 120,
        background: '#ffffff',
        fileNameTemplate: '{name}_{width}.png',
      });
      const response = await batch({
        downloadFolderDataDTOList: [{ folderDataId: files.SHOE2, fileFormatList: ['all'] }],
        presetId,
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-disposition']).toContain("filename*=UTF-8''SHOE2_120.png");
      expect(await sharp(response.rawPayload).metadata()).toMatchObject({
        format: 'png',
        width: 120,
        height: 40,
      });
    });

    it('refuses an unknown preset before a byte is sent', async () => {
      const response = await batch({ folderDataIdList: [folderId], presetId: 987_654 });
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toContain('application/json');
      expect(response.json()).toMatchObject({
        errorCode: 'SEDL_01',
        errorDesc: 'The download preset does not exist or has been deleted',
      });
    });

    it('zips a folder per article number with a list of the numbers that matched nothing', async () => {
      const response = await byArtNum({ artNumList: ['shoe-1, SHOE-2\nSHOE-404  SHOE-1，SHOE-2'] });
      expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
      expect(response.headers['content-type']).toBe('application/zip');
      const zip = await readZip(response.rawPayload);
      expect([...zip.keys()].sort()).toEqual([
        'SHOE-2/SHOE2.tif',
        '_unmatched-article-numbers.txt',
        'shoe-1/SHOE1-side.png',
        'shoe-1/SHOE1.jpg',
        'shoe-1/SHOE1.psd',
        'shoe-1/notes.txt',
      ]);
      expect(zip.get('_unmatched-article-numbers.txt')!.toString()).toBe('SHOE-404\n');
    });

    it('applies formats and a preset to a download by article number', async () => {
      const presetId = await savePreset({
        name: 'JD',
        format: 'jpg',
        longSidePx: 300,
        background: null,
        fileNameTemplate: '{artNum}_{index}.jpg',
      });
      const response = await byArtNum({ artNumList: ['SHOE-1', 'SHOE-2'], formats: ['jpg'], presetId });
      const zip = await readZip(response.rawPayload);
      expect([...zip.keys()].sort()).toEqual([
        'SHOE-1/SHOE-1_1.jpg',
        'SHOE-1/SHOE-1_2.jpg',
        'SHOE-2/SHOE-2_1.jpg',
      ]);
      expect(await sharp(zip.get('SHOE-2/SHOE-2_1.jpg')).metadata()).toMatchObject({
        width: 300,
        height: 100,
      });
      // No background named: JPG flattens onto white.
      const corner = await pixelAt(zip.get('SHOE-1/SHOE-1_2.jpg')!, 1, 1);
      expect(Math.min(corner.r, corner.g, corner.b)).toBeGreaterThan(245);
    });

    it('checks the download permission per file and refuses when nothing is left', async () => {
      // Sees everything, may download only own files (no department: "self and below" is nobody else).
      const member = await givenUser(t.database, {
        scopes: { view: 'all', upload: 'dept', download: 'dept' },
      });
      const memberToken = await signIn(t.app, member.email, member.password);
      const [own] = await uploadFiles(
        t,
        memberToken,
        [{ fileName: 'MINE.jpg', bytes: await makeJpeg(300, 200) }],
        {
          path: '/',
        },
      );
      const mine = await itemOf(own!);
      await setArtNum(mine, 'SHOE-1', memberToken);
      // The member's SHOE-1 file would join the other tests' SHOE-1 downloads: it goes to the bin after.
      onTestFinished(async () => {
        const binned = await post(
          t.app,
          '/ske-api/v1_0/file/batch-del',
          { idList: [mine] },
          { token: memberToken },
        );
        expect(binned.status).toBe(200);
      });
      const response = await byArtNum({ artNumList: ['SHOE-1'] }, memberToken);
      expect(response.statusCode).toBe(200);
      const zip = await readZip(response.rawPayload);
      expect([...zip.keys()].sort()).toEqual(['SHOE-1/MINE.jpg', '_download-problems.txt']);
      expect(zip.get('_download-problems.txt')!.toString()).toContain('SHOE-1/SHOE1: no download permission');

      const refused = await byArtNum({ artNumList: ['SHOE-2'] }, memberToken);
      expect(refused.statusCode).toBe(404);
      expect(refused.headers['content-type']).toContain('application/json');
      expect(refused.json()).toMatchObject({
        errorCode: 'SEDL_02',
        errorDesc: 'No file you may download matches these article numbers',
      });
      const zh = await byArtNum({ artNumList: ['SHOE-2'] }, memberToken, 'zh');
      expect(zh.json().errorDesc).toBe('没有找到与这些货号匹配且您可以下载的文件');

      // Without the download permission a whole selection is refused with SE_502, nothing streamed.
      const viewer = await givenUser(t.database, { scopes: { view: 'all' } });
      const viewerToken = await signIn(t.app, viewer.email, viewer.password);
      const noDownload = await batch({ folderDataIdList: [files.SHOE1], presetId: null }, viewerToken);
      expect(noDownload.statusCode).toBe(403);
      expect(noDownload.json()).toMatchObject({ errorCode: 'SE_502' });
    });

    it('refuses bad input with catalogue codes, sending nothing', async () => {
      for (const [body, status, code] of [
        [{ artNumList: [] }, 400, 'SE_400'],
        [{ artNumList: [' ,  , '] }, 400, 'SE_400'],
        [{ artNumList: [Array.from({ length: 10_001 }, (_, i) => `A${i}`).join(' ')] }, 400, 'SE_400'],
        [{ artNumList: ['x'.repeat(65)] }, 400, 'SE_400'],
        [{ artNumList: ['SHOE-1'], presetId: 0 }, 400, 'SE_400'],
        [{ artNumList: ['SHOE-1'], presetId: 987_654 }, 404, 'SEDL_01'],
        [{ artNumList: ['NOPE-1', 'NOPE-2'] }, 404, 'SEDL_02'],
        [{ artNumList: ['SHOE-1'], extra: true }, 400, 'SE_400'],
      ] as const) {
        const response = await byArtNum(body as unknown as Record<string, unknown>);
        expect(response.statusCode, JSON.stringify(body).slice(0, 80)).toBe(status);
        expect(response.headers['content-type']).toContain('application/json');
        expect(response.json().errorCode).toBe(code);
      }
      const unauthenticated = await t.app.inject({
        method: 'POST',
        url: '/ske-api/v1_0/file/download-by-art-num',
        payload: { artNumList: ['SHOE-1'] },
      });
      expect(unauthenticated.statusCode).toBe(401);
    });

    it('hands out a short link for a long list, valid while the session lives', async () => {
      const other = await signIn(t.app, ADMIN.email, ADMIN.password);
      const list = [...Array.from({ length: 3000 }, (_, i) => `MISSING-${i}`), 'SHOE-2'];
      const ticket = await post(
        t.app,
        '/ske-api/v1_0/file/download-by-art-num-ticket',
        { artNumList: list },
        { token: other },
      );
      expect(ticket.status, JSON.stringify(ticket.body)).toBe(200);
      const url = resultOf(endpoints.downloadByArtNumsTicket, ticket.body).url;
      expect(url.length).toBeLessThan(200);
      const saved = await t.app.inject({ method: 'GET', url });
      expect(saved.statusCode).toBe(200);
      const zip = await readZip(saved.rawPayload);
      expect(zip.get('_unmatched-article-numbers.txt')!.toString().split('\n')).toHaveLength(3001);
      expect(zip.has('SHOE-2/SHOE2.tif')).toBe(true);

      const forged = await t.app.inject({ method: 'GET', url: `${url.slice(0, -2)}xx` });
      expect(forged.statusCode).toBe(400);
      const nothing = await post(
        t.app,
        '/ske-api/v1_0/file/download-by-art-num-ticket',
        { artNumList: ['NOPE'] },
        { token: other },
      );
      expect(nothing.body.errorCode).toBe('SEDL_02');
      await post(t.app, '/security-api/sign-out', undefined, { token: other });
      // Signing out ends the session and its tickets with it.
      const afterSignOut = await t.app.inject({ method: 'GET', url });
      expect(afterSignOut.statusCode).toBe(400);
      expect(afterSignOut.json().errorCode).toBe('SE_400');
    });

    it('stops reading storage and frees the sources when the client leaves mid-zip', async () => {
      const big = Array.from({ length: 16 }, (_, i) => ({
        fileName: `BIG${String(i).padStart(2, '0')}.mp4`,
        bytes: randomBytes(2 * 1024 * 1024),
        path: 'Big',
      }));
      await uploadFiles(t, token, big, { targetFolderId: folderId });
      const bigFolder = await t.database.db
        .selectFrom('items')
        .select('id')
        .where('name', '=', 'Big')
        .where('type', '=', 1)
        .executeTakeFirstOrThrow();

      const settled = new Promise<ZipSettled>((resolve) => {
        const onSettled = (event: ZipSettled) => {
          if (event.total !== 16) return;
          zipActivity.off('settled', onSettled);
          resolve(event);
        };
        zipActivity.on('settled', onSettled);
      });
      const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = t.app.server.address() as AddressInfo;
      expect(address).toContain(String(port));
      const firstBytes = await new Promise<number>((resolve, reject) => {
        const request = http.request(
          {
            host: '127.0.0.1',
            port,
            method: 'POST',
            path: '/ske-api/v1_0/file/batch-download',
            headers: { token, 'content-type': 'application/json' },
          },
          (response) => {
            response.once('data', (chunk: Buffer) => {
              // Leave after the first bytes, as a browser does when the user cancels.
              request.destroy();
              resolve(chunk.length);
            });
          },
        );
        request.on('error', (error) => {
          if (!request.destroyed) reject(error);
        });
        request.end(JSON.stringify({ folderDataIdList: [bigFolder.id] }));
      });
      expect(firstBytes).toBeGreaterThan(0);
      const event = await settled;
      expect(event.aborted).toBe(true);
      expect(event.opened).toBeLessThan(event.total);
      expect(zipActivity.openSources).toBe(0);
      expect(zipActivity.running).toBe(0);
    });
  });
}
