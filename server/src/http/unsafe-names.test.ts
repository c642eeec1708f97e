import { randomBytes } from 'node:crypto';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZipFile } from 'yazl';
import { createFolder, uploadFiles } from '../../test/factories';
import { ADMIN, createTestApp, get, post, signIn, type TestApp } from '../../test/harness';
import { readZip } from '../../test/zip';

/** An .xlsx whose shared strings hold a raw NUL (what a hand-edited or hostile workbook can). */
async function workbookWithNul(rows: string[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Sheet1');
  for (const row of rows) sheet.addRow(row);
  const entries = await readZip(Buffer.from(await book.xlsx.writeBuffer()));
  const zip = new ZipFile();
  for (const [name, data] of entries) {
    if (name.endsWith('/')) continue;
    const text = data.toString('utf8');
    zip.addBuffer(
      text.includes('NULHERE') ? Buffer.from(text.replaceAll('NULHERE', 'a\u0000b')) : data,
      name,
    );
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function multipart(content: Buffer) {
  const boundary = `----dam${randomBytes(8).toString('hex')}`;
  return {
    payload: Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="book.xlsx"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      content,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/**
 * Issue 9 item 7: names that would break an archive or a file system are refused at every input
 * with a localised SE_400 naming the problem, and NUL (which PostgreSQL cannot store in text:
 * "invalid byte sequence", SE_500 before) is refused in any field of any request.
 */
describe('unsafe names and NUL characters in requests', () => {
  let t: TestApp;
  let token: string;
  let folderId: number;
  let fileId: number;
  let rootDeptId: number;

  beforeAll(async () => {
    t = await createTestApp({ LOGIN_RATE_LIMIT: '1000', SESSION_IDLE_HOURS: '720' });
    token = await signIn(t.app, ADMIN.email, ADMIN.password);
    folderId = await createFolder(t, token, 'Names');
    const [upload] = await uploadFiles(t, token, [{ fileName: 'SHOE1.txt', bytes: Buffer.from('x') }], {
      targetFolderId: folderId,
    });
    fileId = (
      await t.database.db
        .selectFrom('uploads')
        .select('item_id')
        .where('id', '=', upload as number)
        .executeTakeFirstOrThrow()
    ).item_id as number;
    rootDeptId = (
      await t.database.db
        .selectFrom('departments')
        .select('id')
        .where('parent_id', 'is', null)
        .executeTakeFirstOrThrow()
    ).id;
  });
  afterAll(() => t.close());

  const itemNames = async () =>
    (await t.database.db.selectFrom('items').select('name').orderBy('id').execute()).map((r) => r.name);
  const send = (url: string, body: unknown, lang = 'en') => post(t.app, url, body, { token, lang });

  it.each([
    ['..', 'folderName: cannot be . or ..'],
    ['.', 'folderName: cannot be . or ..'],
    ['C:', 'folderName: cannot start with a drive letter such as C:'],
    ['a\\b', 'folderName: must not contain the character \\'],
    ['tab\there', 'folderName: must not contain the character U+0009'],
    ['nul\u0000here', 'folderName: must not contain the character U+0000'],
    ['esc\u001b', 'folderName: must not contain the character U+001B'],
    ['c1\u0085', 'folderName: must not contain the character U+0085'],
    ['trailing.', 'folderName: cannot start or end with a dot'],
    ['.hidden', 'folderName: cannot start or end with a dot'],
    ['CON', 'folderName: CON is a name Windows reserves and cannot be used'],
    ['lpt1.txt', 'folderName: lpt1 is a name Windows reserves and cannot be used'],
    ['a$b', 'folderName: must not contain the character $'],
  ])('refuses the folder name %j with a clear error, creating nothing', async (name, desc) => {
    const before = await itemNames();
    const created = await send('/ske-api/v1_0/file/creat-folder', { folderName: name, parentId: folderId });
    expect(created.status).toBe(400);
    expect(created.body).toMatchObject({ errorCode: 'SE_400', errorDesc: `Invalid request: ${desc}` });
    const renamed = await send('/ske-api/v1_0/file/update-folder', {
      folderDataId: folderId,
      folderName: name,
    });
    expect(renamed.status).toBe(400);
    expect(renamed.body.errorCode).toBe('SE_400');
    expect(await itemNames()).toEqual(before);
  });

  it('says why in Chinese by default', async () => {
    const created = await post(t.app, '/ske-api/v1_0/file/creat-folder', { folderName: '..' }, { token });
    expect(created.body.errorDesc).toContain('folderName: 不能是 . 或 ..');
  });

  it('refuses the same names as a file rename', async () => {
    for (const name of ['..', 'NUL', 'x\u0000', 'a\\b', 'C:x', 'end.']) {
      const edited = await send('/ske-api/v1_0/file/edit', { folderDataId: fileId, name });
      expect(edited.status, name).toBe(400);
      expect(edited.body.errorCode).toBe('SE_400');
    }
    expect(await itemNames()).toContain('SHOE1');
  });

  it('refuses unsafe uploaded file names and folder paths, creating no upload', async () => {
    const count = async () =>
      Number(
        (
          await t.database.db
            .selectFrom('uploads')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const cases: Array<[string, string, string]> = [
      ['CON.jpg', '', 'uploadDetailDTOS.0.fileName: CON is a name Windows reserves and cannot be used'],
      ['a\u0000.jpg', '', 'uploadDetailDTOS.0.fileName: must not contain the character U+0000'],
      ['a\\b.jpg', '', 'uploadDetailDTOS.0.fileName: must not contain the character \\'],
      ['ok.jpg', 'Spring/../Up', 'uploadDetailDTOS.0.path.1: cannot be . or ..'],
      ['ok.jpg', 'C:/Windows', 'uploadDetailDTOS.0.path.0: cannot start with a drive letter such as C:'],
      [
        'ok.jpg',
        'Spring/AUX',
        'uploadDetailDTOS.0.path.1: AUX is a name Windows reserves and cannot be used',
      ],
    ];
    for (const [fileName, path, desc] of cases) {
      const created = await send('/ske-api/v1_0/file-upload/upload', {
        targetFolderId: folderId,
        uploadDetailDTOS: [{ fileName, fileSize: 1, path }],
      });
      expect(created.status, `${fileName} ${path}`).toBe(400);
      expect(created.body).toMatchObject({ errorCode: 'SE_400', errorDesc: `Invalid request: ${desc}` });
    }
    expect(await count()).toBe(before);
  });

  it.each([
    ['/security-api/create-dept', () => ({ name: 'Dept\u0000', parentId: rootDeptId }), 'name'],
    [
      '/security-api/create-role',
      () => ({
        name: 'Role\u0000',
        filePermissions: { view: 'none', upload: 'none', download: 'none', share: 'none' },
        functionCodes: [],
      }),
      'name',
    ],
    [
      '/ske-api/v1_0/file/add-channel-tag',
      () => ({ folderDataId: fileId, channelName: 'T\u0000' }),
      'channelName',
    ],
    [
      '/ske-api/v1_0/download-preset/save',
      () => ({ name: 'P\u0000', format: 'jpg', longSidePx: 800, fileNameTemplate: '{artNum}.jpg' }),
      'name',
    ],
    ['/ske-api/v1_0/global/search', () => ({ searchType: 1, query: 'SHOE\u0000' }), 'query'],
    ['/ske-api/v1_0/file/edit', () => ({ folderDataId: fileId, artNum: 'A\u0000' }), 'artNum'],
  ])('refuses NUL in any body field: %s', async (url, body, field) => {
    const answer = await send(url, body());
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      errorCode: 'SE_400',
      errorDesc: `Invalid request: ${field}: must not contain the character U+0000`,
    });
  });

  it.each([
    [
      '/ske-api/v1_0/sku/import',
      [
        ['货号', '名称'],
        ['SKU-NUL', 'NULHERE'],
      ],
    ],
    ['/ske-api/v1_0/manage/tag-model-import', [['ID', 'NULHERE']]],
  ])('answers an Excel import holding NUL with an error code, not SE_500: %s', async (url, rows) => {
    const form = multipart(await workbookWithNul(rows));
    const response = await t.app.inject({
      method: 'POST',
      url,
      payload: form.payload,
      headers: { token, lang: 'en', 'content-type': form.contentType },
    });
    expect(response.statusCode).toBeLessThan(500);
    expect(response.json()).toMatchObject({ success: false, errorCode: 'SESK_01' });
  });

  it('refuses NUL in a query string and in a JSON key', async () => {
    const listed = await get(t.app, `/ske-api/v1_0/file/all-file-v2?folderDataId=${folderId}&path=%00`, {
      token,
      lang: 'en',
    });
    expect(listed.status).toBe(400);
    expect(listed.body).toMatchObject({
      errorCode: 'SE_400',
      errorDesc: 'Invalid request: path: must not contain the character U+0000',
    });
    const keyed = await send('/ske-api/v1_0/file/creat-folder', { folderName: 'ok', 'x\u0000': 1 });
    expect(keyed.status).toBe(400);
    expect(keyed.body.errorCode).toBe('SE_400');
  });
});
