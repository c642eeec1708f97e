import { ERROR_MESSAGES } from '@dam/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFolder, givenUser, uploadFiles } from '../../../test/factories';
import { makeJpeg, makePng } from '../../../test/fixtures';
import { ADMIN, createTestApp, get, post, signIn, type TestApp } from '../../../test/harness';
import { readZip } from '../../../test/zip';

interface Created {
  id: number;
  code: string;
  url: string;
  password: string | null;
  needPassword: boolean;
  validity: string;
  createdAt: string;
  expiresAt: string | null;
}
interface SharedItem {
  id: number;
  type: number;
  name: string;
  path: string;
  parentId: number | null;
  compactUrl: string | null;
  authList: string[];
}
interface Visit {
  needPassword: boolean;
  ownerName: string;
  expiresAt: string | null;
  shareToken: string | null;
  tokenExpiresAt: string | null;
  items: SharedItem[] | null;
}
interface FolderPage {
  folder: SharedItem | null;
  breadcrumb: Array<{ id: number; name: string }>;
  list: SharedItem[];
  hasMore: boolean;
}
interface MyShare {
  id: number;
  code: string;
  url: string;
  password: string | null;
  status: string;
  itemCount: number;
  itemNames: string[];
  coverUrl: string | null;
  viewCount: number;
  downloadCount: number;
}

const HOUR = 3600_000;
const RATE_LIMIT = 5;

