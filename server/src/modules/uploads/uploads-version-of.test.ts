import { endpoints } from '@dam/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attempt, call } from '../../../test/call';
import {
  givenDepartment,
  givenFile,
  givenFolder,
  givenSignedInUser,
  uniqueName,
  uploadFiles,
} from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/harness';

/**
 * "Add as new version" from the near-duplicate warning (issue 17): an upload entry naming a file
 * goes to that file's folder under its name and joins it as a version, whatever the batch's target.
 */
describe('uploading a file as a new version of a similar one', () => {
  let t: TestApp;
  let owner: { id: number; token: string };
  let reader: { id: number; token: string };
  let stranger: { id: number; token: string };

  beforeAll(async () => {
    t = await createTestApp({ LOGIN_RATE_LIMIT: '1000' });
    const design = await givenDepartment(t);
    const sales = await givenDepartment(t);
    const scopes = { view: 'dept', upload: 'dept', download: 'dept' } as const;
    owner = await givenSignedInUser(t, { deptId: design.id, scopes });
    reader = await givenSignedInUser(t, { deptId: design.id, scopes: { view: 'dept' } });
    stranger = await givenSignedInUser(t, { deptId: sales.id, scopes });
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
});
