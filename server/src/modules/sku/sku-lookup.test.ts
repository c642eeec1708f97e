import { endpoints } from '@dam/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, resultOf } from '../../../test/call';
import { ADMIN, createTestApp, get, post, signIn, type TestApp } from '../../../test/harness';
import { createSkuWorld, type SkuWorld, workbook } from '../../../test/scenarios/sku';
import { SkuRepository } from './repository';

describe('SKU master: listing, pickers, file-name checks', () => {
  let w: SkuWorld;
  beforeAll(async () => {
    w = await createSkuWorld();
  });
  afterAll(() => w.t.close());

  describe('listing and pickers', () => {
    beforeAll(async () => {
      const rows: unknown[][] = [['货号', '名称', '系列']];
      for (let i = 0; i < 25; i++)
        rows.push([`LST${String(i).padStart(3, '0')}`, `Listed shoe ${i}`, 'List']);
      rows.push(
        ['ZIG050-01', 'Zig runner'],
        ['ZIG050', 'Zig base'],
        ['ZIG0501', 'Zig other'],
        ['zig049', 'Zig old'],
      );
      rows.push(['AB_C1', 'Underscore style'], ['ABXC1', 'Lookalike'], ['XYZ900', 'Has lst in name? no']);
      rows.push(['QQQ001', 'Cosmic LST edition']);
      const { body } = await w.importFile(await workbook(rows));
      expect(body.success).toBe(true);
    });

    it('pages the master by article number (POST v1_0/sku/data/list)', async () => {
      const first = await post(
        w.t.app,
        w.api('v1_0/sku/data/list?pageSize=10&pageNo=1'),
        { query: 'lst0' },
        { token: w.plain },
      );
      expect(first.status).toBe(200);
      const page = resultOf(endpoints.skuList, first.body);
      expect(page).toMatchObject({ pageNo: 1, pageSize: 10, hasMore: true });
      expect(page.list.map((s) => s.artNum)).toEqual(Array.from({ length: 10 }, (_, i) => `LST00${i}`));
      expect(page.list[0]).toMatchObject({ name: 'Listed shoe 0', series: 'List', color: null });
      expect(page.list[0]!.createdAt).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);
      const third = await call(w.t.app, endpoints.skuList, {
        token: w.plain,
        query: { pageSize: 10, pageNo: 3 },
        body: { query: 'LST0' },
      });
      expect(third.list.map((s) => s.artNum)).toEqual(['LST020', 'LST021', 'LST022', 'LST023', 'LST024']);
      expect(third.hasMore).toBe(false);
    });

    it('finds by name as well, treats % and _ literally, and needs no body', async () => {
      const byName = await call(w.t.app, endpoints.skuList, {
        token: w.plain,
        body: { query: 'cosmic lst' },
      });
      expect(byName.list.map((s) => s.artNum)).toEqual(['QQQ001']);
      const literal = await call(w.t.app, endpoints.skuList, { token: w.plain, body: { query: 'ab_c' } });
      expect(literal.list.map((s) => s.artNum)).toEqual(['AB_C1']);
      const percent = await call(w.t.app, endpoints.skuList, { token: w.plain, body: { query: '%' } });
      expect(percent.list).toEqual([]);
      const all = await post(w.t.app, w.api('v1_0/sku/data/list?pageSize=200'), undefined, {
        token: w.plain,
      });
      expect(all.status).toBe(200);
      expect(resultOf(endpoints.skuList, all.body).list.length).toBeGreaterThan(30);
    });

    it('refuses bad paging and strangers', async () => {
      expect(
        (await post(w.t.app, w.api('v1_0/sku/data/list?pageSize=500'), {}, { token: w.plain })).status,
      ).toBe(400);
      expect((await post(w.t.app, w.api('v1_0/sku/data/list?pageNo=0'), {}, { token: w.plain })).status).toBe(
        400,
      );
      expect(
        (await post(w.t.app, w.api('v1_0/sku/data/list'), { query: 'x'.repeat(31) }, { token: w.plain }))
          .status,
      ).toBe(400);
      const stranger = await post(w.t.app, w.api('v1_0/sku/data/list'), {});
      expect(stranger.status).toBe(401);
      expect(stranger.body.errorCode).toBe('SE_501');
    });

    it('offers up to 20 articles to a picker, numbers starting with the text first (GET selector/sku-info)', async () => {
      const none = await get(w.t.app, w.api('selector/sku-info'), { token: w.plain });
      expect(none.status).toBe(200);
      const options = resultOf(endpoints.skuOptions, none.body);
      expect(options).toHaveLength(20);
      // What goes over the wire for a picker option: its number and name, nothing more (read from
      // the raw answer: the contract's parse would drop any extra field).
      expect(Object.keys((none.body.result as object[])[0] ?? {}).sort()).toEqual(['artNum', 'name']);
      const sorted = [...options].sort((a, b) => (a.artNum.toLowerCase() < b.artNum.toLowerCase() ? -1 : 1));
      expect(options).toEqual(sorted);

      const lst = await call(w.t.app, endpoints.skuOptions, { token: w.plain, query: { query: 'lst' } });
      expect(lst).toHaveLength(20);
      expect(lst[0]!.artNum).toBe('LST000');
      expect(lst.map((o) => o.artNum)).not.toContain('QQQ001');
      const cosmic = await call(w.t.app, endpoints.skuOptions, {
        token: w.plain,
        query: { query: 'LST ed' },
      });
      expect(cosmic).toEqual([{ artNum: 'QQQ001', name: 'Cosmic LST edition' }]);
      expect((await get(w.t.app, w.api('selector/sku-info'))).status).toBe(401);
    });

    it('suggests article numbers by prefix, any case, in order, at most 20 (GET v1_0/file/art-num)', async () => {
      const zig = await get(w.t.app, w.api('v1_0/file/art-num?artNum=zig05'), { token: w.plain });
      expect(zig.status).toBe(200);
      expect(zig.body.result).toEqual([
        { artNum: 'ZIG050', name: 'Zig base', tagIdList: [] },
        { artNum: 'ZIG050-01', name: 'Zig runner', tagIdList: [] },
        { artNum: 'ZIG0501', name: 'Zig other', tagIdList: [] },
      ]);
      const many = await call(w.t.app, endpoints.artNumSuggestions, {
        token: w.plain,
        query: { artNum: 'LST' },
      });
      expect(many.map((s) => s.artNum)).toEqual(
        Array.from({ length: 20 }, (_, i) => `LST${String(i).padStart(3, '0')}`),
      );
      const literal = await call(w.t.app, endpoints.artNumSuggestions, {
        token: w.plain,
        query: { artNum: 'AB_' },
      });
      expect(literal.map((s) => s.artNum)).toEqual(['AB_C1']);
      expect(
        (await get(w.t.app, w.api('v1_0/file/art-num?artNum=NOPE'), { token: w.plain })).body.result,
      ).toEqual([]);
      expect(
        (await get(w.t.app, w.api('v1_0/file/art-num?artNum='), { token: w.plain })).body.result,
      ).toEqual([]);
      expect(
        (await get(w.t.app, w.api(`v1_0/file/art-num?artNum=${'A'.repeat(65)}`), { token: w.plain })).status,
      ).toBe(400);
      expect((await get(w.t.app, w.api('v1_0/file/art-num?artNum=ZIG'))).status).toBe(401);
    });

    it('answers suggestions from the article-number index, not a table scan', async () => {
      const plan = await w.t.database.db.transaction().execute(async (trx) => {
        // A tiny table makes a scan cheapest; forbid it to see whether the index can serve.
        await sql`SET LOCAL enable_seqscan = off`.execute(trx);
        await sql`SET LOCAL enable_bitmapscan = off`.execute(trx);
        const rows = await new SkuRepository(trx).suggestQuery('zig05', 20).explain();
        return rows.map((r) => String(Object.values(r)[0])).join('\n');
      });
      expect(plan).toMatch(/Index Scan using sku_art_num_key/);
      expect(plan).not.toMatch(/Sort/);
    });
  });

  describe('article numbers of file names (POST v1_0/sku/file-tag-info)', () => {
    beforeAll(async () => {
      const { body } = await w.importFile(
        await workbook([
          ['货号', '名称'],
          ['Tag100-01', 'Mixed case as stored'],
          ['TAG200', 'Plain'],
        ]),
      );
      expect(body.success).toBe(true);
    });

    it('lists known and unknown article numbers per name, in the order sent', async () => {
      const { status, list } = await w.tagInfo([
        'TAG100-01_side.jpg',
        'tag200 front.png',
        'TAG999-01_side.jpg',
        'campaign photo.jpg',
        'TAG100-01_TAG300_pair.psd',
        'TAG100-01_side.jpg',
      ]);
      expect(status).toBe(200);
      expect(list).toEqual([
        { fileName: 'TAG100-01_side.jpg', artNumList: ['Tag100-01'], unknownArtNumList: [], tagDTOList: [] },
        { fileName: 'tag200 front.png', artNumList: ['TAG200'], unknownArtNumList: [], tagDTOList: [] },
        {
          fileName: 'TAG999-01_side.jpg',
          artNumList: ['TAG999-01'],
          unknownArtNumList: ['TAG999-01'],
          tagDTOList: [],
        },
        { fileName: 'campaign photo.jpg', artNumList: [], unknownArtNumList: [], tagDTOList: [] },
        {
          fileName: 'TAG100-01_TAG300_pair.psd',
          artNumList: ['Tag100-01', 'TAG300'],
          unknownArtNumList: ['TAG300'],
          tagDTOList: [],
        },
        { fileName: 'TAG100-01_side.jpg', artNumList: ['Tag100-01'], unknownArtNumList: [], tagDTOList: [] },
      ]);
      expect((await w.tagInfo([])).list).toEqual([]);
    });

    it('takes a whole selection of 3000 names at once, and no more', async () => {
      const names = Array.from({ length: 3000 }, (_, i) => `TAG${1000 + i}-01_view ${i}.jpg`);
      names[1234] = 'TAG200_front.jpg';
      const { status, list } = await w.tagInfo(names);
      expect(status).toBe(200);
      expect(list).toHaveLength(3000);
      expect(list[1234]).toMatchObject({ artNumList: ['TAG200'], unknownArtNumList: [] });
      expect(list[2999]).toMatchObject({ fileName: names[2999], unknownArtNumList: ['TAG3999-01'] });

      const tooMany = await w.tagInfo([...names, 'one-more.jpg']);
      expect(tooMany.status).toBe(400);
      expect(tooMany.body.errorCode).toBe('SE_400');
      expect(tooMany.body.errorDesc).toMatch(/nameList/);
      expect((await w.tagInfo([`${'A'.repeat(252)}.jpg`])).status).toBe(400);
      const malformed = await post(
        w.t.app,
        w.api('v1_0/sku/file-tag-info'),
        { names: [] },
        { token: w.plain },
      );
      expect(malformed.status).toBe(400);
      const stranger = await post(w.t.app, w.api('v1_0/sku/file-tag-info'), { nameList: ['TAG200.jpg'] });
      expect(stranger.status).toBe(401);
    });

    it('checks typed article numbers (POST v1_0/sku/check): known in the master spelling, unknown as typed', async () => {
      const check = (artNumList: unknown, token: string | null = w.plain) =>
        post(w.t.app, w.api('v1_0/sku/check'), { artNumList }, token ? { token, lang: 'en' } : {});
      const { status, body } = await check(['tag100-01', 'NOPE-1', 'TAG200', 'NOPE-1']);
      expect(status).toBe(200);
      expect(body.result).toEqual({
        checked: true,
        knownArtNumList: ['Tag100-01', 'TAG200'],
        unknownArtNumList: ['NOPE-1'],
      });
      expect((await check([])).body.result).toEqual({
        checked: true,
        knownArtNumList: [],
        unknownArtNumList: [],
      });
      const blank = await check(['  ']);
      expect(blank.status).toBe(400);
      expect(blank.body.errorDesc).toMatch(/artNumList/);
      expect((await check(['X'.repeat(65)])).status).toBe(400);
      expect((await check(['TAG200'], null)).status).toBe(401);
    });
  });
});

