import { endpoints } from '@dam/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attempt, call } from '../../../test/call';
import {
  givenDepartment,
  givenFile,
  givenFolder,
  givenSignedInUser,
  givenTag,
  uniqueName,
  uploadFiles,
} from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/harness';

/**
 * "Add as new version" from the near-duplicate warning (issue 17): an upload entry naming a file
 * goes to that file's folder under its name and joins it as a version, whatever the batch's target.
 */
type Person = { id: number; token: string };

/** The people of both parts: two in design who may change its files, and readers and a stranger. */
async function people(t: TestApp) {
  const design = await givenDepartment(t);
  const sales = await givenDepartment(t);
  const scopes = { view: 'dept', upload: 'dept', download: 'dept' } as const;
  return {
    owner: await givenSignedInUser(t, { deptId: design.id, scopes }),
    colleague: await givenSignedInUser(t, { deptId: design.id, scopes }),
    /** Sees design's files, uploads nowhere. */
    reader: await givenSignedInUser(t, { deptId: design.id, scopes: { view: 'dept' } }),
    /** Sees every department's shared files, may change only sales'. */
    outsider: await givenSignedInUser(t, { deptId: sales.id, scopes: { view: 'all', upload: 'dept' } }),
    stranger: await givenSignedInUser(t, { deptId: sales.id, scopes }),
  };
}

