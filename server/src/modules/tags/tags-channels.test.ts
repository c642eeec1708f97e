import { endpoints } from '@dam/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resultOf } from '../../../test/call';
import { get, post } from '../../../test/harness';
import { api, createTagsWorld, type TagsWorld } from '../../../test/scenarios/tags';

describe('channel tags and tags of SKUs', () => {
  let w: TagsWorld;
  beforeAll(async () => {
    w = await createTagsWorld({ sorted: true });
  });
  afterAll(() => w.t.close());

  describe('channel tags', () => {
    const add = (folderDataId: number, channelName: string, token = w.editor) =>
      post(w.t.app, api('v1_0/file/add-channel-tag'), { folderDataId, channelName }, { token, lang: 'en' });
    const list = async (folderDataId: number, token = w.viewer) => {
      const { status, body } = await get(w.t.app, api(`v1_0/file/channel-tag?folderDataId=${folderDataId}`), {
        token,
      });
      return {
        status,
        body,
        names: (resultOf(endpoints.channelTags, body) ?? []).map((c) => c.channelName),
      };
    };

    /** A file of its own for each test, with the channel tags given. */
    const givenFileWith = async (...channels: string[]) => {
      const file = await w.givenTaggedFile();
      for (const name of channels) expect((await add(file.id, name)).status).toBe(200);
      return file.id;
    };

    it('adds, lists and deletes channel tags', async () => {
      const file = { SHOE1: await givenFileWith() };
      const added = await add(file.SHOE1, ' Tmall ');
      expect(added.status, JSON.stringify(added.body)).toBe(200);
      expect(added.body.result).toMatchObject({ channelName: 'Tmall', folderDataId: file.SHOE1 });
      await add(file.SHOE1, '京东自营旗舰店十个字');
      expect((await list(file.SHOE1)).names).toEqual(['Tmall', '京东自营旗舰店十个字']);
      const id = resultOf(endpoints.addChannelTag, added.body).id;
      const deleted = await get(w.t.app, api(`v1_0/file/delete-channel-tag?id=${id}`), { token: w.editor });
      expect(deleted.status).toBe(200);
      expect((await list(file.SHOE1)).names).toEqual(['京东自营旗舰店十个字']);
      expect(
        (await get(w.t.app, api(`v1_0/file/delete-channel-tag?id=${id}`), { token: w.editor })).status,
      ).toBe(404);
    });

    it.each([
      ['an empty name', '   ', 400, 'SE_400', 'channelName: is required'],
      ['11 characters', 'x'.repeat(11), 400, 'SE_400', 'channelName: must be at most 10 characters'],
      ['a name already there', '京东自营旗舰店十个字', 409, 'SETG_12', '京东自营旗舰店十个字'],
    ])('refuses %s and adds nothing', async (_label, name, status, code, text) => {
      const file = { SHOE1: await givenFileWith('Tmall', '京东自营旗舰店十个字') };
      const before = (await list(file.SHOE1)).names;
      const refused = await add(file.SHOE1, name);
      expect(refused.status).toBe(status);
      expect(refused.body.errorCode).toBe(code);
      expect(refused.body.errorDesc).toContain(text);
      expect((await list(file.SHOE1)).names).toEqual(before);
    });

    it('compares names without case', async () => {
      const file = { SHOE2: await givenFileWith() };
      await add(file.SHOE2, 'JD');
      const refused = await add(file.SHOE2, 'jd');
      expect(refused.body.errorCode).toBe('SETG_12');
      expect(refused.body.errorDesc).toContain('jd');
    });

    it('holds at most 50 per item', async () => {
      const file = { SHOE2: await givenFileWith('JD') };
      for (let i = 0; i < 49; i++) expect((await add(file.SHOE2, `C${i}`)).status).toBe(200);
      const refused = await add(file.SHOE2, 'One more');
      expect(refused.status).toBe(409);
      expect(refused.body.errorCode).toBe('SETG_13');
    });

    it('needs edit permission to add or delete (SE_502), view permission to list', async () => {
      const file = { SHOE1: await givenFileWith('Tmall') };
      const before = (await list(file.SHOE1)).names;
      expect((await add(file.SHOE1, 'Sneaky', w.viewer)).body.errorCode).toBe('SE_502');
      const [existing] = resultOf(endpoints.channelTags, (await list(file.SHOE1)).body);
      const refused = await get(w.t.app, api(`v1_0/file/delete-channel-tag?id=${existing?.id}`), {
        token: w.viewer,
      });
      expect(refused.body.errorCode).toBe('SE_502');
      expect((await list(file.SHOE1)).names).toEqual(before);
      expect((await list(file.SHOE1, w.outsider)).body.errorCode).toBe('SE_404');
    });
  });

  describe('tags of SKUs', () => {
    beforeAll(async () => {
      await w.t.database.db
        .insertInto('sku')
        .values([
          { art_num: 'SKU100-01', name: 'Runner' },
          { art_num: 'SKU200', name: 'Tee' },
        ])
        .execute();
    });

    it('sets an article’s tags (code 4) and offers them in suggestions, lists and file-tag-info', async () => {
      const set = await post(
        w.t.app,
        api('v1_0/manage/sku-tag'),
        { artNum: 'sku100-01', tagIdList: [w.tag.Running, w.tag.Shoes, w.tag['2026 SS']] },
        { token: w.manager },
      );
      expect(set.status, JSON.stringify(set.body)).toBe(200);
      expect(set.body.result).toMatchObject({
        artNum: 'SKU100-01',
        tagIdList: [w.tag['2026 SS'], w.tag.Shoes, w.tag.Running],
      });
      const listed = await get(
        w.t.app,
        api('v1_0/file-upload/list-sku-tag?artNumList=SKU200,sku100-01,NOPE'),
        {
          token: w.viewer,
        },
      );
      expect(listed.status).toBe(200);
      expect(listed.body.result).toEqual([
        { artNum: 'SKU200', tagIdList: [], tagDTOList: [] },
        {
          artNum: 'SKU100-01',
          tagIdList: [w.tag['2026 SS'], w.tag.Shoes, w.tag.Running],
          tagDTOList: expect.arrayContaining([
            expect.objectContaining({ tagName: 'Running', dimensionName: 'Sub-category' }),
          ]),
        },
      ]);
      const suggested = await get(w.t.app, api('v1_0/file/art-num?artNum=SKU1'), { token: w.viewer });
      expect(suggested.body.result).toEqual([
        { artNum: 'SKU100-01', name: 'Runner', tagIdList: [w.tag['2026 SS'], w.tag.Shoes, w.tag.Running] },
      ]);
      const page = await post(w.t.app, api('v1_0/sku/data/list'), { query: 'SKU' }, { token: w.viewer });
      expect(resultOf(endpoints.skuList, page.body).list).toEqual([
        expect.objectContaining({
          artNum: 'SKU100-01',
          tagIdList: [w.tag['2026 SS'], w.tag.Shoes, w.tag.Running],
        }),
        expect.objectContaining({ artNum: 'SKU200', tagIdList: [] }),
      ]);
      const info = await post(
        w.t.app,
        api('v1_0/sku/file-tag-info'),
        { nameList: ['SKU100-01_side.jpg'] },
        { token: w.viewer },
      );
      const [entry] = resultOf(endpoints.fileTagInfo, info.body).list;
      expect(entry?.tagDTOList.map((x) => x.tagName)).toEqual(['2026 SS', 'Shoes', 'Running']);
    });

    it('applies the tag rules, knows its articles, and needs code 4', async () => {
      const setTags = (body: Record<string, unknown>, token = w.manager) =>
        post(w.t.app, api('v1_0/manage/sku-tag'), body, { token, lang: 'en' });
      expect((await setTags({ artNum: 'SKU200', tagIdList: [w.tag.Apparel] })).body.errorCode).toBe(
        'SETG_10',
      );
      expect((await setTags({ artNum: 'SKU200', tagIdList: [987654] })).body.errorCode).toBe('SETG_02');
      expect((await setTags({ artNum: 'NOPE', tagIdList: [] })).status).toBe(404);
      expect(
        (await setTags({ artNum: 'SKU200', tagIdList: [w.tag['2026 AW']] }, w.editor)).body.errorCode,
      ).toBe('SE_502');
      const listed = await get(w.t.app, api('v1_0/file-upload/list-sku-tag?artNumList=SKU200'), {
        token: w.viewer,
      });
      expect(listed.body.result).toEqual([{ artNum: 'SKU200', tagIdList: [], tagDTOList: [] }]);
      expect((await get(w.t.app, api('v1_0/file-upload/list-sku-tag'), { token: w.viewer })).status).toBe(
        400,
      );
    });
  });
});
