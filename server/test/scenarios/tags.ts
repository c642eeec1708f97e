import { randomBytes } from 'node:crypto';
import { endpoints, type ManagedTagDimension } from '@dam/contract';
import ExcelJS from 'exceljs';
import { expect } from 'vitest';
import { call, resultOf } from '../call';
import { givenFile, givenFolder, givenSignedInUser, uploadFiles } from '../factories';
import { multipart } from '../fixtures';
import { ADMIN, createTestApp, get, post, signIn, type TestApp } from '../harness';

/** The app of the tag tests, its people, and calls of the tag API as each of them. */

export const api = (path: string) => `/ske-api/${path}`;

/**
 * The catalogue every tag test works with (SPEC §7): a required Season, Category with the child
 * dimension Sub-category whose tags have superior tags, and Colour.
 */
export interface Catalogue {
  dim: Record<'Season' | 'Category' | 'Sub-category' | 'Colour', number>;
  tag: Record<
    '2026 SS' | '2026 AW' | 'Shoes' | 'Apparel' | 'Running' | 'T-shirt' | 'Limited' | 'Black' | 'White',
    number
  >;
}

export type TagsWorld = Awaited<ReturnType<typeof createTagsWorld>>;

/**
 * A fresh app with the catalogue (`sorted`: Colour moved before Category, the order the item and
 * workbook tests expect) and the people of the tag tests, signed in.
 */
