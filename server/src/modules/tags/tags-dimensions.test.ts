import { endpoints } from '@dam/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resultOf } from '../../../test/call';
import { uniqueName } from '../../../test/factories';
import { get, post } from '../../../test/harness';
import { api, createTagsWorld, type TagsWorld } from '../../../test/scenarios/tags';

describe('tag dimensions', () => {
  let w: TagsWorld;
  beforeAll(async () => {
    w = await createTagsWorld({ sorted: false });
  });
  afterAll(() => w.t.close());

  describe('managing dimensions (POST v1_0/manage/update-tag, code 4)', () => {
    it('creates dimensions with their tags, child dimensions with superior tags', async () => {
      const name = uniqueName('Category');
      const category = await w.save({
        dimensionName: ` ${name} `,
        tagDTOList: [{ tagName: 'Shoes' }, { tagName: 'Apparel' }],
      });
      expect(category.status, JSON.stringify(category.body)).toBe(200);
      expect(category.body.result).toMatchObject({
        dimensionName: name,
        required: false,
        parentDimensionId: null,
        tagDTOList: [
          { tagName: 'Shoes', required: false, parentTagId: null, itemCount: 0, skuCount: 0 },
          { tagName: 'Apparel', required: false, parentTagId: null, itemCount: 0, skuCount: 0 },
        ],
      });
      const created = resultOf(endpoints.saveTagDimension, category.body);
      const [shoes, apparel] = created.tagDTOList.map((x) => x.id);
      const sub = await w.save({
        dimensionName: uniqueName('Sub-category'),
        parentDimensionId: created.id,
        tagDTOList: [
          { tagName: 'Running', parentTagId: shoes },
          { tagName: 'T-shirt', parentTagId: apparel },
          { tagName: 'Limited' },
        ],
      });
      expect(sub.status, JSON.stringify(sub.body)).toBe(200);
      expect(resultOf(endpoints.saveTagDimension, sub.body).tagDTOList.map((x) => x.parentTagId)).toEqual([
        shoes,
        apparel,
        null,
      ]);
      const season = await w.save({
        dimensionName: uniqueName('Season'),
        required: true,
        tagDTOList: [{ tagName: '2026 SS' }, { tagName: '2026 AW' }],
      });
      expect(season.status, JSON.stringify(season.body)).toBe(200);
      expect(resultOf(endpoints.saveTagDimension, season.body).tagDTOList.every((x) => x.required)).toBe(
        true,
      );
      // A second required dimension would bind every other test's tagging: it goes again.
      expect((await w.deleteDimension(resultOf(endpoints.saveTagDimension, season.body).id)).status).toBe(
        200,
      );
      const colour = await w.save({
        dimensionName: uniqueName('Colour'),
        tagDTOList: [{ tagName: 'Black' }, { tagName: 'White' }],
      });
      expect(colour.status, JSON.stringify(colour.body)).toBe(200);
      const running = resultOf(endpoints.saveTagDimension, sub.body).tagDTOList.find(
        (x) => x.tagName === 'Running',
      );
      expect(running?.id).toBeGreaterThan(0);
    });

    it('orders the selector: required dimensions first, then top-level ones, children after their parent', async () => {
      // Other tests here add dimensions of their own: the order is checked on the catalogue's.
      const catalogue = ['Season', 'Category', 'Sub-category', 'Colour'];
      const names = (list: Array<{ dimensionName: string }>) =>
        list.map((d) => d.dimensionName).filter((name) => catalogue.includes(name));
      const { status, list } = await w.selector();
      expect(status).toBe(200);
      expect(names(list)).toEqual(['Season', 'Category', 'Sub-category', 'Colour']);
      const sub = list.find((d) => d.dimensionName === 'Sub-category');
      expect(sub).toMatchObject({ parentDimensionId: w.dim.Category, required: false });
      expect(sub?.tagDTOList.map((x) => [x.tagName, x.parentTagId, x.selected])).toEqual([
        ['Running', w.tag.Shoes, false],
        ['T-shirt', w.tag.Apparel, false],
        ['Limited', null, false],
      ]);

      // Re-ordering siblings keeps required ones first and children after their parent.
      const sorted = await post(
        w.t.app,
        api('v1_0/manage/tag-dimension/sort'),
        { idList: [w.dim.Colour, w.dim.Category] },
        { token: w.manager },
      );
      expect(sorted.status, JSON.stringify(sorted.body)).toBe(200);
      expect(names((await w.selector()).list)).toEqual(['Season', 'Colour', 'Category', 'Sub-category']);
      expect(names(await w.managed())).toEqual(['Season', 'Colour', 'Category', 'Sub-category']);
      const mixed = await post(
        w.t.app,
        api('v1_0/manage/tag-dimension/sort'),
        { idList: [w.dim.Colour, w.dim['Sub-category']] },
        { token: w.manager },
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
          parentDimensionId: w.dim.Category,
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
          tagDTOList: [{ tagName: 'x', parentTagId: w.tag.Shoes }],
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
          parentDimensionId: w.dim.Category,
          tagDTOList: [{ tagName: 'x', parentTagId: w.tag.Black }],
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
      const before = await w.managed();
      const refused = await w.save(body());
      expect(refused.status, JSON.stringify(refused.body)).toBe(status);
      expect(refused.body.errorCode).toBe(code);
      expect(refused.body.errorDesc).toContain(text);
      expect(await w.managed()).toEqual(before);
    });

    it('refuses callers without code 4 (SE_502) and changes nothing', async () => {
      const before = await w.managed();
      for (const token of [w.editor, w.viewer]) {
        const refused = await w.save({ dimensionName: 'Sneaky', tagDTOList: [{ tagName: 'x' }] }, token);
        expect(refused.status).toBe(403);
        expect(refused.body.errorCode).toBe('SE_502');
        const deleted = await post(
          w.t.app,
          api('v1_0/manage/tag-dimension/delete'),
          { id: w.dim.Colour },
          { token },
        );
        expect(deleted.body.errorCode).toBe('SE_502');
        const sorted = await post(
          w.t.app,
          api('v1_0/manage/tag-dimension/sort'),
          { idList: [w.dim.Category] },
          { token },
        );
        expect(sorted.body.errorCode).toBe('SE_502');
        expect((await get(w.t.app, api('v1_0/manage/tag-dimension/list'), { token })).body.errorCode).toBe(
          'SE_502',
        );
      }
      expect(await w.managed()).toEqual(before);
      // Reading the selector needs only a signed-in caller.
      expect((await w.selector(w.outsider)).status).toBe(200);
      expect((await get(w.t.app, api('selector/tags'))).status).toBe(401);
    });

    it('renames, swaps, re-orders, adds and deletes tags in one save; deleting a tag unlinks it', async () => {
      const temp = resultOf(
        endpoints.saveTagDimension,
        (
          await w.save({
            dimensionName: 'Material',
            tagDTOList: [{ tagName: 'Mesh' }, { tagName: 'Leather' }, { tagName: 'Knit' }],
          })
        ).body,
      );
      expect(temp.tagDTOList).toHaveLength(3);
      const dim = { Material: temp.id };
      const tag = Object.fromEntries(temp.tagDTOList.map((x) => [x.tagName, x.id])) as Record<
        'Mesh' | 'Leather' | 'Knit',
        number
      >;
      const file = { MISC: (await w.givenTaggedFile()).id };
      const tagged = await w.modify({
        folderDataId: file.MISC,
        tagIdList: [w.tag['2026 SS'], tag.Knit, tag.Mesh],
      });
      expect(tagged.status, JSON.stringify(tagged.body)).toBe(200);
      expect(
        (await w.managed()).find((d) => d.id === dim.Material)?.tagDTOList.find((x) => x.id === tag.Knit)
          ?.itemCount,
      ).toBe(1);

      const saved = await w.save({
        id: dim.Material,
        dimensionName: 'Materials',
        tagDTOList: [
          { id: tag.Leather, tagName: 'Mesh' },
          { id: tag.Mesh, tagName: 'Leather' },
          { tagName: 'Suede' },
        ],
      });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      const result = resultOf(endpoints.saveTagDimension, saved.body);
      expect(result.dimensionName).toBe('Materials');
      expect(result.tagDTOList.map((x) => [x.id, x.tagName])).toEqual([
        [tag.Leather, 'Mesh'],
        [tag.Mesh, 'Leather'],
        [expect.any(Number), 'Suede'],
      ]);
      // Knit is gone, and with it the file's link; the file keeps its other tags.
      expect(await w.tagNamesOf(file.MISC)).toEqual(['2026 SS', 'Leather']);
      const links = await w.t.database.db
        .selectFrom('item_tags')
        .select('item_id')
        .where('tag_id', '=', tag.Knit)
        .execute();
      expect(links).toEqual([]);

      const deleted = await post(
        w.t.app,
        api('v1_0/manage/tag-dimension/delete'),
        { id: dim.Material },
        { token: w.manager },
      );
      expect(deleted.status).toBe(200);
      expect(await w.tagNamesOf(file.MISC)).toEqual(['2026 SS']);
      expect((await w.selector()).list.map((d) => d.dimensionName)).not.toContain('Materials');
      const again = await post(
        w.t.app,
        api('v1_0/manage/tag-dimension/delete'),
        { id: dim.Material },
        { token: w.manager },
      );
      expect(again.body.errorCode).toBe('SETG_01');
      await w.modify({ folderDataId: file.MISC, tagIdList: [] });
    });

    it('refuses to delete a superior tag still used by a child dimension, or a dimension with children', async () => {
      const before = await w.managed();
      const withoutShoes = await w.save({
        id: w.dim.Category,
        dimensionName: 'Category',
        tagDTOList: [{ id: w.tag.Apparel, tagName: 'Apparel' }],
      });
      expect(withoutShoes.status).toBe(409);
      expect(withoutShoes.body).toMatchObject({ errorCode: 'SETG_09' });
      expect(withoutShoes.body.errorDesc).toContain('Shoes');
      const parent = await post(
        w.t.app,
        api('v1_0/manage/tag-dimension/delete'),
        { id: w.dim.Category },
        { token: w.manager },
      );
      expect(parent.status).toBe(409);
      expect(parent.body.errorCode).toBe('SETG_08');
      const loop = await w.save({
        id: w.dim.Category,
        dimensionName: 'Category',
        parentDimensionId: w.dim['Sub-category'],
        tagDTOList: [
          { id: w.tag.Shoes, tagName: 'Shoes' },
          { id: w.tag.Apparel, tagName: 'Apparel' },
        ],
      });
      expect(loop.status).toBe(400);
      expect(loop.body.errorDesc).toContain('parentDimensionId');
      expect(await w.managed()).toEqual(before);
    });
  });
});
