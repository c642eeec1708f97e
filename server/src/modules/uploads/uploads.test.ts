import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { endpoints } from '@dam/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, resultOf } from '../../../test/call';
import { givenUser } from '../../../test/factories';
import { createDriverApp, createTestApp, get, post, signIn, type TestApp } from '../../../test/harness';
import { createStorage } from '../../storage/index';

const MiB = 1024 * 1024;

async function streamToBuffer(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

for (const driver of ['local', 's3'] as const) {
  describe(`uploads on the ${driver} driver`, () => {
    let t: TestApp;
    let token: string;

    beforeAll(async () => {
      const app = await createDriverApp(driver);
      t = app;
      token = app.token;
    });
    afterAll(() => t.close());

    const api = (path: string) => `/ske-api/v1_0/${path}`;
    const storage = () => createStorage(t.config, () => '');

    const createBatch = async (
      entries: Array<Record<string, unknown>>,
      extra: Record<string, unknown> = {},
      as = token,
    ) =>
      post(
        t.app,
        api('file-upload/upload'),
        { path: '/', uploadDetailDTOS: entries, ...extra },
        { token: as, lang: 'en' },
      );

    const start = async (id: number) => {
      const { status, body } = await post(t.app, api('file-upload/multipart/start'), { id }, { token });
      expect(status, JSON.stringify(body)).toBe(200);
      return resultOf(endpoints.startMultipart, body);
    };

    /** Sends the given parts as the browser does: sign, PUT, report the ETag when the target asks. */
    const sendParts = async (
      id: number,
      bytes: Buffer,
      partSize: number,
      partNumbers: number[],
      truncate = false,
    ) => {
      const signed = await post(t.app, api('file-upload/multipart/sign'), { id, partNumbers }, { token });
      expect(signed.status, JSON.stringify(signed.body)).toBe(200);
      const targets = resultOf(endpoints.signParts, signed.body).parts;
      for (const target of targets) {
        let chunk = bytes.subarray((target.partNumber - 1) * partSize, target.partNumber * partSize);
        if (truncate) chunk = chunk.subarray(0, Math.floor(chunk.length / 2));
        let etag: string;
        // The server's own part endpoint records the part; a store's presigned address does not.
        expect(target.reportDone).toBe(!target.url.startsWith('/'));
        if (target.url.startsWith('/')) {
          const response = await t.app.inject({
            method: 'PUT',
            url: target.url,
            payload: chunk,
            headers: { 'content-type': 'application/octet-stream' },
          });
          if (response.statusCode !== 200) return response.json() as { errorCode: string; errorDesc: string };
          etag = response.headers.etag as string;
          // Odd parts go unreported, as the browser now sends them; even ones are reported as clients
          // before reportDone did: both must end in the same stored file.
          if (target.partNumber % 2 === 1) continue;
        } else {
          const response = await fetch(target.url, { method: 'PUT', body: chunk });
          expect(response.status).toBe(200);
          etag = response.headers.get('etag') as string;
          if (truncate) continue; // the browser lost the connection: nothing is reported
        }
        const done = await post(
          t.app,
          api('file-upload/multipart/part-done'),
          { id, partNumber: target.partNumber, etag, size: chunk.length },
          { token },
        );
        if (done.status !== 200) return done.body;
      }
      return null;
    };

    const callback = (id: number, status = 2) =>
      get(t.app, api(`file-upload/callback?id=${id}&status=${status}&uploadSchedule=100`), {
        token,
        lang: 'en',
      });

    const uploadWhole = async (id: number, bytes: Buffer) => {
      const state = await start(id);
      const numbers = Array.from({ length: state.partCount }, (_, i) => i + 1);
      expect(await sendParts(id, bytes, state.partSize, numbers)).toBeNull();
      const done = await callback(id);
      expect(done.status, JSON.stringify(done.body)).toBe(200);
    };

    const listTop = async () =>
      (await call(t.app, endpoints.folderListing, { token, query: { folderDataId: 'all', pageSize: 200 } }))
        .list;

    it('uploads a multi-part file, resumes after an interrupted part, and the stored bytes are exact', async () => {
      const bytes = randomBytes(17 * MiB);
      const created = await createBatch([{ fileName: 'SHOE123-01.psd', fileSize: bytes.length }]);
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const [record] = resultOf(endpoints.createUploads, created.body);
      expect(record?.url).toMatch(/^\d{4}\/\d{2}\/\d{2}\/[0-9a-f-]{36}\.psd$/);

      const first = await start(record!.id);
      expect(first).toMatchObject({ partSize: 8 * MiB, partCount: 3, parts: [] });
      expect(await sendParts(record!.id, bytes, first.partSize, [1])).toBeNull();
      // Part 2 is cut off half-way: it must not count as stored.
      const cut = await sendParts(record!.id, bytes, first.partSize, [2], true);
      if (driver === 'local') expect(cut).toMatchObject({ errorCode: 'SE_400' });

      const early = await callback(record!.id);
      expect(early.status).toBe(409);
      expect(early.body.errorCode).toBe('SEF_05');

      // The browser (or a new page after a reload) asks what is stored and sends only the rest.
      const resumed = await start(record!.id);
      expect(resumed.parts.map((p) => p.partNumber)).toEqual([1]);
      expect(await sendParts(record!.id, bytes, resumed.partSize, [2, 3])).toBeNull();
      expect((await callback(record!.id)).status).toBe(200);
      // A repeated callback is harmless.
      expect((await callback(record!.id)).status).toBe(200);

      const stored = await streamToBuffer(await storage().read(record!.url));
      expect(stored.equals(bytes)).toBe(true);
      const item = (await listTop()).find((i) => i.name === 'SHOE123-01');
      expect(item).toMatchObject({ fileFormat: 'psd', fileSize: bytes.length, type: 2 });
      expect((await listTop()).filter((i) => i.name === 'SHOE123-01')).toHaveLength(1);
    });

    it('groups formats of one base name into one file, and a new upload of a format is a new version', async () => {
      const jpg = randomBytes(1000);
      const psd = randomBytes(3000);
      const created = await createBatch([
        { fileName: 'BOOT9.jpg', fileSize: jpg.length },
        { fileName: 'BOOT9.psd', fileSize: psd.length },
      ]);
      const [a, b] = resultOf(endpoints.createUploads, created.body);
      await uploadWhole(a!.id, jpg);
      await uploadWhole(b!.id, psd);
      let item = (await listTop()).find((i) => i.name === 'BOOT9');
      expect(item).toMatchObject({ fileFormat: 'jpg,psd', fileSize: 4000 });

      t.clock.advance(1000);
      const newer = randomBytes(1500);
      const again = await createBatch([{ fileName: 'boot9.JPG', fileSize: newer.length }]);
      await uploadWhole(resultOf(endpoints.createUploads, again.body)[0]!.id, newer);
      item = (await listTop()).find((i) => i.name === 'BOOT9');
      expect(item).toMatchObject({ fileFormat: 'jpg,psd', fileSize: 4500 });
    });

    it('uploads a folder tree into a target folder, creating the subfolders', async () => {
      const folder = await post(
        t.app,
        api('file/creat-folder'),
        { folderName: `Target ${driver}` },
        { token },
      );
      const targetId = resultOf(endpoints.createFolder, folder.body).folderId;
      const bytes = randomBytes(500);
      const created = await createBatch(
        [
          { fileName: 'a.png', fileSize: bytes.length, path: 'Season/Running' },
          { fileName: 'b.png', fileSize: bytes.length, path: 'Season' },
        ],
        { targetFolderId: targetId, path: undefined },
      );
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const records = resultOf(endpoints.createUploads, created.body);
      expect(records.map((r) => r.path)).toEqual([
        `/Target ${driver}/Season/Running`,
        `/Target ${driver}/Season`,
      ]);
      for (const r of records) await uploadWhole(r.id, bytes);
      const season = await call(t.app, endpoints.folderListing, { token, query: { folderDataId: targetId } });
      expect(season.list.map((i) => i.name)).toEqual(['Season']);
    });

    it('cancels an upload and removes what was stored', async () => {
      const bytes = randomBytes(9 * MiB);
      const created = await createBatch([{ fileName: 'cancel-me.mp4', fileSize: bytes.length }]);
      const [record] = resultOf(endpoints.createUploads, created.body);
      const state = await start(record!.id);
      await sendParts(record!.id, bytes, state.partSize, [1]);
      const cancelled = await post(
        t.app,
        api('file-upload/cancel-upload'),
        { idList: [record!.id] },
        { token },
      );
      expect(cancelled.status).toBe(200);
      expect(await storage().stat(record!.url)).toBeNull();
      const unfinished = await call(t.app, endpoints.unfinishedUploads, { token });
      expect(unfinished.list.map((r) => r.id)).not.toContain(record!.id);
      expect((await callback(record!.id)).status).toBe(400);

      const again = await get(t.app, api(`file-upload/reupload?id=${record!.id}&status=0&uploadSchedule=0`), {
        token,
      });
      expect(again.status).toBe(200);
      await uploadWhole(record!.id, bytes);
      const finished = await call(t.app, endpoints.finishedUploads, { token });
      expect(finished.list.find((r) => r.id === record!.id)).toMatchObject({ status: 2 });
    });

    it.each([
      [{ fileName: 'bad$name.jpg', fileSize: 10 }, 'must not contain the character $'],
      [{ fileName: 'huge.tif', fileSize: 5 * 1024 ** 3 + 1 }, 'fileSize'],
      [{ fileName: '   ', fileSize: 10 }, 'please fill in a name'],
    ])('refuses %j, creating nothing', async (entry, message) => {
      const before = await call(t.app, endpoints.unfinishedUploads, { token, query: { pageSize: 200 } });
      const { status, body } = await createBatch([entry]);
      expect(status).toBe(400);
      expect(body.errorDesc).toContain(message);
      const after = await call(t.app, endpoints.unfinishedUploads, { token, query: { pageSize: 200 } });
      expect(after.list.length).toBe(before.list.length);
    });

    it('refuses the same file twice in one batch, and more than 3000 files', async () => {
      const twice = await createBatch([
        { fileName: 'x.jpg', fileSize: 1 },
        { fileName: 'X.jpg', fileSize: 1 },
      ]);
      expect(twice.status).toBe(400);
      expect(twice.body.errorDesc).toContain('contains the same file twice: X.jpg');
      const many = Array.from({ length: 3001 }, (_, i) => ({ fileName: `f${i}.jpg`, fileSize: 1 }));
      expect((await createBatch(many)).status).toBe(400);
    });

    it('needs the upload permission on the target, and hides other users’ records', async () => {
      const viewer = await givenUser(t.database, { scopes: { view: 'all' } });
      const viewerToken = await signIn(t.app, viewer.email, viewer.password);
      const refused = await createBatch([{ fileName: 'x.jpg', fileSize: 1 }], {}, viewerToken);
      expect(refused.status).toBe(403);
      const mine = await createBatch([{ fileName: 'private-record.jpg', fileSize: 1 }]);
      const id = resultOf(endpoints.createUploads, mine.body)[0]!.id;
      const peek = await post(t.app, api('file-upload/multipart/start'), { id }, { token: viewerToken });
      expect(peek.status).toBe(404);
    });

    if (driver === 'local') {
      it('refuses a part URL that expired or was tampered with', async () => {
        const bytes = randomBytes(100);
        const created = await createBatch([{ fileName: 'token.jpg', fileSize: bytes.length }]);
        const id = resultOf(endpoints.createUploads, created.body)[0]!.id;
        await start(id);
        const signed = await post(
          t.app,
          api('file-upload/multipart/sign'),
          { id, partNumbers: [1] },
          { token },
        );
        const url = resultOf(endpoints.signParts, signed.body).parts[0]!.url;
        const tampered = url.replace(/token=(.)/, (_m, c: string) => `token=${c === 'A' ? 'B' : 'A'}`);
        const bad = await t.app.inject({
          method: 'PUT',
          url: tampered,
          payload: bytes,
          headers: { 'content-type': 'application/octet-stream', lang: 'en' },
        });
        expect(bad.statusCode).toBe(400);
        expect(bad.json().errorDesc).toContain('token: has expired or is not valid');
        t.clock.advance(2 * 60 * 60 * 1000);
        const late = await t.app.inject({
          method: 'PUT',
          url,
          payload: bytes,
          headers: { 'content-type': 'application/octet-stream' },
        });
        expect(late.statusCode).toBe(400);
      });

      it('refuses a part of the wrong size, or of an upload failed or finished meanwhile, recording none', async () => {
        const bytes = randomBytes(10 * MiB);
        const created = await createBatch([{ fileName: 'late-parts.tif', fileSize: bytes.length }]);
        const [record] = resultOf(endpoints.createUploads, created.body);
        const id = record!.id;
        const sign = async (partNumbers: number[]) =>
          resultOf(
            endpoints.signParts,
            (await post(t.app, api('file-upload/multipart/sign'), { id, partNumbers }, { token })).body,
          ).parts;
        const put = (url: string, payload: Buffer) =>
          t.app.inject({
            method: 'PUT',
            url,
            payload,
            headers: { 'content-type': 'application/octet-stream', lang: 'en' },
          });
        const stored = async () => (await start(id)).parts.map((p) => p.partNumber);
        const { partSize } = await start(id);
        const [first, last] = await sign([1, 2]);

        // The last part must be the rest of the file (2 MiB), not 1 MiB.
        const short = await put(last!.url, bytes.subarray(partSize, partSize + MiB));
        expect(short.statusCode).toBe(400);
        expect(short.json().errorDesc).toContain('partNumber: is not a valid part of this upload');
        expect(await stored()).toEqual([]);

        // A stored part sent again cut short: its place was written over, so it no longer counts.
        expect((await put(first!.url, bytes.subarray(0, partSize))).statusCode).toBe(200);
        expect(await stored()).toEqual([1]);
        expect((await put(first!.url, bytes.subarray(0, MiB))).statusCode).toBe(400);
        expect(await stored()).toEqual([]);
        expect((await put(first!.url, bytes.subarray(0, partSize))).statusCode).toBe(200);

        // Reported failed by the client: a late part is refused and not recorded.
        expect((await callback(id, 3)).status).toBe(200);
        const afterFailure = await put(last!.url, bytes.subarray(partSize));
        expect(afterFailure.statusCode).toBe(400);
        expect(afterFailure.json().errorDesc).toContain('token: is not a valid part of this upload');
        const again = await get(t.app, api(`file-upload/reupload?id=${id}&status=0&uploadSchedule=0`), {
          token,
        });
        expect(again.status).toBe(200);
        expect(await stored()).toEqual([]);

        // Finished: a part sent again to its own (still valid) address is refused, the file unchanged.
        const [final] = await sign([1]);
        await uploadWhole(id, bytes);
        const afterDone = await put(final!.url, randomBytes(partSize));
        expect(afterDone.statusCode).toBe(400);
        expect(afterDone.json().errorDesc).toContain('token: is not a valid part of this upload');
        expect((await streamToBuffer(await storage().read(record!.url))).equals(bytes)).toBe(true);
      });

      it('records a part lying beyond 2 GiB of a large file', async () => {
        // Part 300 of a 3 GiB file starts at 2,392 MiB: offsets past 2^31 bytes (a sparse data file).
        const created = await createBatch([{ fileName: 'large-offset.mov', fileSize: 3 * 1024 * MiB }]);
        const id = resultOf(endpoints.createUploads, created.body)[0]!.id;
        const state = await start(id);
        expect(state.partCount).toBe(384);
        const signed = await post(
          t.app,
          api('file-upload/multipart/sign'),
          { id, partNumbers: [300] },
          { token },
        );
        const [target] = resultOf(endpoints.signParts, signed.body).parts;
        const response = await t.app.inject({
          method: 'PUT',
          url: target!.url,
          payload: randomBytes(state.partSize),
          headers: { 'content-type': 'application/octet-stream' },
        });
        expect(response.statusCode, response.body).toBe(200);
        expect((await start(id)).parts).toEqual([
          { partNumber: 300, size: state.partSize, etag: expect.any(String) },
        ]);
        await post(t.app, api('file-upload/cancel-upload'), { idList: [id] }, { token });
      });

      it('resumes after a server restart from the parts already stored', async () => {
        const bytes = randomBytes(10 * MiB);
        const created = await createBatch([{ fileName: 'restart.tif', fileSize: bytes.length }]);
        const id = resultOf(endpoints.createUploads, created.body)[0]!.id;
        const state = await start(id);
        await sendParts(id, bytes, state.partSize, [1]);
        // A new server process on the same database and data directory.
        await t.app.close();
        const restarted = await createTestApp(
          { LOGIN_RATE_LIMIT: '1000', SESSION_IDLE_HOURS: '720', DATA_DIR: t.config.DATA_DIR },
          { database: t.database, clock: t.clock, keepDatabase: true },
        );
        const previous = t.app;
        t.app = restarted.app;
        const resumed = await start(id);
        expect(resumed.parts.map((p) => p.partNumber)).toEqual([1]);
        await sendParts(id, bytes, resumed.partSize, [2]);
        expect((await callback(id)).status).toBe(200);
        expect(
          (
            await streamToBuffer(
              await storage().read(resultOf(endpoints.createUploads, created.body)[0]!.url),
            )
          ).equals(bytes),
        ).toBe(true);
        expect(previous).not.toBe(t.app);
      });
    }
  });
}