export async function createTagsWorld(options: { sorted: boolean }) {
  const t: TestApp = await createTestApp({ LOGIN_RATE_LIMIT: '1000', SESSION_IDLE_HOURS: '720' });
  const admin = await signIn(t.app, ADMIN.email, ADMIN.password);
  /** Tag management (code 4), sees and edits everything. */
  const manager = (await givenSignedInUser(t, { functionCodes: [4], scopes: { view: 'all', upload: 'all' } }))
    .token;
  /** Code 4, but may only look at files (not change them). */
  const lookingManager = (await givenSignedInUser(t, { functionCodes: [4], scopes: { view: 'all' } })).token;
  /** Edits everything, no code 4. */
  const editor = (await givenSignedInUser(t, { scopes: { view: 'all', upload: 'all' } })).token;
  /** Sees everything, changes nothing, no code 4. */
  const viewer = (await givenSignedInUser(t, { functionCodes: [1], scopes: { view: 'all' } })).token;
  /** Sees nothing of others. */
  const outsider = (await givenSignedInUser(t, { functionCodes: [1] })).token;
  /** Sees nothing of others, but may make folders of their own. */
  const loner = (await givenSignedInUser(t, { scopes: { upload: 'dept' } })).token;

  const save = (body: Record<string, unknown>, token = manager) =>
    post(t.app, api('v1_0/manage/update-tag'), body, { token, lang: 'en' });
  const managed = () => call(t.app, endpoints.tagDimensions, { token: manager });
  const selector = async (token = viewer, query = '') => {
    const { status, body } = await get(t.app, api(`selector/tags${query}`), { token, lang: 'en' });
    return { status, body, list: resultOf(endpoints.tagSelector, body) };
  };
  const sort = (idList: number[], token = manager) =>
    post(t.app, api('v1_0/manage/tag-dimension/sort'), { idList }, { token });
  const deleteDimension = (id: number, token = manager) =>
    post(t.app, api('v1_0/manage/tag-dimension/delete'), { id }, { token });
  const modify = (body: Record<string, unknown>, token = editor) =>
    post(t.app, api('v1_0/file/modify-tag'), body, { token, lang: 'en' });
  const detailTags = async (id: number, token = admin) => {
    const { status, body } = await get(t.app, api(`v1_0/file/detail?id=${id}`), { token });
    expect(status, JSON.stringify(body)).toBe(200);
    return resultOf(endpoints.fileDetail, body).tagDTOList;
  };
  const tagNamesOf = async (id: number) => (await detailTags(id)).map((x) => x.tagName);
  const listFolder = async (token: string, id: number, query = '') => {
    const { status, body } = await get(t.app, api(`v1_0/file/all-file-v2?folderDataId=${id}${query}`), {
      token,
    });
    expect(status, JSON.stringify(body)).toBe(200);
    return resultOf(endpoints.folderListing, body).list;
  };

  const savedDimension = async (body: Record<string, unknown>) => {
    const saved = await save(body);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    return resultOf(endpoints.saveTagDimension, saved.body);
  };
  const tagsOf = (saved: ManagedTagDimension) =>
    Object.fromEntries(saved.tagDTOList.map((x) => [x.tagName, x.id]));
  const category = await savedDimension({
    dimensionName: 'Category',
    tagDTOList: [{ tagName: 'Shoes' }, { tagName: 'Apparel' }],
  });
  const categoryTags = tagsOf(category);
  const sub = await savedDimension({
    dimensionName: 'Sub-category',
    parentDimensionId: category.id,
    tagDTOList: [
      { tagName: 'Running', parentTagId: categoryTags.Shoes },
      { tagName: 'T-shirt', parentTagId: categoryTags.Apparel },
      { tagName: 'Limited' },
    ],
  });
  const season = await savedDimension({
    dimensionName: 'Season',
    required: true,
    tagDTOList: [{ tagName: '2026 SS' }, { tagName: '2026 AW' }],
  });
  const colour = await savedDimension({
    dimensionName: 'Colour',
    tagDTOList: [{ tagName: 'Black' }, { tagName: 'White' }],
  });
  if (options.sorted) expect((await sort([colour.id, category.id])).status).toBe(200);
  const catalogue: Catalogue = {
    dim: { Season: season.id, Category: category.id, 'Sub-category': sub.id, Colour: colour.id },
    tag: {
      ...categoryTags,
      ...tagsOf(sub),
      ...tagsOf(season),
      ...tagsOf(colour),
    } as Catalogue['tag'],
  };
  const { tag } = catalogue;

  /** One file of the administrator's (a unique name unless given), optionally tagged. */
  const givenTaggedFile = async (
    tags: number[] = [],
    options: { fileName?: string; folderId?: number } = {},
  ) => {
    const file = await givenFile(t, admin, {
      fileName: options.fileName ?? `${randomBytes(4).toString('hex')}.jpg`,
      ...(options.folderId === undefined ? {} : { folderId: options.folderId }),
    });
    if (tags.length > 0) expect((await modify({ folderDataId: file.id, tagIdList: tags })).status).toBe(200);
    return file;
  };

  /**
   * A folder of the administrator's with the tagged files the workbook tests exchange:
   * SHOE1, SHOE2, TEE1, MISC, UP1 and UP2, and DEEP1 in its subfolder Deeper.
   */
  const givenTaggedFolder = async () => {
    const folder = await givenFolder(t, admin);
    const deeper = await givenFolder(t, admin, { name: 'Deeper', parentId: folder.id });
    const tagsByName: Record<string, number[]> = {
      SHOE1: [tag['2026 SS'], tag.Shoes, tag.Black],
      SHOE2: [tag['2026 AW'], tag.Shoes],
      TEE1: [tag['2026 SS'], tag.Apparel],
      MISC: [],
      UP1: [tag['2026 SS'], tag['2026 AW'], tag.Black],
      UP2: [tag['2026 AW'], tag.White],
    };
    await uploadFiles(
      t,
      admin,
      Object.keys(tagsByName).map((name) => ({
        fileName: `${name}.jpg`,
        bytes: Buffer.from(`bytes of ${name}`),
      })),
      { targetFolderId: folder.id },
    );
    await uploadFiles(t, admin, [{ fileName: 'DEEP1.jpg', bytes: Buffer.from('deep') }], {
      targetFolderId: deeper.id,
    });
    const file: Record<string, number> = {};
    for (const item of [...(await listFolder(admin, folder.id)), ...(await listFolder(admin, deeper.id))])
      file[item.name] = item.id;
    for (const [name, tags] of Object.entries(tagsByName)) {
      if (tags.length > 0) await modify({ folderDataId: file[name], tagIdList: tags });
    }
    await modify({ folderDataId: file.DEEP1, tagIdList: [tag['2026 SS'], tag.Apparel, tag['T-shirt']] });
    return {
      folder,
      file: file as Record<'SHOE1' | 'SHOE2' | 'TEE1' | 'MISC' | 'UP1' | 'UP2' | 'DEEP1', number>,
    };
  };

  const exportRange = (body: Record<string, unknown>, token = manager, lang = 'en') =>
    t.app.inject({
      method: 'POST',
      url: api('v1_0/manage/tag-model-export'),
      payload: body,
      headers: { token, lang },
    });
  const importBook = async (bytes: Buffer, token = manager, query = '') => {
    const form = multipart([{ name: 'file', filename: 'tags.xlsx', content: bytes }]);
    const response = await t.app.inject({
      method: 'POST',
      url: api(`v1_0/manage/tag-model-import${query}`),
      payload: form.payload,
      headers: { token, lang: 'en', 'content-type': form.contentType },
    });
    return {
      status: response.statusCode,
      body: response.json() as { success: boolean; result: unknown; errorCode: string; errorDesc: string },
    };
  };

  return {
    t,
    admin,
    manager,
    lookingManager,
    editor,
    viewer,
    outsider,
    loner,
    ...catalogue,
    save,
    managed,
    selector,
    sort,
    deleteDimension,
    modify,
    detailTags,
    tagNamesOf,
    listFolder,
    givenTaggedFile,
    givenTaggedFolder,
    exportRange,
    importBook,
  };
}

export async function readBook(bytes: Buffer) {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(bytes as unknown as ArrayBuffer);
  return book;
}

/** Cell values of the first sheet, every row as wide as the header, empty cells as ''. */
export function rowsOf(book: ExcelJS.Workbook) {
  const rows: unknown[][] = [];
  book.worksheets[0]?.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  const width = rows[0]?.length ?? 0;
  return rows.map((row) => Array.from({ length: width }, (_, i) => row[i] ?? ''));
}