describe('before any SKU data is imported', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('checks nothing, so the upload dialog flags nothing', async () => {
    const token = await signIn(t.app, ADMIN.email, ADMIN.password);
    const { status, body } = await post(
      t.app,
      '/ske-api/v1_0/sku/check',
      { artNumList: ['SHOE1-01'] },
      { token },
    );
    expect(status).toBe(200);
    expect(body.result).toEqual({ checked: false, knownArtNumList: [], unknownArtNumList: [] });
  });
});

describe('ART_NUM_PATTERN from the configuration', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp({ ART_NUM_PATTERN: '(?<artNum>\\d{6}-\\d{2})(?:_[a-z]+)?' });
    token = await signIn(t.app, ADMIN.email, ADMIN.password);
    await t.database.db.insertInto('sku').values({ art_num: '374915-01', name: 'Numeric style' }).execute();
  });
  afterAll(() => t.close());

  it('is what file-tag-info extracts with', async () => {
    const response = await post(
      t.app,
      '/ske-api/v1_0/sku/file-tag-info',
      { nameList: ['374915-01_side.jpg', '374915-02.jpg', 'SHOE123-01_side.jpg'] },
      { token },
    );
    expect(
      resultOf(endpoints.fileTagInfo, response.body).list.map((i) => [i.artNumList, i.unknownArtNumList]),
    ).toEqual([
      [['374915-01'], []],
      [['374915-02'], ['374915-02']],
      [[], []],
    ]);
  });
});
