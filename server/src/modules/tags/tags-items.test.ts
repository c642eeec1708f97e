import { endpoints } from '@dam/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, resultOf } from '../../../test/call';
import {
  createFolder,
  givenFolder,
  givenSignedInUser,
  uniqueName,
  uploadFiles,
} from '../../../test/factories';
import { get, post } from '../../../test/harness';
import { api, createTagsWorld, type TagsWorld } from '../../../test/scenarios/tags';
import { ItemsRepository } from '../items/repository';

describe('tagging files and folders', () => {
  let w: TagsWorld;
  beforeAll(async () => {
    w = await createTagsWorld({ sorted: true });
  });
  afterAll(() => w.t.close());

  /** A folder of the administrator's (a unique name) with SHOE1, SHOE2, TEE1 and MISC, untagged. */
  const givenShoes = async () => {
    const folder = await givenFolder(w.t, w.admin);
    await uploadFiles(
      w.t,
      w.admin,
      ['SHOE1.jpg', 'SHOE2.jpg', 'TEE1.jpg', 'MISC.jpg'].map((fileName) => ({
        fileName,
        bytes: Buffer.from(`bytes of ${fileName}`),
      })),
      { targetFolderId: folder.id },
    );
    const file: Record<string, number> = {};
    for (const item of await w.listFolder(w.admin, folder.id)) file[item.name] = item.id;
    return { folderId: folder.id, file: file as Record<'SHOE1' | 'SHOE2' | 'TEE1' | 'MISC', number> };
  };

  describe('tagging items (POST v1_0/file/modify-tag)', () => {
    it('sets the tags of one file; the detail lists them by dimension in selector order', async () => {
      // A name of its own, so the log entry found by name is this test's.
      const shoe = await w.givenTaggedFile([], { fileName: `${uniqueName('SHOE1')}.jpg` });
      const file = { SHOE1: shoe.id };
      const { status, body } = await w.modify({
        folderDataId: file.SHOE1,
        tagIdList: [w.tag.Running, w.tag.Black, w.tag.Shoes, w.tag['2026 SS']],
      });
      expect(status, JSON.stringify(body)).toBe(200);
      expect(body.result).toEqual({ count: 1 });
      expect(await w.detailTags(file.SHOE1)).toEqual([
        {
          id: w.tag['2026 SS'],
          tagName: '2026 SS',
          dimensionName: 'Season',
          dimensionId: w.dim.Season,
          required: true,
          parentTagId: null,
        },
        {
          id: w.tag.Black,
          tagName: 'Black',
          dimensionName: 'Colour',
          dimensionId: w.dim.Colour,
          required: false,
          parentTagId: null,
        },
        {
          id: w.tag.Shoes,
          tagName: 'Shoes',
          dimensionName: 'Category',
          dimensionId: w.dim.Category,
          required: false,
          parentTagId: null,
        },
        {
          id: w.tag.Running,
          tagName: 'Running',
          dimensionName: 'Sub-category',
          dimensionId: w.dim['Sub-category'],
          required: false,
          parentTagId: w.tag.Shoes,
        },
      ]);
      const marked = await w.selector(w.viewer, `?folderDataId=${file.SHOE1}`);
      const selected = marked.list.flatMap((d) =>
        d.tagDTOList.filter((x) => x.selected).map((x) => x.tagName),
      );
      expect(selected).toEqual(['2026 SS', 'Black', 'Shoes', 'Running']);
      // The operation log has the change, with the file's name (SPEC §7: update-tag is logged).
      const logged = await post(
        w.t.app,
        api('v1_0/operator-log/list'),
        { operatorCodes: ['TAG01'], fileName: shoe.name },
        { token: w.admin, lang: 'en' },
      );
      const entries = resultOf(endpoints.operationLog, logged.body).list;
      expect(entries.map((e) => e.operatorCode)).toEqual(['TAG01']);
      expect(entries[0]?.fileNames[0]).toContain(shoe.name);
      // It reads as what was done, with the tags' names rather than their ids.
      expect(entries[0]?.content).toBe('tags set to: 2026 SS, Black, Shoes, Running');
      const inChinese = await post(
        w.t.app,
        api('v1_0/operator-log/list'),
        { operatorCodes: ['TAG01'], fileName: shoe.name },
        { token: w.admin, lang: 'zh' },
      );
      expect(resultOf(endpoints.operationLog, inChinese.body).list[0]?.content).toBe(
        '设置标签为：2026 SS、Black、Shoes、Running',
      );
      // Not visible answers like unknown (docs/decisions.md, Errors).
      expect((await w.selector(w.outsider, `?folderDataId=${file.SHOE1}`)).body.errorCode).toBe('SE_404');
      expect((await w.selector(w.viewer, '?folderDataId=987654')).status).toBe(404);
    });

    it('lists the tags of many items for batch tagging, leaving out what the caller cannot see', async () => {
      const tagged = await w.givenTaggedFile([w.tag.Black, w.tag['2026 SS']]);
      const bare = await w.givenTaggedFile([]);
      const listed = await call(w.t.app, endpoints.tagsOfItems, {
        token: w.viewer,
        body: { folderDataIdList: [tagged.id, bare.id, 987654] },
      });
      expect(listed.map((entry) => entry.folderDataId)).toEqual([tagged.id, bare.id]);
      expect(listed[0]?.tagDTOList.map((tag) => tag.tagName)).toEqual(['2026 SS', 'Black']);
      expect(listed[1]?.tagDTOList).toEqual([]);
      // Someone who may not see the administrator's files learns nothing of them.
      const hidden = await call(w.t.app, endpoints.tagsOfItems, {
        token: w.outsider,
        body: { folderDataIdList: [tagged.id] },
      });
      expect(hidden).toEqual([]);
    });

    it('tags many files at once (replace), or adds to what each has (add)', async () => {
      const { file, folderId } = await givenShoes();
      const replaced = await w.modify({
        folderDataIdList: [file.SHOE2, file.TEE1],
        tagIdList: [w.tag['2026 AW']],
      });
      expect(replaced.body.result).toEqual({ count: 2 });
      const added = await w.modify({
        folderDataIdList: [file.SHOE2, file.TEE1],
        tagIdList: [w.tag.White],
        mode: 'add',
      });
      expect(added.status, JSON.stringify(added.body)).toBe(200);
      expect(await w.tagNamesOf(file.SHOE2)).toEqual(['2026 AW', 'White']);
      expect(await w.tagNamesOf(file.TEE1)).toEqual(['2026 AW', 'White']);
      // Folders carry tags too.
      expect((await w.modify({ folderDataId: folderId, tagIdList: [w.tag['2026 AW']] })).status).toBe(200);
      await w.modify({ folderDataId: folderId, tagIdList: [] });
    });

    it.each([
      [
        'a required dimension without a tag',
        () => [w.tag.Black],
        'SETG_10',
        'Please fill in the required labels: Season',
      ],
      [
        'a tag without its superior tag',
        () => [w.tag['2026 SS'], w.tag.Running],
        'SETG_11',
        '"Running" needs its superior tag "Shoes"',
      ],
      ['an unknown tag', () => [w.tag['2026 SS'], 987654], 'SETG_02', '987654'],
    ])('refuses %s and changes nothing', async (_label, tagIdList, code, text) => {
      const { file } = await givenShoes();
      const before = [await w.tagNamesOf(file.SHOE1), await w.tagNamesOf(file.SHOE2)];
      const refused = await w.modify({ folderDataIdList: [file.SHOE1, file.SHOE2], tagIdList: tagIdList() });
      expect(refused.status).toBe(400);
      expect(refused.body.errorCode).toBe(code);
      expect(refused.body.errorDesc).toContain(text);
      expect([await w.tagNamesOf(file.SHOE1), await w.tagNamesOf(file.SHOE2)]).toEqual(before);
    });

    it('needs edit permission on every item (SE_502), and changes nothing when one is refused', async () => {
      const { file } = await givenShoes();
      const before = await w.tagNamesOf(file.SHOE2);
      const refused = await w.modify({ folderDataId: file.SHOE2, tagIdList: [w.tag['2026 SS']] }, w.viewer);
      expect(refused.status).toBe(403);
      expect(refused.body.errorCode).toBe('SE_502');
      // The loner's own folder is theirs to tag, the shared file is not even visible to them.
      const own = await createFolder(w.t, w.loner, 'Loner folder');
      expect((await w.modify({ folderDataId: own, tagIdList: [w.tag['2026 SS']] }, w.loner)).status).toBe(
        200,
      );
      await w.modify({ folderDataId: own, tagIdList: [] }, w.loner);
      const mixed = await w.modify(
        { folderDataIdList: [own, file.SHOE2], tagIdList: [w.tag['2026 SS']] },
        w.loner,
      );
      expect(mixed.body.errorCode).toBe('SE_404');
      // A folder has no detail: its tags show as the selector's selected ones.
      const ownTags = (await w.selector(w.loner, `?folderDataId=${own}`)).list.flatMap((d) =>
        d.tagDTOList.filter((x) => x.selected),
      );
      expect(ownTags).toEqual([]);
      expect(await w.tagNamesOf(file.SHOE2)).toEqual(before);
      expect((await w.modify({ folderDataId: 987654, tagIdList: [] })).status).toBe(404);
      expect((await w.modify({ tagIdList: [] })).status).toBe(400);
    });

    it('refuses a batch of one editable and one only-visible item (SE_502), tagging neither', async () => {
      const { file } = await givenShoes();
      // Sees everything, changes only what is in their own department.
      const user = (await givenSignedInUser(w.t, { scopes: { view: 'all', upload: 'dept' } })).token;
      const own = await createFolder(w.t, user, uniqueName('Own folder'));
      const tags = async () =>
        (await w.selector(user, `?folderDataId=${own}`)).list.flatMap((d) =>
          d.tagDTOList.filter((x) => x.selected).map((x) => x.tagName),
        );
      const before = { own: await tags(), shoe: await w.tagNamesOf(file.SHOE2) };
      // SHOE2 is the administrator's: the user sees it (refused for editing, not hidden).
      const mixed = await w.modify(
        { folderDataIdList: [own, file.SHOE2], tagIdList: [w.tag['2026 SS']] },
        user,
      );
      expect(mixed.status).toBe(403);
      expect(mixed.body.errorCode).toBe('SE_502');
      expect({ own: await tags(), shoe: await w.tagNamesOf(file.SHOE2) }).toEqual(before);
      // The positive control: the folder alone is the user's to tag.
      const alone = await w.modify({ folderDataId: own, tagIdList: [w.tag['2026 SS']] }, user);
      expect(alone.status).toBe(200);
      expect(await tags()).toEqual(['2026 SS']);
    });

    it('clears the tags with an empty list (untagged is allowed)', async () => {
      const { file } = await givenShoes();
      await w.modify({ folderDataId: file.MISC, tagIdList: [w.tag['2026 SS']] });
      expect((await w.modify({ folderDataId: file.MISC, tagIdList: [] })).status).toBe(200);
      expect(await w.tagNamesOf(file.MISC)).toEqual([]);
    });
  });

  describe('filtering listings by tags (GET v1_0/file/all-file-v2 tagIdList)', () => {
    it('keeps items with a tag of every dimension asked (tags of one dimension are alternatives)', async () => {
      const { file, folderId } = await givenShoes();
      await w.modify({ folderDataId: file.SHOE1, tagIdList: [w.tag['2026 SS'], w.tag.Shoes, w.tag.Black] });
      await w.modify({ folderDataId: file.SHOE2, tagIdList: [w.tag['2026 AW'], w.tag.Shoes] });
      await w.modify({ folderDataId: file.TEE1, tagIdList: [w.tag['2026 SS'], w.tag.Apparel] });
      await w.modify({ folderDataId: file.MISC, tagIdList: [] });
      const names = async (ids: number[]) =>
        (await w.listFolder(w.viewer, folderId, `&rankStatus=1&tagIdList=${ids.join(',')}`)).map(
          (i) => i.name,
        );
      expect(await names([w.tag['2026 SS']])).toEqual(['SHOE1', 'TEE1']);
      expect(await names([w.tag['2026 SS'], w.tag.Shoes])).toEqual(['SHOE1']);
      expect(await names([w.tag['2026 SS'], w.tag['2026 AW']])).toEqual(['SHOE1', 'SHOE2', 'TEE1']);
      expect(await names([w.tag['2026 AW'], w.tag.Apparel])).toEqual([]);
      expect(await names([987654])).toEqual([]);
      expect((await w.listFolder(w.viewer, folderId)).length).toBe(4);
    });

    it('answers the filter from the indexes, not a scan of the links', async () => {
      const { folderId } = await givenShoes();
      const plan = await w.t.database.db.transaction().execute(async (trx) => {
        // Tiny tables make scans cheapest; forbid them to see whether the indexes can serve.
        await sql`SET LOCAL enable_seqscan = off`.execute(trx);
        const repo = new ItemsRepository(trx);
        const groups = await repo.tagFilterGroups([w.tag['2026 SS'], w.tag.Shoes]);
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
      const { folderId } = await givenShoes();
      await uploadFiles(
        w.t,
        w.editor,
        [
          { fileName: 'UP1.jpg', bytes: Buffer.from('up one') },
          {
            fileName: 'UP2.jpg',
            bytes: Buffer.from('up two'),
            tagIdList: [w.tag['2026 AW'], w.tag.White],
          },
        ],
        { targetFolderId: folderId, tagIdList: [w.tag['2026 SS'], w.tag.Black] },
      );
      const items = await w.listFolder(w.editor, folderId);
      const up1 = items.find((i) => i.name === 'UP1')?.id as number;
      const up2 = items.find((i) => i.name === 'UP2')?.id as number;
      expect(await w.tagNamesOf(up1)).toEqual(['2026 SS', 'Black']);
      expect(await w.tagNamesOf(up2)).toEqual(['2026 AW', 'White']);
      // A new version adds its tags to the file's.
      await uploadFiles(w.t, w.editor, [{ fileName: 'UP1.png', bytes: Buffer.from('png') }], {
        targetFolderId: folderId,
        tagIdList: [w.tag['2026 AW']],
      });
      expect(await w.tagNamesOf(up1)).toEqual(['2026 SS', '2026 AW', 'Black']);
    });

    it.each([
      ['an unknown tag', () => [987654], 'SETG_02'],
      ['a required dimension missing', () => [w.tag.Black], 'SETG_10'],
    ])('refuses a batch with %s and creates nothing', async (_label, tagIdList, code) => {
      const { folderId } = await givenShoes();
      const before = await w.t.database.db.selectFrom('uploads').select('id').execute();
      const refused = await post(
        w.t.app,
        api('v1_0/file-upload/upload'),
        {
          targetFolderId: folderId,
          uploadDetailDTOS: [
            { fileName: 'NOPE1.jpg', fileSize: 3 },
            { fileName: 'NOPE2.jpg', fileSize: 3, tagIdList: tagIdList() },
          ],
        },
        { token: w.editor },
      );
      expect(refused.status).toBe(400);
      expect(refused.body.errorCode).toBe(code);
      expect(await w.t.database.db.selectFrom('uploads').select('id').execute()).toEqual(before);
    });
  });

  it('keeps the tags and channel tags of a file merged into another by a rename', async () => {
    const other = await createFolder(w.t, w.admin, 'Merge');
    await uploadFiles(
      w.t,
      w.admin,
      [
        { fileName: 'KEEP.jpg', bytes: Buffer.from('keep') },
        { fileName: 'GONE.psd', bytes: Buffer.from('gone') },
      ],
      { targetFolderId: other },
    );
    const items = await w.listFolder(w.admin, other);
    const keep = items.find((i) => i.name === 'KEEP')?.id as number;
    const gone = items.find((i) => i.name === 'GONE')?.id as number;
    await w.modify({ folderDataId: keep, tagIdList: [w.tag['2026 SS']] });
    await w.modify({ folderDataId: gone, tagIdList: [w.tag['2026 AW'], w.tag.Black] });
    await post(
      w.t.app,
      api('v1_0/file/add-channel-tag'),
      { folderDataId: gone, channelName: 'Tmall' },
      { token: w.admin },
    );
    const merged = await post(
      w.t.app,
      api('v1_0/file/edit'),
      { folderDataId: gone, name: 'KEEP', confirmMerge: true },
      { token: w.admin },
    );
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    expect(await w.tagNamesOf(keep)).toEqual(['2026 SS', '2026 AW', 'Black']);
    const channels = await get(w.t.app, api(`v1_0/file/channel-tag?folderDataId=${keep}`), {
      token: w.admin,
    });
    expect(resultOf(endpoints.channelTags, channels.body).map((c) => c.channelName)).toEqual(['Tmall']);
  });
});