describe('share links', () => {
  let t: TestApp;
  let sharer: { id: number; roleId: number | null; token: string };
  let noShare: string;
  let viewerAll: string;
  let viewerNone: string;
  let admin: string;
  const ids = {} as Record<
    'Campaign' | 'Secret' | 'Details' | 'Brand' | 'SHOE1' | 'SHOE2' | 'notes' | 'plan' | 'LOGO',
    number
  >;
  const bytes: Record<string, Buffer> = {};

  beforeAll(async () => {
    t = await createTestApp({ LOGIN_RATE_LIMIT: String(RATE_LIMIT), SESSION_IDLE_HOURS: '720' });
    const everything = { view: 'all', upload: 'all', download: 'all', share: 'all' } as const;
    const s = await givenUser(t.database, { scopes: everything });
    sharer = { id: s.id, roleId: s.roleId, token: await signIn(t.app, s.email, s.password) };
    const n = await givenUser(t.database, { scopes: { ...everything, share: 'none' } });
    noShare = await signIn(t.app, n.email, n.password);
    const va = await givenUser(t.database, { scopes: { view: 'all' } });
    viewerAll = await signIn(t.app, va.email, va.password);
    const vn = await givenUser(t.database, { scopes: {} });
    viewerNone = await signIn(t.app, vn.email, vn.password);
    admin = await signIn(t.app, ADMIN.email, ADMIN.password);

    bytes.jpg = await makeJpeg(300, 200);
    bytes.png = await makePng(120, 80);
    bytes.txt = Buffer.from('care instructions');
    bytes.secret = Buffer.from('not for visitors');
    ids.Campaign = await createFolder(t, sharer.token, 'Campaign');
    ids.Secret = await createFolder(t, sharer.token, 'Secret');
    const campaign = await uploadFiles(
      t,
      sharer.token,
      [
        { fileName: 'SHOE1.jpg', bytes: bytes.jpg },
        { fileName: 'notes.txt', bytes: bytes.txt },
        { fileName: 'SHOE2.png', bytes: bytes.png, path: 'Details' },
      ],
      { targetFolderId: ids.Campaign },
    );
    const secret = await uploadFiles(t, sharer.token, [{ fileName: 'plan.txt', bytes: bytes.secret }], {
      targetFolderId: ids.Secret,
    });
    // Someone else's folder the sharer may see and share (their download permission matters there).
    ids.Brand = await createFolder(t, admin, 'Brand');
    const brand = await uploadFiles(t, admin, [{ fileName: 'LOGO.png', bytes: bytes.png }], {
      targetFolderId: ids.Brand,
    });
    const itemOf = async (uploadId: number) =>
      (
        await t.database.db
          .selectFrom('uploads')
          .select('item_id')
          .where('id', '=', uploadId)
          .executeTakeFirstOrThrow()
      ).item_id as number;
    ids.SHOE1 = await itemOf(campaign[0] as number);
    ids.notes = await itemOf(campaign[1] as number);
    ids.SHOE2 = await itemOf(campaign[2] as number);
    ids.Details = (
      await t.database.db
        .selectFrom('items')
        .select('parent_id')
        .where('id', '=', ids.SHOE2)
        .executeTakeFirstOrThrow()
    ).parent_id as number;
    ids.plan = await itemOf(secret[0] as number);
    ids.LOGO = await itemOf(brand[0] as number);
    // A thumbnail, as the media pipeline would have made it.
    await t.database.db
      .updateTable('items')
      .set({ cover_key: 'thumbs/shoe1.jpg' })
      .where('id', '=', ids.SHOE1)
      .execute();
  });
  afterAll(() => t.close());

  const api = (path: string) => `/ske-api/v1_0/${path}`;
  const share = async (body: Record<string, unknown>, token = sharer.token) => {
    const response = await post(t.app, api('user/share/produce-random-code'), body, { token, lang: 'en' });
    return { ...response, created: response.body.result as Created };
  };
  const visit = async (code: string, shareToken?: string) => {
    const response = await get(t.app, api(`user/share/random/${code}`), {
      lang: 'en',
      ...(shareToken ? { 'share-token': shareToken } : {}),
    });
    return { ...response, visit: response.body.result as Visit };
  };
  const unlock = async (code: string, password: string) => {
    const response = await post(t.app, api(`user/share/random/${code}`), { password }, { lang: 'en' });
    return { ...response, visit: response.body.result as Visit };
  };
  const browse = async (shareToken: string | null, body: Record<string, unknown>) => {
    const response = await post(
      t.app,
      api('user/share/folder'),
      body,
      shareToken ? { 'share-token': shareToken, lang: 'en' } : { lang: 'en' },
    );
    return { ...response, page: response.body.result as FolderPage };
  };
  const download = (shareToken: string, body: Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url: api('user/share/download'),
      payload: body,
      headers: { 'share-token': shareToken, lang: 'en' },
    });
  const mine = async (token = sharer.token) =>
    ((await get(t.app, api('user/share/list?pageSize=200'), { token })).body.result as { list: MyShare[] })
      .list;
  const shareCount = async () =>
    Number(
      (
        await t.database.db
          .selectFrom('shares')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const counts = (id: number) =>
    t.database.db
      .selectFrom('items')
      .select(['download_count', 'share_download_count'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  /** A public link opened by a visitor: the code and a visitor token. */
  const openPublic = async (folderIds: number[]) => {
    const { created } = await share({ needPassword: 0, expireTime: 'none', folderIds });
    const { visit: opened } = await visit(created.code);
    return { code: created.code, id: created.id, token: opened.shareToken as string, items: opened.items };
  };

  describe('making links', () => {
    it('makes a password link with the defaults of SPEC §9 (password, 7 days)', async () => {
      const { status, created } = await share({ folderIds: `${ids.Campaign}` });
      expect(status).toBe(200);
      expect(created).toMatchObject({ needPassword: true, validity: '7d' });
      expect(created.code).toMatch(/^[A-Za-z0-9_-]{24}$/);
      expect(created.url).toBe(`/visitfile?code=${created.code}`);
      expect(created.password).toMatch(/^[a-hj-km-np-z2-9]{6}$/);
      expect(created.createdAt).toBe(t.clock.now().toISOString());
      expect(Date.parse(created.expiresAt as string) - t.clock.now().getTime()).toBe(7 * 24 * HOUR);
      // Another link for the same items is another code.
      expect((await share({ folderIds: `${ids.Campaign}` })).created.code).not.toBe(created.code);
    });

    it('makes public links with every validity preset, by key or by hours, ids joined or as an array', async () => {
      const now = t.clock.now().getTime();
      for (const [expireTime, validity, hours] of [
        ['2h', '2h', 2],
        ['1d', '1d', 24],
        ['30d', '30d', 720],
        ['none', 'none', null],
        [168, '7d', 168],
        ['24', '1d', 24],
        [0, 'none', null],
      ] as const) {
        const { status, created } = await share({
          needPassword: 0,
          expireTime,
          folderIds: [ids.SHOE1, ids.notes],
        });
        expect(status, String(expireTime)).toBe(200);
        expect(created).toMatchObject({ needPassword: false, password: null, validity });
        expect(created.expiresAt).toBe(hours === null ? null : new Date(now + hours * HOUR).toISOString());
      }
    });

    it('names a folder once when something inside it was chosen too', async () => {
      const { created } = await share({ folderIds: [ids.SHOE1, ids.Campaign, ids.SHOE1] });
      const named = await t.database.db
        .selectFrom('share_items')
        .select('item_id')
        .where('share_id', '=', created.id)
        .execute();
      expect(named.map((r) => r.item_id)).toEqual([ids.Campaign]);
    });

    it('refuses without the share permission and on bad input, creating nothing', async () => {
      const before = await shareCount();
      const refused = await share({ folderIds: `${ids.Campaign}` }, noShare);
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ errorCode: 'SE_502', errorDesc: ERROR_MESSAGES.en.SE_502 });
      // One item the caller may not share spoils the batch.
      const viewerOnly = await share({ folderIds: [ids.Campaign] }, viewerAll);
      expect(viewerOnly.body.errorCode).toBe('SE_502');

      for (const [body, status, code, field] of [
        [{ expireTime: 'forever', folderIds: `${ids.Campaign}` }, 400, 'SE_400', 'expireTime'],
        [{ expireTime: 5, folderIds: `${ids.Campaign}` }, 400, 'SE_400', 'expireTime'],
        [{ needPassword: 2, folderIds: `${ids.Campaign}` }, 400, 'SE_400', 'needPassword'],
        [{ folderIds: '' }, 400, 'SE_400', 'folderIds'],
        [{ folderIds: [] }, 400, 'SE_400', 'folderIds'],
        [{}, 400, 'SE_400', 'folderIds'],
        [{ folderIds: '1,abc' }, 400, 'SE_400', 'folderIds'],
        [{ folderIds: `${ids.Campaign},999999` }, 404, 'SE_404', null],
      ] as const) {
        const response = await share(body);
        expect(response.status, JSON.stringify(body)).toBe(status);
        expect(response.body.errorCode).toBe(code);
        if (field) expect(response.body.errorDesc).toContain(field);
      }
      expect((await share({ expireTime: 'forever', folderIds: `${ids.Campaign}` })).body.errorDesc).toContain(
        '2h, 1d, 7d, 30d',
      );
      expect(await shareCount()).toBe(before);
    });

    it('refuses items in the recycle bin (SEF_04)', async () => {
      const folder = await createFolder(t, sharer.token, 'Binned');
      await post(t.app, api('file/batch-del'), { idList: [folder] }, { token: sharer.token });
      const before = await shareCount();
      const response = await share({ folderIds: `${folder}` });
      expect(response.status).toBe(410);
      expect(response.body.errorCode).toBe('SEF_04');
      expect(await shareCount()).toBe(before);
    });
  });

  describe('a visitor without an account', () => {
    // Each test makes its own link of the Campaign folder, so views and downloads counted on it
    // are that test's alone.
    const lockedLink = async () =>
      (await share({ needPassword: 1, expireTime: '7d', folderIds: [ids.Campaign] })).created;
    /** A password link a visitor has unlocked: the link and the visitor's token. */
    const unlockedLink = async () => {
      const link = await lockedLink();
      const unlocked = await unlock(link.code, link.password as string);
      expect(unlocked.status).toBe(200);
      return { link, visitorToken: unlocked.visit.shareToken as string };
    };

    it('is asked for the password first: who shared and until when, no items', async () => {
      const link = await lockedLink();
      const { status, visit: info } = await visit(link.code);
      expect(status).toBe(200);
      expect(info).toMatchObject({
        needPassword: true,
        expiresAt: link.expiresAt,
        shareToken: null,
        items: null,
      });
      expect(info.ownerName).toMatch(/^Test User/);
    });

    it('is refused with a wrong password, and let in with the right one (any case, spaces around)', async () => {
      const link = await lockedLink();
      const wrong = await unlock(link.code, 'zzzzzz');
      expect(wrong.status).toBe(403);
      expect(wrong.body).toMatchObject({ errorCode: 'SESH_03', errorDesc: ERROR_MESSAGES.en.SESH_03 });
      expect((await mine()).find((s) => s.id === link.id)?.viewCount).toBe(0);

      const right = await unlock(link.code, ` ${(link.password as string).toUpperCase()} `);
      expect(right.status).toBe(200);
      const visitorToken = right.visit.shareToken as string;
      expect(visitorToken).toBeTruthy();
      expect(Date.parse(right.visit.tokenExpiresAt as string) - t.clock.now().getTime()).toBe(2 * HOUR);
      expect(right.visit.items).toEqual([
        expect.objectContaining({ id: ids.Campaign, name: 'Campaign', type: 1, path: '/', parentId: null }),
      ]);
      expect((await mine()).find((s) => s.id === link.id)?.viewCount).toBe(1);
    });

    it('keeps its visitor session when it comes back with its token: no second view', async () => {
      const { link, visitorToken } = await unlockedLink();
      const again = await visit(link.code, visitorToken);
      expect(again.visit.shareToken).toBe(visitorToken);
      expect(again.visit.items?.map((i) => i.name)).toEqual(['Campaign']);
      expect((await mine()).find((s) => s.id === link.id)?.viewCount).toBe(1);
      // A token of another link does not open this one.
      const other = await openPublic([ids.notes]);
      const foreign = await visit(link.code, other.token);
      expect(foreign.visit.items).toBeNull();
    });

    it('browses into shared folders, with paths that start at the link', async () => {
      const { visitorToken } = await unlockedLink();
      const { status, page } = await browse(visitorToken, { folderId: ids.Campaign });
      expect(status).toBe(200);
      expect(page.folder).toMatchObject({ id: ids.Campaign, path: '/', parentId: null });
      expect(page.breadcrumb).toEqual([{ id: ids.Campaign, name: 'Campaign' }]);
      expect(page.list.map((i) => i.name).sort()).toEqual(['Details', 'SHOE1', 'notes']);
      const shoe = page.list.find((i) => i.name === 'SHOE1') as SharedItem;
      expect(shoe).toMatchObject({
        path: '/Campaign',
        parentId: ids.Campaign,
        authList: ['view', 'download'],
      });
      expect(shoe.compactUrl).toMatch(/^\/ske-api\/v1_0\/media\?token=/);
      expect(Object.keys(shoe)).not.toContain('ownerId');

      const details = await browse(null, { folderId: ids.Details, shareToken: visitorToken });
      expect(details.page.breadcrumb.map((b) => b.name)).toEqual(['Campaign', 'Details']);
      expect(details.page.list).toEqual([
        expect.objectContaining({ id: ids.SHOE2, path: '/Campaign/Details', parentId: ids.Details }),
      ]);
      const roots = await browse(visitorToken, {});
      expect(roots.page.list.map((i) => i.id)).toEqual([ids.Campaign]);
      // Paging.
      const first = await browse(visitorToken, { folderId: ids.Campaign, pageSize: 2 });
      expect(first.page.list).toHaveLength(2);
      expect(first.page.hasMore).toBe(true);
    });

    it('cannot step outside the link, nor browse without a valid token', async () => {
      const { visitorToken } = await unlockedLink();
      for (const folderId of [ids.Secret, 999999]) {
        const outside = await browse(visitorToken, { folderId });
        expect(outside.status, String(folderId)).toBe(403);
        expect(outside.body.errorCode).toBe('SE_502');
      }
      expect((await browse(visitorToken, { folderId: ids.SHOE1 })).body.errorCode).toBe('SE_404');
      for (const token of [null, 'forged.token-value', `${visitorToken.slice(0, -2)}xx`]) {
        const refused = await browse(token, { folderId: ids.Campaign });
        expect(refused.status).toBe(401);
        expect(refused.body.errorCode).toBe('SESH_05');
      }
    });

    it('downloads a zip of a shared folder, counted as a share download on every file and once on the link', async () => {
      const { link, visitorToken } = await unlockedLink();
      const before = await Promise.all([ids.SHOE1, ids.notes, ids.SHOE2].map((id) => counts(id as number)));
      const response = await download(visitorToken, { folderDataIdList: [ids.Campaign] });
      expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
      expect(response.headers['content-type']).toBe('application/zip');
      const zip = await readZip(response.rawPayload);
      expect([...zip.keys()].sort()).toEqual([
        'Campaign/Details/SHOE2.png',
        'Campaign/SHOE1.jpg',
        'Campaign/notes.txt',
      ]);
      expect(zip.get('Campaign/SHOE1.jpg')?.equals(bytes.jpg as Buffer)).toBe(true);
      expect(zip.get('Campaign/Details/SHOE2.png')?.equals(bytes.png as Buffer)).toBe(true);
      const after = await Promise.all([ids.SHOE1, ids.notes, ids.SHOE2].map((id) => counts(id as number)));
      for (const [i, row] of after.entries()) {
        expect(row.download_count).toBe((before[i]?.download_count ?? 0) + 1);
        expect(row.share_download_count).toBe((before[i]?.share_download_count ?? 0) + 1);
      }
      expect((await mine()).find((s) => s.id === link.id)?.downloadCount).toBe(1);
    });

    it('downloads one file as itself, everything with nothing chosen, and through a saved link', async () => {
      const { link, visitorToken } = await unlockedLink();
      const one = await download(visitorToken, {
        downloadFolderDataDTOList: [{ folderDataId: ids.notes, fileFormatList: ['txt'] }],
      });
      expect(one.statusCode).toBe(200);
      expect(one.headers['content-disposition']).toContain("filename*=UTF-8''notes.txt");
      expect(one.rawPayload.equals(bytes.txt as Buffer)).toBe(true);

      const all = await download(visitorToken, {});
      expect(all.statusCode, all.body.slice(0, 300)).toBe(200);
      expect([...(await readZip(all.rawPayload)).keys()]).toHaveLength(3);

      const ticket = await post(
        t.app,
        api('user/share/download-ticket'),
        { folderDataIdList: [ids.Details, ids.notes] },
        {
          'share-token': visitorToken,
        },
      );
      expect(ticket.status).toBe(200);
      const url = (ticket.body.result as { url: string }).url;
      expect(url).toMatch(/^\/ske-api\/v1_0\/user\/share\/download\?ticket=/);
      const saved = await t.app.inject({ method: 'GET', url });
      expect(saved.statusCode).toBe(200);
      expect([...(await readZip(saved.rawPayload)).keys()].sort()).toEqual([
        'Details/SHOE2.png',
        'notes.txt',
      ]);
      const guessed = await t.app.inject({ method: 'GET', url: `${url.slice(0, -3)}abc` });
      expect(guessed.statusCode).toBe(400);
      // A session's ticket is not a visitor's and the other way round.
      const sessionTicket = await t.app.inject({
        method: 'GET',
        url: url.replace('/user/share/download', '/file/download'),
      });
      expect(sessionTicket.statusCode).toBe(400);
      // One file, everything, the saved link: three downloads on this link.
      expect((await mine()).find((s) => s.id === link.id)?.downloadCount).toBe(3);
    });

    it('cannot download outside the link or without a token, and nothing is counted', async () => {
      const { link, visitorToken } = await unlockedLink();
      const before = await counts(ids.plan as number);
      for (const body of [
        { folderDataIdList: [ids.plan] },
        { folderDataIdList: [ids.Secret] },
        { folderDataIdList: [999999] },
      ]) {
        const refused = await download(visitorToken, body);
        expect(refused.statusCode, JSON.stringify(body)).toBe(403);
        expect(refused.json()).toMatchObject({ errorCode: 'SE_502' });
      }
      const anonymous = await t.app.inject({
        method: 'POST',
        url: api('user/share/download'),
        payload: { folderDataIdList: [ids.Campaign] },
      });
      expect(anonymous.statusCode).toBe(401);
      expect(await counts(ids.plan as number)).toEqual(before);
      expect((await mine()).find((s) => s.id === link.id)?.downloadCount).toBe(0);
    });

    it('is limited in password attempts per address and link', async () => {
      const { created } = await share({ folderIds: [ids.notes] });
      for (let i = 0; i < RATE_LIMIT; i++) expect((await unlock(created.code, 'wrong1')).status).toBe(403);
      const limited = await unlock(created.code, created.password as string);
      expect(limited.status).toBe(429);
      expect(limited.body.errorCode).toBe('SE_429');
      // Other links are not affected.
      const other = (await share({ folderIds: [ids.notes] })).created;
      expect((await unlock(other.code, other.password as string)).status).toBe(200);
    });
  });

  it('a signed-in download is never a share download, whatever isShareDownload says', async () => {
    const before = await counts(ids.notes as number);
    const response = await t.app.inject({
      method: 'POST',
      url: api('file/batch-download'),
      payload: { folderDataIdList: [ids.notes], isShareDownload: 1 },
      headers: { token: sharer.token },
    });
    expect(response.statusCode).toBe(200);
    expect(await counts(ids.notes as number)).toEqual({
      download_count: before.download_count + 1,
      share_download_count: before.share_download_count,
    });
  });

  describe('links end', () => {
    it('when they expire, by the clock', async () => {
      const { created } = await share({ needPassword: 0, expireTime: '2h', folderIds: [ids.notes] });
      const opened = await visit(created.code);
      expect(opened.status).toBe(200);
      // The visitor token ends with the link.
      expect(opened.visit.tokenExpiresAt).toBe(created.expiresAt);
      t.clock.advance(2 * HOUR - 1);
      expect((await browse(opened.visit.shareToken, {})).status).toBe(200);
      t.clock.advance(1);
      const expired = await visit(created.code);
      expect(expired.status).toBe(410);
      expect(expired.body).toMatchObject({ errorCode: 'SESH_02', errorDesc: ERROR_MESSAGES.en.SESH_02 });
      expect((await mine()).find((s) => s.id === created.id)?.status).toBe('expired');
      expect((await browse(opened.visit.shareToken, {})).body.errorCode).toBe('SESH_05');
    });

    it('visitor tokens are short-lived; opening the link again starts a new visit', async () => {
      const link = await openPublic([ids.notes]);
      t.clock.advance(2 * HOUR);
      expect((await browse(link.token, {})).body.errorCode).toBe('SESH_05');
      const again = await visit(link.code, link.token);
      expect(again.visit.shareToken).not.toBe(link.token);
      expect((await mine()).find((s) => s.id === link.id)?.viewCount).toBe(2);
    });

    it('when their owner stops them: only the owner may, again and again', async () => {
      const link = await openPublic([ids.notes]);
      const byOther = await get(t.app, api(`user/share/cancel-share?code=${link.code}`), { token: admin });
      expect(byOther.status).toBe(403);
      expect(byOther.body.errorCode).toBe('SE_502');
      expect((await visit(link.code)).status).toBe(200);

      const stopped = await get(t.app, api(`user/share/cancel-share?code=${link.code}`), {
        token: sharer.token,
      });
      expect(stopped.status).toBe(200);
      const twice = await get(t.app, api(`user/share/cancel-share?id=${link.id}`), { token: sharer.token });
      expect(twice.status).toBe(200);
      expect((await mine()).find((s) => s.id === link.id)?.status).toBe('stopped');

      const refused = await visit(link.code);
      expect(refused.status).toBe(404);
      expect(refused.body).toMatchObject({ errorCode: 'SESH_01', errorDesc: ERROR_MESSAGES.en.SESH_01 });
      expect((await browse(link.token, {})).body.errorCode).toBe('SESH_01');
      expect((await download(link.token, {})).json()).toMatchObject({ errorCode: 'SESH_01' });
    });

    it('answers unknown and malformed codes clearly, changing nothing', async () => {
      const before = await mine();
      const unknown = await visit('A'.repeat(24));
      expect(unknown.status).toBe(404);
      expect(unknown.body.errorCode).toBe('SESH_01');
      for (const code of ['short', `${'A'.repeat(23)}$`, 'B'.repeat(25)]) {
        const malformed = await visit(encodeURIComponent(code));
        expect(malformed.status, code).toBe(400);
        expect(malformed.body.errorCode).toBe('SE_400');
        expect((await unlock(encodeURIComponent(code), 'abcdef')).body.errorCode).toBe('SE_400');
      }
      const cancelUnknown = await get(t.app, api(`user/share/cancel-share?code=${'A'.repeat(24)}`), {
        token: sharer.token,
      });
      expect(cancelUnknown.body.errorCode).toBe('SESH_01');
      for (const query of ['code=bad', '', 'id=abc']) {
        const cancelBad = await get(t.app, api(`user/share/cancel-share?${query}`), { token: sharer.token });
        expect(cancelBad.status, query).toBe(400);
        expect(cancelBad.body.errorCode).toBe('SE_400');
      }
      expect(await mine()).toEqual(before);
    });

    it('when their items are removed: they vanish from the link; a link with nothing left says so', async () => {
      const made = await uploadFiles(t, sharer.token, [
        { fileName: 'TEMP1.txt', bytes: Buffer.from('one') },
        { fileName: 'TEMP2.txt', bytes: Buffer.from('two') },
      ]);
      const temp = await t.database.db
        .selectFrom('uploads')
        .select('item_id')
        .where('id', 'in', made)
        .orderBy('id')
        .execute();
      const [one, two] = temp.map((r) => r.item_id as number) as [number, number];
      const link = await openPublic([one, two]);
      expect(link.items?.map((i) => i.name)).toEqual(['TEMP1', 'TEMP2']);
      await post(t.app, api('file/batch-del'), { idList: [one] }, { token: sharer.token });
      expect((await visit(link.code, link.token)).visit.items?.map((i) => i.name)).toEqual(['TEMP2']);
      expect((await download(link.token, { folderDataIdList: [one] })).json()).toMatchObject({
        errorCode: 'SEF_04',
      });
      await post(t.app, api('file/batch-del'), { idList: [two] }, { token: sharer.token });
      const gone = await visit(link.code);
      expect(gone.status).toBe(410);
      expect(gone.body).toMatchObject({ errorCode: 'SESH_04', errorDesc: ERROR_MESSAGES.en.SESH_04 });
      expect((await browse(link.token, {})).body.errorCode).toBe('SESH_04');
      expect((await mine()).find((s) => s.id === link.id)).toMatchObject({ itemCount: 0, itemNames: [] });
      // Emptying the recycle bin deletes them for good; the link simply names nothing.
      const cleared = await post(t.app, api('recycle/clear'), undefined, { token: sharer.token });
      expect(cleared.status).toBe(200);
      expect((await visit(link.code)).body.errorCode).toBe('SESH_04');
    });

    it('with their owner’s permissions: losing download or share permission reaches the visitor at once', async () => {
      const link = await openPublic([ids.Brand]);
      const logo = await download(link.token, { folderDataIdList: [ids.LOGO] });
      expect(logo.statusCode).toBe(200);
      expect(logo.rawPayload.equals(bytes.png as Buffer)).toBe(true);
      const role = () => t.database.db.updateTable('roles').where('id', '=', sharer.roleId as number);

      await role().set({ download_scope: 'none' }).execute();
      const refused = await download(link.token, { folderDataIdList: [ids.LOGO] });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ errorCode: 'SE_502' });
      const listing = await browse(link.token, { folderId: ids.Brand });
      expect(listing.page.list).toEqual([expect.objectContaining({ id: ids.LOGO, authList: ['view'] })]);
      const zip = await readZip((await download(link.token, {})).rawPayload);
      expect([...zip.keys()]).toEqual(['_download-problems.txt']);
      expect(zip.get('_download-problems.txt')?.toString()).toContain('LOGO');

      await role().set({ share_scope: 'none' }).execute();
      expect((await visit(link.code)).body.errorCode).toBe('SESH_04');
      await role().set({ download_scope: 'all', share_scope: 'all' }).execute();
      expect((await visit(link.code, link.token)).visit.items?.map((i) => i.name)).toEqual(['Brand']);
    });
  });

  describe('my shares and the latest shares', () => {
    it('lists my links newest first with password, status, names, cover and counts; nobody else’s', async () => {
      const first = (await share({ folderIds: [ids.SHOE1, ids.notes, ids.Campaign, ids.Brand] })).created;
      t.clock.advance(1000);
      const second = (await share({ needPassword: 0, folderIds: [ids.notes] })).created;
      const list = await mine();
      expect(list[0]).toMatchObject({
        id: second.id,
        password: null,
        status: 'sharing',
        itemNames: ['notes'],
        coverUrl: null,
      });
      expect(list[1]).toMatchObject({
        id: first.id,
        code: first.code,
        url: first.url,
        password: first.password,
        status: 'sharing',
        itemCount: 2,
        itemNames: ['Campaign', 'Brand'],
        viewCount: 0,
        downloadCount: 0,
      });
      const withCover = (await share({ folderIds: [ids.notes, ids.SHOE1] })).created;
      expect((await mine()).find((s) => s.id === withCover.id)?.coverUrl).toMatch(
        /^\/ske-api\/v1_0\/media\?/,
      );
      expect(await mine(viewerAll)).toEqual([]);
      const paged = await get(t.app, api('user/share/list?pageNo=1&pageSize=1'), { token: sharer.token });
      expect(paged.body.result).toMatchObject({ pageNo: 1, pageSize: 1, hasMore: true });
      expect((await get(t.app, api('user/share/list?pageSize=0'), { token: sharer.token })).status).toBe(400);
      expect((await get(t.app, api('user/share/list'))).status).toBe(401);
    });

    it('shows the latest live links to whoever can see their items, as they see them', async () => {
      const privateFolder = await post(
        t.app,
        api('file/creat-folder'),
        { folderName: 'Private', visibility: 'private' },
        { token: sharer.token },
      );
      const privateId = (privateFolder.body.result as { folderId: number }).folderId;
      t.clock.advance(1000);
      const hidden = (await share({ folderIds: [privateId] })).created;
      t.clock.advance(1000);
      const mixed = (await share({ folderIds: [privateId, ids.SHOE1] })).created;
      t.clock.advance(1000);
      const stopped = (await share({ folderIds: [ids.notes] })).created;
      await get(t.app, api(`user/share/cancel-share?id=${stopped.id}`), { token: sharer.token });

      const latest = async (token: string, body: unknown = { pageSize: 200 }) => {
        const response = await post(t.app, api('file/new-share'), body, { token });
        expect(response.status).toBe(200);
        return (response.body.result as { list: Array<Record<string, unknown> & { id: number }> }).list;
      };
      const seen = await latest(viewerAll);
      const listed = seen.map((s) => s.id);
      expect(listed).not.toContain(hidden.id);
      expect(listed).not.toContain(stopped.id);
      expect(seen[0]).toMatchObject({ id: mixed.id, itemCount: 1, expiresAt: mixed.expiresAt });
      const entry = seen[0] as unknown as {
        items: Array<{ id: number; authList: string[] }>;
        coverUrl: string | null;
      };
      expect(entry.items.map((i) => i.id)).toEqual([ids.SHOE1]);
      expect(entry.items[0]?.authList).toEqual(['view']);
      expect(entry.coverUrl).toMatch(/^\/ske-api\/v1_0\/media\?/);
      expect(seen[0]?.ownerName).toMatch(/^Test User/);
      for (const s of seen) {
        expect(Object.keys(s)).not.toContain('code');
        expect(Object.keys(s)).not.toContain('password');
      }
      // Expired links are gone from the list.
      expect(
        seen.some(
          (s) => s.expiresAt !== null && Date.parse(s.expiresAt as string) <= t.clock.now().getTime(),
        ),
      ).toBe(false);
      // The owner sees their private items too.
      const own = await latest(sharer.token);
      expect(own[0]).toMatchObject({ id: mixed.id, itemCount: 2 });
      expect(own.map((s) => s.id)).toContain(hidden.id);
      // Someone who sees nothing of others sees no links of others.
      expect(await latest(viewerNone)).toEqual([]);
      // Paging by body or query string; no body at all.
      const page = await post(t.app, api('file/new-share?pageSize=1'), undefined, { token: viewerAll });
      expect(page.status, JSON.stringify(page.body)).toBe(200);
      expect(page.body.result).toMatchObject({ pageSize: 1, hasMore: true });
      expect((await post(t.app, api('file/new-share'), { pageNo: 0 }, { token: viewerAll })).status).toBe(
        400,
      );
    });
  });
});