describe('uploading a file as a new version of a similar one', () => {
  let t: TestApp;
  let owner: Person;
  let reader: Person;
  let stranger: Person;

  beforeAll(async () => {
    t = await createTestApp({ LOGIN_RATE_LIMIT: '1000' });
    ({ owner, reader, stranger } = await people(t));
  });
  afterAll(() => t.close());

  const recordsOf = (itemId: number) =>
    t.database.db.selectFrom('uploads').select(['id', 'file_name']).where('item_id', '=', itemId).execute();

  it('joins the chosen file in its own folder, whatever the batch targets and the file is called', async () => {
    const folder = await givenFolder(t, owner.token);
    const original = await givenFile(t, owner.token, {
      fileName: `${uniqueName('SHOE')}.jpg`,
      folderId: folder.id,
    });
    const [id] = await uploadFiles(t, owner.token, [
      { fileName: 'IMG_2041.jpg', bytes: Buffer.from('a smaller copy'), versionOfItemId: original.id },
    ]);
    const records = await recordsOf(original.id);
    expect(records.map((r) => r.id)).toContain(id);
    expect(records.find((r) => r.id === id)?.file_name).toBe(`${original.name}.jpg`);
    // Nothing was made at the top level.
    const top = await call(t.app, endpoints.folderListing, {
      token: owner.token,
      query: { folderDataId: 'all', pageSize: 200 },
    });
    expect(top.list.map((item) => item.name)).not.toContain('IMG_2041');
  });

  it('refuses a file the uploader cannot see or may not change, and creates nothing of the batch', async () => {
    const original = await givenFile(t, owner.token, { fileName: `${uniqueName('BOOT')}.jpg` });
    const before = await t.database.db
      .selectFrom('uploads')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const entries = (versionOfItemId: number) => ({
      path: '/',
      uploadDetailDTOS: [
        { fileName: 'fine.jpg', fileSize: 5, path: '' },
        { fileName: 'copy.jpg', fileSize: 5, path: '', versionOfItemId },
      ],
    });
    const unseen = await attempt(t.app, endpoints.createUploads, {
      token: stranger.token,
      body: entries(original.id),
    });
    expect(unseen.errorCode).toBe('SE_404');
    const unchangeable = await attempt(t.app, endpoints.createUploads, {
      token: reader.token,
      body: entries(original.id),
    });
    expect(unchangeable.errorCode).toBe('SE_502');
    const folder = await givenFolder(t, owner.token);
    const notAFile = await attempt(t.app, endpoints.createUploads, {
      token: owner.token,
      body: entries(folder.id),
    });
    expect(notAFile.errorCode).toBe('SE_404');
    const after = await t.database.db
      .selectFrom('uploads')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('joins the chosen file at the callback even when it was renamed after the batch was made', async () => {
    const folder = await givenFolder(t, owner.token);
    const original = await givenFile(t, owner.token, {
      fileName: `${uniqueName('SOCK')}.jpg`,
      folderId: folder.id,
    });
    const [id] = await uploadFiles(
      t,
      owner.token,
      [{ fileName: 'IMG_3001.jpg', bytes: Buffer.from('a copy'), versionOfItemId: original.id }],
      { path: '/' },
      () =>
        call(t.app, endpoints.editFile, {
          token: owner.token,
          body: { folderDataId: original.id, name: `${original.name}-renamed` },
        }),
    );
    const records = await recordsOf(original.id);
    expect(records.find((r) => r.id === id)?.file_name).toBe(`${original.name}-renamed.jpg`);
    // No file of the old name was made beside it.
    const listing = await call(t.app, endpoints.folderListing, {
      token: owner.token,
      query: { folderDataId: folder.id, pageSize: 200 },
    });
    expect(listing.list.map((item) => item.name)).toEqual([`${original.name}-renamed`]);
  });
});

/**
 * The upload panel's "add as new version" (issue 17): a finished upload joins the similar file it
 * was found to resemble; the file it made alone goes, its tags joining the target.
 */
describe('adding a finished upload as a new version of a similar file', () => {
  let t: TestApp;
  let owner: Person;
  let colleague: Person;
  let reader: Person;
  let stranger: Person;

  beforeAll(async () => {
    t = await createTestApp({ LOGIN_RATE_LIMIT: '1000' });
    // The reader here sees the original but may not change it (another department's).
    ({ owner, colleague, outsider: reader, stranger } = await people(t));
  });
  afterAll(() => t.close());

  const db = () => t.database.db;
  const itemOfUpload = async (uploadId: number) =>
    (await db().selectFrom('uploads').select('item_id').where('id', '=', uploadId).executeTakeFirstOrThrow())
      .item_id as number;
  const itemExists = async (id: number) =>
    (await db().selectFrom('items').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;

  it('moves the upload under the similar file, deletes the file it made and keeps its tags; repeatable', async () => {
    const tag = await givenTag(t);
    const originals = await givenFolder(t, owner.token);
    const incoming = await givenFolder(t, owner.token);
    const original = await givenFile(t, owner.token, {
      fileName: `${uniqueName('SHOE')}.jpg`,
      folderId: originals.id,
    });
    const [uploadId] = await uploadFiles(
      t,
      owner.token,
      [{ fileName: 'IMG_4100.png', bytes: Buffer.from('a recompressed copy'), tagIdList: [tag.id] }],
      { targetFolderId: incoming.id },
    );
    const made = await itemOfUpload(uploadId as number);
    expect(made).not.toBe(original.id);

    const body = { uploadId: uploadId as number, itemId: original.id };
    const attached = await call(t.app, endpoints.similarAttach, { token: owner.token, body });
    expect(attached).toEqual({ itemId: original.id, name: original.name, path: `/${originals.name}` });
    const record = await db()
      .selectFrom('uploads')
      .select(['item_id', 'file_name', 'folder_id', 'version_of_item_id'])
      .where('id', '=', uploadId as number)
      .executeTakeFirstOrThrow();
    expect(record).toEqual({
      item_id: original.id,
      file_name: `${original.name}.png`,
      folder_id: originals.id,
      version_of_item_id: original.id,
    });
    expect(await itemExists(made)).toBe(false);
    // The original now shows both formats, and the tag the upload carried.
    const file = await db()
      .selectFrom('items')
      .select(['file_formats'])
      .where('id', '=', original.id)
      .executeTakeFirstOrThrow();
    expect(file.file_formats?.split(',')).toEqual(['jpg', 'png']);
    const tags = await db()
      .selectFrom('item_tags')
      .select('tag_id')
      .where('item_id', '=', original.id)
      .execute();
    expect(tags.map((row) => Number(row.tag_id))).toContain(tag.id);

    // Asked again (a double click, a retried request): the same answer, nothing else changes.
    expect(await call(t.app, endpoints.similarAttach, { token: owner.token, body })).toEqual(attached);
    const logged = await db()
      .selectFrom('operation_logs')
      .select(['item_ids', 'details'])
      .where('operator_code', '=', 'FILE14')
      .where('operator_id', '=', owner.id)
      .where(sql<boolean>`details->>'uploadId' = ${String(uploadId)}`)
      .orderBy('id')
      .execute();
    expect(logged.map((row) => row.item_ids.map(Number))).toEqual([[original.id], [original.id]]);
    // The first says which file the record left and that it went; the repeat moved nothing.
    expect(logged[0]?.details).toMatchObject({ fromItemId: made, fromItemDeleted: true });
    expect(logged[1]?.details).not.toHaveProperty('fromItemId');
  });

  it('leaves a file the upload joined by name its other records', async () => {
    const folder = await givenFolder(t, owner.token);
    const original = await givenFile(t, owner.token, { fileName: `${uniqueName('BAG')}.jpg` });
    const joined = await givenFile(t, owner.token, {
      fileName: `${uniqueName('BAG')}.jpg`,
      folderId: folder.id,
    });
    const [uploadId] = await uploadFiles(
      t,
      owner.token,
      [{ fileName: `${joined.name}.png`, bytes: Buffer.from('a second format') }],
      { targetFolderId: folder.id },
    );
    expect(await itemOfUpload(uploadId as number)).toBe(joined.id);
    await call(t.app, endpoints.similarAttach, {
      token: owner.token,
      body: { uploadId: uploadId as number, itemId: original.id },
    });
    const left = await db()
      .selectFrom('items')
      .select(['file_formats'])
      .where('id', '=', joined.id)
      .executeTakeFirstOrThrow();
    expect(left.file_formats).toBe('jpg');
    expect(await itemOfUpload(uploadId as number)).toBe(original.id);
  });

  it('refuses another’s upload, a target not seen or not changeable, an unfinished upload; nothing moves', async () => {
    const original = await givenFile(t, owner.token, { fileName: `${uniqueName('CAP')}.jpg` });
    const [ownUpload] = await uploadFiles(t, owner.token, [
      { fileName: `${uniqueName('IMG')}.jpg`, bytes: Buffer.from('x') },
    ]);
    const [readerUpload] = await uploadFiles(t, reader.token, [
      { fileName: `${uniqueName('IMG')}.jpg`, bytes: Buffer.from('y') },
    ]);
    const [strangerUpload] = await uploadFiles(t, stranger.token, [
      { fileName: `${uniqueName('IMG')}.jpg`, bytes: Buffer.from('z') },
    ]);
    const before = await Promise.all(
      [ownUpload, readerUpload, strangerUpload].map((id) => itemOfUpload(id as number)),
    );

    const notYours = await attempt(t.app, endpoints.similarAttach, {
      token: stranger.token,
      body: { uploadId: ownUpload as number, itemId: original.id },
    });
    expect(notYours.errorCode).toBe('SE_404');
    const unseen = await attempt(t.app, endpoints.similarAttach, {
      token: stranger.token,
      body: { uploadId: strangerUpload as number, itemId: original.id },
    });
    expect(unseen.errorCode).toBe('SE_404');
    const unchangeable = await attempt(t.app, endpoints.similarAttach, {
      token: reader.token,
      body: { uploadId: readerUpload as number, itemId: original.id },
    });
    expect(unchangeable.errorCode).toBe('SE_502');
    const [open] = await call(t.app, endpoints.createUploads, {
      token: owner.token,
      body: {
        path: '/',
        uploadDetailDTOS: [{ fileName: `${uniqueName('IMG')}.jpg`, fileSize: 3, path: '' }],
      },
    });
    const unfinished = await attempt(t.app, endpoints.similarAttach, {
      token: owner.token,
      body: { uploadId: open?.id as number, itemId: original.id },
    });
    expect(unfinished.errorCode).toBe('SE_400');
    const after = await Promise.all(
      [ownUpload, readerUpload, strangerUpload].map((id) => itemOfUpload(id as number)),
    );
    expect(after).toEqual(before);
    expect((await recordsOfItem(original.id)).length).toBe(1);
  });

  it("never deletes another's file the upload joined by name, and refuses one no longer changeable", async () => {
    const original = await givenFile(t, owner.token, { fileName: `${uniqueName('HAT')}.jpg` });
    // A colleague's file, which the owner's PNG joins by name (the owner may change the department's files).
    const theirs = await givenFile(t, colleague.token, { fileName: `${uniqueName('HAT')}.jpg` });
    const [joined] = await uploadFiles(t, owner.token, [
      { fileName: `${theirs.name}.png`, bytes: Buffer.from('png') },
    ]);
    expect(await itemOfUpload(joined as number)).toBe(theirs.id);
    const [theirRecord] = await db()
      .selectFrom('uploads')
      .select('id')
      .where('item_id', '=', theirs.id)
      .where('format', '=', 'jpg')
      .execute();
    // The colleague deletes their own record: the owner's PNG is all the file has left.
    await call(t.app, endpoints.deleteVersion, {
      token: colleague.token,
      query: { id: theirRecord?.id as number, folderDataId: theirs.id },
    });
    const refused = await attempt(t.app, endpoints.similarAttach, {
      token: owner.token,
      body: { uploadId: joined as number, itemId: original.id },
    });
    expect(refused.errorCode).toBe('SE_502');
    expect(await itemExists(theirs.id)).toBe(true);
    expect(await itemOfUpload(joined as number)).toBe(theirs.id);

    // The file made private by its owner (the department may no longer change it): refused too.
    await db().updateTable('items').set({ visibility: 'private' }).where('id', '=', theirs.id).execute();
    expect(
      (
        await attempt(t.app, endpoints.similarAttach, {
          token: owner.token,
          body: { uploadId: joined as number, itemId: original.id },
        })
      ).errorCode,
    ).toBe('SE_502');
  });

  const recordsOfItem = (itemId: number) =>
    db().selectFrom('uploads').select('id').where('item_id', '=', itemId).execute();
});
