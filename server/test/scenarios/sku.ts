import { endpoints } from '@dam/contract';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { resultOf } from '../call';
import { givenUser } from '../factories';
import { multipart } from '../fixtures';
import { ADMIN, createTestApp, post, signIn, type TestApp } from '../harness';

/** The app of the SKU-master tests: an importer (code 8), a plain user, and the import call. */

export interface Envelope<T> {
  success: boolean;
  result: T;
  errorCode: string | null;
  errorDesc: string | null;
}
export interface SkuWire {
  artNum: string;
  name: string;
  series: string | null;
  category: string | null;
  color: string | null;
  season: string | null;
  gender: string | null;
  createdAt: string;
  updatedAt: string;
}
export interface Paged {
  list: SkuWire[];
  pageNo: number;
  pageSize: number;
  hasMore: boolean;
}
export interface TagInfo {
  fileName: string;
  artNumList: string[];
  unknownArtNumList: string[];
  tagDTOList: unknown[];
}

/** A real .xlsx made with exceljs: the rows of the first sheet, cells as given. */
export async function workbook(rows: unknown[][], extraSheet = false): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('SKU');
  for (const row of rows) sheet.addRow(row);
  if (extraSheet) book.addWorksheet('Other').addRow(['货号', '名称']);
  return Buffer.from(await book.xlsx.writeBuffer());
}

export type SkuWorld = Awaited<ReturnType<typeof createSkuWorld>>;

export async function createSkuWorld() {
  const t: TestApp = await createTestApp({ LOGIN_RATE_LIMIT: '1000' });
  const admin = await signIn(t.app, ADMIN.email, ADMIN.password);
  const i = await givenUser(t.database, { functionCodes: [8] });
  const importer = await signIn(t.app, i.email, i.password);
  const p = await givenUser(t.database, { functionCodes: [1, 2, 3, 4, 5, 6, 7] });
  const plain = await signIn(t.app, p.email, p.password);
  const api = (path: string) => `/ske-api/${path}`;
  const importFile = async (bytes: Buffer | string, token = importer, lang = 'en', field = 'file') => {
    const body = multipart([{ name: field, filename: 'sku.xlsx', content: bytes }]);
    const response = await t.app.inject({
      method: 'POST',
      url: api('v1_0/sku/import'),
      headers: { token, lang, 'content-type': body.contentType },
      payload: body.payload,
    });
    return { status: response.statusCode, body: response.json() as Envelope<Record<string, number>> };
  };
  const stored = async (prefix: string) =>
    (
      await t.database.db
        .selectFrom('sku')
        .selectAll()
        .where(sql<boolean>`lower(art_num) LIKE ${`${prefix.toLowerCase()}%`}`)
        .orderBy('art_num')
        .execute()
    ).map((r) => ({
      art_num: r.art_num,
      name: r.name,
      series: r.series,
      category: r.category,
      color: r.color,
      season: r.season,
      gender: r.gender,
    }));
  const tagInfo = async (nameList: string[], token = plain) => {
    const response = await post(t.app, api('v1_0/sku/file-tag-info'), { nameList }, { token, lang: 'en' });
    return {
      status: response.status,
      body: response.body,
      list: resultOf(endpoints.fileTagInfo, response.body)?.list,
    };
  };
  return { t, admin, importer, plain, api, importFile, stored, tagInfo };
}
