import { endpoints } from '@dam/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../test/call';
import { get, post } from '../../../test/harness';
import { createItemsWorld, type ItemsWorld } from '../../../test/scenarios/items';

describe('folders, listings, move, recycle bin, favourites and recent', () => {
  let w: ItemsWorld;
  beforeAll(async () => {
    w = await createItemsWorld();
  });
  afterAll(() => w.t.close());

  describe('recycle bin', () => {
    const recycle = async (token: string) =>
      (await call(w.t.app, endpoints.recycleBin, { token, query: { pageSize: 200 } })).list;

    it('deletes a folder with its contents, lists only what was deleted, and restores it all', async () => {
      const top = await w.folder(w.designer, 'To delete');
      const inner = await w.folder(w.designer, 'Inner', top);
      const del = await post(
        w.t.app,
        w.api('file/batch-del'),
        { idList: [], folderIdList: [top] },
        { token: w.designer },
      );
      expect(del.status).toBe(200);
      expect(await w.names(w.designer, 'all')).not.toContain('To delete');
      const gone = await w.list(w.designer, inner);
      expect(gone.status).toBe(410);
      expect(gone.body.errorCode).toBe('SEF_04');

      const bin = await recycle(w.designer);
      expect(bin.map((i) => i.name)).toContain('To delete');
      expect(bin.map((i) => i.name)).not.toContain('Inner');
      expect(await recycle(w.shoeDesigner)).toEqual([]);

      const restored = await get(w.t.app, w.api(`recycle/batch-restore?ids=${top}`), { token: w.designer });
      expect(restored.status).toBe(200);
      expect(await w.names(w.designer, top)).toEqual(['Inner']);
      expect((await recycle(w.designer)).map((i) => i.name)).not.toContain('To delete');
    });

    it('restores into the nearest folder still there when its own folder is gone, renaming on a clash', async () => {
      const outer = await w.folder(w.designer, 'Outer');
      const middle = await w.folder(w.designer, 'Middle', outer);
      const leaf = await w.folder(w.designer, 'Leaf', middle);
      await post(w.t.app, w.api('file/batch-del'), { folderIdList: [leaf] }, { token: w.designer });
      await post(w.t.app, w.api('file/batch-del'), { folderIdList: [middle] }, { token: w.designer });
      await w.folder(w.designer, 'Leaf', outer);
      await get(w.t.app, w.api(`recycle/batch-restore?ids=${leaf}`), { token: w.designer });
      expect((await w.names(w.designer, outer)).sort()).toEqual(['Leaf', 'Leaf (2)']);
      expect((await w.list(w.designer, leaf)).listing.folder?.path).toBe('/Outer');
    });

    it('deletes for good and clears, only the caller’s own bin', async () => {
      const x = await w.folder(w.designer, 'Purge me');
      const y = await w.folder(w.designer, 'Clear me');
      await post(w.t.app, w.api('file/batch-del'), { folderIdList: [x, y] }, { token: w.designer });
      const foreign = await get(w.t.app, w.api(`recycle/batch-del?ids=${x}`), { token: w.shoeDesigner });
      expect(foreign.status).toBe(404);
      expect((await get(w.t.app, w.api(`recycle/batch-del?ids=${x}`), { token: w.designer })).status).toBe(
        200,
      );
      expect((await recycle(w.designer)).map((i) => i.name)).toEqual(expect.arrayContaining(['Clear me']));
      expect((await post(w.t.app, w.api('recycle/clear'), undefined, { token: w.designer })).status).toBe(
        200,
      );
      expect(await recycle(w.designer)).toEqual([]);
      expect((await w.list(w.designer, y)).status).toBe(404);
    });

    it('refuses a batch with one id the caller may not delete, deleting nothing', async () => {
      const mine = await w.folder(w.shoeDesigner, 'Mine to keep');
      const notMine = await w.folder(w.designer, 'Not theirs');
      const { status } = await post(
        w.t.app,
        w.api('file/batch-del'),
        { folderIdList: [mine, notMine] },
        { token: w.shoeDesigner },
      );
      expect(status).toBe(404);
      expect(await w.names(w.shoeDesigner, 'all')).toContain('Mine to keep');
      const empty = await post(
        w.t.app,
        w.api('file/batch-del'),
        { idList: [], folderIdList: [] },
        { token: w.designer },
      );
      expect(empty.status).toBe(400);
    });
  });

  describe('favourites and recent', () => {
    it('favourites, lists and un-favourites; deleted items drop out of the list', async () => {
      const a = await w.folder(w.designer, 'Fav A');
      const b = await w.folder(w.designer, 'Fav B');
      await get(w.t.app, w.api(`collect/file-collect?folderDataId=${a}`), { token: w.designer });
      w.t.clock.advance(1000);
      await get(w.t.app, w.api(`collect/file-collect?folderDataId=${b}`), { token: w.designer });
      await get(w.t.app, w.api(`collect/file-collect?folderDataId=${b}`), { token: w.designer });
      const favourites = async () =>
        (await call(w.t.app, endpoints.collectedItems, { token: w.designer })).list;
      expect((await favourites()).map((i) => [i.name, i.collected])).toEqual([
        ['Fav B', true],
        ['Fav A', true],
      ]);
      await get(w.t.app, w.api(`collect/file-cancel-collect?folderDataId=${a}`), { token: w.designer });
      await post(w.t.app, w.api('file/batch-del'), { folderIdList: [b] }, { token: w.designer });
      expect(await favourites()).toEqual([]);
      const hidden = await get(w.t.app, w.api(`collect/file-collect?folderDataId=${a}`), { token: w.sales });
      expect(hidden.status).toBe(404);
    });

    it('records opened folders as recently viewed, most recent first', async () => {
      const a = await w.folder(w.designer, 'Seen A');
      const b = await w.folder(w.designer, 'Seen B');
      for (const id of [a, b, a]) {
        const opened = await post(
          w.t.app,
          w.api('file/check-view-folder'),
          { folderDataId: id },
          { token: w.designer },
        );
        expect(opened.status).toBe(200);
        w.t.clock.advance(1000);
      }
      const recent = await call(w.t.app, endpoints.recentFiles, {
        token: w.designer,
        query: { pageSize: 2 },
      });
      expect(recent.list.map((i) => i.name)).toEqual(['Seen A', 'Seen B']);
      const refused = await post(
        w.t.app,
        w.api('file/check-view-folder'),
        { folderDataId: a },
        { token: w.sales },
      );
      expect(refused.status).toBe(404);
    });

    it('lists the folder tree for pickers with whether each folder has subfolders', async () => {
      const top = await w.folder(w.designer, 'Picker top');
      await w.folder(w.designer, 'Picker child', top);
      const nodes = await call(w.t.app, endpoints.folderSelector, {
        token: w.designer,
        query: { currentFolderId: 'all' },
      });
      const node = nodes.find((n) => n.id === top);
      expect(node).toMatchObject({ name: 'Picker top', hasChildren: true, path: '/Picker top' });
      const children = await get(w.t.app, w.api(`file/selector-v2?currentFolderId=${top}`), {
        token: w.designer,
      });
      expect(children.body.result).toEqual([
        expect.objectContaining({
          name: 'Picker child',
          hasChildren: false,
          path: '/Picker top/Picker child',
        }),
      ]);
    });

    it('lists my uploads (files only, none yet)', async () => {
      const { status, body } = await post(w.t.app, w.api('file-upload/user-uploaded'), undefined, {
        token: w.designer,
      });
      expect(status).toBe(200);
      expect(body.result).toMatchObject({ list: [], hasMore: false });
      expect(w.designDeptId).toBeGreaterThan(1);
    });
  });
});
