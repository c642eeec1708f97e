import { endpoints } from '@dam/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, resultOf } from '../../../test/call';
import { givenUser, uploadFiles } from '../../../test/factories';
import { ADMIN, createTestApp, get, post, signIn, type TestApp } from '../../../test/harness';

describe('file detail and edit', () => {
  let t: TestApp;
  let token: string;
  let viewer: string;

  beforeAll(async () => {
    t = await createTestApp({ SESSION_IDLE_HOURS: '720', LOGIN_RATE_LIMIT: '1000' });
    token = await signIn(t.app, ADMIN.email, ADMIN.password);
    const v = await givenUser(t.database, { scopes: { view: 'all' } });
    viewer = await signIn(t.app, v.email, v.password);
  });
  afterAll(() => t.close());

  const api = (path: string) => `/ske-api/v1_0/${path}`;
  const itemIdOf = async (uploadId: number) =>
    (
      await t.database.db
        .selectFrom('uploads')
        .select('item_id')
        .where('id', '=', uploadId)
        .executeTakeFirstOrThrow()
    ).item_id!;
  const detail = async (id: number, as = token) => {
    const response = await get(t.app, api(`file/detail?id=${id}`), { token: as, lang: 'en' });
    return { ...response, detail: resultOf(endpoints.fileDetail, response.body) };
  };
  const edit = (body: Record<string, unknown>, as = token) =>
    post(t.app, api('file/edit'), body, { token: as, lang: 'en' });

  it('shows a file with its formats and records, and counts the view into recent', async () => {
    const [jpg, psd] = await uploadFiles(t, token, [
      { fileName: 'DETAIL1.jpg', bytes: Buffer.alloc(300, 1) },
      { fileName: 'DETAIL1.psd', bytes: Buffer.alloc(700, 2) },
    ]);
    const id = await itemIdOf(jpg!);
    expect(await itemIdOf(psd!)).toBe(id);
    const first = await detail(id);
    expect(first.status).toBe(200);
    expect(first.detail).toMatchObject({
      name: 'DETAIL1',
      fileFormat: 'jpg,psd',
      totalSize: 1000,
      viewCount: 1,
      expired: false,
    });
    expect(first.detail.folderDataInfoDTOList.map((r) => r.fileFormat).sort()).toEqual(['jpg', 'psd']);
    expect(
      first.detail.folderDataInfoDTOList.every((r) => r.url?.startsWith('/ske-api/v1_0/media?token=')),
    ).toBe(true);
    expect((await detail(id)).detail.viewCount).toBe(2);
    const recent = await call(t.app, endpoints.recentFiles, { token });
    expect(recent.list[0]?.id).toBe(id);
  });

  it('renames, refuses a name taken by a file sharing a format, and merges after confirmation otherwise', async () => {
    const [a] = await uploadFiles(t, token, [{ fileName: 'RENAME-A.jpg', bytes: Buffer.alloc(10) }]);
    const [b] = await uploadFiles(t, token, [{ fileName: 'RENAME-B.jpg', bytes: Buffer.alloc(20) }]);
    const [c] = await uploadFiles(t, token, [{ fileName: 'RENAME-C.psd', bytes: Buffer.alloc(30) }]);
    const [idA, idB, idC] = [await itemIdOf(a!), await itemIdOf(b!), await itemIdOf(c!)];

    expect((await edit({ folderDataId: idA, name: 'RENAMED-A' })).status).toBe(200);
    expect((await detail(idA)).detail.name).toBe('RENAMED-A');

    const taken = await edit({ folderDataId: idB, name: 'renamed-a' });
    expect(taken.status).toBe(409);
    expect(taken.body.errorCode).toBe('SEF_01');

    const ask = await edit({ folderDataId: idC, name: 'RENAME-B' });
    expect(ask.status).toBe(409);
    expect(ask.body.errorCode).toBe('SEF_07');
    expect((await detail(idC)).detail.name).toBe('RENAME-C');

    const merged = await edit({ folderDataId: idC, name: 'RENAME-B', confirmMerge: true });
    expect(merged.body.result).toEqual({ folderDataId: idB });
    expect((await detail(idB)).detail).toMatchObject({ fileFormat: 'jpg,psd', totalSize: 50 });
    expect((await detail(idC)).status).toBe(404);
  });

  it.each([
    [{ name: 'bad|name' }, 'must not contain the character |'],
    [{ name: '  ' }, 'please fill in a name'],
    [{ startValidTime: '2026-05-01', endValidTime: '2026-04-01' }, 'endValidTime'],
    [{ startValidTime: '01/05/2026' }, 'startValidTime'],
  ])('refuses the edit %j', async (change, message) => {
    const [u] = await uploadFiles(t, token, [
      { fileName: `BAD-EDIT-${Math.random()}.jpg`, bytes: Buffer.alloc(5) },
    ]);
    const id = await itemIdOf(u!);
    const { status, body } = await edit({ folderDataId: id, ...change });
    expect(status).toBe(400);
    expect(body.errorDesc).toContain(message);
  });

  it('sets validity and article number; an expired file offers no view or download of its records', async () => {
    const [u] = await uploadFiles(t, token, [{ fileName: 'VALIDITY.jpg', bytes: Buffer.alloc(5) }]);
    const id = await itemIdOf(u!);
    const today = t.clock.now().toISOString().slice(0, 10);
    expect(
      (await edit({ folderDataId: id, startValidTime: '2020-01-01', endValidTime: today, artNum: 'SHOE-9' }))
        .status,
    ).toBe(200);
    expect((await detail(id)).detail).toMatchObject({
      expired: false,
      artNum: 'SHOE-9',
      expireEndTime: today,
    });
    await edit({ folderDataId: id, endValidTime: '2021-12-31' });
    const expired = (await detail(id)).detail;
    expect(expired.expired).toBe(true);
    expect(expired.folderDataInfoDTOList.every((r) => r.url === null && r.previewUrl === null)).toBe(true);
  });

  it('hides a format but never the last visible one', async () => {
    const ids = await uploadFiles(t, token, [
      { fileName: 'HIDE.jpg', bytes: Buffer.alloc(5) },
      { fileName: 'HIDE.png', bytes: Buffer.alloc(5) },
    ]);
    const id = await itemIdOf(ids[0]!);
    expect((await get(t.app, api(`file/hide?folderDataId=${id}&format=png`), { token })).status).toBe(200);
    const after = (await detail(id)).detail;
    expect(after.fileFormat).toBe('jpg');
    expect(after.folderDataInfoDTOList.find((r) => r.fileFormat === 'png')?.hide).toBe(true);
    expect((await get(t.app, api(`file/hide?folderDataId=${id}&format=jpg`), { token })).status).toBe(400);
    expect((await get(t.app, api(`file/hide?folderDataId=${id}&format=tif`), { token })).status).toBe(400);
  });

  it('deletes an upload record only while another remains', async () => {
    const [first] = await uploadFiles(t, token, [{ fileName: 'RECORDS.jpg', bytes: Buffer.alloc(5) }]);
    t.clock.advance(1000);
    const [second] = await uploadFiles(t, token, [{ fileName: 'RECORDS.jpg', bytes: Buffer.alloc(9) }]);
    const id = await itemIdOf(first!);
    expect(
      (await get(t.app, api(`file/delete-record?id=${first}&folderDataId=${id}`), { token })).status,
    ).toBe(200);
    const left = (await detail(id)).detail;
    expect(left.folderDataInfoDTOList.map((r) => r.id)).toEqual([second]);
    expect(left.totalSize).toBe(9);
    expect(
      (await get(t.app, api(`file/delete-record?id=${second}&folderDataId=${id}`), { token })).status,
    ).toBe(400);
  });

  it('lets a viewer look but not edit, and refuses folders and unknown ids', async () => {
    const [u] = await uploadFiles(t, token, [{ fileName: 'LOOK.jpg', bytes: Buffer.alloc(5) }]);
    const id = await itemIdOf(u!);
    const seen = await detail(id, viewer);
    expect(seen.status).toBe(200);
    expect(seen.detail.authList).toEqual(['view']);
    expect(seen.detail.folderDataInfoDTOList[0]?.url).toBeNull();
    expect((await edit({ folderDataId: id, name: 'NOPE' }, viewer)).status).toBe(403);
    expect((await get(t.app, api(`file/hide?folderDataId=${id}&format=jpg`), { token: viewer })).status).toBe(
      403,
    );
    expect((await detail(987654)).status).toBe(404);
    const folder = await post(t.app, api('file/creat-folder'), { folderName: 'Not a file' }, { token });
    expect((await detail(resultOf(endpoints.createFolder, folder.body).folderId)).status).toBe(404);
  });
});
