import { randomBytes } from 'node:crypto';
import { endpoints } from '@dam/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../call';
import { uploadFiles } from '../factories';
import {
  createMatrixWorld,
  EDIT,
  GET,
  type MatrixWorld,
  POST,
  type Row,
  UNKNOWN,
  VIEW,
  type Who,
} from '../scenarios/permission-matrix';

/**
 * The permission matrix over folders, listings, the recycle bin and file details (items and files
 * modules), and how a hidden item answers its owner's colleague and a rename onto its name.
 * The matrix itself, its callers and what each row checks: server/test/scenarios/permission-matrix.ts.
 */
describe('permission matrix: a caller from a sibling department is refused and nothing changes', () => {
  let w: MatrixWorld;
  beforeAll(async () => {
    w = await createMatrixWorld();
  });
  afterAll(() => w?.t.close());

  const rows: Row[] = [
    // Folders and listings (items module)
    {
      route: 'GET file/all-file-v2',
      needs: VIEW,
      target: 'folder',
      request: (i) => GET(`file/all-file-v2?folderDataId=${i.folder}`),
    },
    {
      route: 'POST file/folder',
      needs: VIEW,
      target: 'folder',
      request: (i) => POST('file/folder', { folderDataId: i.folder }),
    },
    {
      route: 'POST file/check-view-folder',
      needs: VIEW,
      target: 'folder',
      request: (i) => POST('file/check-view-folder', { folderDataId: i.folder }),
    },
    {
      route: 'GET file/selector-v2',
      needs: VIEW,
      target: 'folder',
      request: (i) => GET(`file/selector-v2?currentFolderId=${i.folder}`),
    },
    {
      route: 'GET file-upload/selector',
      needs: VIEW,
      target: 'folder',
      request: (i) => GET(`file-upload/selector?currentFolderId=${i.folder}`),
    },
    {
      route: 'POST file/creat-folder (parentId)',
      needs: 'upload into the folder',
      target: 'folder',
      onlooker: 'SE_502',
      request: (i) =>
        POST('file/creat-folder', {
          folderName: `sub ${randomBytes(3).toString('hex')}`,
          parentId: i.folder,
        }),
    },
    {
      route: 'POST file/update-folder (rename)',
      needs: EDIT,
      target: 'folder',
      onlooker: 'SE_502',
      request: (i) =>
        POST('file/update-folder', { folderDataId: i.folder, folderName: `renamed ${i.folder}` }),
    },
    {
      route: 'POST file/update-folder (parentId: move own folder into the target)',
      needs: 'upload into the target folder',
      target: 'folder',
      onlooker: 'SE_502',
      prepare: (who) => w.ownFolder(who),
      request: (i, own) => POST('file/update-folder', { folderDataId: own, parentId: i.folder }),
    },
    {
      route: 'POST file/batch-move (the item)',
      fresh: 'file',
      needs: EDIT,
      target: 'file',
      onlooker: 'SE_502',
      request: (i) => POST('file/batch-move', { folderDataIdList: [i.file], targetFolderId: 'all' }),
    },
    {
      route: 'POST file/batch-move (targetFolderId)',
      needs: 'upload into the target folder',
      target: 'folder',
      onlooker: 'SE_502',
      prepare: (who) => w.ownFolder(who),
      request: (i, own) => POST('file/batch-move', { folderDataIdList: [own], targetFolderId: i.folder }),
    },
    {
      route: 'POST file/batch-del',
      fresh: 'file',
      needs: EDIT,
      target: 'file',
      onlooker: 'SE_502',
      request: (i) => POST('file/batch-del', { idList: [i.file] }),
    },
    {
      route: 'GET collect/file-collect',
      needs: VIEW,
      target: 'file',
      request: (i) => GET(`collect/file-collect?folderDataId=${i.file}`),
    },
    {
      route: 'GET collect/file-cancel-collect',
      needs: VIEW,
      target: 'file',
      request: (i) => GET(`collect/file-cancel-collect?folderDataId=${i.file}`),
    },
    {
      route: 'GET recycle/batch-restore',
      fresh: 'recycled',
      needs: "in the caller's own recycle bin",
      target: 'recycled',
      onlooker: 'SE_404',
      control: 'bOwner',
      request: (i) => GET(`recycle/batch-restore?ids=${i.recycled}`),
    },
    {
      route: 'GET recycle/batch-del',
      fresh: 'recycled',
      needs: "in the caller's own recycle bin",
      target: 'recycled',
      onlooker: 'SE_404',
      control: 'bOwner',
      request: (i) => GET(`recycle/batch-del?ids=${i.recycled}`),
    },
    // File detail (files module)
    {
      route: 'GET file/detail',
      needs: VIEW,
      target: 'file',
      request: (i) => GET(`file/detail?id=${i.file}`),
    },
    {
      route: 'POST file/edit',
      needs: EDIT,
      target: 'file',
      onlooker: 'SE_502',
      request: (i) => POST('file/edit', { folderDataId: i.file, artNum: 'PROBE-1' }),
    },
    {
      route: 'GET file/hide',
      fresh: 'file',
      needs: EDIT,
      target: 'file',
      onlooker: 'SE_502',
      request: (i) => GET(`file/hide?folderDataId=${i.file}&format=png`),
    },
    {
      route: 'GET file/delete-record (folderDataId)',
      fresh: 'file',
      needs: EDIT,
      target: 'file',
      onlooker: 'SE_502',
      request: (i) => GET(`file/delete-record?id=${i.record}&folderDataId=${i.file}`),
    },
  ];

  it.each(rows.map((row) => [row.route, row] as const))('%s', async (_route, row) => {
    await w.probe(row);
  });

  it("hides a private item from its owner's own department colleague, like an unknown id", async () => {
    const owner = w.tokens.bOwner;
    const secret = await call(w.t.app, endpoints.createFolder, {
      token: owner,
      body: { folderName: `B private ${w.counter++}`, visibility: 'private' },
    });
    const before = await w.snapshot();
    const hiddenAnswer = await w.send(
      'bPeer',
      POST('file/update-folder', { folderDataId: secret.folderId, folderName: 'x' }),
    );
    expect(await w.snapshot()).toEqual(before);
    expect([hiddenAnswer.status, hiddenAnswer.errorCode]).toEqual([404, 'SE_404']);
    expect(
      await w.send('bPeer', POST('file/update-folder', { folderDataId: UNKNOWN, folderName: 'x' })),
    ).toEqual(hiddenAnswer);
    expect(
      (await w.send('bOwner', POST('file/check-view-folder', { folderDataId: secret.folderId }))).status,
    ).toBe(200);
  });

  it('renaming onto the name of a hidden file says only that the name is taken, not what the file holds', async () => {
    w.counter += 1;
    const taken = `Taken ${w.counter}`;
    await uploadFiles(w.t, w.tokens.bOwner, [{ fileName: `${taken}.png`, bytes: Buffer.from('png') }], {
      path: '/',
    });
    const fileNamed = async (who: Who, name: string) => {
      const [record] = await uploadFiles(
        w.t,
        w.tokens[who],
        [{ fileName: `${name}.jpg`, bytes: Buffer.from(name) }],
        {
          path: '/',
        },
      );
      const detail = await w.t.database.db
        .selectFrom('uploads')
        .select('item_id')
        .where('id', '=', record as number)
        .executeTakeFirstOrThrow();
      return detail.item_id as number;
    };
    const mine = await fileNamed('sibling', `Mine ${w.counter}`);
    const rename = (who: Who, id: number, confirmMerge?: boolean) =>
      w.send(
        who,
        POST('file/edit', { folderDataId: id, name: taken, ...(confirmMerge ? { confirmMerge } : {}) }),
      );

    // The hidden png shares no format with the sibling's jpg: a merge would be offered if it were
    // visible. Hidden, the answer is "name taken" whatever its formats, and nothing changes.
    const before = await w.snapshot();
    expect((await rename('sibling', mine)).errorCode).toBe('SEF_01');
    expect((await rename('sibling', mine, true)).errorCode).toBe('SEF_01');
    expect(await w.snapshot()).toEqual(before);
    // A colleague of the owner sees it: the merge is offered (positive control).
    const peers = await fileNamed('bPeer', `Peer ${w.counter}`);
    expect((await rename('bPeer', peers)).errorCode).toBe('SEF_07');
  });
});
