import { endpoints, type MappingFinding } from '@dam/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attempt, call } from '../../../test/call';
import { writeWithExiftool } from '../../../test/exiftool-cli';
import { EVERY_SCOPE, givenFiles, givenSignedInUser, signInAdmin, uniqueName } from '../../../test/factories';
import { makeJpeg } from '../../../test/fixtures';
import { createTestApp, type TestApp } from '../../../test/harness';
import { tagsOn } from '../../repositories';
import { MetadataTagMapper } from './applier';
import { MetadataMappingRepository } from './repository';

describe('keyword → tag mapping (issue 42): rules, applied at upload, conflicts', {
  timeout: 120_000,
}, () => {
  let t: TestApp;
  let admin: string;
  let manager: string;
  let plain: string;
  beforeAll(async () => {
    t = await createTestApp({ LOGIN_RATE_LIMIT: '1000' }, { jobs: true });
    admin = await signInAdmin(t);
    manager = (await givenSignedInUser(t, { functionCodes: [4], scopes: EVERY_SCOPE })).token;
    plain = (await givenSignedInUser(t, { functionCodes: [2, 3, 5], scopes: EVERY_SCOPE })).token;
  });
  afterAll(() => t.close());

  async function givenDimension(prefix: string, tags: string[], parentTags?: Record<string, number>) {
    return call(t.app, endpoints.saveTagDimension, {
      token: admin,
      body: {
        dimensionName: uniqueName(prefix),
        tagDTOList: tags.map((tagName) => ({ tagName, parentTagId: parentTags?.[tagName] ?? null })),
      },
    });
  }
  const tagId = (dimension: { tagDTOList: Array<{ id: number; tagName: string }> }, name: string) =>
    dimension.tagDTOList.find((tag) => tag.tagName === name)?.id as number;
  const saveRule = (body: { id?: number; source: string; dimensionId: number }, token = manager) =>
    attempt(t.app, endpoints.saveMetadataTagRule, { token, body: body as never, lang: 'en' });

  /** A JPEG whose keywords Debian's ExifTool wrote (XMP dc:Subject and IPTC Keywords), uploaded and processed. */
  async function givenTaggedJpeg(keywords: string[], tagIdList: number[] = []) {
    const bytes = await writeWithExiftool(await makeJpeg(160, 120), 'jpg', [
      ...keywords.map((k) => `-XMP-dc:Subject=${k}`),
      ...keywords.map((k) => `-IPTC:Keywords=${k}`),
    ]);
    const [itemId] = await givenFiles(t, admin, [
      { fileName: `${uniqueName('映射')}.jpg`, bytes, tagIdList },
    ]);
    const upload = await t.database.db
      .selectFrom('uploads')
      .select('id')
      .where('item_id', '=', itemId as number)
      .executeTakeFirstOrThrow();
    await t.jobs?.mediaDone(upload.id);
    return { itemId: itemId as number, uploadId: upload.id };
  }
  const tagsOf = async (itemId: number) =>
    (
      await call(t.app, endpoints.tagsOfItems, { token: admin, body: { folderDataIdList: [itemId] } })
    )[0]?.tagDTOList
      .map((tag) => tag.tagName)
      .sort();
  const findingsOf = async (itemId: number, token = admin): Promise<MappingFinding[]> =>
    (await call(t.app, endpoints.fileMappingFindings, { token, query: { folderDataId: itemId } })).list;

  it('lists, adds, changes and deletes rules for holders of code 4 only, refusing bad ones', async () => {
    const dimension = await givenDimension('映射款式', ['Sport']);
    const created = await saveRule({ source: 'keywords', dimensionId: dimension.id });
    expect(created.result).toMatchObject({ source: 'keywords', dimensionId: dimension.id });
    const id = created.result?.id as number;
    const listed = await call(t.app, endpoints.metadataTagRules, { token: manager });
    expect(listed.find((rule) => rule.id === id)?.dimensionName).toBe(dimension.dimensionName);

    const twice = await saveRule({ source: 'keywords', dimensionId: dimension.id });
    expect([twice.status, twice.errorCode]).toEqual([409, 'SEMM_01']);
    expect(twice.errorDesc).toBe('There is already a rule mapping this metadata field to this tag dimension');
    const unknown = await saveRule({ source: 'keywords', dimensionId: 987_654_321 });
    expect(unknown.errorCode).toBe('SETG_01');
    const badSource = await saveRule({ source: 'gps', dimensionId: dimension.id });
    expect([badSource.status, badSource.errorCode]).toEqual([400, 'SE_400']);

    for (const refused of [
      await attempt(t.app, endpoints.metadataTagRules, { token: plain }),
      await saveRule({ source: 'title', dimensionId: dimension.id }, plain),
      await attempt(t.app, endpoints.deleteMetadataTagRule, { token: plain, body: { id } }),
      await attempt(t.app, endpoints.mappingFindings, { token: plain, query: {} }),
    ]) {
      expect(refused.errorCode).toBe('SE_502');
    }
    expect((await call(t.app, endpoints.metadataTagRules, { token: manager })).some((r) => r.id === id)).toBe(
      true,
    );

    const changed = await saveRule({ id, source: 'title', dimensionId: dimension.id });
    expect(changed.result).toMatchObject({ id, source: 'title' });
    expect(
      (await attempt(t.app, endpoints.deleteMetadataTagRule, { token: manager, body: { id } })).success,
    ).toBe(true);
    const gone = await attempt(t.app, endpoints.deleteMetadataTagRule, { token: manager, body: { id } });
    expect(gone.errorCode).toBe('SE_404');
  });

  it('tags an uploaded JPEG from its keywords, never replacing a chosen tag, listing conflicts and unmatched values once', async () => {
    const colour = await givenDimension('映射颜色', ['红色', '蓝色']);
    const style = await givenDimension('映射风格', ['Sport', 'Casual']);
    for (const dimension of [colour, style]) {
      expect((await saveRule({ source: 'keywords', dimensionId: dimension.id })).success).toBe(true);
    }

    // Names compared without case; a keyword no rule's dimension holds is unmatched, never created.
    const plainFile = await givenTaggedJpeg(['SPORT', '蓝色', 'xyz-映射']);
    expect(await tagsOf(plainFile.itemId)).toEqual(['Sport', '蓝色'].sort());
    const unmatched = await findingsOf(plainFile.itemId);
    expect(unmatched).toHaveLength(1);
    expect(unmatched[0]).toMatchObject({
      reason: 'unmatched',
      value: 'xyz-映射',
      source: 'keywords',
      detail: [colour.dimensionName, style.dimensionName],
    });

    // The uploader chose 红色: the keyword's 蓝色 is not added, a conflict is recorded.
    const chosen = await givenTaggedJpeg(['蓝色', 'casual'], [tagId(colour, '红色')]);
    expect(await tagsOf(chosen.itemId)).toEqual(['Casual', '红色'].sort());
    const conflicts = await findingsOf(chosen.itemId);
    expect(conflicts).toEqual([
      expect.objectContaining({
        reason: 'taken',
        value: '蓝色',
        dimensionId: colour.id,
        dimensionName: colour.dimensionName,
        detail: ['红色'],
        fileId: chosen.itemId,
      }),
    ]);

    // The admin screen: newest first, with the file's name.
    const page = await call(t.app, endpoints.mappingFindings, { token: manager, query: { pageSize: 100 } });
    expect(page.list[0]).toMatchObject({ fileId: chosen.itemId, reason: 'taken' });
    expect(page.list[0]?.fileName).toMatch(/^映射-/);
    expect(page.list.some((f) => f.fileId === plainFile.itemId)).toBe(true);

    // A second reading (the back-fill) adds nothing and records nothing again.
    const mapper = new MetadataTagMapper({
      repo: new MetadataMappingRepository(t.database.db, tagsOn),
      now: () => new Date(),
      log: async () => undefined,
      warn: () => undefined,
    });
    await mapper.apply(chosen.uploadId);
    await mapper.apply(plainFile.uploadId);
    expect(await tagsOf(chosen.itemId)).toEqual(['Casual', '红色'].sort());
    expect(await tagsOf(plainFile.itemId)).toEqual(['Sport', '蓝色'].sort());
    expect(await findingsOf(chosen.itemId)).toEqual(conflicts);
    expect(await findingsOf(plainFile.itemId)).toEqual(unmatched);

    // The operation log names the tags the mapping added, as file/modify-tag's entries do.
    const logged = await t.database.db
      .selectFrom('operation_logs')
      .select(['details'])
      .where(sql<boolean>`${plainFile.itemId} = ANY(item_ids)`)
      .execute();
    expect(JSON.stringify(logged)).toContain('metadataMapping');

    // Only those who may see the file see its findings.
    const stranger = await givenSignedInUser(t);
    const hidden = await attempt(t.app, endpoints.fileMappingFindings, {
      token: stranger.token,
      query: { folderDataId: chosen.itemId },
    });
    expect(hidden.errorCode).toBe('SE_404');
  });

  it('keeps the tag-set rules: a tag whose superior tag the file lacks is a conflict, not an error', async () => {
    const family = await givenDimension('映射大类', ['鞋', '服装']);
    const kind = await call(t.app, endpoints.saveTagDimension, {
      token: admin,
      body: {
        dimensionName: uniqueName('映射小类'),
        parentDimensionId: family.id,
        tagDTOList: [{ tagName: '跑鞋', parentTagId: tagId(family, '鞋') }],
      },
    });
    expect((await saveRule({ source: 'keywords', dimensionId: kind.id })).success).toBe(true);
    const file = await givenTaggedJpeg(['跑鞋']);
    expect(await tagsOf(file.itemId)).toEqual([]);
    expect(await findingsOf(file.itemId)).toEqual([
      expect.objectContaining({ reason: 'parent', value: '跑鞋', detail: ['鞋'] }),
    ]);
  });
  // Last: a required dimension binds every tagging after it, so it goes again at the end.
  it('does not tag an untagged file when a required dimension would stay empty: a conflict naming it', async () => {
    const season = await call(t.app, endpoints.saveTagDimension, {
      token: admin,
      body: { dimensionName: uniqueName('映射季节'), required: true, tagDTOList: [{ tagName: '2026 SS' }] },
    });
    const colour = await givenDimension('映射必填颜色', ['绿色']);
    expect((await saveRule({ source: 'keywords', dimensionId: colour.id })).success).toBe(true);
    const file = await givenTaggedJpeg(['绿色']);
    expect(await tagsOf(file.itemId)).toEqual([]);
    expect(await findingsOf(file.itemId)).toEqual([
      expect.objectContaining({ reason: 'required', value: '绿色', detail: [season.dimensionName] }),
    ]);
    await call(t.app, endpoints.deleteTagDimension, { token: admin, body: { id: season.id } });
  });
});
