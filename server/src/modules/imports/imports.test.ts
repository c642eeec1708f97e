import { endpoints, IMPORT_PROGRESS_STEP, type ImportDetail } from '@dam/contract';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attempt, call, fetchBytes } from '../../../test/call';
import {
  givenDepartment,
  givenDimension,
  givenSignedInUser,
  signInAdmin,
  uniqueName,
} from '../../../test/factories';
import { multipart } from '../../../test/fixtures';
import { createTestApp, type TestApp } from '../../../test/harness';
import { workbook } from '../../../test/scenarios/sku';
import { tagsOn } from '../../repositories';
import { LogsRepository } from '../logs/repository';
import { LogsService } from '../logs/service';
import { SkuRepository } from '../sku/repository';
import { ImportsRepository } from './repository';
import { ImportsService } from './service';

/**
 * Import management (issue 14): uploads read at once, dry runs and applies done by the import job
 * (pg-boss on the test's database), all-or-nothing applies, error reports, the history.
 */
describe('import management', () => {
  let t: TestApp;
  let admin: string;
  let importer: { id: number; token: string };
  beforeAll(async () => {
    t = await createTestApp({ LOGIN_RATE_LIMIT: '1000' }, { jobs: true });
    admin = await signInAdmin(t);
    importer = await givenSignedInUser(t, { functionCodes: [4, 8] });
  });
  afterAll(() => t.close());

  const upload = async (
    kind: 'sku' | 'tagAssignments',
    bytes: Buffer | string,
    { token = importer.token, lang = 'en', fileName = 'data.xlsx' } = {},
  ) => {
    const body = multipart([{ name: 'file', filename: fileName, content: bytes }]);
    const response = await t.app.inject({
      method: 'POST',
      url: `${endpoints.createImport.path}?kind=${kind}`,
      headers: { token, lang, 'content-type': body.contentType },
      payload: body.payload,
    });
    return {
      status: response.statusCode,
      body: response.json() as {
        success: boolean;
        result: ImportDetail;
        errorCode: string;
        errorDesc: string;
      },
    };
  };
  /** Uploads and waits for the dry run's job to end. */
  const checked = async (kind: 'sku' | 'tagAssignments', bytes: Buffer, lang: 'en' | 'zh' = 'en') => {
    const created = await upload(kind, bytes, { lang });
    expect(created.status).toBe(200);
    const id = created.body.result.id;
    await t.jobs?.importDone(id, 'check');
    return call(t.app, endpoints.importDetail, { token: importer.token, lang, query: { id } });
  };
  const applied = async (id: number) => {
    const started = await call(t.app, endpoints.applyImport, { token: importer.token, body: { id } });
    await t.jobs?.importDone(id, 'apply');
    return {
      started,
      done: await call(t.app, endpoints.importDetail, { token: importer.token, lang: 'en', query: { id } }),
    };
  };
  const skus = (prefix: string) =>
    t.database.db
      .selectFrom('sku')
      .select(['art_num', 'name', 'color'])
      .where(sql<boolean>`art_num LIKE ${`${prefix}%`}`)
      .orderBy('art_num')
      .execute();
  const givenSkus = async (rows: unknown[][]) => {
    const detail = await checked('sku', await workbook([['货号', '名称', '颜色'], ...rows]));
    expect(detail.status).toBe('checked');
    expect((await applied(detail.id)).done.status).toBe('applied');
  };

  it('dry-runs an SKU workbook: what would change, and nothing changed', async () => {
    await givenSkus([
      ['DRY-1', 'Runner', 'Black'],
      ['DRY-2', 'Walker', 'White'],
    ]);
    const before = await skus('DRY-');
    const detail = await checked(
      'sku',
      await workbook([
        ['Article number', 'Name', 'Colour'],
        ['DRY-1', 'Runner', 'Black'],
        ['DRY-2', 'Walker II', 'White'],
        ['DRY-3', 'Trail', ''],
      ]),
    );
    expect(detail).toMatchObject({
      kind: 'sku',
      status: 'checked',
      fileName: 'data.xlsx',
      total: 3,
      processed: 3,
      created: 1,
      updated: 1,
      unchanged: 1,
      problemCount: 0,
      problems: [],
      appliedAt: null,
    });
    expect(detail.changes).toEqual([
      {
        row: 3,
        artNum: 'DRY-2',
        action: 'update',
        fields: [{ column: 'Name', before: 'Walker', after: 'Walker II' }],
      },
      {
        row: 4,
        artNum: 'DRY-3',
        action: 'create',
        fields: [
          { column: 'Article number', before: '', after: 'DRY-3' },
          { column: 'Name', before: '', after: 'Trail' },
        ],
      },
    ]);
    expect(await skus('DRY-')).toEqual(before);

    // Applied: the counts of the dry run, the data changed, who and when recorded, and logged.
    t.clock.advance(60_000);
    const { started, done } = await applied(detail.id);
    expect(['applying', 'applied']).toContain(started.status);
    expect(done).toMatchObject({ status: 'applied', created: 1, updated: 1, unchanged: 1, processed: 3 });
    expect(done.appliedAt).toBe(t.clock.now().toISOString());
    expect(done.appliedByName).toMatch(/^Test User/);
    expect(await skus('DRY-')).toEqual([
      { art_num: 'DRY-1', name: 'Runner', color: 'Black' },
      { art_num: 'DRY-2', name: 'Walker II', color: 'White' },
      { art_num: 'DRY-3', name: 'Trail', color: null },
    ]);
    const log = await t.database.db
      .selectFrom('operation_logs')
      .select(['operator_id', 'operator_code', 'details'])
      .where('operator_code', '=', 'SKU01')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(log).toMatchObject({
      operator_id: importer.id,
      details: { importId: detail.id, created: 1, updated: 1, unchanged: 1 },
    });

    // A repeated apply answers the applied import and does nothing again.
    const again = await call(t.app, endpoints.applyImport, {
      token: importer.token,
      body: { id: detail.id },
    });
    expect(again.status).toBe('applied');
    const logs = await t.database.db
      .selectFrom('operation_logs')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where(sql<boolean>`details->>'importId' = ${String(detail.id)}`)
      .executeTakeFirstOrThrow();
    expect(Number(logs.n)).toBe(1);
  });

  it('rejects bad rows: nothing applied, every problem named by row and column, as an .xlsx too', async () => {
    await givenSkus([['BAD-1', 'Kept', 'Red']]);
    const before = await skus('BAD-');
    const bytes = await workbook([
      ['货号', '名称', '颜色'],
      ['BAD-1', 'Renamed', 'Blue'],
      ['BAD-2', '', 'Green'],
      ['BAD-3', 'x'.repeat(201), ''],
      ['bad-1', 'Again', ''],
      ['BAD-4', 'Fine', ''],
    ]);
    const detail = await checked('sku', bytes);
    expect(detail).toMatchObject({ status: 'rejected', total: 5, problemCount: 3 });
    expect(detail.problems).toEqual([
      { row: 3, column: 'B (名称)', message: 'must not be empty' },
      { row: 4, column: 'B (名称)', message: 'must be at most 200 characters' },
      { row: 5, column: 'A (货号)', message: 'article number bad-1 already appears in row 2' },
    ]);
    const zh = await call(t.app, endpoints.importDetail, {
      token: importer.token,
      lang: 'zh',
      query: { id: detail.id },
    });
    expect(zh.problems.map((p) => p.message)).toEqual([
      '不能为空',
      '不能超过 200 个字符',
      '货号 bad-1 已在第 2 行出现',
    ]);

    // Applying is refused, and nothing of the file reached the data.
    const refused = await attempt(t.app, endpoints.applyImport, {
      token: importer.token,
      lang: 'en',
      body: { id: detail.id },
    });
    expect(refused.status).toBe(409);
    expect(refused.errorCode).toBe('SEIM_01');
    expect(refused.errorDesc).toBe('This import cannot do that in its current state (rejected)');
    expect(await skus('BAD-')).toEqual(before);
    expect(await skus('bad-')).toEqual([]);

    // The report: one line per problem with row, column, problem and the row's own cells.
    const report = await fetchBytes(t.app, endpoints.importErrorReport, {
      token: importer.token,
      lang: 'zh',
      query: { id: detail.id },
    });
    expect(report.statusCode).toBe(200);
    expect(String(report.headers['content-type'])).toContain('spreadsheetml');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(report.rawPayload as unknown as ArrayBuffer);
    const lines: unknown[][] = [];
    book.worksheets[0]?.eachRow((row) => {
      const cells = Array.from({ length: 6 }, (_, i) => row.getCell(i + 1).value ?? '');
      lines.push(cells);
    });
    expect(lines).toEqual([
      ['行', '列', '问题', '货号', '名称', '颜色'],
      [3, 'B (名称)', '不能为空', 'BAD-2', '', 'Green'],
      [4, 'B (名称)', '不能超过 200 个字符', 'BAD-3', 'x'.repeat(201), ''],
      [5, 'A (货号)', '货号 bad-1 已在第 2 行出现', 'bad-1', 'Again', ''],
    ]);
  });

  it('refuses a file that is not .xlsx, is empty or lacks a required column, and keeps nothing', async () => {
    const count = async () =>
      Number(
        (
          await t.database.db
            .selectFrom('imports')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const notXlsx = await upload('sku', 'art,name\nA,B\n', { fileName: 'data.csv', lang: 'zh' });
    expect(notXlsx.status).toBe(400);
    expect(notXlsx.body).toMatchObject({
      errorCode: 'SESK_01',
      errorDesc: '文件不是可读取的 Excel（.xlsx）工作簿',
    });
    const empty = await upload('sku', await workbook([['货号', '名称']]));
    expect(empty.status).toBe(400);
    expect(empty.body.errorCode).toBe('SEIM_02');
    expect(empty.body.errorDesc).toContain('no data rows');
    const blank = await upload('sku', await workbook([]));
    expect(blank.body.errorCode).toBe('SEIM_02');
    const noName = await upload(
      'sku',
      await workbook([
        ['货号', '颜色'],
        ['X-1', 'Red'],
      ]),
      { lang: 'zh' },
    );
    expect(noName.body).toMatchObject({ errorCode: 'SESK_02', errorDesc: '表头缺少“名称”列' });
    const noArtNum = await upload('tagAssignments', await workbook([['Season'], ['2026']]));
    expect(noArtNum.body).toMatchObject({ errorCode: 'SESK_02' });
    expect(await count()).toBe(before);
  });

  it('imports tag assignments all or nothing: a row that stops passing before the apply writes none', async () => {
    const season = await givenDimension(t, { name: uniqueName('Season'), tags: ['SS26', 'AW26'] });
    const material = await givenDimension(t, { name: uniqueName('Material'), tags: ['Mesh', 'Leather'] });
    await givenSkus([
      ['TAG-1', 'One', ''],
      ['TAG-2', 'Two', ''],
    ]);
    const tagsOf = async () =>
      (
        await t.database.db
          .selectFrom('sku_tags')
          .innerJoin('sku', 'sku.id', 'sku_tags.sku_id')
          .innerJoin('tags', 'tags.id', 'sku_tags.tag_id')
          .select(['sku.art_num', 'tags.name'])
          .where('sku.art_num', 'like', 'TAG-%')
          .orderBy('sku.art_num')
          .orderBy('tags.name')
          .execute()
      ).map((r) => `${r.art_num}:${r.name}`);

    // Problems of tag rows: unknown article, unknown tag, unknown dimension column.
    const bad = await checked(
      'tagAssignments',
      await workbook([
        ['货号', season.name, 'Fabric'],
        ['TAG-1', 'SS26', ''],
        ['NOPE-9', 'SS26', ''],
        ['TAG-2', 'Winter', ''],
      ]),
    );
    expect(bad.status).toBe('rejected');
    expect(bad.problems).toEqual([
      { row: 1, column: 'C (Fabric)', message: '"Fabric" is not a tag dimension' },
      {
        row: 3,
        column: 'A (货号)',
        message: 'article number NOPE-9 is not in the SKU data; import the SKU data first',
      },
      { row: 4, column: `B (${season.name})`, message: 'this dimension has no tag "Winter"' },
    ]);

    const good = await checked(
      'tagAssignments',
      await workbook([
        ['货号', season.name, material.name],
        ['TAG-1', 'SS26', 'Mesh, Leather'],
        ['TAG-2', 'AW26', ''],
      ]),
    );
    expect(good).toMatchObject({ status: 'checked', updated: 2, unchanged: 0 });
    expect(good.changes[0]).toEqual({
      row: 2,
      artNum: 'TAG-1',
      action: 'update',
      fields: [
        { column: season.name, before: '', after: 'SS26' },
        { column: material.name, before: '', after: 'Mesh, Leather' },
      ],
    });
    expect(await tagsOf()).toEqual([]);

    // AW26 is deleted after the dry run: the apply finds row 3 failing and writes nothing (not row 2 either).
    await call(t.app, endpoints.saveTagDimension, {
      token: admin,
      body: {
        id: season.id,
        dimensionName: season.name,
        tagDTOList: [{ id: season.tags.SS26 as number, tagName: 'SS26' }],
      },
    });
    const { done } = await applied(good.id);
    expect(done.status).toBe('rejected');
    expect(done.problems).toEqual([
      { row: 3, column: `B (${season.name})`, message: 'this dimension has no tag "AW26"' },
    ]);
    expect(await tagsOf()).toEqual([]);

    // A fresh file applies whole.
    const fixed = await checked(
      'tagAssignments',
      await workbook([
        ['货号', season.name, material.name],
        ['TAG-1', 'SS26', 'Mesh, Leather'],
        ['TAG-2', 'SS26', ''],
      ]),
    );
    expect((await applied(fixed.id)).done).toMatchObject({ status: 'applied', updated: 2 });
    expect(await tagsOf()).toEqual(['TAG-1:Leather', 'TAG-1:Mesh', 'TAG-1:SS26', 'TAG-2:SS26']);
  });

  it('needs code 8 for every call (and tag management for tag assignments); others’ imports stay hidden', async () => {
    const plain = await givenSignedInUser(t, { functionCodes: [1, 2, 3, 4, 5, 6, 7] });
    const skuOnly = await givenSignedInUser(t, { functionCodes: [8] });
    const bytes = await workbook([
      ['货号', '名称'],
      ['PERM-1', 'P'],
    ]);
    expect((await upload('sku', bytes, { token: plain.token })).status).toBe(403);
    expect((await upload('tagAssignments', bytes, { token: skuOnly.token })).status).toBe(403);
    const list = await attempt(t.app, endpoints.importList, { token: plain.token, query: {} });
    expect(list.status).toBe(403);
    const mine = await checked('sku', bytes);
    // Neither in a department nor administering everything: only their own imports.
    const other = await attempt(t.app, endpoints.importDetail, {
      token: skuOnly.token,
      query: { id: mine.id },
    });
    expect(other.status).toBe(404);
    const theirs = await call(t.app, endpoints.importList, { token: skuOnly.token, query: {} });
    expect(theirs.list.map((i) => i.id)).not.toContain(mine.id);
  });

  it('shows an administrator the imports of their department and those below it, not a sibling’s', async () => {
    const brand = await givenDepartment(t);
    const team = await givenDepartment(t, { parentId: brand.id });
    const sibling = await givenDepartment(t);
    const dept = { view: 'dept', upload: 'dept', download: 'dept', share: 'dept' } as const;
    const head = await givenSignedInUser(t, { deptId: brand.id, functionCodes: [8], scopes: dept });
    const member = await givenSignedInUser(t, { deptId: team.id, functionCodes: [8], scopes: dept });
    const outsider = await givenSignedInUser(t, { deptId: sibling.id, functionCodes: [8], scopes: dept });
    const created = await upload(
      'sku',
      await workbook([
        ['货号', '名称'],
        ['DEPT-1', 'D'],
      ]),
      {
        token: member.token,
      },
    );
    const id = created.body.result.id;
    await t.jobs?.importDone(id, 'check');
    const ids = async (token: string) =>
      (await call(t.app, endpoints.importList, { token, query: { pageSize: 100 } })).list.map((i) => i.id);
    expect(await ids(member.token)).toContain(id);
    expect(await ids(head.token)).toContain(id);
    expect(await ids(outsider.token)).not.toContain(id);
    expect((await attempt(t.app, endpoints.importDetail, { token: head.token, query: { id } })).status).toBe(
      200,
    );
    const refused = await attempt(t.app, endpoints.applyImport, { token: outsider.token, body: { id } });
    expect(refused.status).toBe(404);
    // The head of the department may apply it.
    await call(t.app, endpoints.applyImport, { token: head.token, body: { id } });
    await t.jobs?.importDone(id, 'apply');
    expect(await skus('DEPT-')).toEqual([{ art_num: 'DEPT-1', name: 'D', color: null }]);
  });

  it('lists the history newest first with who, when and the result, page by page', async () => {
    const first = await checked(
      'sku',
      await workbook([
        ['货号', '名称'],
        ['HIS-1', 'H'],
      ]),
    );
    t.clock.advance(1000);
    const second = await checked(
      'sku',
      await workbook([
        ['货号', '名称'],
        ['HIS-2', ''],
      ]),
    );
    const page = await call(t.app, endpoints.importList, { token: admin, query: { pageNo: 1, pageSize: 2 } });
    expect(page.list.map((i) => i.id)).toEqual([second.id, first.id]);
    expect(page.total).toBeGreaterThan(2);
    expect(page.list[0]).toMatchObject({
      status: 'rejected',
      problemCount: 1,
      fileName: 'data.xlsx',
      createdAt: t.clock.now().toISOString(),
    });
    expect(page.list[0]?.userName).toMatch(/^Test User/);
    const next = await call(t.app, endpoints.importList, { token: admin, query: { pageNo: 2, pageSize: 2 } });
    expect(next.list.map((i) => i.id)).not.toContain(first.id);
    // Discarding a checked import ends it; it can no longer be applied.
    const discarded = await call(t.app, endpoints.discardImport, {
      token: importer.token,
      body: { id: first.id },
    });
    expect(discarded.status).toBe('discarded');
    const late = await attempt(t.app, endpoints.applyImport, {
      token: importer.token,
      body: { id: first.id },
    });
    expect(late.status).toBe(409);
  });

  it('reports progress as the rows are checked', async () => {
    const seen: number[] = [];
    class Recording extends ImportsRepository {
      override async setProgress(id: number, processed: number, now: Date) {
        seen.push(processed);
        await super.setProgress(id, processed, now);
      }
    }
    const service = new ImportsService({
      imports: new Recording(t.database.db),
      clock: t.clock,
      logs: new LogsService(new LogsRepository(t.database.db), t.clock, 'UTC'),
      warn: () => {},
      tagsOn,
      skuOn: (handle) => new SkuRepository(handle),
    });
    const rows = Array.from({ length: IMPORT_PROGRESS_STEP * 2 + 7 }, (_, i) => [`PRG-${i}`, `P${i}`]);
    const bytes = await workbook([['货号', '名称'], ...rows]);
    const auth = {
      userId: importer.id,
      sessionId: 0,
      deptId: null,
      deptPath: null,
      functionCodes: new Set([8]),
      fileScopes: { view: 'none', upload: 'none', download: 'none', share: 'none' } as const,
      passwordExpired: false,
    };
    const { Readable } = await import('node:stream');
    const detail = await service.create(
      auth,
      'sku',
      { fileName: 'big.xlsx', stream: Readable.from([bytes]), truncated: () => false },
      'en',
    );
    expect(detail).toMatchObject({
      status: 'checked',
      total: rows.length,
      processed: rows.length,
      created: rows.length,
    });
    expect(seen).toEqual([IMPORT_PROGRESS_STEP, IMPORT_PROGRESS_STEP * 2, rows.length]);
    seen.length = 0;
    await service.apply(auth, detail.id, 'en');
    expect(seen).toEqual([IMPORT_PROGRESS_STEP, IMPORT_PROGRESS_STEP * 2, rows.length]);
    expect((await service.detail(auth, detail.id, 'en')).status).toBe('applied');
    expect((await skus('PRG-')).length).toBe(rows.length);
  });
});
