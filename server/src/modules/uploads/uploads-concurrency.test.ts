import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { endpoints } from '@dam/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, resultOf } from '../../../test/call';
import { ADMIN, createTestApp, get, post, signIn, type TestApp } from '../../../test/harness';

const api = (p: string) => `/ske-api/v1_0/${p}`;

/**
 * Issue 9 item 9: the same upload call sent several times at once — from one process or from two
 * processes on one database — answers success every time with one result, never SE_500.
 * (Two app instances share the database and DATA_DIR, as two server processes of one install.)
 */
describe('duplicate upload calls sent at once are idempotent', () => {
  let one: TestApp;
  let two: TestApp;
  let dataDir: string;
  let token: string;
  /** The app answering the i-th of a set of concurrent calls: they alternate between processes. */
  const appFor = (i: number) => (i % 2 === 0 ? one : two).app;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dam-concurrency-'));
    const env = { DATA_DIR: dataDir, LOGIN_RATE_LIMIT: '1000', SESSION_IDLE_HOURS: '720' };
    one = await createTestApp(env, { keepDatabase: true });
    two = await createTestApp(env, { database: one.database, keepDatabase: true });
    token = await signIn(one.app, ADMIN.email, ADMIN.password);
  });
  afterAll(async () => {
    await two?.close();
    await one?.close();
    await one?.database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const createRecord = async (fileName: string, bytes: Buffer) => {
    const created = await post(
      one.app,
      api('file-upload/upload'),
      { path: '/', uploadDetailDTOS: [{ fileName, fileSize: bytes.length, path: '' }] },
      { token, lang: 'en' },
    );
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    return resultOf(endpoints.createUploads, created.body)[0]?.id as number;
  };

  const sendAllParts = async (id: number, bytes: Buffer) => {
    const signed = await post(
      one.app,
      api('file-upload/multipart/sign'),
      { id, partNumbers: [1] },
      { token },
    );
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    const url = resultOf(endpoints.signParts, signed.body).parts[0]?.url as string;
    const put = await one.app.inject({
      method: 'PUT',
      url,
      payload: bytes,
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(put.statusCode, put.body).toBe(200);
  };

  /** Eight copies of one call, fired together, half at each process. */
  const eightAtOnce = (request: (app: TestApp['app']) => Promise<{ status: number; body: unknown }>) =>
    Promise.all(Array.from({ length: 8 }, (_, i) => request(appFor(i))));

  const finishedRecord = async (id: number) => {
    const list = await post(one.app, api('file-upload/uploaded-list?pageNo=1&pageSize=200'), undefined, {
      token,
    });
    return resultOf(endpoints.finishedUploads, list.body).list.find((r) => r.id === id);
  };

  const topLevelFilesNamed = async (name: string) => {
    const { list } = await call(one.app, endpoints.folderListing, {
      token,
      query: { folderDataId: 'all', pageSize: 200 },
    });
    return list.filter((item) => item.type !== 1 && item.name.toLowerCase() === name.toLowerCase());
  };

  it('finishes an upload once when its final callback arrives eight times at once', async () => {
    const bytes = Buffer.from('eight callbacks, one file');
    const id = await createRecord('CONCURRENT-CALLBACK.jpg', bytes);
    expect((await post(one.app, api('file-upload/multipart/start'), { id }, { token })).status).toBe(200);
    await sendAllParts(id, bytes);

    const answers = await eightAtOnce((app) =>
      get(app, api(`file-upload/callback?id=${id}&status=2&uploadSchedule=100`), { token, lang: 'en' }),
    );
    for (const answer of answers) expect(answer, JSON.stringify(answer.body)).toMatchObject({ status: 200 });
    expect(answers.map((a) => a.body)).toEqual(Array(8).fill(answers[0]?.body));

    const record = await finishedRecord(id);
    expect(record?.status).toBe(2);
    const files = await topLevelFilesNamed('CONCURRENT-CALLBACK');
    expect(files).toHaveLength(1);
    expect(record?.folderDataId).toBe(files[0]?.id);
    const detail = await get(one.app, api(`file/detail?id=${files[0]?.id}`), { token });
    expect(resultOf(endpoints.fileDetail, detail.body).folderDataInfoDTOList).toHaveLength(1);

    // And once more, later: still success, still one file.
    const later = await get(two.app, api(`file-upload/callback?id=${id}&status=2&uploadSchedule=100`), {
      token,
    });
    expect(later.status).toBe(200);
    // A late progress or failure report does not reopen the finished record.
    const lateFailure = await get(one.app, api(`file-upload/callback?id=${id}&status=3&uploadSchedule=0`), {
      token,
    });
    expect(lateFailure.status).toBe(200);
    expect((await finishedRecord(id))?.status).toBe(2);
    expect(await topLevelFilesNamed('CONCURRENT-CALLBACK')).toHaveLength(1);
  });

  it('starts one multipart transfer when the start call arrives eight times at once', async () => {
    const bytes = Buffer.from('eight starts, one transfer');
    const id = await createRecord('CONCURRENT-START.png', bytes);
    const multipartDir = path.join(dataDir, 'objects', '.multipart');
    const transfers = () => (fs.existsSync(multipartDir) ? fs.readdirSync(multipartDir).length : 0);
    const before = transfers();
    const answers = await eightAtOnce((app) =>
      post(app, api('file-upload/multipart/start'), { id }, { token, lang: 'en' }),
    );
    for (const answer of answers) expect(answer, JSON.stringify(answer.body)).toMatchObject({ status: 200 });
    expect(answers.map((a) => a.body)).toEqual(Array(8).fill(answers[0]?.body));
    // One multipart upload was made in the store, not one per call.
    expect(transfers()).toBe(before + 1);

    await sendAllParts(id, bytes);
    const done = await get(one.app, api(`file-upload/callback?id=${id}&status=2&uploadSchedule=100`), {
      token,
    });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(await topLevelFilesNamed('CONCURRENT-START')).toHaveLength(1);
  });

  it('reports a part eight times at once without error', async () => {
    const bytes = Buffer.from('eight reports of one part');
    const id = await createRecord('CONCURRENT-PART.jpg', bytes);
    expect((await post(one.app, api('file-upload/multipart/start'), { id }, { token })).status).toBe(200);
    await sendAllParts(id, bytes);
    const answers = await eightAtOnce((app) =>
      post(
        app,
        api('file-upload/multipart/part-done'),
        { id, partNumber: 1, etag: `"1-${bytes.length}"`, size: bytes.length },
        { token, lang: 'en' },
      ),
    );
    for (const answer of answers) expect(answer, JSON.stringify(answer.body)).toMatchObject({ status: 200 });
  });

  it('resets a failed upload once when reupload arrives eight times at once', async () => {
    const bytes = Buffer.from('eight reuploads');
    const id = await createRecord('CONCURRENT-REUPLOAD.jpg', bytes);
    expect((await post(one.app, api('file-upload/multipart/start'), { id }, { token })).status).toBe(200);
    await sendAllParts(id, bytes);
    const failed = await get(one.app, api(`file-upload/callback?id=${id}&status=3&uploadSchedule=50`), {
      token,
    });
    expect(failed.status).toBe(200);

    const answers = await eightAtOnce((app) =>
      get(app, api(`file-upload/reupload?id=${id}&status=3&uploadSchedule=0`), { token, lang: 'en' }),
    );
    for (const answer of answers) expect(answer, JSON.stringify(answer.body)).toMatchObject({ status: 200 });
    // A duplicate arriving after the others finished is answered alike.
    const late = await get(two.app, api(`file-upload/reupload?id=${id}&status=3&uploadSchedule=0`), {
      token,
      lang: 'en',
    });
    expect(late.status, JSON.stringify(late.body)).toBe(200);

    // The record starts from nothing and can be finished.
    const state = await post(one.app, api('file-upload/multipart/start'), { id }, { token });
    expect(resultOf(endpoints.startMultipart, state.body).parts).toEqual([]);
    await sendAllParts(id, bytes);
    const done = await get(one.app, api(`file-upload/callback?id=${id}&status=2&uploadSchedule=100`), {
      token,
    });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(await topLevelFilesNamed('CONCURRENT-REUPLOAD')).toHaveLength(1);
  });

  it('cancels an upload when the cancel call arrives eight times at once', async () => {
    const bytes = Buffer.from('eight cancels');
    const id = await createRecord('CONCURRENT-CANCEL.jpg', bytes);
    expect((await post(one.app, api('file-upload/multipart/start'), { id }, { token })).status).toBe(200);
    await sendAllParts(id, bytes);
    const answers = await eightAtOnce((app) =>
      post(app, api('file-upload/cancel-upload'), { idList: [id] }, { token, lang: 'en' }),
    );
    for (const answer of answers) expect(answer, JSON.stringify(answer.body)).toMatchObject({ status: 200 });
    const unfinished = await get(one.app, api('file-upload/uploading?pageNo=1&pageSize=200'), { token });
    expect(resultOf(endpoints.unfinishedUploads, unfinished.body).list.map((r) => r.id)).not.toContain(id);
  });
});
