import { ERROR_MESSAGES, endpoints, ItemType } from '@dam/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resultOf } from '../../../test/call';
import { createFolder } from '../../../test/factories';
import { get, post } from '../../../test/harness';
import { createSharesWorld, HOUR, type SharesWorld } from '../../../test/scenarios/shares';

describe('share links: making them, my shares and the latest shares', () => {
  let w: SharesWorld;
  beforeAll(async () => {
    w = await createSharesWorld();
  });
  afterAll(() => w.t.close());

  describe('making links', () => {
    it('makes a password link with the defaults of SPEC §9 (password, 7 days)', async () => {
      const { status, created } = await w.share({ folderIds: `${w.ids.Campaign}` });
      expect(status).toBe(200);
      expect(created).toMatchObject({ needPassword: true, validity: '7d' });
      expect(created.code).toMatch(/^[A-Za-z0-9_-]{24}$/);
      expect(created.url).toBe(`/visitfile?code=${created.code}`);
      expect(created.password).toMatch(/^[a-hj-km-np-z2-9]{6}$/);
      expect(created.createdAt).toBe(w.t.clock.now().toISOString());
      expect(Date.parse(created.expiresAt as string) - w.t.clock.now().getTime()).toBe(7 * 24 * HOUR);
      // Another link for the same items is another code.
      expect((await w.share({ folderIds: `${w.ids.Campaign}` })).created.code).not.toBe(created.code);
    });

    it('makes public links with every validity preset, by key or by hours, ids joined or as an array', async () => {
      const now = w.t.clock.now().getTime();
      for (const [expireTime, validity, hours] of [
        ['2h', '2h', 2],
        ['1d', '1d', 24],
        ['30d', '30d', 720],
        ['none', 'none', null],
        [168, '7d', 168],
        ['24', '1d', 24],
        [0, 'none', null],
      ] as const) {
        const { status, created } = await w.share({
          needPassword: 0,
          expireTime,
          folderIds: [w.ids.SHOE1, w.ids.notes],
        });
        expect(status, String(expireTime)).toBe(200);
        expect(created).toMatchObject({ needPassword: false, password: null, validity });
        expect(created.expiresAt).toBe(hours === null ? null : new Date(now + hours * HOUR).toISOString());
      }
    });

    it('names a folder once when something inside it was chosen too', async () => {
      const { created } = await w.share({ folderIds: [w.ids.SHOE1, w.ids.Campaign, w.ids.SHOE1] });
      const named = await w.t.database.db
        .selectFrom('share_items')
        .select('item_id')
        .where('share_id', '=', created.id)
        .execute();
      expect(named.map((r) => r.item_id)).toEqual([w.ids.Campaign]);
    });

    it('refuses without the share permission and on bad input, creating nothing', async () => {
      const before = await w.shareCount();
      const refused = await w.share({ folderIds: `${w.ids.Campaign}` }, w.noShare);
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ errorCode: 'SE_502', errorDesc: ERROR_MESSAGES.en.SE_502 });
      // One item the caller may not share spoils the batch.
      const viewerOnly = await w.share({ folderIds: [w.ids.Campaign] }, w.viewerAll);
      expect(viewerOnly.body.errorCode).toBe('SE_502');

      for (const [body, status, code, field] of [
        [{ expireTime: 'forever', folderIds: `${w.ids.Campaign}` }, 400, 'SE_400', 'expireTime'],
        [{ expireTime: 5, folderIds: `${w.ids.Campaign}` }, 400, 'SE_400', 'expireTime'],
        [{ needPassword: 2, folderIds: `${w.ids.Campaign}` }, 400, 'SE_400', 'needPassword'],
        [{ folderIds: '' }, 400, 'SE_400', 'folderIds'],
        [{ folderIds: [] }, 400, 'SE_400', 'folderIds'],
        [{}, 400, 'SE_400', 'folderIds'],
        [{ folderIds: '1,abc' }, 400, 'SE_400', 'folderIds'],
        [{ folderIds: `${w.ids.Campaign},999999` }, 404, 'SE_404', null],
      ] as const) {
        const response = await w.share(body);
        expect(response.status, JSON.stringify(body)).toBe(status);
        expect(response.body.errorCode).toBe(code);
        if (field) expect(response.body.errorDesc).toContain(field);
      }
      expect(
        (await w.share({ expireTime: 'forever', folderIds: `${w.ids.Campaign}` })).body.errorDesc,
      ).toContain('2h, 1d, 7d, 30d');
      expect(await w.shareCount()).toBe(before);
    });

    it('refuses items in the recycle bin (SEF_04)', async () => {
      const folder = await createFolder(w.t, w.sharer.token, 'Binned');
      await post(w.t.app, w.api('file/batch-del'), { idList: [folder] }, { token: w.sharer.token });
      const before = await w.shareCount();
      const response = await w.share({ folderIds: `${folder}` });
      expect(response.status).toBe(410);
      expect(response.body.errorCode).toBe('SEF_04');
      expect(await w.shareCount()).toBe(before);
    });
  });

  it('a signed-in download is never a share download, whatever isShareDownload says', async () => {
    const before = await w.counts(w.ids.notes as number);
    const response = await w.t.app.inject({
      method: 'POST',
      url: w.api('file/batch-download'),
      payload: { folderDataIdList: [w.ids.notes], isShareDownload: 1 },
      headers: { token: w.sharer.token },
    });
    expect(response.statusCode).toBe(200);
    expect(await w.counts(w.ids.notes as number)).toEqual({
      download_count: before.download_count + 1,
      share_download_count: before.share_download_count,
    });
  });

  describe('my shares and the latest shares', () => {
    it('lists my links newest first with password, status, names, cover and counts; nobody else’s', async () => {
      const first = (await w.share({ folderIds: [w.ids.SHOE1, w.ids.notes, w.ids.Campaign, w.ids.Brand] }))
        .created;
      w.t.clock.advance(1000);
      const second = (await w.share({ needPassword: 0, folderIds: [w.ids.notes] })).created;
      const list = await w.mine();
      expect(list[0]).toMatchObject({
        id: second.id,
        password: null,
        status: 'sharing',
        itemNames: ['notes'],
        coverUrl: null,
        firstItemType: ItemType.other,
      });
      expect(list[1]).toMatchObject({
        id: first.id,
        code: first.code,
        url: first.url,
        password: first.password,
        status: 'sharing',
        itemCount: 2,
        itemNames: ['Campaign', 'Brand'],
        // A folder's own icon when there is no cover (issue 39 item 13: it showed a picture).
        firstItemType: ItemType.folder,
        viewCount: 0,
        downloadCount: 0,
      });
      const withCover = (await w.share({ folderIds: [w.ids.notes, w.ids.SHOE1] })).created;
      expect((await w.mine()).find((s) => s.id === withCover.id)?.coverUrl).toMatch(
        /^\/ske-api\/v1_0\/media\?/,
      );
      expect(await w.mine(w.viewerAll)).toEqual([]);
      const paged = await get(w.t.app, w.api('user/share/list?pageNo=1&pageSize=1'), {
        token: w.sharer.token,
      });
      expect(paged.body.result).toMatchObject({ pageNo: 1, pageSize: 1, hasMore: true });
      expect(
        (await get(w.t.app, w.api('user/share/list?pageSize=0'), { token: w.sharer.token })).status,
      ).toBe(400);
      expect((await get(w.t.app, w.api('user/share/list'))).status).toBe(401);
    });

    it('shows the latest live links to whoever can see their items, as they see them', async () => {
      const privateFolder = await post(
        w.t.app,
        w.api('file/creat-folder'),
        { folderName: 'Private', visibility: 'private' },
        { token: w.sharer.token },
      );
      const privateId = resultOf(endpoints.createFolder, privateFolder.body).folderId;
      // An older live link the viewer sees, so one page of one has more after it.
      await w.share({ folderIds: [w.ids.SHOE1] });
      w.t.clock.advance(1000);
      const hidden = (await w.share({ folderIds: [privateId] })).created;
      w.t.clock.advance(1000);
      const mixed = (await w.share({ folderIds: [privateId, w.ids.SHOE1] })).created;
      w.t.clock.advance(1000);
      const stopped = (await w.share({ folderIds: [w.ids.notes] })).created;
      await get(w.t.app, w.api(`user/share/cancel-share?id=${stopped.id}`), { token: w.sharer.token });

      const latest = async (token: string, body: unknown = { pageSize: 200 }) => {
        const response = await post(w.t.app, w.api('file/new-share'), body, { token });
        expect(response.status).toBe(200);
        return resultOf(endpoints.latestShares, response.body).list;
      };
      const seen = await latest(w.viewerAll);
      const listed = seen.map((s) => s.id);
      expect(listed).not.toContain(hidden.id);
      expect(listed).not.toContain(stopped.id);
      expect(seen[0]).toMatchObject({ id: mixed.id, itemCount: 1, expiresAt: mixed.expiresAt });
      const entry = seen[0] as unknown as {
        items: Array<{ id: number; authList: string[] }>;
        coverUrl: string | null;
      };
      expect(entry.items.map((i) => i.id)).toEqual([w.ids.SHOE1]);
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
          (s) => s.expiresAt !== null && Date.parse(s.expiresAt as string) <= w.t.clock.now().getTime(),
        ),
      ).toBe(false);
      // The owner sees their private items too.
      const own = await latest(w.sharer.token);
      expect(own[0]).toMatchObject({ id: mixed.id, itemCount: 2 });
      expect(own.map((s) => s.id)).toContain(hidden.id);
      // Someone who sees nothing of others sees no links of others.
      expect(await latest(w.viewerNone)).toEqual([]);
      // Paging by body or query string; no body at all.
      const page = await post(w.t.app, w.api('file/new-share?pageSize=1'), undefined, { token: w.viewerAll });
      expect(page.status, JSON.stringify(page.body)).toBe(200);
      expect(page.body.result).toMatchObject({ pageSize: 1, hasMore: true });
      expect(
        (await post(w.t.app, w.api('file/new-share'), { pageNo: 0 }, { token: w.viewerAll })).status,
      ).toBe(400);
    });
  });
});
