import { endpoints } from '@dam/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resultOf } from '../../../test/call';
import { expectOriginalWithMarks } from '../../../test/embedded';
import { createFolder, givenFile, givenFolder, givenUser, uploadFiles } from '../../../test/factories';
import { makeJpeg, makePng, makePsd, makeTiff } from '../../../test/fixtures';
import { ADMIN, createDriverApp, post, signIn, type TestApp } from '../../../test/harness';
import { readZip } from '../../../test/zip';
import { createStorage } from '../../storage/index';

for (const driver of ['local', 's3'] as const) {
  describe(`batch download on the ${driver} driver`, () => {
    let t: TestApp;
    let token: string;
    let folderId: number;
    let files: Record<string, number>;
    let bytes: Record<string, Buffer>;

    beforeAll(async () => {
      const app = await createDriverApp(driver);
      t = app;
      token = app.token;
      folderId = await createFolder(t, token, 'Campaign');
      bytes = {
        jpg: await makeJpeg(1200, 800),
        psd: await makePsd(600, 400),
        tif: await makeTiff(900, 300),
        png: await makePng(400, 400),
        txt: Buffer.from('care instructions'),
      };
      const ids = await uploadFiles(
        t,
        token,
        [
          { fileName: 'SHOE1.jpg', bytes: bytes.jpg! },
          { fileName: 'SHOE1.psd', bytes: bytes.psd! },
          { fileName: 'SHOE2.tif', bytes: bytes.tif!, path: 'Details' },
          { fileName: 'LABEL.png', bytes: bytes.png!, path: 'Details/Labels' },
          { fileName: 'notes.txt', bytes: bytes.txt! },
        ],
        { targetFolderId: folderId },
      );
      const itemOf = async (uploadId: number) =>
        (
          await t.database.db
            .selectFrom('uploads')
            .select('item_id')
            .where('id', '=', uploadId)
            .executeTakeFirstOrThrow()
        ).item_id!;
      files = { SHOE1: await itemOf(ids[0]!), SHOE2: await itemOf(ids[2]!), notes: await itemOf(ids[4]!) };
    });
    afterAll(() => t.close());

    const download = (body: Record<string, unknown>, as = token) =>
      t.app.inject({
        method: 'POST',
        url: '/ske-api/v1_0/file/batch-download',
        payload: body,
        headers: { token: as, lang: 'en' },
      });

    it('streams one file as itself', async () => {
      const response = await download({
        downloadFolderDataDTOList: [{ folderDataId: files.notes, fileFormatList: ['txt'] }],
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-disposition']).toContain("filename*=UTF-8''notes.txt");
      expect(response.rawPayload.equals(bytes.txt!)).toBe(true);
    });

    it('zips a folder recursively with its paths and every format', async () => {
      const response = await download({ folderDataIdList: [folderId] });
      expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
      expect(response.headers['content-type']).toBe('application/zip');
      const zip = await readZip(response.rawPayload);
      expect([...zip.keys()].sort()).toEqual([
        'Campaign/Details/Labels/LABEL.png',
        'Campaign/Details/SHOE2.tif',
        'Campaign/SHOE1.jpg',
        'Campaign/SHOE1.psd',
        'Campaign/notes.txt',
      ]);
      // Originals carry the platform's metadata (issue 42) over the same pixels.
      await expectOriginalWithMarks(zip.get('Campaign/SHOE1.psd'), bytes.psd!, 'psd', files.SHOE1);
      await expectOriginalWithMarks(zip.get('Campaign/Details/SHOE2.tif'), bytes.tif!, 'tif', files.SHOE2);
    });

    it('converts to JPG/PNG from PSD and TIF and scales the longer side to equalScalingPx', async () => {
      const response = await download({
        downloadFolderDataDTOList: [
          { folderDataId: files.SHOE1, fileFormatList: ['png'] },
          { folderDataId: files.SHOE2, fileFormatList: ['jpg', 'png'] },
        ],
        equalScalingPx: 300,
      });
      const zip = await readZip(response.rawPayload);
      expect([...zip.keys()].sort()).toEqual(['SHOE1.png', 'SHOE2.jpg', 'SHOE2.png']);
      const psdAsPng = await sharp(zip.get('SHOE1.png')).metadata();
      expect(psdAsPng).toMatchObject({ format: 'png', width: 300, height: 200 });
      const tifAsJpg = await sharp(zip.get('SHOE2.jpg')).metadata();
      expect(tifAsJpg).toMatchObject({ format: 'jpeg', width: 300, height: 100 });
    });

    it('picks only the asked formats of a folder’s files (JPG and PNG by default in the dialog)', async () => {
      const response = await download({
        downloadFolderDataDTOList: [{ folderDataId: folderId, fileFormatList: ['jpg'] }],
      });
      const zip = await readZip(response.rawPayload);
      // SHOE1 has a JPG; SHOE2's TIF and LABEL's PNG convert; the text file has no image to convert.
      expect([...zip.keys()].sort()).toEqual([
        'Campaign/Details/Labels/LABEL.jpg',
        'Campaign/Details/SHOE2.jpg',
        'Campaign/SHOE1.jpg',
      ]);
    });

    it('gives each image of a folder once with the dialog’s default JPG and PNG, not a copy per box', async () => {
      const response = await download({
        downloadFolderDataDTOList: [{ folderDataId: folderId, fileFormatList: ['jpg', 'png'] }],
      });
      const zip = await readZip(response.rawPayload);
      // SHOE1 and LABEL go in their own format; SHOE2 has only a TIF: one JPG is made of it.
      expect([...zip.keys()].sort()).toEqual([
        'Campaign/Details/Labels/LABEL.png',
        'Campaign/Details/SHOE2.jpg',
        'Campaign/SHOE1.jpg',
      ]);
    });

    it('counts one download per file', async () => {
      const before = await t.database.db
        .selectFrom('items')
        .select('download_count')
        .where('id', '=', files.SHOE2!)
        .executeTakeFirstOrThrow();
      await download({ folderDataIdList: [files.SHOE2] });
      const after = await t.database.db
        .selectFrom('items')
        .select('download_count')
        .where('id', '=', files.SHOE2!)
        .executeTakeFirstOrThrow();
      expect(after.download_count).toBe(before.download_count + 1);
    });

    it('names a source missing from storage in the zip instead of truncating it', async () => {
      // A file of its own whose stored object goes missing (the other tests need theirs).
      const lost = await givenFile(t, token, {
        fileName: 'SHOE2.tif',
        bytes: bytes.tif!,
        folderId: (await givenFolder(t, token)).id,
      });
      const upload = await t.database.db
        .selectFrom('uploads')
        .select('storage_key')
        .where('item_id', '=', lost.id)
        .executeTakeFirstOrThrow();
      await createStorage(t.config, () => '').delete(upload.storage_key);
      const response = await download({ folderDataIdList: [files.SHOE1, lost.id] });
      expect(response.statusCode).toBe(200);
      const zip = await readZip(response.rawPayload);
      await expectOriginalWithMarks(zip.get('SHOE1.jpg'), bytes.jpg!, 'jpg', files.SHOE1);
      expect(zip.get('_download-problems.txt')!.toString()).toContain('SHOE2.tif');
    });

    it('hands out a short link the browser can save without the token header, valid while the session lives', async () => {
      const downloadCount = async () =>
        (
          await t.database.db
            .selectFrom('items')
            .select('download_count')
            .where('id', '=', Number(files.SHOE1))
            .executeTakeFirstOrThrow()
        ).download_count;
      const before = await downloadCount();
      const ticket = await post(
        t.app,
        '/ske-api/v1_0/file/download-ticket',
        { folderDataIdList: [files.SHOE1] },
        { token },
      );
      expect(ticket.status).toBe(200);
      const url = resultOf(endpoints.downloadTicket, ticket.body).url;
      const saved = await t.app.inject({ method: 'GET', url });
      expect(saved.statusCode).toBe(200);
      expect([...(await readZip(saved.rawPayload)).keys()].sort()).toEqual(['SHOE1.jpg', 'SHOE1.psd']);
      // The plan is checked and kept when the link is made, counted once when it is used.
      expect(await downloadCount()).toBe(before + 1);
      // The request stays on the server: a whole selection gives a link as short as one file's.
      const everything = await post(
        t.app,
        '/ske-api/v1_0/file/download-ticket',
        {
          folderDataIdList: [...Object.values(files), folderId],
          downloadFolderDataDTOList: Object.values(files).map((folderDataId) => ({
            folderDataId,
            fileFormatList: ['jpg', 'png', 'psd'],
          })),
          equalScalingPx: 800,
        },
        { token },
      );
      expect(resultOf(endpoints.downloadTicket, everything.body).url).toHaveLength(url.length);
      const guessed = await t.app.inject({
        method: 'GET',
        url: url.replace(/ticket=(.)/, (_m, c: string) => `ticket=${c === 'e' ? 'f' : 'e'}`),
      });
      expect(guessed.statusCode).toBe(400);
      const other = await signIn(t.app, ADMIN.email, ADMIN.password);
      const second = await post(
        t.app,
        '/ske-api/v1_0/file/download-ticket',
        { folderDataIdList: [files.SHOE1] },
        { token: other },
      );
      await post(t.app, '/security-api/sign-out', undefined, { token: other });
      // Signing out ends the session and its tickets with it.
      const afterSignOut = await t.app.inject({
        method: 'GET',
        url: resultOf(endpoints.downloadTicket, second.body).url,
      });
      expect(afterSignOut.statusCode).toBe(400);
    });

    it('refuses without the download permission, and bad input, sending nothing', async () => {
      const viewer = await givenUser(t.database, { scopes: { view: 'all' } });
      const viewerToken = await signIn(t.app, viewer.email, viewer.password);
      const refused = await download({ folderDataIdList: [files.SHOE1] }, viewerToken);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ errorCode: 'SE_502' });
      for (const [body, status] of [
        [{ folderDataIdList: [files.SHOE1], equalScalingPx: 0 }, 400],
        [{ folderDataIdList: [files.SHOE1], equalScalingPx: 1.5 }, 400],
        [{ folderDataIdList: [files.SHOE1], equalScalingPx: 1_000_000 }, 400],
        [{ folderDataIdList: [] }, 400],
        [{ folderDataIdList: [999999] }, 404],
      ] as const) {
        const response = await download(body as Record<string, unknown>);
        expect(response.statusCode, JSON.stringify(body)).toBe(status);
        expect(response.headers['content-type']).toContain('application/json');
      }
    });
  });
}
