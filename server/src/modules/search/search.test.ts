import { BATCH_SEARCH_MAX_VALUES, endpoints, type ItemType } from '@dam/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, resultOf } from '../../../test/call';
import { createFolder, givenUser } from '../../../test/factories';
import { ADMIN, createTestApp, post, signIn, type TestApp } from '../../../test/harness';
import { AccountsRepository } from '../accounts/repository';
import { ItemsRepository } from '../items/repository';

describe('global search', () => {
  let t: TestApp;
  let admin: string;
  let designer: string;
  let outsider: string;
  let designerId: number;
  let designPath: string;
  let sharedFolder: number;

  beforeAll(async () => {
    t = await createTestApp({ LOGIN_RATE_LIMIT: '1000' });
    const accounts = new AccountsRepository(t.database.db);
    const design = await accounts.departments.createDepartment({ name: 'Design', parentId: 1 });
    const sales = await accounts.departments.createDepartment({ name: 'Sales', parentId: 1 });
    designPath = design.path;
    const scopes = { view: 'dept', upload: 'dept', download: 'dept' } as const;
    const d = await givenUser(t.database, { deptId: design.id, scopes });
    const o = await givenUser(t.database, { deptId: sales.id, scopes });
    designerId = d.id;
    admin = await signIn(t.app, ADMIN.email, ADMIN.password);
    designer = await signIn(t.app, d.email, d.password);
    outsider = await signIn(t.app, o.email, o.password);

    sharedFolder = await createFolder(t, designer, 'Shoes 2026');
    await createFolder(t, designer, 'Boots', sharedFolder);
    // Files as the upload pipeline leaves them: an item with its type and article number.
    const items = new ItemsRepository(t.database.db);
    const file = async (name: string, type: ItemType, artNum: string | null, minutes: number) => {
      const id = await items.insertFile({
        type,
        parent_id: sharedFolder,
        parentIdPath: `/${sharedFolder}/`,
        name,
        folder_path: '/Shoes 2026',
        owner_id: designerId,
        dept_path: designPath,
        visibility: 'shared',
        created_at: new Date(Date.UTC(2026, 10, 1, 8, minutes)),
      });
      await t.database.db.updateTable('items').set({ art_num: artNum }).where('id', '=', id).execute();
      return id;
    };
    await file('SHOE123-01_side', 2, 'SHOE123', 1);
    await file('SHOE123-02_top', 2, 'SHOE123', 2);
    await file('BOOT900 walk', 3, 'BOOT900', 3);
    await file('lookbook 100%_final', 4, null, 4);
  });
  afterAll(() => t.close());

  const search = async (token: string, body: Record<string, unknown>, lang = 'en') =>
    post(t.app, '/ske-api/v1_0/global/search', body, { token, lang });
  const names = async (token: string, body: Record<string, unknown>) => {
    const { status, body: envelope } = await search(token, body);
    expect(status, JSON.stringify(envelope)).toBe(200);
    return resultOf(endpoints.search, envelope).list.map((i) => i.name);
  };

  it('finds titles containing the text, case-insensitively, folders first then newest', async () => {
    expect(await names(designer, { searchType: 1, query: 'shoe' })).toEqual([
      'Shoes 2026',
      'SHOE123-02_top',
      'SHOE123-01_side',
    ]);
    // The dollar sign is stripped (SPEC §5); LIKE wildcards are searched as themselves.
    expect(await names(designer, { searchType: 1, query: '$boot$' })).toEqual(['Boots', 'BOOT900 walk']);
    expect(await names(designer, { searchType: 1, query: '100%' })).toEqual(['lookbook 100%_final']);
    expect(await names(designer, { searchType: 1, query: '_' })).toEqual([
      'lookbook 100%_final',
      'SHOE123-02_top',
      'SHOE123-01_side',
    ]);
  });

  it('scopes by file type: folders, files, images, videos', async () => {
    expect(await names(designer, { searchType: 1, query: 'o', fileType: 1 })).toEqual([
      'Boots',
      'Shoes 2026',
    ]);
    expect(await names(designer, { searchType: 1, query: 'boot', fileType: 10 })).toEqual(['BOOT900 walk']);
    expect(await names(designer, { searchType: 1, query: 'o', fileType: 2 })).toEqual([
      'SHOE123-02_top',
      'SHOE123-01_side',
    ]);
    expect(await names(designer, { searchType: 1, query: 'o', fileType: 3 })).toEqual(['BOOT900 walk']);
  });

  it('finds by article number, and by a batch of them, naming those that matched nothing', async () => {
    expect(await names(designer, { searchType: 2, query: 'shoe1' })).toEqual([
      'SHOE123-02_top',
      'SHOE123-01_side',
    ]);
    const { body } = await search(designer, {
      searchType: 3,
      artNumList: ['boot900', 'SHOE123', 'NOPE1', 'BOOT900'],
    });
    const found = resultOf(endpoints.search, body);
    expect(found.list.map((i) => i.name)).toEqual(['BOOT900 walk', 'SHOE123-02_top', 'SHOE123-01_side']);
    expect(found.unmatched).toEqual(['NOPE1']);
  });

  it('finds a batch of whole titles', async () => {
    const { body } = await search(designer, {
      searchType: 4,
      nameList: ['boots', 'BOOT900 walk', 'missing'],
    });
    const found = resultOf(endpoints.search, body);
    expect(found.list.map((i) => i.name)).toEqual(['Boots', 'BOOT900 walk']);
    expect(found.unmatched).toEqual(['missing']);
  });

  it('sorts by name up and down, and pages', async () => {
    expect(await names(designer, { searchType: 1, query: 'o', fileType: 10, rankStatus: '1' })).toEqual([
      'BOOT900 walk',
      'lookbook 100%_final',
      'SHOE123-01_side',
      'SHOE123-02_top',
    ]);
    expect(await names(designer, { searchType: 1, query: 'o', fileType: 10, rankStatus: '2' })).toEqual([
      'SHOE123-02_top',
      'SHOE123-01_side',
      'lookbook 100%_final',
      'BOOT900 walk',
    ]);
    const first = await call(t.app, endpoints.search, {
      token: designer,
      lang: 'en',
      body: { searchType: 1, query: 'o', pageSize: 2 },
    });
    const second = await call(t.app, endpoints.search, {
      token: designer,
      lang: 'en',
      body: { searchType: 1, query: 'o', pageSize: 2, pageNo: 2 },
    });
    expect(first.hasMore).toBe(true);
    expect(new Set([...first.list, ...second.list].map((i) => i.id)).size).toBe(4);
  });

  it('shows only what the caller may see', async () => {
    // Another department's shared items are outside a "self and below" view scope.
    expect(await names(outsider, { searchType: 1, query: 'shoe' })).toEqual([]);
    const { body } = await search(outsider, { searchType: 3, artNumList: ['SHOE123'] });
    expect(resultOf(endpoints.search, body).unmatched).toEqual(['SHOE123']);
    // The administrator sees everything; the designer's own items carry what they may do.
    expect(await names(admin, { searchType: 2, query: 'BOOT900' })).toEqual(['BOOT900 walk']);
    const own = await call(t.app, endpoints.search, {
      token: designer,
      lang: 'en',
      body: { searchType: 2, query: 'BOOT900' },
    });
    expect(own.list[0]?.authList).toEqual(expect.arrayContaining(['view', 'download', 'edit']));
  });

  it('refuses an empty search, an unknown type or scope and an over-long query, naming the field', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ searchType: 1, query: '  $ ' }, 'query'],
      [{ searchType: 3, artNumList: [] }, 'artNumList'],
      [{ searchType: 4 }, 'nameList'],
      [{ searchType: 7, query: 'x' }, 'searchType'],
      [{ searchType: 1, query: 'x', fileType: 5 }, 'fileType'],
      [{ searchType: 1, query: 'x'.repeat(31) }, 'query'],
      [
        { searchType: 3, artNumList: Array.from({ length: BATCH_SEARCH_MAX_VALUES + 1 }, (_, i) => `A${i}`) },
        'artNumList',
      ],
    ];
    for (const [body, field] of cases) {
      const response = await search(designer, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.errorCode).toBe('SE_400');
      expect(response.body.errorDesc).toContain(field);
    }
    const zh = await search(designer, { searchType: 1, query: '' }, 'zh');
    expect(zh.body.errorDesc).toContain('必填');
  });

  it('takes a batch of 10,000 article numbers (SPEC §9) and names the limit when there are more', async () => {
    const values = Array.from({ length: BATCH_SEARCH_MAX_VALUES - 1 }, (_, i) => `X${i}`);
    const { status, body } = await search(designer, { searchType: 3, artNumList: [...values, 'shoe123'] });
    expect(status, JSON.stringify(body).slice(0, 300)).toBe(200);
    const found = resultOf(endpoints.search, body);
    expect(found.list.map((i) => i.name)).toEqual(['SHOE123-02_top', 'SHOE123-01_side']);
    expect(found.unmatched).toHaveLength(BATCH_SEARCH_MAX_VALUES - 1);
    const tooMany = [...values, 'a', 'b'];
    for (const lang of ['zh', 'en']) {
      const refused = await search(designer, { searchType: 3, artNumList: tooMany }, lang);
      expect(refused.status).toBe(400);
      expect(refused.body.errorDesc).toContain(String(BATCH_SEARCH_MAX_VALUES));
      expect(refused.body.errorDesc).not.toContain('{');
    }
  });

  it('needs a signed-in caller', async () => {
    const response = await post(t.app, '/ske-api/v1_0/global/search', { searchType: 1, query: 'x' });
    expect(response.status).toBe(401);
    expect(response.body.errorCode).toBe('SE_501');
  });
});
