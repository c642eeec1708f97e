import { endpoints } from '@dam/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, resultOf } from '../../../test/call';
import { createFolder, uploadFiles } from '../../../test/factories';
import { makePng } from '../../../test/fixtures';
import { ADMIN, createTestApp, post, signIn, type TestApp } from '../../../test/harness';
import { readZip } from '../../../test/zip';

/**
 * Issue 9 item 10: a file whose validity has ended (or not begun) is not handed out through a
 * share link (listing, download) nor in an article-number zip. The test clock's today is
 * 2026-01-05 in the business time zone.
 */
describe('expired files through share links and article-number zips', () => {
  let t: TestApp;
  let admin: string;
  let folderId: number;
  const ids: Record<string, number> = {};

  const api = (path: string) => `/ske-api/v1_0/${path}`;
  const itemOf = async (uploadId: number) =>
    (
      await t.database.db
        .selectFrom('uploads')
        .select('item_id')
        .where('id', '=', uploadId)
        .executeTakeFirstOrThrow()
    ).item_id as number;
  const edit = async (id: number, body: Record<string, unknown>) => {
    const response = await post(t.app, api('file/edit'), { folderDataId: id, ...body }, { token: admin });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
  };

  beforeAll(async () => {
    t = await createTestApp({ SESSION_IDLE_HOURS: '720', LOGIN_RATE_LIMIT: '1000' });
    admin = await signIn(t.app, ADMIN.email, ADMIN.password);
    folderId = await createFolder(t, admin, 'Validity');
    const names = ['current', 'ended', 'notyet', 'undated'];
    const uploads = await uploadFiles(
      t,
      admin,
      await Promise.all(
        names.map(async (name) => ({ fileName: `${name}.png`, bytes: await makePng(40, 30) })),
      ),
      { targetFolderId: folderId },
    );
    for (const [index, name] of names.entries()) ids[name] = await itemOf(uploads[index] as number);
    await edit(ids.current as number, {
      startValidTime: '2026-01-05',
      endValidTime: '2026-01-05',
      artNum: 'VAL-1',
    });
    await edit(ids.ended as number, { endValidTime: '2026-01-04', artNum: 'VAL-1' });
    await edit(ids.notyet as number, { startValidTime: '2026-01-06', artNum: 'VAL-2' });
  });
  afterAll(() => t.close());

  const openLink = async (folderIds: number[]) => {
    const created = await post(
      t.app,
      api('user/share/produce-random-code'),
      { folderIds, needPassword: 0 },
      { token: admin },
    );
    expect(created.status).toBe(200);
    const { code } = resultOf(endpoints.createShare, created.body);
    const visit = await call(t.app, endpoints.visitShare, { params: { code } });
    // A public link lets the visitor in at once: a token and the items.
    if (visit.shareToken === null || visit.items === null) throw new Error('the public link did not open');
    return { ...visit, shareToken: visit.shareToken, items: visit.items };
  };
  const visitorDownload = (shareToken: string, body: Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url: api('user/share/download'),
      payload: body,
      headers: { 'share-token': shareToken, lang: 'en' },
    });

  it('a visitor does not see expired files in a shared folder, nor download them with it', async () => {
    const { shareToken } = await openLink([folderId]);
    const page = await post(t.app, api('user/share/folder'), { folderId, shareToken });
    expect(page.status).toBe(200);
    const names = resultOf(endpoints.shareFolder, page.body)
      .list.map((i) => i.name)
      .sort();
    expect(names).toEqual(['current', 'undated']);

    const zipped = await visitorDownload(shareToken, { folderDataIdList: [folderId] });
    expect(zipped.statusCode).toBe(200);
    const entries = [...(await readZip(zipped.rawPayload)).keys()].filter((k) => !k.startsWith('_'));
    expect(entries.sort()).toEqual(['Validity/current.png', 'Validity/undated.png']);
  });

  it('a visitor cannot download an expired file by its id, and nothing is counted', async () => {
    const { shareToken } = await openLink([folderId]);
    const before = await t.database.db
      .selectFrom('items')
      .select('download_count')
      .where('id', '=', ids.ended as number)
      .executeTakeFirstOrThrow();
    for (const id of [ids.ended, ids.notyet]) {
      const refused = await visitorDownload(shareToken, { folderDataIdList: [id] });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ errorCode: 'SE_502' });
    }
    const after = await t.database.db
      .selectFrom('items')
      .select('download_count')
      .where('id', '=', ids.ended as number)
      .executeTakeFirstOrThrow();
    expect(after.download_count).toBe(before.download_count);
  });

  it('a link naming expired files offers only the valid ones', async () => {
    const visit = await openLink([ids.ended as number, ids.current as number]);
    expect(visit.items.map((i) => i.name)).toEqual(['current']);
  });

  it('an article-number zip leaves expired files out', async () => {
    const byArtNum = (artNumList: string[]) =>
      t.app.inject({
        method: 'POST',
        url: api('file/download-by-art-num'),
        payload: { artNumList },
        headers: { token: admin, lang: 'en' },
      });
    const response = await byArtNum(['VAL-1']);
    expect(response.statusCode).toBe(200);
    const entries = [...(await readZip(response.rawPayload)).keys()].filter((k) => !k.startsWith('_'));
    expect(entries).toEqual(['VAL-1/current.png']);
    // Only an expired file carries VAL-2: nothing to download.
    const nothing = await byArtNum(['VAL-2']);
    expect(nothing.statusCode).toBe(404);
    expect(nothing.json()).toMatchObject({ errorCode: 'SEDL_02' });
  });
});
