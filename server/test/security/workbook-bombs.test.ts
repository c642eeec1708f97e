import { endpoints } from '@dam/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { givenSignedInUser } from '../factories';
import { multipart } from '../fixtures';
import { createTestApp, type TestApp } from '../harness';
import { issue38Bombs } from '../workbook-bombs';

/**
 * Issue 38 item 1: a workbook can never exhaust memory. The three bombs found (25 M tiny shared
 * strings in 2.6 MB; one cell of 300 MB in 1.3 MB; 336 MB of shared strings in 2.3 MB, each zip's
 * central directory declaring 1 MB a part) posted by real users to every route that reads an
 * .xlsx: answered SESK_08 (413) naming the limit in the caller's language, nothing written, and
 * the heap never more than a few tens of MB above where it was (before the guard the first one
 * grew it to 4.6 GB and killed the process).
 */

/** How far the heap may grow while one bomb is refused. */
const HEAP_GROWTH_MAX = 48 * 1024 * 1024;

const refusals = {
  tinyStrings: {
    zh: '工作簿超出读取限制：共享字符串最多 1,000,000 条',
    en: 'at most 1,000,000 shared strings',
  },
  hugeCell: {
    zh: '工作簿超出读取限制：每个单元格最多 32,767 个字符',
    en: 'at most 32,767 characters per cell',
  },
  bigStrings: {
    zh: '工作簿超出读取限制：共享字符串文本合计最多 64 MB',
    en: 'at most 64 MB of shared string text in all',
  },
} as const;
type Bomb = keyof typeof refusals;

describe('workbook bombs are refused before they are parsed (issue 38 item 1)', () => {
  let t: TestApp;
  let bombs: Record<Bomb, Buffer>;
  let importer: string;
  let tagManager: string;
  beforeAll(async () => {
    t = await createTestApp({ LOGIN_RATE_LIMIT: '1000' });
    importer = (await givenSignedInUser(t, { functionCodes: [8] })).token;
    tagManager = (await givenSignedInUser(t, { functionCodes: [4] })).token;
    bombs = await issue38Bombs();
  }, 120_000);
  afterAll(() => t?.close());

  const routes = [
    { name: 'the SKU import (code 8)', url: endpoints.importSkus.path, token: () => importer },
    { name: 'the tag import (code 4)', url: endpoints.importTagWorkbook.path, token: () => tagManager },
    {
      name: 'the import job, articles (code 8)',
      url: `${endpoints.createImport.path}?kind=sku`,
      token: () => importer,
    },
  ];

  /** What the routes could have written. */
  const written = async () => {
    const count = async (table: 'sku' | 'imports' | 'tag_dimensions' | 'tags') =>
      Number(
        (
          await t.database.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return {
      sku: await count('sku'),
      imports: await count('imports'),
      dimensions: await count('tag_dimensions'),
      tags: await count('tags'),
    };
  };

  /** Posts a workbook, sampling the heap every millisecond while it is answered. */
  const post = async (url: string, token: string, lang: 'zh' | 'en', bytes: Buffer) => {
    const body = multipart([{ name: 'file', filename: 'bomb.xlsx', content: bytes }]);
    const before = process.memoryUsage().heapUsed;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().heapUsed);
    }, 1);
    try {
      const response = await t.app.inject({
        method: 'POST',
        url,
        headers: { token, lang, 'content-type': body.contentType },
        payload: body.payload,
      });
      peak = Math.max(peak, process.memoryUsage().heapUsed);
      return {
        status: response.statusCode,
        body: response.json() as { success: boolean; errorCode: string; errorDesc: string },
        heapGrowth: peak - before,
      };
    } finally {
      clearInterval(sampler);
    }
  };

  for (const route of routes) {
    describe(route.name, () => {
      for (const bomb of Object.keys(refusals) as Bomb[]) {
        it(`refuses ${bomb} with SESK_08 naming the limit, writes nothing, and keeps the heap`, async () => {
          const before = await written();
          for (const lang of ['zh', 'en'] as const) {
            const answer = await post(route.url, route.token(), lang, bombs[bomb]);
            expect(answer.status, JSON.stringify(answer.body)).toBe(413);
            expect(answer.body).toMatchObject({ success: false, errorCode: 'SESK_08' });
            if (lang === 'zh') expect(answer.body.errorDesc).toBe(refusals[bomb].zh);
            else
              expect(answer.body.errorDesc).toBe(
                `The workbook is past a reading limit: ${refusals[bomb].en}`,
              );
            expect(
              answer.heapGrowth,
              `heap grew by ${(answer.heapGrowth / 2 ** 20).toFixed(1)} MB`,
            ).toBeLessThan(HEAP_GROWTH_MAX);
          }
          expect(await written()).toEqual(before);
        });
      }
    });
  }
});
