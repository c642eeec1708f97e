import { randomBytes } from 'node:crypto';
import {
  endpoints,
  OPEN_API_PREFIX,
  type OpenDownloadUrlResult,
  type OpenUploadResult,
  UNMATCHED_ART_NUMS_FILE,
} from '@dam/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EVERY_SCOPE,
  givenFolder,
  givenUser,
  signInAdmin,
  uniqueName,
  uploadFiles,
} from '../../../../test/factories';
import { makeJpeg, makePng } from '../../../../test/fixtures';
import { createTestApp, s3Env, startS3Server, type TestApp } from '../../../../test/harness';
import { createTestApiAccess, openCall, type TestApiAccess } from '../../../../test/open-client';
import { readZip } from '../../../../test/zip';

/**
 * The open API's transfers against a real database and a real store: download links planned by
 * the signed-in download engine (conversion, zips, permissions) and fetched unsigned, and the
 * multipart upload entry (create → PUT parts → complete) on the local driver and on S3.
 */

const LINK = `${OPEN_API_PREFIX}/download?ticket=`;
const TRANSFER_CALLS = ['assets.downloadUrl', 'uploads'] as const;

/** The path and query of a link (the test app answers them whatever origin the link names). */
const targetOf = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};

describe('open API download links (local driver)', () => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await createTestApp({ LOGIN_RATE_LIMIT: '1000', SESSION_IDLE_HOURS: '720' });
    token = await signInAdmin(t);
  });
  afterAll(() => t.close());

  /** Files uploaded by the administrator into a folder of their own, with article numbers. */
  const givenAssets = async (
    files: Array<{ fileName: string; bytes: Buffer; artNum?: string }>,
  ): Promise<{ folderId: number; items: number[] }> => {
    const folder = await givenFolder(t, token);
    const uploads = await uploadFiles(t, token, files, { targetFolderId: folder.id });
    const items = await Promise.all(
      uploads.map(
        async (id) =>
          (
            await t.database.db
              .selectFrom('uploads')
              .select('item_id')
              .where('id', '=', id)
              .executeTakeFirstOrThrow()
          ).item_id as number,
      ),
    );
    return { folderId: folder.id, items };
  };
  const downloadUrl = (access: TestApiAccess, body: Record<string, unknown>) =>
    openCall<OpenDownloadUrlResult>(t, access, 'POST', `${OPEN_API_PREFIX}/assets/download-url`, body);
  const fetchLink = (url: string) => t.app.inject({ method: 'GET', url: targetOf(url) });
  const downloadCount = async (itemId: number) =>
    (
      await t.database.db
        .selectFrom('items')
        .select('download_count')
        .where('id', '=', itemId)
        .executeTakeFirstOrThrow()
    ).download_count;
  /** The entries made through a record (item ids as numbers: PostgreSQL answers bigint[] as text). */
  const logsOf = async (access: TestApiAccess) =>
    (
      await t.database.db
        .selectFrom('operation_logs')
        .select(['operator_code', 'operator_id', 'operator_name', 'item_ids', 'details'])
        .where('api_access_id', '=', access.accessId)
        .orderBy('id')
        .execute()
    ).map((entry) => ({ ...entry, item_ids: entry.item_ids.map(Number) }));

  it('converts an article number’s image to JPG at 800 px: the link works unsigned, counts and logs', async () => {
    const artNum = uniqueName('AB1234');
    const missing = uniqueName('NOPE');
    const { items } = await givenAssets([
      { fileName: `${artNum}.png`, bytes: await makePng(1600, 1200), artNum },
    ]);
    const itemId = items[0] as number;
    const access = await createTestApiAccess(t, { calls: TRANSFER_CALLS });
    const answer = await downloadUrl(access, {
      artNums: [artNum, missing],
      output: { format: 'jpg', longSidePx: 800 },
      mode: 'files',
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const { links, fileCount, unmatched } = answer.body.result;
    expect(fileCount).toBe(1);
    expect(unmatched).toEqual([missing]);
    expect(links).toHaveLength(1);
    const link = links[0]!;
    // Without PUBLIC_URL, links start at the origin the caller reached.
    expect(link.url).toMatch(/^http:\/\/localhost(:80)?\/open\/v1\/download\?ticket=[\w-]{43}$/);
    expect(link).toMatchObject({ assetId: itemId, format: 'jpg', fileName: `${artNum}.jpg` });
    expect(new Date(link.expiresAt).getTime()).toBe(t.clock.now().getTime() + 3600_000);
    // Planning does not count a download; fetching the link does, once.
    const before = await downloadCount(itemId);

    const fetched = await fetchLink(link.url);
    expect(fetched.statusCode, fetched.body.slice(0, 300)).toBe(200);
    expect(fetched.headers['content-type']).toBe('image/jpeg');
    expect(String(fetched.headers['content-disposition'])).toContain(`${artNum}.jpg`);
    const image = await sharp(fetched.rawPayload).metadata();
    expect(image).toMatchObject({ format: 'jpeg', width: 800, height: 600 });
    expect(await downloadCount(itemId)).toBe(before + 1);

    // The link issued (OPEN02) and the download (FILE09), both naming the record as the operator.
    const logs = await logsOf(access);
    expect(logs.map((l) => l.operator_code)).toEqual(expect.arrayContaining(['OPEN02', 'FILE09']));
    for (const code of ['OPEN02', 'FILE09']) {
      const entry = logs.find((l) => l.operator_code === code)!;
      expect(entry).toMatchObject({
        operator_id: access.userId,
        operator_name: `API · ${access.name}`,
        item_ids: [itemId],
      });
    }
    const issued = logs.find((l) => l.operator_code === 'OPEN02')!;
    expect(issued.details).toMatchObject({ mode: 'files', links: 1, fileCount: 1 });
  });

  it('gives one link per file in files mode, each the file’s own bytes', async () => {
    const files = [
      { fileName: `${uniqueName('A')}.jpg`, bytes: await makeJpeg(300, 200) },
      { fileName: `${uniqueName('B')}.png`, bytes: await makePng(200, 100) },
      { fileName: `${uniqueName('C')}.txt`, bytes: Buffer.from('care instructions') },
    ];
    const { items } = await givenAssets(files);
    const access = await createTestApiAccess(t, { calls: TRANSFER_CALLS });
    const answer = await downloadUrl(access, { assetIds: items, mode: 'files', expiresInSeconds: 600 });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.result.fileCount).toBe(3);
    const links = answer.body.result.links;
    expect(links.map((l) => l.assetId).sort()).toEqual([...items].sort());
    expect(new Set(links.map((l) => l.url)).size).toBe(3);
    for (const [index, file] of files.entries()) {
      const link = links.find((l) => l.assetId === items[index])!;
      expect(link.fileName).toBe(file.fileName);
      expect(link.format).toBe(file.fileName.split('.').pop());
      const fetched = await fetchLink(link.url);
      expect(fetched.statusCode).toBe(200);
      // As stored: no output asked for.
      expect(fetched.rawPayload.equals(file.bytes)).toBe(true);
    }
  });

  it('gives one zip in zip mode: a folder per article number, converted, the unmatched named inside', async () => {
    const first = uniqueName('SHOE');
    const second = uniqueName('BOOT');
    const missing = uniqueName('GONE');
    await givenAssets([
      { fileName: `${first}.jpg`, bytes: await makeJpeg(900, 600), artNum: first },
      { fileName: `${second}.png`, bytes: await makePng(400, 800), artNum: second },
    ]);
    const access = await createTestApiAccess(t, { calls: TRANSFER_CALLS });
    const answer = await downloadUrl(access, {
      // Repeats (in any case) are asked once.
      artNums: [first, second, missing, first.toLowerCase()],
      output: { format: 'png', longSidePx: 300 },
      mode: 'zip',
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const { links, fileCount, unmatched } = answer.body.result;
    expect(fileCount).toBe(2);
    expect(unmatched).toEqual([missing]);
    expect(links).toHaveLength(1);
    expect(links[0]).toMatchObject({ assetId: null, format: 'zip' });
    expect(links[0]!.fileName).toMatch(/^download-\d{14}\.zip$/);

    const fetched = await fetchLink(links[0]!.url);
    expect(fetched.statusCode, fetched.body.slice(0, 300)).toBe(200);
    expect(fetched.headers['content-type']).toBe('application/zip');
    expect(String(fetched.headers['content-disposition'])).toContain(links[0]!.fileName);
    const zip = await readZip(fetched.rawPayload);
    expect([...zip.keys()].sort()).toEqual(
      [`${first}/${first}.png`, `${second}/${second}.png`, UNMATCHED_ART_NUMS_FILE].sort(),
    );
    expect(await sharp(zip.get(`${first}/${first}.png`)).metadata()).toMatchObject({
      format: 'png',
      width: 300,
      height: 200,
    });
    expect(await sharp(zip.get(`${second}/${second}.png`)).metadata()).toMatchObject({
      format: 'png',
      width: 150,
      height: 300,
    });
    expect(zip.get(UNMATCHED_ART_NUMS_FILE)?.toString('utf8')).toBe(`${missing}\n`);
  });

  it('uses a saved download preset by id, and refuses an unknown one (SEDL_01)', async () => {
    const artNum = uniqueName('PRE');
    await givenAssets([{ fileName: `${artNum}.jpg`, bytes: await makeJpeg(1000, 500), artNum }]);
    const saved = await t.app.inject({
      method: 'POST',
      url: endpoints.saveDownloadPreset.path,
      headers: { token },
      payload: {
        name: uniqueName('Preset'),
        format: 'png',
        longSidePx: 200,
        background: null,
        fileNameTemplate: '{artNum}_{index}_{width}x{height}',
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const presetId = saved.json().result.id as number;
    const access = await createTestApiAccess(t, { calls: TRANSFER_CALLS });
    const answer = await downloadUrl(access, { artNums: [artNum], presetId, mode: 'files' });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    // The answer names the file as planned: its pixel size is known once the media job has read it.
    expect(answer.body.result.links[0]).toMatchObject({ format: 'png' });
    expect(answer.body.result.links[0]!.fileName).toMatch(new RegExp(`^${artNum}_1_\\d+x\\d+\\.png$`));
    const fetched = await fetchLink(answer.body.result.links[0]!.url);
    // The bytes are named exactly, from the decoded image.
    expect(String(fetched.headers['content-disposition'])).toContain(`${artNum}_1_200x100.png`);
    expect(await sharp(fetched.rawPayload).metadata()).toMatchObject({
      format: 'png',
      width: 200,
      height: 100,
    });

    const unknown = await downloadUrl(access, { artNums: [artNum], presetId: 999_999, mode: 'files' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.errorCode).toBe('SEDL_01');
  });

  it('works without a signature while the record lives; dies when it is switched off, loses the call, or is deleted', async () => {
    const { items } = await givenAssets([{ fileName: `${uniqueName('LIVE')}.txt`, bytes: Buffer.from('x') }]);
    const access = await createTestApiAccess(t, { calls: TRANSFER_CALLS });
    const answer = await downloadUrl(access, { assetIds: items, mode: 'zip' });
    expect(answer.status).toBe(200);
    const url = answer.body.result.links[0]!.url;
    const setRecord = (values: { status?: number; deleted_at?: Date | null }) =>
      t.database.db.updateTable('api_accesses').set(values).where('id', '=', access.accessId).execute();

    expect((await fetchLink(url)).statusCode).toBe(200);
    // A signed-in download's link route does not take it: the ticket belongs to the record.
    const elsewhere = await t.app.inject({
      method: 'GET',
      url: `${endpoints.redeemDownloadTicket.path}?ticket=${new URL(url).searchParams.get('ticket')}`,
    });
    expect(elsewhere.statusCode).toBe(400);
    // Guessing is useless.
    const guessed = await fetchLink(
      url.replace(/ticket=(.)/, (_m, c: string) => `ticket=${c === 'e' ? 'f' : 'e'}`),
    );
    expect(guessed.statusCode).toBe(400);
    expect(guessed.json().errorCode).toBe('SE_400');

    await setRecord({ status: 0 });
    const off = await fetchLink(url);
    expect(off.statusCode).toBe(401);
    expect(off.json().errorCode).toBe('SEOA_01');
    await setRecord({ status: 1 });
    expect((await fetchLink(url)).statusCode).toBe(200);

    await t.database.db
      .deleteFrom('api_enterprise_calls')
      .where('enterprise_id', '=', access.enterpriseId)
      .where('call_code', '=', 'assets.downloadUrl')
      .execute();
    const notAllowed = await fetchLink(url);
    expect(notAllowed.statusCode).toBe(403);
    expect(notAllowed.json().errorCode).toBe('SEOA_04');
    await t.database.db
      .insertInto('api_enterprise_calls')
      .values({ enterprise_id: access.enterpriseId, call_code: 'assets.downloadUrl' })
      .execute();
    expect((await fetchLink(url)).statusCode).toBe(200);

    await setRecord({ deleted_at: t.clock.now() });
    const deleted = await fetchLink(url);
    expect(deleted.statusCode).toBe(401);
    expect(deleted.json().errorCode).toBe('SEOA_01');
  });

  it('checks the files again when a link is fetched: gone, out of the user’s rights, or another user → refused', async () => {
    const { items } = await givenAssets([
      { fileName: `${uniqueName('AGAIN')}.txt`, bytes: Buffer.from('a') },
      { fileName: `${uniqueName('AGAIN')}.txt`, bytes: Buffer.from('b') },
    ]);
    const reader = await givenUser(t.database, { scopes: { view: 'all', download: 'all' } });
    const access = await createTestApiAccess(t, { userId: reader.id, calls: TRANSFER_CALLS });
    const answer = await downloadUrl(access, { assetIds: items, mode: 'files' });
    expect(answer.status).toBe(200);
    const [first, second] = answer.body.result.links.map((link) => link.url) as [string, string];
    // A HEAD does not redeem (nor count) a link.
    const head = await t.app.inject({ method: 'HEAD', url: targetOf(first) });
    expect(head.statusCode).toBe(404);
    expect(await downloadCount(items[0] as number)).toBe(0);
    expect((await fetchLink(first)).statusCode).toBe(200);
    expect(await downloadCount(items[0] as number)).toBe(1);

    // The first file goes to the recycle bin: its link stops, the other one still works.
    await t.database.db
      .updateTable('items')
      .set({ state: 2 })
      .where('id', '=', items[0] as number)
      .execute();
    const gone = await fetchLink(first);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().errorCode).toBe('SE_404');
    expect((await fetchLink(second)).statusCode).toBe(200);

    // The user loses the download right: no link of theirs works any more.
    await t.database.db.deleteFrom('user_roles').where('user_id', '=', reader.id).execute();
    expect((await fetchLink(second)).json().errorCode).toBe('SE_404');

    // The record is pointed at another user: links issued for the first one die.
    const other = await givenUser(t.database, { scopes: EVERY_SCOPE });
    await t.database.db
      .updateTable('api_accesses')
      .set({ run_as_user_id: other.id })
      .where('id', '=', access.accessId)
      .execute();
    const moved = await fetchLink(second);
    expect(moved.statusCode).toBe(401);
    expect(moved.json().errorCode).toBe('SEOA_01');
  });

  it('lives exactly expiresInSeconds (60 s to a day)', async () => {
    const { items } = await givenAssets([{ fileName: `${uniqueName('SOON')}.txt`, bytes: Buffer.from('y') }]);
    const access = await createTestApiAccess(t, { calls: TRANSFER_CALLS });
    for (const expiresInSeconds of [59, 86_401]) {
      const refused = await downloadUrl(access, { assetIds: items, expiresInSeconds });
      expect(refused.status).toBe(400);
      expect(refused.body.errorCode).toBe('SE_400');
    }
    const answer = await downloadUrl(access, { assetIds: items, mode: 'files', expiresInSeconds: 60 });
    expect(answer.status).toBe(200);
    const link = answer.body.result.links[0]!;
    expect(new Date(link.expiresAt).getTime()).toBe(t.clock.now().getTime() + 60_000);
    t.clock.advance(59_000);
    expect((await fetchLink(link.url)).statusCode).toBe(200);
    t.clock.advance(1_000);
    const expired = await fetchLink(link.url);
    expect(expired.statusCode).toBe(400);
    expect(expired.json().errorCode).toBe('SE_400');
  });

  it('plans as the record’s user: what they cannot see is unmatched or SE_404, no download right is SE_502', async () => {
    const artNum = uniqueName('HIDDEN');
    const { folderId, items } = await givenAssets([
      { fileName: `${artNum}.jpg`, bytes: await makeJpeg(100, 100), artNum },
    ]);
    const blind = await givenUser(t.database, { scopes: { view: 'none' } });
    const blindAccess = await createTestApiAccess(t, { userId: blind.id, calls: TRANSFER_CALLS });
    const byArtNum = await downloadUrl(blindAccess, { artNums: [artNum] });
    expect(byArtNum.status, JSON.stringify(byArtNum.body)).toBe(200);
    expect(byArtNum.body.result).toEqual({ links: [], fileCount: 0, unmatched: [artNum] });
    const byId = await downloadUrl(blindAccess, { assetIds: items });
    expect(byId.status).toBe(404);
    expect(byId.body.errorCode).toBe('SE_404');

    const viewer = await givenUser(t.database, { scopes: { view: 'all', download: 'none' } });
    const viewerAccess = await createTestApiAccess(t, { userId: viewer.id, calls: TRANSFER_CALLS });
    const noRight = await downloadUrl(viewerAccess, { assetIds: items });
    expect(noRight.status).toBe(403);
    expect(noRight.body.errorCode).toBe('SE_502');

    // A folder is not an asset, even to the administrator.
    const admin = await createTestApiAccess(t, { calls: TRANSFER_CALLS });
    const folder = await downloadUrl(admin, { assetIds: [folderId] });
    expect(folder.status).toBe(404);
    expect(folder.body.errorCode).toBe('SE_404');
    // Nothing was issued.
    for (const access of [blindAccess, viewerAccess, admin]) {
      const tickets = await t.database.db
        .selectFrom('download_tickets')
        .select('token_hash')
        .where('api_access_id', '=', access.accessId)
        .execute();
      expect(tickets).toHaveLength(0);
    }
  });

  it('refuses more than 1,000 files in files mode with SE_400 naming the limit, issuing nothing', async () => {
    const artNum = uniqueName('BULK');
    const { folderId, items } = await givenAssets([
      { fileName: `${artNum}.txt`, bytes: Buffer.from('z'), artNum },
    ]);
    // 1,000 more files with the same article number, copied in the database (their bytes are never read).
    const db = t.database.db;
    const item = await db
      .selectFrom('items')
      .selectAll()
      .where('id', '=', items[0]!)
      .executeTakeFirstOrThrow();
    const upload = await db
      .selectFrom('uploads')
      .selectAll()
      .where('item_id', '=', item.id)
      .executeTakeFirstOrThrow();
    const { id: _item, ...itemValues } = item;
    const { id: _upload, ...uploadValues } = upload;
    const parentPath = item.id_path.slice(0, item.id_path.length - `${item.id}/`.length);
    for (let start = 0; start < 1000; start += 250) {
      const copies = await db
        .insertInto('items')
        .values(Array.from({ length: 250 }, (_, i) => ({ ...itemValues, name: `${item.name}-${start + i}` })))
        .returning('id')
        .execute();
      for (const copy of copies)
        await db
          .updateTable('items')
          .set({ id_path: `${parentPath}${copy.id}/` })
          .where('id', '=', copy.id)
          .execute();
      await db
        .insertInto('uploads')
        .values(
          copies.map((copy) => ({
            ...uploadValues,
            item_id: copy.id,
            storage_key: `${upload.storage_key}-${copy.id}`,
          })),
        )
        .execute();
    }
    expect(folderId).toBeGreaterThan(0);
    const access = await createTestApiAccess(t, { calls: TRANSFER_CALLS });
    const refused = await openCall(t, access, 'POST', `${OPEN_API_PREFIX}/assets/download-url`, {
      artNums: [artNum],
      mode: 'files',
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errorCode).toBe('SE_400');
    expect(refused.body.errorDesc).toContain('1000');
    const tickets = await db
      .selectFrom('download_tickets')
      .select('token_hash')
      .where('api_access_id', '=', access.accessId)
      .execute();
    expect(tickets).toHaveLength(0);
    // The same as one zip is fine.
    const zip = await downloadUrl(access, { artNums: [artNum], mode: 'zip' });
    expect(zip.status).toBe(200);
    expect(zip.body.result.fileCount).toBe(1001);
    expect(zip.body.result.links).toHaveLength(1);
  });

  it('needs the call allowed (SEOA_04) and a signature (SEOA_01) to issue links', async () => {
    const access = await createTestApiAccess(t, { calls: ['uploads'] });
    const refused = await downloadUrl(access, { assetIds: [1] });
    expect(refused.status).toBe(403);
    expect(refused.body.errorCode).toBe('SEOA_04');
    const unsigned = await openCall(
      t,
      access,
      'POST',
      `${OPEN_API_PREFIX}/assets/download-url`,
      { assetIds: [1] },
      {
        unsigned: true,
      },
    );
    expect(unsigned.status).toBe(401);
  });
});

for (const driver of ['local', 's3'] as const) {
  describe(`open API uploads on the ${driver} driver`, () => {
    let t: TestApp;
    let token: string;
    let s3: Awaited<ReturnType<typeof startS3Server>> | null = null;
    const publicUrl = 'https://dam.example.test/';

    beforeAll(async () => {
      s3 = driver === 's3' ? await startS3Server() : null;
      t = await createTestApp({
        LOGIN_RATE_LIMIT: '1000',
        SESSION_IDLE_HOURS: '720',
        // On S3, links name PUBLIC_URL (on the local driver the request's origin is checked above).
        ...(s3 ? { ...s3Env(s3), PUBLIC_URL: publicUrl } : {}),
      });
      token = await signInAdmin(t);
    });
    afterAll(async () => {
      await t.close();
      await s3?.close();
    });

    /** PUTs a part where its link points: this app (local driver) or the object store. */
    const putPart = async (url: string, bytes: Buffer): Promise<string> => {
      if (driver === 'local') {
        expect(url).toMatch(/^http:\/\/localhost(:80)?\/ske-api\/v1_0\/file-upload\/part\?token=/);
        const response = await t.app.inject({
          method: 'PUT',
          url: targetOf(url),
          payload: bytes,
          headers: { 'content-type': 'application/octet-stream' },
        });
        expect(response.statusCode, response.body).toBe(200);
        return String(response.headers.etag);
      }
      expect(url.startsWith(s3!.endpoint)).toBe(true);
      const response = await fetch(url, { method: 'PUT', body: bytes });
      expect(response.status).toBe(200);
      return String(response.headers.get('etag'));
    };

    it('uploads through create → PUT parts → complete: the asset is in the folder, the user’s, logged', async () => {
      const uploader = await givenUser(t.database, { scopes: EVERY_SCOPE });
      const access = await createTestApiAccess(t, { userId: uploader.id, calls: TRANSFER_CALLS });
      const folder = await givenFolder(t, token);
      const artNum = uniqueName('UP');
      // Two parts (8 MiB and the rest) on the local driver; one small image on S3.
      const image = await makeJpeg(640, 480);
      const bytes =
        driver === 'local'
          ? Buffer.concat([image, randomBytes(8 * 1024 * 1024 + 1000 - image.length)])
          : image;
      const fileName = `${artNum}.jpg`;
      const created = await openCall<OpenUploadResult>(t, access, 'POST', `${OPEN_API_PREFIX}/uploads`, {
        folderId: folder.id,
        files: [{ fileName, fileSize: bytes.length, artNum, validFrom: '2026-01-01', validTo: '2026-12-31' }],
      });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const [upload] = created.body.result.uploads;
      expect(upload).toMatchObject({ fileName, partCount: driver === 'local' ? 2 : 1 });
      expect(upload!.parts.map((p) => p.partNumber)).toEqual(driver === 'local' ? [1, 2] : [1]);

      const parts: Array<{ partNumber: number; etag: string; size: number }> = [];
      for (const part of upload!.parts) {
        // The last part through a link asked for again (uploads/:id/parts).
        let url = part.url;
        if (part.partNumber === upload!.partCount) {
          const more = await openCall<{
            parts: Array<{ partNumber: number; url: string }>;
            expiresAt: string;
          }>(t, access, 'POST', `${OPEN_API_PREFIX}/uploads/${upload!.uploadId}/parts`, {
            partNumbers: [part.partNumber],
          });
          expect(more.status, JSON.stringify(more.body)).toBe(200);
          url = more.body.result.parts[0]!.url;
        }
        const chunk = bytes.subarray(
          (part.partNumber - 1) * upload!.partSize,
          part.partNumber * upload!.partSize,
        );
        parts.push({ partNumber: part.partNumber, etag: await putPart(url, chunk), size: chunk.length });
      }
      const completed = await openCall<{ assetId: number }>(
        t,
        access,
        'POST',
        `${OPEN_API_PREFIX}/uploads/${upload!.uploadId}/complete`,
        { parts },
      );
      expect(completed.status, JSON.stringify(completed.body)).toBe(200);
      const { assetId } = completed.body.result;

      const item = await t.database.db
        .selectFrom('items')
        .select([
          'parent_id',
          'name',
          'art_num',
          'owner_id',
          'file_formats',
          'expire_start_date',
          'expire_end_date',
        ])
        .where('id', '=', assetId)
        .executeTakeFirstOrThrow();
      expect(item).toMatchObject({
        parent_id: folder.id,
        name: artNum,
        art_num: artNum,
        owner_id: uploader.id,
        file_formats: 'jpg',
        expire_start_date: '2026-01-01',
        expire_end_date: '2026-12-31',
      });
      // The stored bytes are exactly those sent: the asset downloads through a link of its own.
      const link = await openCall<OpenDownloadUrlResult>(
        t,
        access,
        'POST',
        `${OPEN_API_PREFIX}/assets/download-url`,
        {
          assetIds: [assetId],
          mode: 'files',
        },
      );
      expect(link.status, JSON.stringify(link.body)).toBe(200);
      const url = link.body.result.links[0]!.url;
      if (driver === 's3') expect(url.startsWith(`https://dam.example.test${LINK}`)).toBe(true);
      const fetched = await t.app.inject({ method: 'GET', url: targetOf(url) });
      expect(fetched.rawPayload.equals(bytes)).toBe(true);

      const logs = await t.database.db
        .selectFrom('operation_logs')
        .select(['operator_code', 'operator_id', 'operator_name', 'item_ids'])
        .where('api_access_id', '=', access.accessId)
        .where('operator_code', '=', 'FILE01')
        .execute();
      expect(logs.map((entry) => ({ ...entry, item_ids: entry.item_ids.map(Number) }))).toEqual([
        {
          operator_code: 'FILE01',
          operator_id: uploader.id,
          operator_name: `API · ${access.name}`,
          item_ids: [assetId],
        },
      ]);

      // Completing again answers the same asset and logs nothing more.
      const again = await openCall<{ assetId: number }>(
        t,
        access,
        'POST',
        `${OPEN_API_PREFIX}/uploads/${upload!.uploadId}/complete`,
        { parts },
      );
      expect(again.body.result).toEqual({ assetId });
    });

    it('continues only the record user’s own uploads (SE_404), and refuses a folder they cannot upload into', async () => {
      const owner = await givenUser(t.database, { scopes: EVERY_SCOPE });
      const stranger = await givenUser(t.database, { scopes: EVERY_SCOPE });
      const ownerAccess = await createTestApiAccess(t, { userId: owner.id, calls: TRANSFER_CALLS });
      const strangerAccess = await createTestApiAccess(t, { userId: stranger.id, calls: TRANSFER_CALLS });
      const folder = await givenFolder(t, token);
      const bytes = Buffer.from('eleven bytes');
      const created = await openCall<OpenUploadResult>(t, ownerAccess, 'POST', `${OPEN_API_PREFIX}/uploads`, {
        folderId: folder.id,
        files: [{ fileName: `${uniqueName('MINE')}.txt`, fileSize: bytes.length }],
      });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const upload = created.body.result.uploads[0]!;
      const etag = await putPart(upload.parts[0]!.url, bytes);
      const parts = [{ partNumber: 1, etag, size: bytes.length }];
      for (const [path, body] of [
        [`uploads/${upload.uploadId}/parts`, { partNumbers: [1] }],
        [`uploads/${upload.uploadId}/complete`, { parts }],
        ['uploads/999999999/complete', { parts }],
      ] as const) {
        const refused = await openCall(t, strangerAccess, 'POST', `${OPEN_API_PREFIX}/${path}`, body);
        expect(refused.status, path).toBe(404);
        expect(refused.body.errorCode).toBe('SE_404');
      }
      // A web upload of the record's own user is theirs to continue, too; someone else's web upload is not.
      const [webUpload] = await uploadFiles(t, token, [{ fileName: `${uniqueName('WEB')}.txt`, bytes }]);
      const notTheirs = await openCall(
        t,
        ownerAccess,
        'POST',
        `${OPEN_API_PREFIX}/uploads/${webUpload}/parts`,
        {
          partNumbers: [1],
        },
      );
      expect(notTheirs.status).toBe(404);
      // The owner finishes it.
      const done = await openCall<{ assetId: number }>(
        t,
        ownerAccess,
        'POST',
        `${OPEN_API_PREFIX}/uploads/${upload.uploadId}/complete`,
        { parts },
      );
      expect(done.status, JSON.stringify(done.body)).toBe(200);

      // No upload right on the folder: nothing is created.
      const reader = await givenUser(t.database, { scopes: { view: 'all', upload: 'none' } });
      const readerAccess = await createTestApiAccess(t, { userId: reader.id, calls: TRANSFER_CALLS });
      const before = await t.database.db
        .selectFrom('uploads')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', reader.id)
        .executeTakeFirstOrThrow();
      const refused = await openCall(t, readerAccess, 'POST', `${OPEN_API_PREFIX}/uploads`, {
        folderId: folder.id,
        files: [{ fileName: 'x.txt', fileSize: 1 }],
      });
      expect(refused.status).toBe(403);
      expect(refused.body.errorCode).toBe('SE_502');
      expect(Number(before.n)).toBe(0);
      // A user's name rules apply: an illegal character is SE_400.
      const badName = await openCall(t, ownerAccess, 'POST', `${OPEN_API_PREFIX}/uploads`, {
        folderId: folder.id,
        files: [{ fileName: 'a|b.txt', fileSize: 1 }],
      });
      expect(badName.status).toBe(400);
      expect(badName.body.errorCode).toBe('SE_400');
    });

    // Two 8 MiB parts make this slow through s3rver; the callback's check is the driver's same.
    it.runIf(driver === 'local')(
      'refuses completing with a part missing (SEF_05), leaving the upload open',
      async () => {
        const uploader = await givenUser(t.database, { scopes: EVERY_SCOPE });
        const access = await createTestApiAccess(t, { userId: uploader.id, calls: TRANSFER_CALLS });
        const folder = await givenFolder(t, token);
        const size = 8 * 1024 * 1024 + 10;
        const bytes = randomBytes(size);
        const created = await openCall<OpenUploadResult>(t, access, 'POST', `${OPEN_API_PREFIX}/uploads`, {
          folderId: folder.id,
          files: [{ fileName: `${uniqueName('HALF')}.bin`, fileSize: size }],
        });
        const upload = created.body.result.uploads[0]!;
        const first = bytes.subarray(0, upload.partSize);
        const etag = await putPart(upload.parts[0]!.url, first);
        const complete = (parts: unknown[]) =>
          openCall(t, access, 'POST', `${OPEN_API_PREFIX}/uploads/${upload.uploadId}/complete`, { parts });
        const half = await complete([{ partNumber: 1, etag, size: first.length }]);
        expect(half.status).toBe(409);
        expect(half.body.errorCode).toBe('SEF_05');
        const rest = bytes.subarray(upload.partSize);
        const etag2 = await putPart(upload.parts[1]!.url, rest);
        const whole = await complete([
          { partNumber: 1, etag, size: first.length },
          { partNumber: 2, etag: etag2, size: rest.length },
        ]);
        expect(whole.status, JSON.stringify(whole.body)).toBe(200);
      },
    );
  });
}
