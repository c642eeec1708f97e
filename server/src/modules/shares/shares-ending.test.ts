import { ERROR_MESSAGES } from '@dam/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOriginalWithMarks } from '../../../test/embedded';
import { uploadFiles } from '../../../test/factories';
import { get, post } from '../../../test/harness';
import { createSharesWorld, HOUR, type SharesWorld } from '../../../test/scenarios/shares';
import { readZip } from '../../../test/zip';

describe('share links: how they end', () => {
  let w: SharesWorld;
  beforeAll(async () => {
    w = await createSharesWorld();
  });
  afterAll(() => w.t.close());

  describe('links end', () => {
    it('when they expire, by the clock', async () => {
      const { created } = await w.share({ needPassword: 0, expireTime: '2h', folderIds: [w.ids.notes] });
      const opened = await w.visit(created.code);
      expect(opened.status).toBe(200);
      // The visitor token ends with the link.
      expect(opened.visit.tokenExpiresAt).toBe(created.expiresAt);
      w.t.clock.advance(2 * HOUR - 1);
      expect((await w.browse(opened.visit.shareToken, {})).status).toBe(200);
      w.t.clock.advance(1);
      const expired = await w.visit(created.code);
      expect(expired.status).toBe(410);
      expect(expired.body).toMatchObject({ errorCode: 'SESH_02', errorDesc: ERROR_MESSAGES.en.SESH_02 });
      expect((await w.mine()).find((s) => s.id === created.id)?.status).toBe('expired');
      expect((await w.browse(opened.visit.shareToken, {})).body.errorCode).toBe('SESH_05');
    });

    it('visitor tokens are short-lived; opening the link again starts a new visit', async () => {
      const link = await w.openPublic([w.ids.notes]);
      w.t.clock.advance(2 * HOUR);
      expect((await w.browse(link.token, {})).body.errorCode).toBe('SESH_05');
      const again = await w.visit(link.code, link.token);
      expect(again.visit.shareToken).not.toBe(link.token);
      expect((await w.mine()).find((s) => s.id === link.id)?.viewCount).toBe(2);
    });

    it('when their owner stops them: only the owner may, again and again', async () => {
      const link = await w.openPublic([w.ids.notes]);
      const byOther = await get(w.t.app, w.api(`user/share/cancel-share?code=${link.code}`), {
        token: w.admin,
      });
      expect(byOther.status).toBe(403);
      expect(byOther.body.errorCode).toBe('SE_502');
      expect((await w.visit(link.code)).status).toBe(200);

      const stopped = await get(w.t.app, w.api(`user/share/cancel-share?code=${link.code}`), {
        token: w.sharer.token,
      });
      expect(stopped.status).toBe(200);
      const twice = await get(w.t.app, w.api(`user/share/cancel-share?id=${link.id}`), {
        token: w.sharer.token,
      });
      expect(twice.status).toBe(200);
      expect((await w.mine()).find((s) => s.id === link.id)?.status).toBe('stopped');

      const refused = await w.visit(link.code);
      expect(refused.status).toBe(404);
      expect(refused.body).toMatchObject({ errorCode: 'SESH_01', errorDesc: ERROR_MESSAGES.en.SESH_01 });
      expect((await w.browse(link.token, {})).body.errorCode).toBe('SESH_01');
      expect((await w.download(link.token, {})).json()).toMatchObject({ errorCode: 'SESH_01' });
    });

    it('answers unknown and malformed codes clearly, changing nothing', async () => {
      const before = await w.mine();
      const unknown = await w.visit('A'.repeat(24));
      expect(unknown.status).toBe(404);
      expect(unknown.body.errorCode).toBe('SESH_01');
      // A mistyped or cut-off address says the link is invalid, like an unknown one.
      for (const code of ['short', `${'A'.repeat(23)}$`, 'B'.repeat(25), '链接']) {
        const malformed = await w.visit(encodeURIComponent(code));
        expect(malformed.status, code).toBe(404);
        expect(malformed.body.errorCode).toBe('SESH_01');
        expect((await w.unlock(encodeURIComponent(code), 'abcdef')).body.errorCode).toBe('SESH_01');
      }
      const cancelUnknown = await get(w.t.app, w.api(`user/share/cancel-share?code=${'A'.repeat(24)}`), {
        token: w.sharer.token,
      });
      expect(cancelUnknown.body.errorCode).toBe('SESH_01');
      for (const query of ['code=bad', '', 'id=abc']) {
        const cancelBad = await get(w.t.app, w.api(`user/share/cancel-share?${query}`), {
          token: w.sharer.token,
        });
        expect(cancelBad.status, query).toBe(400);
        expect(cancelBad.body.errorCode).toBe('SE_400');
      }
      expect(await w.mine()).toEqual(before);
    });

    it('when their items are removed: they vanish from the link; a link with nothing left says so', async () => {
      const made = await uploadFiles(w.t, w.sharer.token, [
        { fileName: 'TEMP1.txt', bytes: Buffer.from('one') },
        { fileName: 'TEMP2.txt', bytes: Buffer.from('two') },
      ]);
      const temp = await w.t.database.db
        .selectFrom('uploads')
        .select('item_id')
        .where('id', 'in', made)
        .orderBy('id')
        .execute();
      const [one, two] = temp.map((r) => r.item_id as number) as [number, number];
      const link = await w.openPublic([one, two]);
      expect(link.items?.map((i) => i.name)).toEqual(['TEMP1', 'TEMP2']);
      await post(w.t.app, w.api('file/batch-del'), { idList: [one] }, { token: w.sharer.token });
      expect((await w.visit(link.code, link.token)).visit.items?.map((i) => i.name)).toEqual(['TEMP2']);
      expect((await w.download(link.token, { folderDataIdList: [one] })).json()).toMatchObject({
        errorCode: 'SEF_04',
      });
      await post(w.t.app, w.api('file/batch-del'), { idList: [two] }, { token: w.sharer.token });
      const gone = await w.visit(link.code);
      expect(gone.status).toBe(410);
      expect(gone.body).toMatchObject({ errorCode: 'SESH_04', errorDesc: ERROR_MESSAGES.en.SESH_04 });
      expect((await w.browse(link.token, {})).body.errorCode).toBe('SESH_04');
      expect((await w.mine()).find((s) => s.id === link.id)).toMatchObject({ itemCount: 0, itemNames: [] });
      // Emptying the recycle bin deletes them for good; the link simply names nothing.
      const cleared = await post(w.t.app, w.api('recycle/clear'), undefined, { token: w.sharer.token });
      expect(cleared.status).toBe(200);
      expect((await w.visit(link.code)).body.errorCode).toBe('SESH_04');
    });

    it('with their owner’s permissions: losing download or share permission reaches the visitor at once', async () => {
      const link = await w.openPublic([w.ids.Brand]);
      const logo = await w.download(link.token, { folderDataIdList: [w.ids.LOGO] });
      expect(logo.statusCode).toBe(200);
      await expectOriginalWithMarks(logo.rawPayload, w.bytes.png as Buffer, 'png', w.ids.LOGO);
      const role = () => w.t.database.db.updateTable('roles').where('id', '=', w.sharer.roleId as number);

      await role().set({ download_scope: 'none' }).execute();
      const refused = await w.download(link.token, { folderDataIdList: [w.ids.LOGO] });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ errorCode: 'SE_502' });
      const listing = await w.browse(link.token, { folderId: w.ids.Brand });
      expect(listing.page.list).toEqual([expect.objectContaining({ id: w.ids.LOGO, authList: ['view'] })]);
      const zip = await readZip((await w.download(link.token, {})).rawPayload);
      expect([...zip.keys()]).toEqual(['_download-problems.txt']);
      expect(zip.get('_download-problems.txt')?.toString()).toContain('LOGO');

      await role().set({ share_scope: 'none' }).execute();
      expect((await w.visit(link.code)).body.errorCode).toBe('SESH_04');
      await role().set({ download_scope: 'all', share_scope: 'all' }).execute();
      expect((await w.visit(link.code, link.token)).visit.items?.map((i) => i.name)).toEqual(['Brand']);
    });
  });
});
