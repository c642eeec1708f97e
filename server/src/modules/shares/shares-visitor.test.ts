import { ERROR_MESSAGES, endpoints } from '@dam/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resultOf } from '../../../test/call';
import { expectOriginalWithMarks } from '../../../test/embedded';
import { post } from '../../../test/harness';
import {
  createSharesWorld,
  HOUR,
  RATE_LIMIT,
  type SharedItem,
  type SharesWorld,
} from '../../../test/scenarios/shares';
import { readZip } from '../../../test/zip';

describe('share links: a visitor without an account', () => {
  let w: SharesWorld;
  beforeAll(async () => {
    w = await createSharesWorld();
  });
  afterAll(() => w.t.close());

  describe('a visitor without an account', () => {
    // Each test makes its own link of the Campaign folder, so views and downloads counted on it
    // are that test's alone.
    const lockedLink = async () =>
      (await w.share({ needPassword: 1, expireTime: '7d', folderIds: [w.ids.Campaign] })).created;
    /** A password link a visitor has unlocked: the link and the visitor's token. */
    const unlockedLink = async () => {
      const link = await lockedLink();
      const unlocked = await w.unlock(link.code, link.password as string);
      expect(unlocked.status).toBe(200);
      return { link, visitorToken: unlocked.visit.shareToken as string };
    };

    it('is asked for the password first: who shared and until when, no items', async () => {
      const link = await lockedLink();
      const { status, visit: info } = await w.visit(link.code);
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
      const wrong = await w.unlock(link.code, 'zzzzzz');
      expect(wrong.status).toBe(403);
      expect(wrong.body).toMatchObject({ errorCode: 'SESH_03', errorDesc: ERROR_MESSAGES.en.SESH_03 });
      expect((await w.mine()).find((s) => s.id === link.id)?.viewCount).toBe(0);

      const right = await w.unlock(link.code, ` ${(link.password as string).toUpperCase()} `);
      expect(right.status).toBe(200);
      const visitorToken = right.visit.shareToken as string;
      expect(visitorToken).toBeTruthy();
      expect(Date.parse(right.visit.tokenExpiresAt as string) - w.t.clock.now().getTime()).toBe(2 * HOUR);
      expect(right.visit.items).toEqual([
        expect.objectContaining({ id: w.ids.Campaign, name: 'Campaign', type: 1, path: '/', parentId: null }),
      ]);
      expect((await w.mine()).find((s) => s.id === link.id)?.viewCount).toBe(1);
    });

    it('keeps its visitor session when it comes back with its token: no second view', async () => {
      const { link, visitorToken } = await unlockedLink();
      const again = await w.visit(link.code, visitorToken);
      expect(again.visit.shareToken).toBe(visitorToken);
      expect(again.visit.items?.map((i) => i.name)).toEqual(['Campaign']);
      expect((await w.mine()).find((s) => s.id === link.id)?.viewCount).toBe(1);
      // A token of another link does not open this one.
      const other = await w.openPublic([w.ids.notes]);
      const foreign = await w.visit(link.code, other.token);
      expect(foreign.visit.items).toBeNull();
    });

    it('browses into shared folders, with paths that start at the link', async () => {
      const { visitorToken } = await unlockedLink();
      const { status, page } = await w.browse(visitorToken, { folderId: w.ids.Campaign });
      expect(status).toBe(200);
      expect(page.folder).toMatchObject({ id: w.ids.Campaign, path: '/', parentId: null });
      expect(page.breadcrumb).toEqual([{ id: w.ids.Campaign, name: 'Campaign' }]);
      expect(page.list.map((i) => i.name).sort()).toEqual(['Details', 'SHOE1', 'notes']);
      const shoe = page.list.find((i) => i.name === 'SHOE1') as SharedItem;
      expect(shoe).toMatchObject({
        path: '/Campaign',
        parentId: w.ids.Campaign,
        authList: ['view', 'download'],
      });
      expect(shoe.compactUrl).toMatch(/^\/ske-api\/v1_0\/media\?token=/);
      expect(Object.keys(shoe)).not.toContain('ownerId');

      const details = await w.browse(null, { folderId: w.ids.Details, shareToken: visitorToken });
      expect(details.page.breadcrumb.map((b) => b.name)).toEqual(['Campaign', 'Details']);
      expect(details.page.list).toEqual([
        expect.objectContaining({ id: w.ids.SHOE2, path: '/Campaign/Details', parentId: w.ids.Details }),
      ]);
      const roots = await w.browse(visitorToken, {});
      expect(roots.page.list.map((i) => i.id)).toEqual([w.ids.Campaign]);
      // Paging.
      const first = await w.browse(visitorToken, { folderId: w.ids.Campaign, pageSize: 2 });
      expect(first.page.list).toHaveLength(2);
      expect(first.page.hasMore).toBe(true);
    });

    it('cannot step outside the link, nor browse without a valid token', async () => {
      const { visitorToken } = await unlockedLink();
      for (const folderId of [w.ids.Secret, 999999]) {
        const outside = await w.browse(visitorToken, { folderId });
        expect(outside.status, String(folderId)).toBe(403);
        expect(outside.body.errorCode).toBe('SE_502');
      }
      expect((await w.browse(visitorToken, { folderId: w.ids.SHOE1 })).body.errorCode).toBe('SE_404');
      for (const token of [null, 'forged.token-value', `${visitorToken.slice(0, -2)}xx`]) {
        const refused = await w.browse(token, { folderId: w.ids.Campaign });
        expect(refused.status).toBe(401);
        expect(refused.body.errorCode).toBe('SESH_05');
      }
    });

    it('downloads a zip of a shared folder, counted as a share download on every file and once on the link', async () => {
      const { link, visitorToken } = await unlockedLink();
      const before = await Promise.all(
        [w.ids.SHOE1, w.ids.notes, w.ids.SHOE2].map((id) => w.counts(id as number)),
      );
      const response = await w.download(visitorToken, { folderDataIdList: [w.ids.Campaign] });
      expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
      expect(response.headers['content-type']).toBe('application/zip');
      const zip = await readZip(response.rawPayload);
      expect([...zip.keys()].sort()).toEqual([
        'Campaign/Details/SHOE2.png',
        'Campaign/SHOE1.jpg',
        'Campaign/notes.txt',
      ]);
      // A visitor's copies carry the platform's metadata (issue 42), over the same pixels.
      await expectOriginalWithMarks(zip.get('Campaign/SHOE1.jpg'), w.bytes.jpg as Buffer, 'jpg', w.ids.SHOE1);
      await expectOriginalWithMarks(zip.get('Campaign/Details/SHOE2.png'), w.bytes.png as Buffer, 'png');
      const after = await Promise.all(
        [w.ids.SHOE1, w.ids.notes, w.ids.SHOE2].map((id) => w.counts(id as number)),
      );
      for (const [i, row] of after.entries()) {
        expect(row.download_count).toBe((before[i]?.download_count ?? 0) + 1);
        expect(row.share_download_count).toBe((before[i]?.share_download_count ?? 0) + 1);
      }
      expect((await w.mine()).find((s) => s.id === link.id)?.downloadCount).toBe(1);
    });

    it('downloads one file as itself, everything with nothing chosen, and through a saved link', async () => {
      const { link, visitorToken } = await unlockedLink();
      const one = await w.download(visitorToken, {
        downloadFolderDataDTOList: [{ folderDataId: w.ids.notes, fileFormatList: ['txt'] }],
      });
      expect(one.statusCode).toBe(200);
      expect(one.headers['content-disposition']).toContain("filename*=UTF-8''notes.txt");
      expect(one.rawPayload.equals(w.bytes.txt as Buffer)).toBe(true);

      const all = await w.download(visitorToken, {});
      expect(all.statusCode, all.body.slice(0, 300)).toBe(200);
      expect([...(await readZip(all.rawPayload)).keys()]).toHaveLength(3);

      const ticket = await post(
        w.t.app,
        w.api('user/share/download-ticket'),
        { folderDataIdList: [w.ids.Details, w.ids.notes] },
        {
          'share-token': visitorToken,
        },
      );
      expect(ticket.status).toBe(200);
      const url = resultOf(endpoints.shareDownloadTicket, ticket.body).url;
      expect(url).toMatch(/^\/ske-api\/v1_0\/user\/share\/download\?ticket=/);
      const saved = await w.t.app.inject({ method: 'GET', url });
      expect(saved.statusCode).toBe(200);
      expect([...(await readZip(saved.rawPayload)).keys()].sort()).toEqual([
        'Details/SHOE2.png',
        'notes.txt',
      ]);
      const guessed = await w.t.app.inject({ method: 'GET', url: `${url.slice(0, -3)}abc` });
      expect(guessed.statusCode).toBe(400);
      // A session's ticket is not a visitor's and the other way round.
      const sessionTicket = await w.t.app.inject({
        method: 'GET',
        url: url.replace('/user/share/download', '/file/download'),
      });
      expect(sessionTicket.statusCode).toBe(400);
      // One file, everything, the saved link: three downloads on this link.
      expect((await w.mine()).find((s) => s.id === link.id)?.downloadCount).toBe(3);
    });

    it('cannot download outside the link or without a token, and nothing is counted', async () => {
      const { link, visitorToken } = await unlockedLink();
      const before = await w.counts(w.ids.plan as number);
      for (const body of [
        { folderDataIdList: [w.ids.plan] },
        { folderDataIdList: [w.ids.Secret] },
        { folderDataIdList: [999999] },
      ]) {
        const refused = await w.download(visitorToken, body);
        expect(refused.statusCode, JSON.stringify(body)).toBe(403);
        expect(refused.json()).toMatchObject({ errorCode: 'SE_502' });
      }
      const anonymous = await w.t.app.inject({
        method: 'POST',
        url: w.api('user/share/download'),
        payload: { folderDataIdList: [w.ids.Campaign] },
      });
      expect(anonymous.statusCode).toBe(401);
      expect(await w.counts(w.ids.plan as number)).toEqual(before);
      expect((await w.mine()).find((s) => s.id === link.id)?.downloadCount).toBe(0);
    });

    it('is limited in password attempts per address and link', async () => {
      const { created } = await w.share({ folderIds: [w.ids.notes] });
      for (let i = 0; i < RATE_LIMIT; i++) expect((await w.unlock(created.code, 'wrong1')).status).toBe(403);
      const limited = await w.unlock(created.code, created.password as string);
      expect(limited.status).toBe(429);
      expect(limited.body.errorCode).toBe('SE_429');
      // Other links are not affected.
      const other = (await w.share({ folderIds: [w.ids.notes] })).created;
      expect((await w.unlock(other.code, other.password as string)).status).toBe(200);
    });
  });
});
