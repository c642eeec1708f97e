import { randomBytes } from 'node:crypto';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFolder, givenUser, uploadFiles } from '../../../test/factories';
import { ADMIN, createTestApp, get, post, signIn, type TestApp } from '../../../test/harness';
import { ItemsRepository } from '../items/repository';

interface TagWire {
  id: number;
  tagName: string;
  required: boolean;
  parentTagId: number | null;
  selected: boolean;
}
interface DimensionWire {
  id: number;
  dimensionName: string;
  required: boolean;
  parentDimensionId: number | null;
  tagDTOList: TagWire[];
}
interface ManagedWire extends Omit<DimensionWire, 'tagDTOList'> {
  sortOrder: number;
  tagDTOList: Array<Omit<TagWire, 'selected'> & { itemCount: number; skuCount: number }>;
}
interface TagOfFileWire {
  id: number;
  tagName: string;
  dimensionName: string;
  dimensionId: number;
  required: boolean;
  parentTagId: number | null;
}

const api = (path: string) => `/ske-api/${path}`;

/** A multipart/form-data body as a browser sends it. */
function multipart(parts: Array<{ name: string; filename?: string; content: Buffer | string }>) {
  const boundary = `----dam${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename ? `; filename="${part.filename}"` : ''}`;
    const type = part.filename ? 'Content-Type: application/octet-stream\r\n' : '';
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`));
    chunks.push(Buffer.isBuffer(part.content) ? part.content : Buffer.from(part.content));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

describe('tags and channel tags', () => {
  let t: TestApp;
  let admin: string;
  /** Tag management (code 4), sees and edits everything. */
  let manager: string;
  /** Code 4, but may only look at files (not change them). */
  let lookingManager: string;
  /** Edits everything, no code 4. */
  let editor: string;
  /** Sees everything, changes nothing, no code 4. */
  let viewer: string;
  /** Sees nothing of others. */
  let outsider: string;
  /** Sees nothing of others, but may make folders of their own. */
  let loner: string;

  /** Dimension and tag ids by name, filled by the first tests. */
  const dim: Record<string, number> = {};
  const tag: Record<string, number> = {};
  let folderId: number;
  const file: Record<string, number> = {};

  beforeAll(async () => {
    t = await createTestApp({ LOGIN_RATE_LIMIT: '1000', SESSION_IDLE_HOURS: '720' });
    admin = await signIn(t.app, ADMIN.email, ADMIN.password);
    const users = {
      manager: await givenUser(t.database, { functionCodes: [4], scopes: { view: 'all', upload: 'all' } }),
      lookingManager: await givenUser(t.database, { functionCodes: [4], scopes: { view: 'all' } }),
      editor: await givenUser(t.database, { scopes: { view: 'all', upload: 'all' } }),
      viewer: await givenUser(t.database, { functionCodes: [1], scopes: { view: 'all' } }),
      outsider: await givenUser(t.database, { functionCodes: [1] }),
      loner: await givenUser(t.database, { scopes: { upload: 'dept' } }),
    };
    manager = await signIn(t.app, users.manager.email, users.manager.password);
    lookingManager = await signIn(t.app, users.lookingManager.email, users.lookingManager.password);
    editor = await signIn(t.app, users.editor.email, users.editor.password);
    viewer = await signIn(t.app, users.viewer.email, users.viewer.password);
    outsider = await signIn(t.app, users.outsider.email, users.outsider.password);
    loner = await signIn(t.app, users.loner.email, users.loner.password);

    folderId = await createFolder(t, admin, 'Tagged shoes');
    await uploadFiles(
      t,
      admin,
      ['SHOE1.jpg', 'SHOE2.jpg', 'TEE1.jpg', 'MISC.jpg'].map((fileName) => ({
        fileName,
        bytes: Buffer.from(`bytes of ${fileName}`),
      })),
      { targetFolderId: folderId },
    );
    for (const item of await listFolder(admin, folderId)) file[item.name] = item.id;
  });
  afterAll(() => t.close());

  async function listFolder(token: string, id: number, query = '') {
    const { status, body } = await get(t.app, api(`v1_0/file/all-file-v2?folderDataId=${id}${query}`), {
      token,
    });
    expect(status, JSON.stringify(body)).toBe(200);
    return (body.result as { list: Array<{ id: number; name: string }> }).list;
  }

  const save = (body: Record<string, unknown>, token = manager) =>
    post(t.app, api('v1_0/manage/update-tag'), body, { token, lang: 'en' });
  const managed = async () =>
    (await get(t.app, api('v1_0/manage/tag-dimension/list'), { token: manager })).body
      .result as ManagedWire[];
  const selector = async (token = viewer, query = '') => {
    const { status, body } = await get(t.app, api(`selector/tags${query}`), { token, lang: 'en' });
    return { status, body, list: body.result as DimensionWire[] };
  };
  const modify = (body: Record<string, unknown>, token = editor) =>
    post(t.app, api('v1_0/file/modify-tag'), body, { token, lang: 'en' });
  const detailTags = async (id: number | undefined, token = admin) => {
    const { status, body } = await get(t.app, api(`v1_0/file/detail?id=${id}`), { token });
    expect(status, JSON.stringify(body)).toBe(200);
    return (body.result as { tagDTOList: TagOfFileWire[] }).tagDTOList;
  };
  const tagNamesOf = async (id: number | undefined) => (await detailTags(id)).map((t) => t.tagName);
  const remember = (saved: ManagedWire) => {
    dim[saved.dimensionName] = saved.id;
    for (const entry of saved.tagDTOList) tag[entry.tagName] = entry.id;
    return saved;
  };

  describe('managing dimensions (POST v1_0/manage/update-tag, code 4)', () => {
    it('creates dimensions with their tags, child dimensions with superior tags', async () => {
      const category = await save({
        dimensionName: ' Category ',
        tagDTOList: [{ tagName: 'Shoes' }, { tagName: 'Apparel' }],
      });
      expect(category.status, JSON.stringify(category.body)).toBe(200);
      expect(category.body.result).toMatchObject({
        dimensionName: 'Category',
        required: false,
        parentDimensionId: null,
        tagDTOList: [
          { tagName: 'Shoes', required: false, parentTagId: null, itemCount: 0, skuCount: 0 },
          { tagName: 'Apparel', required: false, parentTagId: null, itemCount: 0, skuCount: 0 },
        ],
      });
      remember(category.body.result as ManagedWire);
      const sub = await save({
        dimensionName: 'Sub-category',
        parentDimensionId: dim.Category,
        tagDTOList: [
          { tagName: 'Running', parentTagId: tag.Shoes },
          { tagName: 'T-shirt', parentTagId: tag.Apparel },
          { tagName: 'Limited' },
        ],
      });
      expect(sub.status, JSON.stringify(sub.body)).toBe(200);
      remember(sub.body.result as ManagedWire);
      const season = await save({
        dimensionName: 'Season',
        required: true,
        tagDTOList: [{ tagName: '2026 SS' }, { tagName: '2026 AW' }],
      });
      expect(season.status, JSON.stringify(season.body)).toBe(200);
      expect((season.body.result as ManagedWire).tagDTOList.every((x) => x.required)).toBe(true);
      remember(season.body.result as ManagedWire);
      const colour = await save({
        dimensionName: 'Colour',
        tagDTOList: [{ tagName: 'Black' }, { tagName: 'White' }],
      });
      remember(colour.body.result as ManagedWire);
      expect(tag.Running).toBeGreaterThan(0);
    });

    it('orders the selector: required dimensions first, then top-level ones, children after their parent', async () => {
      const { status, list } = await selector();
      expect(status).toBe(200);
      expect(list.map((d) => d.dimensionName)).toEqual(['Season', 'Category', 'Sub-category', 'Colour']);
      const sub = list.find((d) => d.dimensionName === 'Sub-category');
      expect(sub).toMatchObject({ parentDimensionId: dim.Category, required: false });
      expect(sub?.tagDTOList.map((x) => [x.tagName, x.parentTagId, x.selected])).toEqual([
        ['Running', tag.Shoes, false],
        ['T-shirt', tag.Apparel, false],
        ['Limited', null, false],
      ]);

      // Re-ordering siblings keeps required ones first and children after their parent.
      const sorted = await post(
        t.app,
        api('v1_0/manage/tag-dimension/sort'),
        { idList: [dim.Colour, dim.Category] },
        { token: manager },
      );
      expect(sorted.status, JSON.stringify(sorted.body)).toBe(200);
      expect((await selector()).list.map((d) => d.dimensionName)).toEqual([
        'Season',
        'Colour',
        'Category',
        'Sub-category',
      ]);
      expect((await managed()).map((d) => d.dimensionName)).toEqual([
        'Season',
        'Colour',
        'Category',
        'Sub-category',
      ]);
      const mixed = await post(
        t.app,
        api('v1_0/manage/tag-dimension/sort'),
        { idList: [dim.Colour, dim['Sub-category']] },
        { token: manager },
      );
      expect(mixed.status).toBe(400);
    });

    it.each([
      [
        'more than 15 tags',
        () => ({
          dimensionName: 'Too many',
          tagDTOList: Array.from({ length: 16 }, (_, i) => ({ tagName: `T${i}` })),
        }),
        400,
        'SETG_05',
        'at most 15 tags',
      ],
      [
        'a required child dimension',
        () => ({
          dimensionName: 'Required child',
          required: true,
          parentDimensionId: dim.Category,
          tagDTOList: [{ tagName: 'x' }],
        }),
        400,
        'SETG_06',
        'cannot be required',
      ],
      [
        'a required dimension with a superior tag',
        () => ({
          dimensionName: 'Required sup',
          required: true,
          tagDTOList: [{ tagName: 'x', parentTagId: tag.Shoes }],
        }),
        400,
        'SETG_06',
        'cannot be required',
      ],
      [
        'the same tag name twice, in another case',
        () => ({ dimensionName: 'Twice', tagDTOList: [{ tagName: 'Mesh' }, { tagName: 'MESH' }] }),
        400,
        'SETG_04',
        'MESH',
      ],
      [
        'a dimension name taken',
        () => ({ dimensionName: 'season', tagDTOList: [{ tagName: 'x' }] }),
        409,
        'SETG_03',
        '',
      ],
      ['no tag', () => ({ dimensionName: 'Empty', tagDTOList: [] }), 400, 'SE_400', 'tagDTOList'],
      [
        'a blank tag name',
        () => ({ dimensionName: 'Blank', tagDTOList: [{ tagName: '  ' }] }),
        400,
        'SE_400',
        'name',
      ],
      [
        'a separator in a tag name',
        () => ({ dimensionName: 'Comma', tagDTOList: [{ tagName: 'a,b' }] }),
        400,
        'SE_400',
        'character ,',
      ],
      [
        'a tag name of 31 characters',
        () => ({ dimensionName: 'Long', tagDTOList: [{ tagName: 'x'.repeat(31) }] }),
        400,
        'SE_400',
        'at most 30',
      ],
      [
        'a superior tag outside the parent dimension',
        () => ({
          dimensionName: 'Wrong parent',
          parentDimensionId: dim.Category,
          tagDTOList: [{ tagName: 'x', parentTagId: tag.Black }],
        }),
        400,
        'SE_400',
        'parentTagId',
      ],
      [
        'a name reserved for the workbook',
        () => ({ dimensionName: 'Path', tagDTOList: [{ tagName: 'x' }] }),
        400,
        'SE_400',
        'dimensionName',
      ],
      [
        'an unknown dimension',
        () => ({ id: 999999, dimensionName: 'Ghost', tagDTOList: [{ tagName: 'x' }] }),
        404,
        'SETG_01',
        '',
      ],
    ])('refuses %s and changes nothing', async (_label, body, status, code, text) => {
      const before = await managed();
      const refused = await save(body());
      expect(refused.status, JSON.stringify(refused.body)).toBe(status);
      expect(refused.body.errorCode).toBe(code);
      expect(refused.body.errorDesc).toContain(text);
      expect(await managed()).toEqual(before);
    });

    it('refuses callers without code 4 (SE_502) and changes nothing', async () => {
      const before = await managed();
      for (const token of [editor, viewer]) {
        const refused = await save({ dimensionName: 'Sneaky', tagDTOList: [{ tagName: 'x' }] }, token);
        expect(refused.status).toBe(403);
        expect(refused.body.errorCode).toBe('SE_502');
        const deleted = await post(
          t.app,
          api('v1_0/manage/tag-dimension/delete'),
          { id: dim.Colour },
          { token },
        );
        expect(deleted.body.errorCode).toBe('SE_502');
        const sorted = await post(
          t.app,
          api('v1_0/manage/tag-dimension/sort'),
          { idList: [dim.Category] },
          { token },
        );
        expect(sorted.body.errorCode).toBe('SE_502');
        expect((await get(t.app, api('v1_0/manage/tag-dimension/list'), { token })).body.errorCode).toBe(
          'SE_502',
        );
      }
      expect(await managed()).toEqual(before);
      // Reading the selector needs only a signed-in caller.
      expect((await selector(outsider)).status).toBe(200);
      expect((await get(t.app, api('selector/tags'))).status).toBe(401);
    });

    it('renames, swaps, re-orders, adds and deletes tags in one save; deleting a tag unlinks it', async () => {
      const temp = remember(
        (
          await save({
            dimensionName: 'Material',
            tagDTOList: [{ tagName: 'Mesh' }, { tagName: 'Leather' }, { tagName: 'Knit' }],
          })
        ).body.result as ManagedWire,
      );
      expect(temp.tagDTOList).toHaveLength(3);
      const tagged = await modify({
        folderDataId: file.MISC,
        tagIdList: [tag['2026 SS'], tag.Knit, tag.Mesh],
      });
      expect(tagged.status, JSON.stringify(tagged.body)).toBe(200);
      expect(
        (await managed()).find((d) => d.id === dim.Material)?.tagDTOList.find((x) => x.id === tag.Knit)
          ?.itemCount,
      ).toBe(1);

      const saved = await save({
        id: dim.Material,
        dimensionName: 'Materials',
        tagDTOList: [
          { id: tag.Leather, tagName: 'Mesh' },
          { id: tag.Mesh, tagName: 'Leather' },
          { tagName: 'Suede' },
        ],
      });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      const result = saved.body.result as ManagedWire;
      expect(result.dimensionName).toBe('Materials');
      expect(result.tagDTOList.map((x) => [x.id, x.tagName])).toEqual([
        [tag.Leather, 'Mesh'],
        [tag.Mesh, 'Leather'],
        [expect.any(Number), 'Suede'],
      ]);
      // Knit is gone, and with it the file's link; the file keeps its other tags.
      expect(await tagNamesOf(file.MISC)).toEqual(['2026 SS', 'Leather']);
      const links = await t.database.db
        .selectFrom('item_tags')
        .select('item_id')
        .where('tag_id', '=', tag.Knit as number)
        .execute();
      expect(links).toEqual([]);

      const deleted = await post(
        t.app,
        api('v1_0/manage/tag-dimension/delete'),
        { id: dim.Material },
        { token: manager },
      );
      expect(deleted.status).toBe(200);
      expect(await tagNamesOf(file.MISC)).toEqual(['2026 SS']);
      expect((await selector()).list.map((d) => d.dimensionName)).not.toContain('Materials');
      const again = await post(
        t.app,
        api('v1_0/manage/tag-dimension/delete'),
        { id: dim.Material },
        { token: manager },
      );
      expect(again.body.errorCode).toBe('SETG_01');
      await modify({ folderDataId: file.MISC, tagIdList: [] });
    });

    it('refuses to delete a superior tag still used by a child dimension, or a dimension with children', async () => {
      const before = await managed();
      const withoutShoes = await save({
        id: dim.Category,
        dimensionName: 'Category',
        tagDTOList: [{ id: tag.Apparel, tagName: 'Apparel' }],
      });
      expect(withoutShoes.status).toBe(409);
      expect(withoutShoes.body).toMatchObject({ errorCode: 'SETG_09' });
      expect(withoutShoes.body.errorDesc).toContain('Shoes');
      const parent = await post(
        t.app,
        api('v1_0/manage/tag-dimension/delete'),
        { id: dim.Category },
        { token: manager },
      );
      expect(parent.status).toBe(409);
      expect(parent.body.errorCode).toBe('SETG_08');
      const loop = await save({
        id: dim.Category,
        dimensionName: 'Category',
        parentDimensionId: dim['Sub-category'],
        tagDTOList: [
          { id: tag.Shoes, tagName: 'Shoes' },
          { id: tag.Apparel, tagName: 'Apparel' },
        ],
      });
      expect(loop.status).toBe(400);
      expect(loop.body.errorDesc).toContain('parentDimensionId');
      expect(await managed()).toEqual(before);
    });
  });

  describe('tagging items (POST v1_0/file/modify-tag)', () => {
    it('sets the tags of one file; the detail lists them by dimension in selector order', async () => {
      const { status, body } = await modify({
        folderDataId: file.SHOE1,
        tagIdList: [tag.Running, tag.Black, tag.Shoes, tag['2026 SS']],
      });
      expect(status, JSON.stringify(body)).toBe(200);
      expect(body.result).toEqual({ count: 1 });
      expect(await detailTags(file.SHOE1 as number)).toEqual([
        {
          id: tag['2026 SS'],
          tagName: '2026 SS',
          dimensionName: 'Season',
          dimensionId: dim.Season,
          required: true,
          parentTagId: null,
        },
        {
          id: tag.Black,
          tagName: 'Black',
          dimensionName: 'Colour',
          dimensionId: dim.Colour,
          required: false,
          parentTagId: null,
        },
        {
          id: tag.Shoes,
          tagName: 'Shoes',
          dimensionName: 'Category',
          dimensionId: dim.Category,
          required: false,
          parentTagId: null,
        },
        {
          id: tag.Running,
          tagName: 'Running',
          dimensionName: 'Sub-category',
          dimensionId: dim['Sub-category'],
          required: false,
          parentTagId: tag.Shoes,
        },
      ]);
      const marked = await selector(viewer, `?folderDataId=${file.SHOE1}`);
      const selected = marked.list.flatMap((d) =>
        d.tagDTOList.filter((x) => x.selected).map((x) => x.tagName),
      );
      expect(selected).toEqual(['2026 SS', 'Black', 'Shoes', 'Running']);
      // The operation log has the change, with the file's name (SPEC §7: update-tag is logged).
      const logged = await post(
        t.app,
        api('v1_0/operator-log/list'),
        { operatorCodes: ['TAG01'], fileName: 'SHOE1' },
        { token: admin, lang: 'en' },
      );
      const entries = (logged.body.result as { list: Array<{ operatorCode: string; fileNames: string[] }> })
        .list;
      expect(entries.map((e) => e.operatorCode)).toEqual(['TAG01']);
      expect(entries[0]?.fileNames[0]).toContain('SHOE1');
      // Not visible answers like unknown (docs/decisions.md, Errors).
      expect((await selector(outsider, `?folderDataId=${file.SHOE1}`)).body.errorCode).toBe('SE_404');
      expect((await selector(viewer, '?folderDataId=987654')).status).toBe(404);
    });

    it('tags many files at once (replace), or adds to what each has (add)', async () => {
      const replaced = await modify({
        folderDataIdList: [file.SHOE2, file.TEE1],
        tagIdList: [tag['2026 AW']],
      });
      expect(replaced.body.result).toEqual({ count: 2 });
      const added = await modify({
        folderDataIdList: [file.SHOE2, file.TEE1],
        tagIdList: [tag.White],
        mode: 'add',
      });
      expect(added.status, JSON.stringify(added.body)).toBe(200);
      expect(await tagNamesOf(file.SHOE2 as number)).toEqual(['2026 AW', 'White']);
      expect(await tagNamesOf(file.TEE1 as number)).toEqual(['2026 AW', 'White']);
      // Folders carry tags too.
      expect((await modify({ folderDataId: folderId, tagIdList: [tag['2026 AW']] })).status).toBe(200);
      await modify({ folderDataId: folderId, tagIdList: [] });
    });

    it.each([
      [
        'a required dimension without a tag',
        () => [tag.Black],
        'SETG_10',
        'Please fill in the required labels: Season',
      ],
      [
        'a tag without its superior tag',
        () => [tag['2026 SS'], tag.Running],
        'SETG_11',
        '"Running" needs its superior tag "Shoes"',
      ],
      ['an unknown tag', () => [tag['2026 SS'], 987654], 'SETG_02', '987654'],
    ])('refuses %s and changes nothing', async (_label, tagIdList, code, text) => {
      const before = [await tagNamesOf(file.SHOE1 as number), await tagNamesOf(file.SHOE2 as number)];
      const refused = await modify({ folderDataIdList: [file.SHOE1, file.SHOE2], tagIdList: tagIdList() });
      expect(refused.status).toBe(400);
      expect(refused.body.errorCode).toBe(code);
      expect(refused.body.errorDesc).toContain(text);
      expect([await tagNamesOf(file.SHOE1 as number), await tagNamesOf(file.SHOE2 as number)]).toEqual(
        before,
      );
    });

    it('needs edit permission on every item (SE_502), and changes nothing when one is refused', async () => {
      const before = await tagNamesOf(file.SHOE2 as number);
      const refused = await modify({ folderDataId: file.SHOE2, tagIdList: [tag['2026 SS']] }, viewer);
      expect(refused.status).toBe(403);
      expect(refused.body.errorCode).toBe('SE_502');
      // The loner's own folder is theirs to tag, the shared file is not even visible to them.
      const own = await createFolder(t, loner, 'Loner folder');
      expect((await modify({ folderDataId: own, tagIdList: [tag['2026 SS']] }, loner)).status).toBe(200);
      await modify({ folderDataId: own, tagIdList: [] }, loner);
      const mixed = await modify({ folderDataIdList: [own, file.SHOE2], tagIdList: [tag['2026 SS']] }, loner);
      expect(mixed.body.errorCode).toBe('SE_404');
      // A folder has no detail: its tags show as the selector's selected ones.
      const ownTags = (await selector(loner, `?folderDataId=${own}`)).list.flatMap((d) =>
        d.tagDTOList.filter((x) => x.selected),
      );
      expect(ownTags).toEqual([]);
      expect(await tagNamesOf(file.SHOE2 as number)).toEqual(before);
      expect((await modify({ folderDataId: 987654, tagIdList: [] })).status).toBe(404);
      expect((await modify({ tagIdList: [] })).status).toBe(400);
    });

    it('clears the tags with an empty list (untagged is allowed)', async () => {
      await modify({ folderDataId: file.MISC, tagIdList: [tag['2026 SS']] });
      expect((await modify({ folderDataId: file.MISC, tagIdList: [] })).status).toBe(200);
      expect(await tagNamesOf(file.MISC as number)).toEqual([]);
    });
  });

  describe('filtering listings by tags (GET v1_0/file/all-file-v2 tagIdList)', () => {
    it('keeps items with a tag of every dimension asked (tags of one dimension are alternatives)', async () => {
      await modify({ folderDataId: file.SHOE1, tagIdList: [tag['2026 SS'], tag.Shoes, tag.Black] });
      await modify({ folderDataId: file.SHOE2, tagIdList: [tag['2026 AW'], tag.Shoes] });
      await modify({ folderDataId: file.TEE1, tagIdList: [tag['2026 SS'], tag.Apparel] });
      await modify({ folderDataId: file.MISC, tagIdList: [] });
      const names = async (ids: number[]) =>
        (await listFolder(viewer, folderId, `&rankStatus=1&tagIdList=${ids.join(',')}`)).map((i) => i.name);
      expect(await names([tag['2026 SS'] as number])).toEqual(['SHOE1', 'TEE1']);
      expect(await names([tag['2026 SS'] as number, tag.Shoes as number])).toEqual(['SHOE1']);
      expect(await names([tag['2026 SS'] as number, tag['2026 AW'] as number])).toEqual([
        'SHOE1',
        'SHOE2',
        'TEE1',
      ]);
      expect(await names([tag['2026 AW'] as number, tag.Apparel as number])).toEqual([]);
      expect(await names([987654])).toEqual([]);
      expect((await listFolder(viewer, folderId)).length).toBe(4);
    });

    it('answers the filter from the indexes, not a scan of the links', async () => {
      const plan = await t.database.db.transaction().execute(async (trx) => {
        // Tiny tables make scans cheapest; forbid them to see whether the indexes can serve.
        await sql`SET LOCAL enable_seqscan = off`.execute(trx);
        const repo = new ItemsRepository(trx);
        const groups = await repo.tagFilterGroups([tag['2026 SS'] as number, tag.Shoes as number]);
        expect(groups).toHaveLength(2);
        const rows = await repo
          .listChildrenQuery(
            folderId,
            { userId: 1, view: { kind: 'all' } },
            { tagGroups: groups },
            'normal',
            51,
            0,
          )
          .explain();
        return rows.map((r) => String(Object.values(r)[0])).join('\n');
      });
      expect(plan).not.toMatch(/Seq Scan/);
      expect(plan).toMatch(/item_tags_pkey|item_tags_tag/);
    });
  });

  describe('tags at upload (POST v1_0/file-upload/upload tagIdList)', () => {
    it('applies the batch tags, an entry’s own tags overriding them, when each file goes live', async () => {
      await uploadFiles(
        t,
        editor,
        [
          { fileName: 'UP1.jpg', bytes: Buffer.from('up one') },
          {
            fileName: 'UP2.jpg',
            bytes: Buffer.from('up two'),
            tagIdList: [tag['2026 AW'] as number, tag.White as number],
          },
        ],
        { targetFolderId: folderId, tagIdList: [tag['2026 SS'] as number, tag.Black as number] },
      );
      const items = await listFolder(editor, folderId);
      const up1 = items.find((i) => i.name === 'UP1')?.id as number;
      const up2 = items.find((i) => i.name === 'UP2')?.id as number;
      expect(await tagNamesOf(up1)).toEqual(['2026 SS', 'Black']);
      expect(await tagNamesOf(up2)).toEqual(['2026 AW', 'White']);
      // A new version adds its tags to the file's.
      await uploadFiles(t, editor, [{ fileName: 'UP1.png', bytes: Buffer.from('png') }], {
        targetFolderId: folderId,
        tagIdList: [tag['2026 AW'] as number],
      });
      expect(await tagNamesOf(up1)).toEqual(['2026 SS', '2026 AW', 'Black']);
    });

    it.each([
      ['an unknown tag', () => [987654], 'SETG_02'],
      ['a required dimension missing', () => [tag.Black as number], 'SETG_10'],
    ])('refuses a batch with %s and creates nothing', async (_label, tagIdList, code) => {
      const before = await t.database.db.selectFrom('uploads').select('id').execute();
      const refused = await post(
        t.app,
        api('v1_0/file-upload/upload'),
        {
          targetFolderId: folderId,
          uploadDetailDTOS: [
            { fileName: 'NOPE1.jpg', fileSize: 3 },
            { fileName: 'NOPE2.jpg', fileSize: 3, tagIdList: tagIdList() },
          ],
        },
        { token: editor },
      );
      expect(refused.status).toBe(400);
      expect(refused.body.errorCode).toBe(code);
      expect(await t.database.db.selectFrom('uploads').select('id').execute()).toEqual(before);
    });
  });

  describe('channel tags', () => {
    const add = (folderDataId: number, channelName: string, token = editor) =>
      post(t.app, api('v1_0/file/add-channel-tag'), { folderDataId, channelName }, { token, lang: 'en' });
    const list = async (folderDataId: number, token = viewer) => {
      const { status, body } = await get(t.app, api(`v1_0/file/channel-tag?folderDataId=${folderDataId}`), {
        token,
      });
      return {
        status,
        body,
        names: ((body.result as Array<{ channelName: string }>) ?? []).map((c) => c.channelName),
      };
    };

    it('adds, lists and deletes channel tags', async () => {
      const added = await add(file.SHOE1 as number, ' Tmall ');
      expect(added.status, JSON.stringify(added.body)).toBe(200);
      expect(added.body.result).toMatchObject({ channelName: 'Tmall', folderDataId: file.SHOE1 });
      await add(file.SHOE1 as number, '京东自营旗舰店十个字');
      expect((await list(file.SHOE1 as number)).names).toEqual(['Tmall', '京东自营旗舰店十个字']);
      const id = (added.body.result as { id: number }).id;
      const deleted = await get(t.app, api(`v1_0/file/delete-channel-tag?id=${id}`), { token: editor });
      expect(deleted.status).toBe(200);
      expect((await list(file.SHOE1 as number)).names).toEqual(['京东自营旗舰店十个字']);
      expect((await get(t.app, api(`v1_0/file/delete-channel-tag?id=${id}`), { token: editor })).status).toBe(
        404,
      );
    });

    it.each([
      ['an empty name', '   ', 400, 'SE_400', 'channelName: is required'],
      ['11 characters', 'x'.repeat(11), 400, 'SE_400', 'channelName: must be at most 10 characters'],
      ['a name already there', '京东自营旗舰店十个字', 409, 'SETG_12', '京东自营旗舰店十个字'],
    ])('refuses %s and adds nothing', async (_label, name, status, code, text) => {
      const before = (await list(file.SHOE1 as number)).names;
      const refused = await add(file.SHOE1 as number, name);
      expect(refused.status).toBe(status);
      expect(refused.body.errorCode).toBe(code);
      expect(refused.body.errorDesc).toContain(text);
      expect((await list(file.SHOE1 as number)).names).toEqual(before);
    });

    it('compares names without case', async () => {
      await add(file.SHOE2 as number, 'JD');
      const refused = await add(file.SHOE2 as number, 'jd');
      expect(refused.body.errorCode).toBe('SETG_12');
      expect(refused.body.errorDesc).toContain('jd');
    });

    it('holds at most 50 per item', async () => {
      for (let i = 0; i < 49; i++) expect((await add(file.SHOE2 as number, `C${i}`)).status).toBe(200);
      const refused = await add(file.SHOE2 as number, 'One more');
      expect(refused.status).toBe(409);
      expect(refused.body.errorCode).toBe('SETG_13');
    });

    it('needs edit permission to add or delete (SE_502), view permission to list', async () => {
      const before = (await list(file.SHOE1 as number)).names;
      expect((await add(file.SHOE1 as number, 'Sneaky', viewer)).body.errorCode).toBe('SE_502');
      const [existing] = (await list(file.SHOE1 as number)).body.result as Array<{ id: number }>;
      const refused = await get(t.app, api(`v1_0/file/delete-channel-tag?id=${existing?.id}`), {
        token: viewer,
      });
      expect(refused.body.errorCode).toBe('SE_502');
      expect((await list(file.SHOE1 as number)).names).toEqual(before);
      expect((await list(file.SHOE1 as number, outsider)).body.errorCode).toBe('SE_404');
    });
  });

  describe('tags of SKUs', () => {
    beforeAll(async () => {
      await t.database.db
        .insertInto('sku')
        .values([
          { art_num: 'SKU100-01', name: 'Runner' },
          { art_num: 'SKU200', name: 'Tee' },
        ])
        .execute();
    });

    it('sets an article’s tags (code 4) and offers them in suggestions, lists and file-tag-info', async () => {
      const set = await post(
        t.app,
        api('v1_0/manage/sku-tag'),
        { artNum: 'sku100-01', tagIdList: [tag.Running, tag.Shoes, tag['2026 SS']] },
        { token: manager },
      );
      expect(set.status, JSON.stringify(set.body)).toBe(200);
      expect(set.body.result).toMatchObject({
        artNum: 'SKU100-01',
        tagIdList: [tag['2026 SS'], tag.Shoes, tag.Running],
      });
      const listed = await get(t.app, api('v1_0/file-upload/list-sku-tag?artNumList=SKU200,sku100-01,NOPE'), {
        token: viewer,
      });
      expect(listed.status).toBe(200);
      expect(listed.body.result).toEqual([
        { artNum: 'SKU200', tagIdList: [], tagDTOList: [] },
        {
          artNum: 'SKU100-01',
          tagIdList: [tag['2026 SS'], tag.Shoes, tag.Running],
          tagDTOList: expect.arrayContaining([
            expect.objectContaining({ tagName: 'Running', dimensionName: 'Sub-category' }),
          ]),
        },
      ]);
      const suggested = await get(t.app, api('v1_0/file/art-num?artNum=SKU1'), { token: viewer });
      expect(suggested.body.result).toEqual([
        { artNum: 'SKU100-01', name: 'Runner', tagIdList: [tag['2026 SS'], tag.Shoes, tag.Running] },
      ]);
      const page = await post(t.app, api('v1_0/sku/data/list'), { query: 'SKU' }, { token: viewer });
      expect((page.body.result as { list: Array<{ artNum: string; tagIdList: number[] }> }).list).toEqual([
        expect.objectContaining({ artNum: 'SKU100-01', tagIdList: [tag['2026 SS'], tag.Shoes, tag.Running] }),
        expect.objectContaining({ artNum: 'SKU200', tagIdList: [] }),
      ]);
      const info = await post(
        t.app,
        api('v1_0/sku/file-tag-info'),
        { nameList: ['SKU100-01_side.jpg'] },
        { token: viewer },
      );
      const [entry] = (info.body.result as { list: Array<{ tagDTOList: TagOfFileWire[] }> }).list;
      expect(entry?.tagDTOList.map((x) => x.tagName)).toEqual(['2026 SS', 'Shoes', 'Running']);
    });

    it('applies the tag rules, knows its articles, and needs code 4', async () => {
      const setTags = (body: Record<string, unknown>, token = manager) =>
        post(t.app, api('v1_0/manage/sku-tag'), body, { token, lang: 'en' });
      expect((await setTags({ artNum: 'SKU200', tagIdList: [tag.Apparel] })).body.errorCode).toBe('SETG_10');
      expect((await setTags({ artNum: 'SKU200', tagIdList: [987654] })).body.errorCode).toBe('SETG_02');
      expect((await setTags({ artNum: 'NOPE', tagIdList: [] })).status).toBe(404);
      expect((await setTags({ artNum: 'SKU200', tagIdList: [tag['2026 AW']] }, editor)).body.errorCode).toBe(
        'SE_502',
      );
      const listed = await get(t.app, api('v1_0/file-upload/list-sku-tag?artNumList=SKU200'), {
        token: viewer,
      });
      expect(listed.body.result).toEqual([{ artNum: 'SKU200', tagIdList: [], tagDTOList: [] }]);
      expect((await get(t.app, api('v1_0/file-upload/list-sku-tag'), { token: viewer })).status).toBe(400);
    });
  });

  describe('Excel exchange (tag-model-export / tag-model-import, code 4)', () => {
    const exportRange = (body: Record<string, unknown>, token = manager, lang = 'en') =>
      t.app.inject({
        method: 'POST',
        url: api('v1_0/manage/tag-model-export'),
        payload: body,
        headers: { token, lang },
      });
    const importBook = async (bytes: Buffer, token = manager) => {
      const form = multipart([{ name: 'file', filename: 'tags.xlsx', content: bytes }]);
      const response = await t.app.inject({
        method: 'POST',
        url: api('v1_0/manage/tag-model-import'),
        payload: form.payload,
        headers: { token, lang: 'en', 'content-type': form.contentType },
      });
      return {
        status: response.statusCode,
        body: response.json() as { success: boolean; result: unknown; errorCode: string; errorDesc: string },
      };
    };
    const readBook = async (bytes: Buffer) => {
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(bytes as unknown as ArrayBuffer);
      return book;
    };
    /** Cell values of the first sheet, every row as wide as the header, empty cells as ''. */
    const rowsOf = (book: ExcelJS.Workbook) => {
      const rows: unknown[][] = [];
      book.worksheets[0]?.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
      const width = rows[0]?.length ?? 0;
      return rows.map((row) => Array.from({ length: width }, (_, i) => row[i] ?? ''));
    };
    let subfolder: number;

    beforeAll(async () => {
      subfolder = await createFolder(t, admin, 'Deeper', folderId);
      await uploadFiles(t, admin, [{ fileName: 'DEEP1.jpg', bytes: Buffer.from('deep') }], {
        targetFolderId: subfolder,
      });
      for (const item of await listFolder(admin, subfolder)) file[item.name] = item.id;
      await modify({ folderDataId: file.DEEP1, tagIdList: [tag['2026 SS'], tag.Apparel, tag['T-shirt']] });
    });

    it('exports one row per file of the range, recursively, one column per dimension', async () => {
      const response = await exportRange({ folderIdList: [folderId] });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['content-type']).toContain('spreadsheetml');
      const rows = rowsOf(await readBook(response.rawPayload));
      expect(rows[0]).toEqual([
        'ID',
        'Path',
        'Name',
        'Article number',
        'Season',
        'Colour',
        'Category',
        'Sub-category',
      ]);
      const byName = new Map(rows.slice(1).map((r) => [r[2], r]));
      expect([...byName.keys()].sort()).toEqual(['DEEP1', 'MISC', 'SHOE1', 'SHOE2', 'TEE1', 'UP1', 'UP2']);
      expect(byName.get('DEEP1')).toEqual([
        file.DEEP1,
        '/Tagged shoes/Deeper',
        'DEEP1',
        '',
        '2026 SS',
        '',
        'Apparel',
        'T-shirt',
      ]);
      expect(byName.get('SHOE1')?.slice(4)).toEqual(['2026 SS', 'Black', 'Shoes', '']);
      const chinese = await exportRange({ folderDataIdList: [file.SHOE1] }, manager, 'zh');
      const zhRows = rowsOf(await readBook(chinese.rawPayload));
      expect(zhRows[0]?.slice(0, 4)).toEqual(['ID', '路径', '名称', '货号']);
      expect(zhRows).toHaveLength(2);
    });

    it('refuses an export without a range (SE_400) or without code 4 (SE_502)', async () => {
      const empty = await exportRange({ folderDataIdList: [], folderIdList: [] });
      expect(empty.statusCode).toBe(400);
      expect(empty.json()).toMatchObject({ errorCode: 'SE_400' });
      expect(empty.json().errorDesc).toContain('choose the files or folders to export');
      const refused = await exportRange({ folderIdList: [folderId] }, editor);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().errorCode).toBe('SE_502');
      expect((await exportRange({ folderIdList: [987654] })).statusCode).toBe(404);
    });

    it('imports edited tags back (round trip) in one go', async () => {
      const exported = await exportRange({ folderIdList: [folderId] });
      const book = await readBook(exported.rawPayload);
      const sheet = book.worksheets[0] as ExcelJS.Worksheet;
      sheet.eachRow((row, number) => {
        if (number === 1) return;
        if (row.getCell(3).value === 'MISC') {
          row.getCell(5).value = '2026 aw';
          row.getCell(6).value = 'Black， white';
        }
        if (row.getCell(3).value === 'TEE1') row.getCell(8).value = 't-shirt';
      });
      const imported = await importBook(Buffer.from(await book.xlsx.writeBuffer()));
      expect(imported.status, JSON.stringify(imported.body)).toBe(200);
      expect(imported.body.result).toEqual({ total: 7, changed: 2, unchanged: 5 });
      expect(await tagNamesOf(file.MISC as number)).toEqual(['2026 AW', 'Black', 'White']);
      expect(await tagNamesOf(file.TEE1 as number)).toEqual(['2026 SS', 'Apparel', 'T-shirt']);
      expect(await tagNamesOf(file.SHOE1 as number)).toEqual(['2026 SS', 'Black', 'Shoes']);
    });

    it('leaves dimensions without a column alone and clears a dimension with an empty cell', async () => {
      const book = new ExcelJS.Workbook();
      const sheet = book.addWorksheet('Tags');
      sheet.addRow(['id', 'colour']);
      sheet.addRow([file.MISC, '']);
      const imported = await importBook(Buffer.from(await book.xlsx.writeBuffer()));
      expect(imported.status, JSON.stringify(imported.body)).toBe(200);
      expect(await tagNamesOf(file.MISC as number)).toEqual(['2026 AW']);
    });

    const id2 = () => file.TEE1 as number;
    it.each([
      [
        'an unknown tag',
        (id: () => number) => [
          ['ID', 'Season'],
          [id(), '2026 AW'],
          [id2(), 'Winter'],
        ],
        'Row 3, column B (Season): The tag "Winter" does not exist',
      ],
      [
        'an unknown file',
        () => [
          ['ID', 'Season'],
          [file.SHOE2, '2026 AW'],
          [987654, '2026 AW'],
        ],
        'Row 3, column A (ID): there is no file with id 987654',
      ],
      [
        'the same file twice',
        (id: () => number) => [
          ['ID', 'Season'],
          [id(), '2026 AW'],
          [id(), '2026 SS'],
        ],
        'already appears in row 2',
      ],
      [
        'an unknown dimension',
        () => [
          ['ID', 'Seasons'],
          [file.SHOE2, '2026 AW'],
        ],
        'Row 1, column B (Seasons): "Seasons" is not a tag dimension',
      ],
      [
        'a required dimension emptied',
        (id: () => number) => [
          ['ID', 'Season', 'Colour'],
          [id(), '', 'Black'],
        ],
        'Row 2, column B (Season): Please fill in the required labels: Season',
      ],
      [
        'a tag without its superior tag',
        (id: () => number) => [
          ['ID', 'Category', 'Sub-category'],
          [id(), 'Apparel', 'Running'],
        ],
        'Row 2, column C (Sub-category): The tag "Running" needs its superior tag "Shoes"',
      ],
    ])(
      'refuses a file with %s naming the row and column, and changes nothing',
      async (_label, rows, text) => {
        const before = await Promise.all(
          [file.SHOE1, file.SHOE2, file.TEE1].map((id) => tagNamesOf(id as number)),
        );
        const book = new ExcelJS.Workbook();
        const sheet = book.addWorksheet('Tags');
        for (const row of rows(() => file.SHOE1 as number)) sheet.addRow(row);
        const refused = await importBook(Buffer.from(await book.xlsx.writeBuffer()));
        expect(refused.status).toBe(400);
        expect(refused.body.errorCode).toBe('SETG_14');
        expect(refused.body.errorDesc).toContain(text);
        expect(
          await Promise.all([file.SHOE1, file.SHOE2, file.TEE1].map((id) => tagNamesOf(id as number))),
        ).toEqual(before);
      },
    );

    it('refuses rows of files the caller may not edit, files that are not workbooks, and callers without code 4', async () => {
      const book = new ExcelJS.Workbook();
      book.addWorksheet('Tags').addRows([
        ['ID', 'Season'],
        [file.SHOE2, '2026 SS'],
      ]);
      const bytes = Buffer.from(await book.xlsx.writeBuffer());
      const notEditable = await importBook(bytes, lookingManager);
      expect(notEditable.body.errorCode).toBe('SETG_14');
      expect(notEditable.body.errorDesc).toContain(
        `Row 2, column A (ID): you may not change the tags of file ${file.SHOE2}`,
      );
      expect((await importBook(bytes, editor)).body.errorCode).toBe('SE_502');
      expect((await importBook(Buffer.from('not a workbook'))).body.errorCode).toBe('SESK_01');
      const noId = new ExcelJS.Workbook();
      noId.addWorksheet('Tags').addRows([['Season'], ['2026 SS']]);
      expect((await importBook(Buffer.from(await noId.xlsx.writeBuffer()))).body.errorCode).toBe('SESK_02');
      expect(await tagNamesOf(file.SHOE2 as number)).not.toContain('2026 SS');
      const fieldOnly = multipart([{ name: 'other', content: 'x' }]);
      const noFile = await t.app.inject({
        method: 'POST',
        url: api('v1_0/manage/tag-model-import'),
        payload: fieldOnly.payload,
        headers: { token: manager, 'content-type': fieldOnly.contentType },
      });
      expect(noFile.statusCode).toBe(400);
    });
  });

  it('keeps the tags and channel tags of a file merged into another by a rename', async () => {
    const other = await createFolder(t, admin, 'Merge');
    await uploadFiles(
      t,
      admin,
      [
        { fileName: 'KEEP.jpg', bytes: Buffer.from('keep') },
        { fileName: 'GONE.psd', bytes: Buffer.from('gone') },
      ],
      { targetFolderId: other },
    );
    const items = await listFolder(admin, other);
    const keep = items.find((i) => i.name === 'KEEP')?.id as number;
    const gone = items.find((i) => i.name === 'GONE')?.id as number;
    await modify({ folderDataId: keep, tagIdList: [tag['2026 SS']] });
    await modify({ folderDataId: gone, tagIdList: [tag['2026 AW'], tag.Black] });
    await post(
      t.app,
      api('v1_0/file/add-channel-tag'),
      { folderDataId: gone, channelName: 'Tmall' },
      { token: admin },
    );
    const merged = await post(
      t.app,
      api('v1_0/file/edit'),
      { folderDataId: gone, name: 'KEEP', confirmMerge: true },
      { token: admin },
    );
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    expect(await tagNamesOf(keep)).toEqual(['2026 SS', '2026 AW', 'Black']);
    const channels = await get(t.app, api(`v1_0/file/channel-tag?folderDataId=${keep}`), { token: admin });
    expect((channels.body.result as Array<{ channelName: string }>).map((c) => c.channelName)).toEqual([
      'Tmall',
    ]);
  });
});
