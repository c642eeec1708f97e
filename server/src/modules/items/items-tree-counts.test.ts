import { endpoints, FOLDER_COUNT_CAP } from '@dam/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resultOf } from '../../../test/call';
import { givenFiles } from '../../../test/factories';
import { get } from '../../../test/harness';
import { createItemsWorld, type ItemsWorld } from '../../../test/scenarios/items';

/**
 * Issue 39: the folder tree beside a listing shows, per subfolder, how many of its own children
 * (files and folders, not the subtree) the caller may see, counted up to FOLDER_COUNT_CAP.
 */
describe('item counts of the folder tree', () => {
  let w: ItemsWorld;
  let top: number;
  let big: number;

  beforeAll(async () => {
    w = await createItemsWorld();
    top = await w.folder(w.designer, 'Counted');
    const inner = await w.folder(w.designer, 'Inner', top);
    await w.folder(w.designer, 'Drafts', top, 'private');
    await givenFiles(
      w.t,
      w.designer,
      ['a.jpg', 'b.jpg', 'c.png'].map((fileName) => ({ fileName, bytes: Buffer.from(fileName) })),
      { targetFolderId: top },
    );
    // Files deeper down are not the folder's own children.
    await givenFiles(w.t, w.designer, [{ fileName: 'deep.jpg', bytes: Buffer.from('deep') }], {
      targetFolderId: inner,
    });
    big = await w.folder(w.designer, 'Big', top);
    await sql`INSERT INTO items (type, parent_id, name, id_path, folder_path, owner_id, dept_path)
      SELECT 2, ${big}, 'seeded-' || g, '/x' || g || '/', '/Counted/Big', owner_id, dept_path
      FROM generate_series(1, ${FOLDER_COUNT_CAP + 5}::int) g, (SELECT owner_id, dept_path FROM items WHERE id = ${big}) o`.execute(
      w.t.database.db,
    );
  });
  afterAll(() => w.t.close());

  const tree = async (token: string, folder: number | 'all', withCounts?: '0' | '1') => {
    const query = `currentFolderId=${folder}${withCounts ? `&withCounts=${withCounts}` : ''}`;
    const { status, body } = await get(w.t.app, `/ske-api/v1_0/file/selector-v2?${query}`, {
      token,
      lang: 'en',
    });
    expect(status).toBe(200);
    return resultOf(endpoints.folderSelector, body);
  };

  it('counts each subfolder’s own children the caller may see, capped', async () => {
    const top = (await tree(w.designer, 'all', '1')).find((node) => node.name === 'Counted');
    // 3 files and 3 folders, the private one the designer's own.
    expect(top?.itemCount).toBe(6);
    const below = await tree(w.designer, top?.id as number, '1');
    expect(Object.fromEntries(below.map((node) => [node.name, node.itemCount]))).toEqual({
      Big: FOLDER_COUNT_CAP,
      Drafts: 0,
      Inner: 1,
    });
  });

  it('leaves out what the caller may not see', async () => {
    // The administrator sees every shared item, not the designer's private folder.
    const top = (await tree(w.admin, 'all', '1')).find((node) => node.name === 'Counted');
    expect(top?.itemCount).toBe(5);
  });

  it('gives no counts unless asked (the pickers)', async () => {
    for (const nodes of [await tree(w.designer, 'all'), await tree(w.designer, 'all', '0')])
      expect(nodes.every((node) => node.itemCount === undefined)).toBe(true);
  });

  it('refuses another value of withCounts', async () => {
    const { status, body } = await get(w.t.app, `/ske-api/v1_0/file/selector-v2?withCounts=yes`, {
      token: w.designer,
      lang: 'en',
    });
    expect(status).toBe(400);
    expect(body.errorDesc).toContain('withCounts');
  });
});
