import { endpoints, type TemplateSpecInput, templateSpecSchema } from '@dam/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../test/call';
import { givenDimension, givenFiles, givenFolder, signInAdmin, uniqueName } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/harness';

/**
 * Detail-page templates with slots that have no label and views of any script (issue 39 items 4
 * and 5): a `_正面` file fills a 正面 slot, a file carrying a view's tag fills that view's slot, and
 * slots are named by what they hold in the caller's language, never by their block's random id.
 */
describe('template slots: Chinese view codes and names by what they hold', () => {
  let t: TestApp;
  let admin: string;
  let templateId: number;
  let backTag: number;
  const artNum = `SN${Math.floor(Math.random() * 9000) + 1000}-01`;

  /** Random ids, as the editor gives new blocks; no labels. */
  const SPEC: TemplateSpecInput = {
    width: 400,
    background: '#ffffff',
    blocks: [
      { id: 'oqpx7z', type: 'image', rule: { kind: 'view', code: '正面' }, height: 200 },
      { id: 'b8k2mq', type: 'image', rule: { kind: 'view', code: 'back' }, height: 200 },
      { id: 'x1y2z3', type: 'image', rule: { kind: 'nth', n: 9 }, height: 200 },
      {
        id: 'g7h8j9',
        type: 'grid',
        columns: 2,
        cells: [
          { kind: 'view', code: 'detail' },
          { kind: 'view', code: 'detail' },
        ],
      },
    ],
    output: { sliceMaxHeight: 600, quality: 90, stem: 'page', page: true, slices: true, tagIds: [] },
  };

  beforeAll(async () => {
    t = await createTestApp({ LOGIN_RATE_LIMIT: '1000' });
    admin = await signInAdmin(t);
    const views = await givenDimension(t, { tags: [uniqueName('背面')] });
    backTag = Object.values(views.tags)[0] as number;
    await call(t.app, endpoints.saveCompletenessConfig, {
      token: admin,
      body: {
        views: [
          { name: '正面', code: '正面', formats: ['jpg'] },
          { name: '背面', code: 'back', tagId: backTag, formats: ['jpg'] },
          { name: '细节', code: 'detail', formats: ['jpg'] },
        ],
        defaultFolderId: null,
      },
    });
    const parsed = templateSpecSchema.parse(SPEC);
    const { id } = await t.database.db
      .insertInto('composite_templates')
      .values({ name: uniqueName('Tpl'), status: 1, current_version: 1, updated_at: new Date() })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.database.db
      .insertInto('composite_template_versions')
      .values({
        template_id: id,
        version: 1,
        spec: JSON.stringify(parsed),
        width: parsed.width,
        block_count: parsed.blocks.length,
        slice_max_height: parsed.output.sliceMaxHeight,
      })
      .execute();
    templateId = id;
    const jpeg = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#c83232' } })
      .jpeg()
      .toBuffer();
    const folder = await givenFolder(t, admin);
    await givenFiles(
      t,
      admin,
      [
        { fileName: `${artNum}_正面.jpg`, bytes: jpeg, artNum },
        // No view in its name: the back view's tag makes it the back shot.
        { fileName: `${artNum}_IMG_0042.jpg`, bytes: jpeg, artNum, tagIdList: [backTag] },
      ],
      { targetFolderId: folder.id },
    );
  });
  afterAll(() => t.close());

  const plan = (lang: 'zh' | 'en') =>
    call(t.app, endpoints.makerPlan, { token: admin, lang, body: { templateId, artNums: [artNum] } });

  it('fills the 正面 slot from a _正面 file and the back slot from the view tag', async () => {
    const [article] = (await plan('zh')).articles;
    expect(article?.chosen.map((c) => c.slot)).toEqual(['oqpx7z', 'b8k2mq']);
  });

  it('names the missing slots by what they hold, in the caller language', async () => {
    const zh = (await plan('zh')).articles[0]?.missing ?? [];
    expect(zh.map((m) => [m.label, m.viewName])).toEqual([
      ['第 9 张图片', '第 9 张图片'],
      ['细节 图片 1', '细节'],
      ['细节 图片 2', '细节'],
    ]);
    const en = (await plan('en')).articles[0]?.missing ?? [];
    expect(en.map((m) => [m.label, m.viewName])).toEqual([
      ['Image 9', 'Image 9'],
      ['细节 image 1', '细节'],
      ['细节 image 2', '细节'],
    ]);
    // No name is a block's id.
    for (const m of [...zh, ...en]) expect(m.label).not.toMatch(/oqpx7z|b8k2mq|x1y2z3|g7h8j9/);
  });

  it("labels the article's slots the same way for the swap list", async () => {
    const article = await call(t.app, endpoints.makerArticle, {
      token: admin,
      lang: 'en',
      body: { templateId, version: 1, artNum },
    });
    expect(article.slots.map((s) => s.label)).toEqual([
      '正面 image',
      '背面 image',
      'Image 9',
      '细节 image 1',
      '细节 image 2',
    ]);
  });
});
