import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post } from '../../../test/harness';
import { createItemsWorld, type ItemsWorld } from '../../../test/scenarios/items';

describe('folders, listings, move, recycle bin, favourites and recent', () => {
  let w: ItemsWorld;
  beforeAll(async () => {
    w = await createItemsWorld();
  });
  afterAll(() => w.t.close());

  describe('renaming and moving', () => {
    it('renames a folder and the paths of everything inside follow', async () => {
      const top = await w.folder(w.designer, 'Rename me');
      const child = await w.folder(w.designer, 'Child', top);
      const grandchild = await w.folder(w.designer, 'Grandchild', child);
      const { status } = await post(
        w.t.app,
        w.api('file/update-folder'),
        { folderDataId: top, folderName: 'Renamed' },
        { token: w.designer },
      );
      expect(status).toBe(200);
      expect((await w.list(w.designer, grandchild)).listing.folder?.path).toBe('/Renamed/Child');
    });

    it('moves items, refuses a move into their own subtree, and a bad id changes nothing', async () => {
      const a = await w.folder(w.designer, 'Move A');
      const b = await w.folder(w.designer, 'Move B');
      const aChild = await w.folder(w.designer, 'A child', a);
      const move = (body: Record<string, unknown>) =>
        post(w.t.app, w.api('file/batch-move'), body, { token: w.designer, lang: 'en' });

      const ok = await move({ folderDataIdList: [a], targetFolderId: b });
      expect(ok.status).toBe(200);
      expect(await w.names(w.designer, b)).toEqual(['Move A']);
      expect((await w.list(w.designer, aChild)).listing.folder?.path).toBe('/Move B/Move A');

      const intoItself = await move({ folderDataIdList: [b], targetFolderId: aChild });
      expect(intoItself.status).toBe(400);
      expect(intoItself.body.errorCode).toBe('SEF_02');

      const withBadId = await move({ folderDataIdList: [aChild, 999999], targetFolderId: 'all' });
      expect(withBadId.status).toBe(404);
      expect(await w.names(w.designer, a)).toEqual(['A child']);

      const noTarget = await move({ folderDataIdList: [aChild] });
      expect(noTarget.status).toBe(400);
      expect(noTarget.body.errorDesc).toContain('targetFolderId:');
    });

    it('asks before private items become shared, then shares them', async () => {
      const shared = await w.folder(w.designer, 'Team folder');
      const mine = await w.folder(w.designer, 'Private notes', undefined, 'private');
      const refused = await post(
        w.t.app,
        w.api('file/batch-move'),
        { folderDataIdList: [mine], targetFolderId: shared },
        { token: w.designer },
      );
      expect(refused.status).toBe(409);
      expect(refused.body.errorCode).toBe('SEF_03');
      expect(await w.names(w.shoeDesigner, 'all')).not.toContain('Private notes');

      const confirmed = await post(
        w.t.app,
        w.api('file/batch-move'),
        { folderDataIdList: [mine], targetFolderId: shared, confirmShare: true },
        { token: w.designer },
      );
      expect(confirmed.status).toBe(200);
      const moved = (await w.list(w.designer, shared)).listing.list[0];
      expect(moved).toMatchObject({ name: 'Private notes', visibility: 'shared' });
    });

    it('refuses moving onto a name already taken, moving nothing', async () => {
      const target = await w.folder(w.designer, 'Taken target');
      await w.folder(w.designer, 'Same', target);
      const other = await w.folder(w.designer, 'Other');
      const same = await w.folder(w.designer, 'Same', other);
      const sibling = await w.folder(w.designer, 'Sibling', other);
      const { status, body } = await post(
        w.t.app,
        w.api('file/batch-move'),
        { folderDataIdList: [sibling, same], targetFolderId: target },
        { token: w.designer },
      );
      expect(status).toBe(409);
      expect(body.errorCode).toBe('SEF_01');
      expect((await w.names(w.designer, other)).sort()).toEqual(['Same', 'Sibling']);
    });

    it('refuses to move what the caller may not edit (here: not even see, answered as unknown)', async () => {
      const theirs = await w.folder(w.designer, 'Design only');
      const { status } = await post(
        w.t.app,
        w.api('file/batch-move'),
        { folderDataIdList: [theirs], targetFolderId: 'all' },
        { token: w.shoeDesigner },
      );
      expect(status).toBe(404);
    });
  });
});
