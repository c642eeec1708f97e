import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFolder, uploadFiles } from '../../../test/factories';
import { createDriverApp, type TestApp } from '../../../test/harness';
import { readZip } from '../../../test/zip';

/**
 * Issue 9 item 7: names stored before the name rules existed (or written straight into the
 * database) must not break a zip. A folder named `..` used to make yazl throw ("invalid relative
 * path"), truncating or failing every zip of any folder above it.
 */
describe('zip entry names of stored names that are unsafe in a path', () => {
  let t: TestApp & { token: string };
  let outerId: number;
  let archiveId: number;

  const renameInDatabase = async (id: number, name: string) => {
    const item = await t.database.db
      .selectFrom('items')
      .select(['name', 'folder_path', 'type'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    await t.database.db.updateTable('items').set({ name }).where('id', '=', id).execute();
    if (item.type !== 1) return;
    const oldFull = `${item.folder_path === '/' ? '' : item.folder_path}/${item.name}`;
    const newFull = `${item.folder_path === '/' ? '' : item.folder_path}/${name}`;
    await sql`UPDATE items SET folder_path = ${newFull} || substr(folder_path, ${oldFull.length + 1})
      WHERE folder_path = ${oldFull} OR folder_path LIKE ${`${oldFull}/%`}`.execute(t.database.db);
  };
  const itemOf = async (uploadId: number) =>
    (
      await t.database.db
        .selectFrom('uploads')
        .select('item_id')
        .where('id', '=', uploadId)
        .executeTakeFirstOrThrow()
    ).item_id as number;

  beforeAll(async () => {
    t = await createDriverApp('local');
    outerId = await createFolder(t, t.token, 'Outer');
    archiveId = await createFolder(t, t.token, 'Archive', outerId);
    const dotDot = await createFolder(t, t.token, 'DotDot', archiveId);
    const drive = await createFolder(t, t.token, 'Drive', archiveId);
    const ids = await uploadFiles(
      t,
      t.token,
      [
        { fileName: 'outside.txt', bytes: Buffer.from('outside') },
        { fileName: 'inside.txt', bytes: Buffer.from('inside'), path: 'DotDot' },
        { fileName: 'deeper.txt', bytes: Buffer.from('deeper'), path: 'DotDot/Deeper' },
        { fileName: 'root.txt', bytes: Buffer.from('root'), path: 'Drive' },
        { fileName: 'device.txt', bytes: Buffer.from('device') },
        { fileName: 'slashes.txt', bytes: Buffer.from('slashes') },
        { fileName: 'underscore.txt', bytes: Buffer.from('underscore') },
      ],
      { targetFolderId: archiveId },
    );
    await renameInDatabase(dotDot, '..');
    await renameInDatabase(drive, 'C:');
    await renameInDatabase(await itemOf(ids[4] as number), 'CON');
    await renameInDatabase(await itemOf(ids[5] as number), 'a\\b\u0001c');
    // `_` is what `..` becomes: the two must stay apart in the zip.
    await renameInDatabase(await itemOf(ids[6] as number), '_');
  });
  afterAll(() => t.close());

  const download = (body: Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url: '/ske-api/v1_0/file/batch-download',
      payload: body,
      headers: { token: t.token, lang: 'en' },
    });

  it('zips a folder holding `..`, `C:`, `CON` and a name with `\\` and control characters', async () => {
    const response = await download({ folderDataIdList: [archiveId] });
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
    const zip = await readZip(response.rawPayload);
    const names = [...zip.keys()].sort();
    expect(names).toEqual([
      'Archive/CON_.txt',
      'Archive/C_/root.txt',
      'Archive/_.txt',
      'Archive/_/Deeper/deeper.txt',
      'Archive/_/inside.txt',
      'Archive/a_bc.txt',
      'Archive/outside.txt',
    ]);
    expect(zip.get('Archive/_/Deeper/deeper.txt')?.toString()).toBe('deeper');
    expect(zip.get('Archive/_.txt')?.toString()).toBe('underscore');
    for (const name of names) {
      expect(name.split('/')).not.toContain('..');
      expect(name).not.toContain('\\');
      expect([...name].some((c) => (c.codePointAt(0) ?? 0) < 0x20)).toBe(false);
    }
  });

  it('zips any folder above it too', async () => {
    const response = await download({
      downloadFolderDataDTOList: [{ folderDataId: outerId, fileFormatList: ['txt'] }],
    });
    expect(response.statusCode).toBe(200);
    const zip = await readZip(response.rawPayload);
    expect(zip.get('Outer/Archive/_/inside.txt')?.toString()).toBe('inside');
    expect(zip.get('Outer/Archive/outside.txt')?.toString()).toBe('outside');
    expect(zip.has('_download-problems.txt')).toBe(false);
  });

  it('zips by article number when the article number itself is `..`', async () => {
    await t.database.db.updateTable('items').set({ art_num: '..' }).where('name', '=', 'outside').execute();
    const response = await t.app.inject({
      method: 'POST',
      url: '/ske-api/v1_0/file/download-by-art-num',
      payload: { artNumList: ['..'] },
      headers: { token: t.token, lang: 'en' },
    });
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
    const zip = await readZip(response.rawPayload);
    expect([...zip.keys()]).toEqual(['_/outside.txt']);
  });

  it('names a single file download safely too', async () => {
    const device = await t.database.db
      .selectFrom('items')
      .select('id')
      .where('name', '=', 'CON')
      .executeTakeFirstOrThrow();
    const response = await download({
      downloadFolderDataDTOList: [{ folderDataId: device.id, fileFormatList: ['txt'] }],
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toContain("filename*=UTF-8''CON_.txt");
  });
});
