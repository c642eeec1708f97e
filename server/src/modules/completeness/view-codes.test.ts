import { type CompletenessReport, endpoints, viewCodeOfName } from '@dam/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attempt, call } from '../../../test/call';
import { givenDimension, givenFiles, signInAdmin, uniqueName } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/harness';

/**
 * View codes of any script (issue 39 item 5): `_正面` and `_侧面` are views when the expectation
 * names them, Latin codes match regardless of case and Unicode form (NFC), and a file carrying a
 * view's tag counts as one named with its code.
 */
describe('completeness with view codes of any script', () => {
  let t: TestApp;
  let admin: string;
  let backTag: number;
  const art = { full: '', half: '' };
  const season = `SS-${uniqueName('VC').replace(/[^A-Za-z0-9]/g, '')}`;

  const file = (fileName: string, artNum: string, tagIdList: number[] = []) => ({
    fileName,
    bytes: Buffer.from(`bytes of ${fileName}`),
    artNum,
    tagIdList,
  });
  const ticks = (r: CompletenessReport, artNum: string) => {
    const found = r.list.find((x) => x.artNum === artNum);
    if (!found) throw new Error(`${artNum} is not in the report`);
    return r.columns.filter((_c, i) => found.cells[i]).map((c) => c.viewName);
  };

  beforeAll(async () => {
    t = await createTestApp({ LOGIN_RATE_LIMIT: '1000' });
    admin = await signInAdmin(t);
    const digits = String(Math.floor(Math.random() * 9000) + 1000);
    art.full = `VCA${digits}-01`;
    art.half = `VCB${digits}-01`;
    for (const artNum of Object.values(art))
      await t.database.db
        .insertInto('sku')
        .values({ art_num: artNum, name: `Shoe ${artNum}`, season, category: 'Run' })
        .execute();
    const views = await givenDimension(t, { tags: ['背面 (view)'] });
    backTag = views.tags['背面 (view)'] as number;
  });
  afterAll(() => t.close());

  it('reads Chinese codes from names as it reads Latin ones', () => {
    expect(viewCodeOfName('SHOE1-01_正面')).toBe('正面');
    expect(viewCodeOfName('SHOE1-01_侧面2')).toBe('侧面');
    expect(viewCodeOfName('SHOE1-01 细节３')).toBe('细节');
    expect(viewCodeOfName('SHOE1-01＿背面')).toBe('背面');
    // Decomposed é (as macOS writes names) reads as the composed one; case does not matter.
    expect(viewCodeOfName('SHOE1-01_De\u0301tail1')).toBe('d\u00e9tail');
    expect(viewCodeOfName('SHOE1-01_正面!')).toBeNull();
  });

  it('counts _正面 and _侧面 files, a Latin code in any case and form, and the view tag: 100 %', async () => {
    await call(t.app, endpoints.saveCompletenessConfig, {
      token: admin,
      body: {
        views: [
          { name: '正面', code: '正面', formats: ['jpg'] },
          { name: '侧面', code: ' 侧面 ', formats: ['jpg'] },
          // Saved composed and lower-cased; the file below is named decomposed, in capitals.
          { name: 'Détail', code: 'DÉTAIL', formats: ['jpg'] },
          { name: '背面', code: '背面', tagId: backTag, formats: ['jpg'] },
        ],
        defaultFolderId: null,
      },
    });
    const config = await call(t.app, endpoints.completenessConfig, { token: admin });
    expect(config.views.map((v) => v.code)).toEqual(['正面', '侧面', 'd\u00e9tail', '背面']);

    await givenFiles(t, admin, [
      file(`${art.full}_正面.jpg`, art.full),
      file(`${art.full}_侧面2.jpg`, art.full),
      file(`${art.full}_DE\u0301TAIL1.jpg`, art.full),
      // No code in its name: the view's tag makes it the back view.
      file(`${art.full}_IMG_0042.jpg`, art.full, [backTag]),
      file(`${art.half}_正面.jpg`, art.half),
      // Not a view: 正面 is only part of the last token.
      file(`${art.half}_正面照片x.jpg`, art.half),
    ]);

    const r = await call(t.app, endpoints.completenessReport, { token: admin, body: { seasons: [season] } });
    expect(ticks(r, art.full)).toEqual(['正面', '侧面', 'Détail', '背面']);
    expect(r.list.find((x) => x.artNum === art.full)).toMatchObject({ present: 4, expected: 4 });
    expect(ticks(r, art.half)).toEqual(['正面']);
    expect(r.seasons).toEqual([{ season, skuCount: 2, completeCount: 1, cellsPresent: 5, cellsExpected: 8 }]);
    // The status filter reads every article's count the same way.
    const complete = await call(t.app, endpoints.completenessReport, {
      token: admin,
      body: { seasons: [season], status: 'complete' },
    });
    expect(complete.list.map((x) => x.artNum)).toEqual([art.full]);
  });

  it('refuses a code that is not letters and digits, in the caller language, changing nothing', async () => {
    for (const [lang, text] of [
      ['zh', '文字（任何语言）'],
      ['en', 'letters (of any script)'],
    ] as const) {
      const refused = await attempt(t.app, endpoints.saveCompletenessConfig, {
        token: admin,
        lang,
        body: { views: [{ name: '正面', code: '正面!', formats: ['jpg'] }], defaultFolderId: null },
      });
      expect(refused.errorCode).toBe('SE_400');
      expect(refused.errorDesc).toContain(text);
    }
    const config = await call(t.app, endpoints.completenessConfig, { token: admin });
    expect(config.views).toHaveLength(4);
  });
});
