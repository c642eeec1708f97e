import { endpoints, type FileDetail } from '@dam/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, resultOf } from '../../../test/call';
import { givenUser } from '../../../test/factories';
import { ADMIN, createTestApp, get, post, signIn, type TestApp } from '../../../test/harness';
import { AccountsRepository } from '../accounts/repository';

const api = (path: string) => `/ske-api/${path}`;

/**
 * Issue 9 item 1: an upload joins an existing logical file of the same base name only when the
 * uploader may see and change that file; otherwise it becomes a file of its own, and the metadata
 * sent with it never rewrites the other file's article number, validity or tags.
 */
describe('uploads never touch a file the uploader may not change', () => {
  let t: TestApp;
  let admin: string;
  /** Department B: owns `btop.jpg` at the top level. */
  let owner: string;
  /** Department A: sees and uploads within A only. */
  let stranger: string;
  /** Department C: sees everything, uploads within C only. */
  let onlooker: string;
  /** Department A: sees and changes everything. */
  let editor: string;
  let tagOfB: number;
  let tagOfA: number;

  /** Creates a batch with the given entries and carries each record through to its callback. */
  async function upload(
    token: string,
    entries: Array<{ fileName: string; bytes: Buffer } & Record<string, unknown>>,
    target: Record<string, unknown> = { path: '/' },
  ): Promise<number[]> {
    const created = await post(
      t.app,
      api('v1_0/file-upload/upload'),
      {
        ...target,
        uploadDetailDTOS: entries.map(({ bytes, ...rest }) => ({
          ...rest,
          fileSize: bytes.length,
          path: '',
        })),
      },
      { token, lang: 'en' },
    );
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const records = resultOf(endpoints.createUploads, created.body);
    const itemIds: number[] = [];
    for (const [index, record] of records.entries()) {
      const bytes = entries[index]?.bytes as Buffer;
      const started = await post(
        t.app,
        api('v1_0/file-upload/multipart/start'),
        { id: record.id },
        { token },
      );
      expect(started.status, JSON.stringify(started.body)).toBe(200);
      const signed = await post(
        t.app,
        api('v1_0/file-upload/multipart/sign'),
        { id: record.id, partNumbers: [1] },
        { token },
      );
      const url = resultOf(endpoints.signParts, signed.body).parts[0]?.url as string;
      const put = await t.app.inject({
        method: 'PUT',
        url,
        payload: bytes,
        headers: { 'content-type': 'application/octet-stream' },
      });
      expect(put.statusCode, put.body).toBe(200);
      const done = await get(
        t.app,
        api(`v1_0/file-upload/callback?id=${record.id}&status=2&uploadSchedule=100`),
        { token, lang: 'en' },
      );
      expect(done.status, JSON.stringify(done.body)).toBe(200);
      const finished = await post(
        t.app,
        api('v1_0/file-upload/uploaded-list?pageNo=1&pageSize=200'),
        undefined,
        {
          token,
        },
      );
      const row = resultOf(endpoints.finishedUploads, finished.body).list.find((r) => r.id === record.id);
      itemIds.push(row?.folderDataId as number);
    }
    return itemIds;
  }

  const detail = async (id: number, token = admin) => {
    const { status, body } = await get(t.app, api(`v1_0/file/detail?id=${id}`), { token, lang: 'en' });
    expect(status, JSON.stringify(body)).toBe(200);
    return resultOf(endpoints.fileDetail, body);
  };

  const tagIds = (d: FileDetail) => d.tagDTOList.map((tag) => tag.id).sort();

  /** Department B's own file `<baseName>.jpg` at the top level, with its metadata; each test makes its own. */
  const givenFileOfB = async (baseName: string): Promise<number> => {
    const [id] = await upload(owner, [
      {
        fileName: `${baseName}.jpg`,
        bytes: Buffer.from('department B original'),
        artNum: 'B-100',
        expireStartTime: '2026-01-01',
        expireEndTime: '2099-12-31',
        tagIdList: [tagOfB],
      },
    ]);
    return id as number;
  };

  /** What department B's file must still be, whatever was uploaded beside it. */
  const expectFileOfBUntouched = async (fileOfB: number, baseName: string) => {
    const b = await detail(fileOfB, owner);
    expect(b.name).toBe(baseName);
    expect(b.fileFormat).toBe('jpg');
    expect(b.artNum).toBe('B-100');
    expect(b.expireStartTime).toBe('2026-01-01');
    expect(b.expireEndTime).toBe('2099-12-31');
    expect(tagIds(b)).toEqual([tagOfB]);
    expect(b.folderDataInfoDTOList).toHaveLength(1);
  };

  beforeAll(async () => {
    t = await createTestApp({ LOGIN_RATE_LIMIT: '1000', SESSION_IDLE_HOURS: '720' });
    admin = await signIn(t.app, ADMIN.email, ADMIN.password);
    const accounts = new AccountsRepository(t.database.db);
    const deptA = await accounts.departments.createDepartment({ name: 'Dept A', parentId: 1 });
    const deptB = await accounts.departments.createDepartment({ name: 'Dept B', parentId: 1 });
    const deptC = await accounts.departments.createDepartment({ name: 'Dept C', parentId: 1 });
    const users = {
      owner: await givenUser(t.database, { deptId: deptB.id, scopes: { view: 'dept', upload: 'dept' } }),
      stranger: await givenUser(t.database, { deptId: deptA.id, scopes: { view: 'dept', upload: 'dept' } }),
      onlooker: await givenUser(t.database, { deptId: deptC.id, scopes: { view: 'all', upload: 'dept' } }),
      editor: await givenUser(t.database, { deptId: deptA.id, scopes: { view: 'all', upload: 'all' } }),
    };
    owner = await signIn(t.app, users.owner.email, users.owner.password);
    stranger = await signIn(t.app, users.stranger.email, users.stranger.password);
    onlooker = await signIn(t.app, users.onlooker.email, users.onlooker.password);
    editor = await signIn(t.app, users.editor.email, users.editor.password);

    const saved = await post(
      t.app,
      api('v1_0/manage/update-tag'),
      { dimensionName: 'Team', tagDTOList: [{ tagName: 'Team B' }, { tagName: 'Team A' }] },
      { token: admin, lang: 'en' },
    );
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const tags = resultOf(endpoints.saveTagDimension, saved.body).tagDTOList;
    tagOfB = tags.find((tag) => tag.tagName === 'Team B')?.id as number;
    tagOfA = tags.find((tag) => tag.tagName === 'Team A')?.id as number;
  });
  afterAll(() => t.close());

  it('gives an upload beside an unseen file of another department a file of its own', async () => {
    const fileOfB = await givenFileOfB('btop');
    const [own] = await upload(stranger, [
      {
        fileName: 'BTOP.png',
        bytes: Buffer.from('department A newcomer'),
        artNum: 'A-666',
        expireStartTime: '2020-01-01',
        expireEndTime: '2020-01-02',
        tagIdList: [tagOfA],
      },
    ]);
    expect(own).not.toBe(fileOfB);
    await expectFileOfBUntouched(fileOfB, 'btop');
    const mine = await detail(own as number, stranger);
    expect(mine.name).toBe('BTOP (2)');
    expect(mine.fileFormat).toBe('png');
    expect(mine.artNum).toBe('A-666');
    expect(mine.expireEndTime).toBe('2020-01-02');
    expect(tagIds(mine)).toEqual([tagOfA]);

    // Another format of the same base name joins the uploader's own file, not B's.
    const [again] = await upload(stranger, [{ fileName: 'btop.psd', bytes: Buffer.from('psd of A') }]);
    expect(again).toBe(own);
    expect((await detail(own as number, stranger)).fileFormat).toBe('png,psd');
    await expectFileOfBUntouched(fileOfB, 'btop');
  });

  it('does not join a file the uploader sees but may not change', async () => {
    const fileOfB = await givenFileOfB('bside');
    const [own] = await upload(onlooker, [
      {
        fileName: 'bside.jpg',
        bytes: Buffer.from('a new version that is not theirs to give'),
        artNum: 'A-777',
        expireEndTime: '2020-01-02',
      },
    ]);
    expect(own).not.toBe(fileOfB);
    await expectFileOfBUntouched(fileOfB, 'bside');
    const mine = await detail(own as number, onlooker);
    expect(mine.name).toBe('bside (2)');
    expect(mine.artNum).toBe('A-777');
  });

  it('still joins the file for whoever may change it, as a new version with its metadata', async () => {
    const fileOfB = await givenFileOfB('bedit');
    const [joined] = await upload(editor, [
      {
        fileName: 'BEDIT.jpg',
        bytes: Buffer.from('an edit of B by an editor'),
        artNum: 'B-101',
        tagIdList: [tagOfA],
      },
    ]);
    expect(joined).toBe(fileOfB);
    const b = await detail(fileOfB, owner);
    expect(b.fileFormat).toBe('jpg');
    expect(b.folderDataInfoDTOList).toHaveLength(2);
    expect(b.artNum).toBe('B-101');
    expect(tagIds(b)).toEqual([tagOfA, tagOfB].sort());
  });

  it('offers a new version in the viewer only to those who may change the file', async () => {
    const fileOfB = await givenFileOfB('bview');
    const actions = async (token: string) =>
      (await call(t.app, endpoints.fileDetail, { token, query: { id: fileOfB } })).authList;
    expect(await actions(owner)).toContain('upload');
    expect(await actions(editor)).toContain('upload');
    expect(await actions(onlooker)).not.toContain('upload');
  });

  it('gives a folder upload its own folder beside an unseen folder of the same name', async () => {
    const made = await post(
      t.app,
      api('v1_0/file/creat-folder'),
      { folderName: 'shoot', parentId: 'all' },
      { token: owner, lang: 'en' },
    );
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const folderOfB = resultOf(endpoints.createFolder, made.body).folderId;

    const created = await post(
      t.app,
      api('v1_0/file-upload/upload'),
      { path: '/', uploadDetailDTOS: [{ fileName: 'look.jpg', fileSize: 4, path: 'shoot' }] },
      { token: stranger, lang: 'en' },
    );
    expect(created.status, JSON.stringify(created.body)).toBe(200);

    const folders = await t.database.db
      .selectFrom('items')
      .select(['id', 'name', 'owner_id', 'parent_id'])
      .where('type', '=', 1)
      .where('parent_id', 'is', null)
      .where('name', 'like', 'shoot%')
      .orderBy('id')
      .execute();
    expect(folders.map((f) => f.name)).toEqual(['shoot', 'shoot (2)']);
    expect(folders[0]?.id).toBe(folderOfB);
    const childrenOfB = await t.database.db
      .selectFrom('items')
      .select('id')
      .where('parent_id', '=', folderOfB)
      .execute();
    expect(childrenOfB).toHaveLength(0);
  });

  it('checks the right to upload into the folder again when the upload finishes', async () => {
    const deptD = await new AccountsRepository(t.database.db).departments.createDepartment({
      name: 'Dept D',
      parentId: 1,
    });
    const colleague = await givenUser(t.database, {
      deptId: deptD.id,
      scopes: { view: 'dept', upload: 'dept' },
    });
    const uploader = await givenUser(t.database, {
      deptId: deptD.id,
      scopes: { view: 'dept', upload: 'dept' },
    });
    const colleagueToken = await signIn(t.app, colleague.email, colleague.password);
    const uploaderToken = await signIn(t.app, uploader.email, uploader.password);
    const made = await post(
      t.app,
      api('v1_0/file/creat-folder'),
      { folderName: 'team-d', parentId: 'all' },
      { token: colleagueToken },
    );
    const folderId = resultOf(endpoints.createFolder, made.body).folderId;
    const bytes = Buffer.from('made while the uploader still could');
    const created = await post(
      t.app,
      api('v1_0/file-upload/upload'),
      {
        targetFolderId: folderId,
        uploadDetailDTOS: [{ fileName: 'late.jpg', fileSize: bytes.length, path: '' }],
      },
      { token: uploaderToken },
    );
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = resultOf(endpoints.createUploads, created.body)[0]?.id as number;
    await post(t.app, api('v1_0/file-upload/multipart/start'), { id }, { token: uploaderToken });
    const signed = await post(
      t.app,
      api('v1_0/file-upload/multipart/sign'),
      { id, partNumbers: [1] },
      { token: uploaderToken },
    );
    const url = resultOf(endpoints.signParts, signed.body).parts[0]?.url as string;
    const put = await t.app.inject({
      method: 'PUT',
      url,
      payload: bytes,
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(put.statusCode).toBe(200);

    // Meanwhile the uploader's role loses the upload permission.
    await t.database.db
      .updateTable('roles')
      .set({ upload_scope: 'none' })
      .where('id', '=', uploader.roleId as number)
      .execute();
    const done = await get(t.app, api(`v1_0/file-upload/callback?id=${id}&status=2&uploadSchedule=100`), {
      token: uploaderToken,
    });
    expect(done.status).toBe(403);
    expect(done.body.errorCode).toBe('SE_502');
    const inFolder = await t.database.db
      .selectFrom('items')
      .select('id')
      .where('parent_id', '=', folderId)
      .execute();
    expect(inFolder).toHaveLength(0);
    const record = await t.database.db
      .selectFrom('uploads')
      .select(['status', 'item_id'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(record.item_id).toBeNull();
    expect(record.status).not.toBe(2);
  });
});
