import { COLLECTION_ITEMS_MAX, endpoints, type LogEntry, OperationCode } from '@dam/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attempt, call } from '../../../test/call';
import {
  givenDepartment,
  givenFile,
  givenFolder,
  givenSignedInUser,
  signInAdmin,
  uniqueName,
} from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/harness';

/** Files seen within one's own department only (a brand's usual role). */
const DEPT_SCOPES = { view: 'dept', upload: 'dept', download: 'dept', share: 'dept' } as const;

/**
 * Collections (issue 43): the permission matrix. The owner lets a colleague of a sibling
 * department in as editor and one of their own as viewer; a fourth user is a stranger. Each sees
 * only the files they may see anyway (and how many are hidden), may change only what their role
 * allows, and a refused call changes nothing.
 */
describe('collections', { timeout: 60_000 }, () => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await createTestApp({ LOGIN_RATE_LIMIT: '1000' });
    admin = await signInAdmin(t);
  });
  afterAll(() => t.close());

  /** Two sibling departments, their people, a file of each, and a collection of the first's. */
  async function givenCampaign() {
    const [deptA, deptB] = [await givenDepartment(t), await givenDepartment(t)];
    const owner = await givenSignedInUser(t, { deptId: deptA.id, scopes: DEPT_SCOPES });
    const viewer = await givenSignedInUser(t, { deptId: deptA.id, scopes: DEPT_SCOPES });
    const editor = await givenSignedInUser(t, { deptId: deptB.id, scopes: DEPT_SCOPES });
    const stranger = await givenSignedInUser(t, { deptId: deptB.id, scopes: DEPT_SCOPES });
    const fileA = await givenFile(t, owner.token, { fileName: `${uniqueName('LOOK-A')}.txt` });
    const folderA = await givenFolder(t, owner.token);
    const fileB = await givenFile(t, editor.token, { fileName: `${uniqueName('LOOK-B')}.txt` });
    const collection = await call(t.app, endpoints.createCollection, {
      token: owner.token,
      body: { name: uniqueName('SS27 launch'), description: 'from three folders' },
    });
    return { owner, viewer, editor, stranger, fileA, folderA, fileB, collection };
  }

  const itemsOf = (token: string, id: number) =>
    call(t.app, endpoints.collectionItems, { token, query: { id } });
  const logged = async (code: OperationCode, collectionId: number) =>
    (
      await call(t.app, endpoints.operationLog, {
        token: admin,
        body: { operatorCodes: [code], pageSize: 100 },
      })
    ).list.filter((entry: LogEntry) => entry.details.collectionId === collectionId);

  it('gathers files and folders by reference, each member seeing only what they may see, every change logged', async () => {
    const c = await givenCampaign();
    const id = c.collection.id;
    const added = await call(t.app, endpoints.addToCollection, {
      token: c.owner.token,
      body: { id, itemIds: [c.fileA.id, c.folderA.id, c.fileA.id] },
    });
    expect(added).toEqual({ changed: 2, itemCount: 2 });
    await call(t.app, endpoints.saveCollectionMembers, {
      token: c.owner.token,
      body: {
        id,
        members: [
          { userId: c.editor.id, role: 'editor' },
          { userId: c.viewer.id, role: 'viewer' },
        ],
      },
    });

    // The editor (a sibling department) sees the collection, none of the owner's files, and the count.
    const mine = await call(t.app, endpoints.collections, { token: c.editor.token });
    expect(mine.find((x) => x.id === id)).toMatchObject({ role: 'editor', itemCount: 2, memberCount: 2 });
    const forEditor = await itemsOf(c.editor.token, id);
    expect(forEditor.list).toEqual([]);
    expect(forEditor.hiddenCount).toBe(2);
    expect(JSON.stringify(forEditor)).not.toContain(c.fileA.name);

    // The editor adds their own file: the owner (another department's scope) cannot see it.
    await call(t.app, endpoints.addToCollection, {
      token: c.editor.token,
      body: { id, itemIds: [c.fileB.id] },
    });
    const forOwner = await itemsOf(c.owner.token, id);
    expect(forOwner.list.map((item) => item.id)).toEqual([c.fileA.id, c.folderA.id]);
    expect(forOwner.hiddenCount).toBe(1);
    const forViewer = await itemsOf(c.viewer.token, id);
    expect(forViewer.list.map((item) => item.id)).toEqual([c.fileA.id, c.folderA.id]);
    expect(forViewer.collection.role).toBe('viewer');

    expect(await logged(OperationCode.createCollection, id)).toHaveLength(1);
    const adds = await logged(OperationCode.addToCollection, id);
    expect(adds).toHaveLength(2);
    expect((await logged(OperationCode.saveCollectionMembers, id))[0]?.details.added).toHaveLength(2);
  });

  it('refuses what a role does not allow, and a refused call changes nothing', async () => {
    const c = await givenCampaign();
    const id = c.collection.id;
    await call(t.app, endpoints.addToCollection, {
      token: c.owner.token,
      body: { id, itemIds: [c.fileA.id] },
    });
    await call(t.app, endpoints.saveCollectionMembers, {
      token: c.owner.token,
      body: {
        id,
        members: [
          { userId: c.editor.id, role: 'editor' },
          { userId: c.viewer.id, role: 'viewer' },
        ],
      },
    });
    const refusals: Array<[string, Promise<{ errorCode: string | null }>, string]> = [
      // An editor may not add a file they cannot see, nor manage members, nor delete.
      [
        'editor adds an unseen file',
        attempt(t.app, endpoints.addToCollection, {
          token: c.editor.token,
          body: { id, itemIds: [c.fileA.id, c.fileB.id] },
        }),
        'SE_404',
      ],
      [
        'editor sets members',
        attempt(t.app, endpoints.saveCollectionMembers, { token: c.editor.token, body: { id, members: [] } }),
        'SE_502',
      ],
      [
        'editor deletes',
        attempt(t.app, endpoints.deleteCollection, { token: c.editor.token, body: { id } }),
        'SE_502',
      ],
      // A viewer only looks.
      [
        'viewer adds',
        attempt(t.app, endpoints.addToCollection, {
          token: c.viewer.token,
          body: { id, itemIds: [c.fileA.id] },
        }),
        'SE_502',
      ],
      [
        'viewer removes',
        attempt(t.app, endpoints.removeFromCollection, {
          token: c.viewer.token,
          body: { id, itemIds: [c.fileA.id] },
        }),
        'SE_502',
      ],
      [
        'viewer renames',
        attempt(t.app, endpoints.editCollection, { token: c.viewer.token, body: { id, name: 'mine now' } }),
        'SE_502',
      ],
      [
        'viewer moves',
        attempt(t.app, endpoints.moveInCollection, {
          token: c.viewer.token,
          body: { id, itemId: c.fileA.id, beforeItemId: null },
        }),
        'SE_502',
      ],
      // A stranger does not learn the collection exists.
      [
        'stranger lists items',
        attempt(t.app, endpoints.collectionItems, { token: c.stranger.token, query: { id } }),
        'SE_404',
      ],
      [
        'stranger reads members',
        attempt(t.app, endpoints.collectionMembers, { token: c.stranger.token, query: { id } }),
        'SE_404',
      ],
      [
        'stranger adds',
        attempt(t.app, endpoints.addToCollection, {
          token: c.stranger.token,
          body: { id, itemIds: [c.fileB.id] },
        }),
        'SE_404',
      ],
      [
        'owner names an unknown member',
        attempt(t.app, endpoints.saveCollectionMembers, {
          token: c.owner.token,
          body: { id, members: [{ userId: 999_999, role: 'viewer' }] },
        }),
        'SE_400',
      ],
    ];
    for (const [what, answer, code] of refusals) expect((await answer).errorCode, what).toBe(code);
    // Removing what one cannot see is no change (and says nothing of what the collection holds).
    const unseen = await call(t.app, endpoints.removeFromCollection, {
      token: c.editor.token,
      body: { id, itemIds: [c.fileA.id] },
    });
    expect(unseen).toEqual({ changed: 0, itemCount: 1 });

    const after = await itemsOf(c.owner.token, id);
    expect(after.collection).toMatchObject({ name: c.collection.name, itemCount: 1, memberCount: 2 });
    expect(after.list.map((item) => item.id)).toEqual([c.fileA.id]);
    expect(
      (await call(t.app, endpoints.collections, { token: c.stranger.token })).map((x) => x.id),
    ).not.toContain(id);
    expect(await logged(OperationCode.addToCollection, id)).toHaveLength(1);
  });

  it('lets a member go: their next call finds nothing; deleting the collection ends it for all', async () => {
    const c = await givenCampaign();
    const id = c.collection.id;
    await call(t.app, endpoints.saveCollectionMembers, {
      token: c.owner.token,
      body: { id, members: [{ userId: c.editor.id, role: 'editor' }] },
    });
    expect((await itemsOf(c.editor.token, id)).collection.role).toBe('editor');
    await call(t.app, endpoints.saveCollectionMembers, { token: c.owner.token, body: { id, members: [] } });
    expect(
      (await attempt(t.app, endpoints.collectionItems, { token: c.editor.token, query: { id } })).errorCode,
    ).toBe('SE_404');
    expect((await logged(OperationCode.saveCollectionMembers, id))[0]?.details.removed).toHaveLength(1);

    await call(t.app, endpoints.deleteCollection, { token: c.owner.token, body: { id } });
    expect(
      (await attempt(t.app, endpoints.collectionItems, { token: c.owner.token, query: { id } })).errorCode,
    ).toBe('SE_404');
    expect(
      (await attempt(t.app, endpoints.deleteCollection, { token: c.owner.token, body: { id } })).errorCode,
    ).toBe('SE_404');
    expect(await logged(OperationCode.deleteCollection, id)).toHaveLength(1);
  });

  it('refuses a second collection of the same name, and more than its limit of items', async () => {
    const c = await givenCampaign();
    const again = await attempt(t.app, endpoints.createCollection, {
      token: c.owner.token,
      body: { name: c.collection.name.toUpperCase() },
    });
    expect(again.errorCode).toBe('SECO_01');
    // Another owner may use the name.
    await call(t.app, endpoints.createCollection, {
      token: c.editor.token,
      body: { name: c.collection.name },
    });

    const id = c.collection.id;
    await call(t.app, endpoints.addToCollection, {
      token: c.owner.token,
      body: { id, itemIds: [c.fileA.id] },
    });
    // One short of full: 9,998 more files (copies of the first's row, made here) referenced.
    await sql`
      INSERT INTO items (type, parent_id, name, id_path, folder_path, owner_id, dept_path, visibility, created_at, updated_at)
      SELECT type, parent_id, name || '-' || g, id_path, folder_path, owner_id, dept_path, visibility, now(), now()
        FROM items, generate_series(1, ${COLLECTION_ITEMS_MAX - 2}) AS g WHERE id = ${c.fileA.id}`.execute(
      t.database.db,
    );
    await sql`
      INSERT INTO collection_items (collection_id, item_id, position)
      SELECT ${id}, i.id, i.id FROM items AS i
       WHERE i.owner_id = ${c.owner.id} AND i.name LIKE ${`${c.fileA.name}-%`}`.execute(t.database.db);
    expect((await itemsOf(c.owner.token, id)).collection.itemCount).toBe(COLLECTION_ITEMS_MAX - 1);
    const full = await attempt(t.app, endpoints.addToCollection, {
      token: c.owner.token,
      body: { id, itemIds: [c.folderA.id, (await givenFile(t, c.owner.token)).id] },
    });
    expect(full.errorCode).toBe('SECO_02');
    expect(full.errorDesc).toContain(String(COLLECTION_ITEMS_MAX));
    expect((await itemsOf(c.owner.token, id)).collection.itemCount).toBe(COLLECTION_ITEMS_MAX - 1);
    const refs = await t.database.db
      .selectFrom('collection_items')
      .select('item_id')
      .where('collection_id', '=', id)
      .where('item_id', 'in', [c.folderA.id])
      .execute();
    expect(refs).toEqual([]);
  });

  it('makes a collection with its first items in one step, or not at all', async () => {
    const c = await givenCampaign();
    const name = uniqueName('with items');
    const refused = await attempt(t.app, endpoints.createCollection, {
      token: c.owner.token,
      body: { name, itemIds: [c.fileA.id, c.fileB.id] },
    });
    expect(refused.errorCode).toBe('SE_404');
    expect(
      (await call(t.app, endpoints.collections, { token: c.owner.token })).map((x) => x.name),
    ).not.toContain(name);
    const made = await call(t.app, endpoints.createCollection, {
      token: c.owner.token,
      body: { name, itemIds: [c.fileA.id, c.folderA.id] },
    });
    expect(made.itemCount).toBe(2);
    expect((await logged(OperationCode.addToCollection, made.id))[0]?.itemCount).toBe(2);
  });

  it('keeps a file merged into another by a rename in its collections', async () => {
    const c = await givenCampaign();
    const id = c.collection.id;
    const base = uniqueName('MERGE');
    const kept = await givenFile(t, c.owner.token, { fileName: `${base}.txt` });
    const merged = await givenFile(t, c.owner.token, { fileName: `${base}-2.csv` });
    await call(t.app, endpoints.addToCollection, {
      token: c.owner.token,
      body: { id, itemIds: [merged.id] },
    });
    await call(t.app, endpoints.editFile, {
      token: c.owner.token,
      body: { folderDataId: merged.id, name: base, confirmMerge: true },
    });
    expect((await itemsOf(c.owner.token, id)).list.map((item) => item.id)).toEqual([kept.id]);
  });

  it('orders by drag and drop, renumbering when neighbours run out of room', async () => {
    const c = await givenCampaign();
    const id = c.collection.id;
    const files = [c.fileA, await givenFile(t, c.owner.token), await givenFile(t, c.owner.token)].map(
      (f) => f.id,
    );
    await call(t.app, endpoints.addToCollection, { token: c.owner.token, body: { id, itemIds: files } });
    const order = async () => (await itemsOf(c.owner.token, id)).list.map((item) => item.id);
    const move = (itemId: number, beforeItemId: number | null) =>
      call(t.app, endpoints.moveInCollection, { token: c.owner.token, body: { id, itemId, beforeItemId } });
    const [a, b, x] = files as [number, number, number];
    await move(x, a);
    expect(await order()).toEqual([x, a, b]);
    await move(x, null);
    expect(await order()).toEqual([a, b, x]);
    // Each move halves the room after a: past 53 halvings a double has no room left between them,
    // so the order holds only if the collection is renumbered on the way.
    for (let i = 0; i < 35; i++) {
      await move(x, b);
      await move(b, x);
    }
    expect(await order()).toEqual([a, b, x]);
    const positions = await t.database.db
      .selectFrom('collection_items')
      .select('position')
      .where('collection_id', '=', id)
      .orderBy('position')
      .execute();
    const gaps = positions.slice(1).map((p, i) => Number(p.position) - Number(positions[i]?.position));
    expect(Math.min(...gaps)).toBeGreaterThan(1e-6);
    expect(
      (
        await attempt(t.app, endpoints.moveInCollection, {
          token: c.owner.token,
          body: { id, itemId: a, beforeItemId: 999_999 },
        })
      ).errorCode,
    ).toBe('SE_404');
  });

  it('hides what went to the recycle bin and drops what was deleted for good; concurrent adds are one', async () => {
    const c = await givenCampaign();
    const id = c.collection.id;
    const gone = await givenFile(t, c.owner.token);
    const [one, two] = await Promise.all([
      attempt(t.app, endpoints.addToCollection, {
        token: c.owner.token,
        body: { id, itemIds: [c.fileA.id, gone.id] },
      }),
      attempt(t.app, endpoints.addToCollection, {
        token: c.owner.token,
        body: { id, itemIds: [c.fileA.id, gone.id] },
      }),
    ]);
    expect([one.result?.changed, two.result?.changed].sort()).toEqual([0, 2]);

    await call(t.app, endpoints.deleteItems, { token: c.owner.token, body: { idList: [gone.id] } });
    const binned = await itemsOf(c.owner.token, id);
    expect(binned.list.map((item) => item.id)).toEqual([c.fileA.id]);
    expect(binned.hiddenCount).toBe(1);
    await call(t.app, endpoints.purgeItems, { token: c.owner.token, query: { ids: String(gone.id) } });
    const purged = await itemsOf(c.owner.token, id);
    expect(purged.hiddenCount).toBe(0);
    expect(purged.collection.itemCount).toBe(1);
  });
});
