import { endpoints } from '@dam/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, resultOf } from '../../../test/call';
import { givenFolder, givenSignedInUser, uniqueName, uploadFiles } from '../../../test/factories';
import { makeJpeg, makePng } from '../../../test/fixtures';
import { createTestApp, get, type TestApp } from '../../../test/harness';

/**
 * Issue 39 item 9: "upload a new version" with a smaller copy. Asked in the viewer, in the upload
 * dialog's near-duplicate warning or in the upload panel's note, the uploader may keep the larger
 * current: the copy joins the file as a version not shown (listed in its records, hidden), and the
 * grid's size, the viewer's main record and its download stay the original's. Without that choice
 * the copy becomes current, as before.
 */
describe('a smaller copy kept behind the current version', () => {
  let t: TestApp;
  let owner: { id: number; token: string };

  beforeAll(async () => {
    t = await createTestApp({ LOGIN_RATE_LIMIT: '1000', SESSION_IDLE_HOURS: '720' });
    owner = await givenSignedInUser(t, { scopes: { view: 'all', upload: 'all', download: 'all' } });
  });
  afterAll(() => t.close());

  const itemOf = async (uploadId: number) =>
    (
      await t.database.db
        .selectFrom('uploads')
        .select(['item_id', 'hidden'])
        .where('id', '=', uploadId)
        .executeTakeFirstOrThrow()
    ).item_id as number;
  const detail = async (id: number) =>
    resultOf(
      endpoints.fileDetail,
      (await get(t.app, `/ske-api/v1_0/file/detail?id=${id}`, { token: owner.token, lang: 'en' })).body,
    );
  const downloaded = async (url: string) => (await t.app.inject({ method: 'GET', url })).rawPayload;
  /**
   * The file lists both records, the copy hidden, so the original is what is shown and downloaded;
   * returns the file's detail for further checks.
   */
  const expectKeptBehind = async (
    id: number,
    copy: { id: number; bytes: Buffer },
    original: { id: number; bytes: Buffer },
  ) => {
    const file = await detail(id);
    expect(file.folderDataInfoDTOList.map((r) => [r.id, r.fileSize, r.hide])).toEqual([
      [copy.id, copy.bytes.length, true],
      [original.id, original.bytes.length, false],
    ]);
    expect(file.totalSize).toBe(original.bytes.length);
    expect(Buffer.compare(await downloaded(file.url as string), original.bytes)).toBe(0);
    return file;
  };

  it('keeps the larger current when asked, and lists the copy as a version', async () => {
    const folder = { targetFolderId: (await givenFolder(t, owner.token, { name: uniqueName('KEEP') })).id };
    const large = await makeJpeg(1600, 1200);
    const small = await makeJpeg(800, 600);
    const [original] = await uploadFiles(t, owner.token, [{ fileName: 'SHOE9.jpg', bytes: large }], folder);
    const [copy] = await uploadFiles(
      t,
      owner.token,
      [{ fileName: 'SHOE9.jpg', bytes: small, keepCurrent: true }],
      folder,
    );
    const id = await itemOf(original as number);
    expect(await itemOf(copy as number)).toBe(id);
    const file = await expectKeptBehind(
      id,
      { id: copy as number, bytes: small },
      { id: original as number, bytes: large },
    );
    expect(file.fileFormat).toBe('jpg');
    const listing = await call(t.app, endpoints.folderListing, {
      token: owner.token,
      query: { folderDataId: file.folderId as number, pageNo: 1, pageSize: 10, rankStatus: 0 },
    });
    expect(listing.list.find((i) => i.id === id)?.fileSize).toBe(large.length);
  });

  it('makes the smaller copy current without the choice, as before', async () => {
    const folder = {
      targetFolderId: (await givenFolder(t, owner.token, { name: uniqueName('REPLACE') })).id,
    };
    const large = await makeJpeg(1600, 1200);
    const small = await makeJpeg(800, 600);
    const [original] = await uploadFiles(t, owner.token, [{ fileName: 'SHOE8.jpg', bytes: large }], folder);
    await uploadFiles(t, owner.token, [{ fileName: 'SHOE8.jpg', bytes: small }], folder);
    const file = await detail(await itemOf(original as number));
    expect(file.totalSize).toBe(small.length);
    expect(Buffer.compare(await downloaded(file.url as string), small)).toBe(0);
  });

  it('keeps the larger current for a near-duplicate added as a new version in the dialog', async () => {
    const originals = {
      targetFolderId: (await givenFolder(t, owner.token, { name: uniqueName('KEEPV') })).id,
    };
    const elsewhere = {
      targetFolderId: (await givenFolder(t, owner.token, { name: uniqueName('INBOX') })).id,
    };
    const large = await makeJpeg(1600, 1200);
    const small = await makeJpeg(800, 600);
    const [original] = await uploadFiles(
      t,
      owner.token,
      [{ fileName: 'SHOE6.jpg', bytes: large }],
      originals,
    );
    const id = await itemOf(original as number);
    // "Add as new version" of a file of another name, in another folder, kept behind it.
    const [copy] = await uploadFiles(
      t,
      owner.token,
      [{ fileName: 'IMG_0006.jpg', bytes: small, versionOfItemId: id, keepCurrent: true }],
      elsewhere,
    );
    expect(await itemOf(copy as number)).toBe(id);
    await expectKeptBehind(
      id,
      { id: copy as number, bytes: small },
      { id: original as number, bytes: large },
    );
  });

  it('the panel\'s check names the upload\'s size; its "add as new version" may keep the larger current', async () => {
    const folder = { targetFolderId: (await givenFolder(t, owner.token, { name: uniqueName('PANEL') })).id };
    const large = await makeJpeg(1600, 1200);
    const small = await makeJpeg(800, 600);
    const [original] = await uploadFiles(t, owner.token, [{ fileName: 'SHOE5.jpg', bytes: large }], folder);
    const [copy] = await uploadFiles(t, owner.token, [{ fileName: 'IMG_0005.jpg', bytes: small }], folder);
    const [unread] = await uploadFiles(t, owner.token, [{ fileName: 'IMG_0004.jpg', bytes: small }], folder);
    const id = await itemOf(original as number);
    const made = await itemOf(copy as number);
    // The size the media job reads, written here (no job runs in this test); the other upload's is
    // not read.
    await t.database.db
      .updateTable('uploads')
      .set({ width: 800, height: 600 })
      .where('id', '=', copy as number)
      .execute();
    const checked = await call(t.app, endpoints.similarAfterUpload, {
      token: owner.token,
      body: { idList: [copy as number, unread as number] },
    });
    expect(checked.map((entry) => [entry.id, entry.width, entry.height])).toEqual([
      [copy, 800, 600],
      [unread, null, null],
    ]);

    const body = { uploadId: copy as number, itemId: id, keepCurrent: true };
    const attached = await call(t.app, endpoints.similarAttach, { token: owner.token, body });
    expect(attached.itemId).toBe(id);
    expect(await itemOf(copy as number)).toBe(id);
    await expectKeptBehind(
      id,
      { id: copy as number, bytes: small },
      { id: original as number, bytes: large },
    );
    // The file the copy made alone went with it.
    expect(
      await t.database.db.selectFrom('items').select('id').where('id', '=', made).executeTakeFirst(),
    ).toBeUndefined();
    // Asked again (a double click): the same answer, though the record is now hidden.
    expect(await call(t.app, endpoints.similarAttach, { token: owner.token, body })).toEqual(attached);
  });

  it('shows a kept-behind copy after all when the file has no other record of its format', async () => {
    const folder = { targetFolderId: (await givenFolder(t, owner.token, { name: uniqueName('ONLY') })).id };
    const jpg = await makeJpeg(1600, 1200);
    const png = await makePng(400, 300);
    const [original] = await uploadFiles(t, owner.token, [{ fileName: 'SHOE7.jpg', bytes: jpg }], folder);
    const [copy] = await uploadFiles(
      t,
      owner.token,
      [{ fileName: 'SHOE7.png', bytes: png, keepCurrent: true }],
      folder,
    );
    const file = await detail(await itemOf(original as number));
    expect(file.folderDataInfoDTOList.find((r) => r.id === copy)?.hide).toBe(false);
    expect(file.fileFormat).toBe('jpg,png');
    expect(file.totalSize).toBe(jpg.length + png.length);
  });
});
