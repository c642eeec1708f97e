import { LOG_PAGE_SIZE_MAX, type LogEntry, OperationCode } from '@dam/contract';
import ExcelJS from 'exceljs';
import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { givenFolder } from '../../../test/factories';
import { get, post } from '../../../test/harness';
import { createLogsWorld, type LogsWorld, MINUTE } from '../../../test/scenarios/logs';
import { OperationRecorder } from './recorder';
import { LogsRepository } from './repository';
import { LogsService } from './service';

describe('operation log: listing, reports from the browser, export, integrity', () => {
  let w: LogsWorld;
  beforeAll(async () => {
    w = await createLogsWorld();
  });
  afterAll(() => w.t.close());

  describe('listing (/manage/log)', () => {
    it('needs function code 5', async () => {
      for (const token of [w.staff.token, w.admin]) {
        const answer = await post(w.t.app, '/ske-api/v1_0/operator-log/list', {}, { token });
        if (token === w.admin) expect(answer.status).toBe(200);
        else expect([answer.status, answer.body.errorCode]).toEqual([403, 'SE_502']);
      }
      const exported = await get(w.t.app, '/ske-api/v1_0/operator-log/export', { token: w.staff.token });
      expect([exported.status, exported.body.errorCode]).toEqual([403, 'SE_502']);
      const anonymous = await post(w.t.app, '/ske-api/v1_0/operator-log/list', {});
      expect(anonymous.status).toBe(401);
    });

    it('filters by time, operator, operation and file name, newest first, paged with a total', async () => {
      const start = w.t.clock.now();
      w.t.clock.advance(10 * MINUTE);
      const from = w.t.clock.now().toISOString();
      for (const id of [w.files.SHOE1, w.files.SHOE2]) {
        await w.ok200(
          get(w.t.app, `/ske-api/v1_0/collect/file-collect?folderDataId=${id}`, { token: w.staff.token }),
        );
        w.t.clock.advance(MINUTE);
      }
      await w.ok200(
        get(w.t.app, `/ske-api/v1_0/collect/file-collect?folderDataId=${w.files.SHOE1}`, { token: w.admin }),
      );
      const to = w.t.clock.now().toISOString();
      w.t.clock.advance(10 * MINUTE);
      await w.ok200(
        get(w.t.app, `/ske-api/v1_0/collect/file-cancel-collect?folderDataId=${w.files.SHOE1}`, {
          token: w.admin,
        }),
      );

      const window = await w.list({ startTime: from, endTime: to });
      expect(window.total).toBe(3);
      expect(window.list.map((e) => [e.operatorId, e.fileNames[0]])).toEqual([
        [w.adminId, 'SHOE1'],
        [w.staff.id, 'SHOE2'],
        [w.staff.id, 'SHOE1'],
      ]);
      // Newest first, whatever the filter.
      const times = (await w.list({ pageSize: LOG_PAGE_SIZE_MAX })).list.map((e) => e.time);
      expect([...times].sort().reverse()).toEqual(times);
      expect(new Date(times[0] as string).getTime()).toBeGreaterThan(start.getTime());

      const byOperator = await w.list({ startTime: from, operatorId: w.staff.id });
      expect(byOperator.total).toBe(2);
      const byName = await w.list({ startTime: from, operatorName: w.staff.name.slice(-4).toUpperCase() });
      expect(byName.list.every((e) => e.operatorId === w.staff.id)).toBe(true);
      expect(byName.total).toBe(2);
      const byCode = await w.list({ startTime: from, operatorCodes: ['FILE08'] });
      expect(byCode.list.map((e) => e.operatorCode)).toEqual(['FILE08']);
      const byCodes = await w.list({ startTime: from, operatorCodes: ['FILE07', 'FILE08'] });
      expect(byCodes.total).toBe(4);
      const byFile = await w.list({ startTime: from, fileName: 'hoE2' });
      expect(byFile.list.map((e) => e.fileNames)).toEqual([['SHOE2']]);
      // `%` and `_` are searched as themselves.
      expect((await w.list({ fileName: '%' })).total).toBe(0);

      const all = await w.totalCount();
      const page1 = await w.list({ pageSize: 5, pageNo: 1 });
      const page2 = await w.list({ pageSize: 5, pageNo: 2 });
      expect(page1.total).toBe(all);
      expect(page1.list).toHaveLength(5);
      expect(page2.list[0]?.id).toBeLessThan(page1.list[4]?.id as number);
      const tooBig = await post(
        w.t.app,
        '/ske-api/v1_0/operator-log/list',
        { pageSize: LOG_PAGE_SIZE_MAX + 1 },
        { token: w.auditor.token },
      );
      expect([tooBig.status, tooBig.body.errorCode]).toEqual([400, 'SE_400']);
      const unknownCode = await post(
        w.t.app,
        '/ske-api/v1_0/operator-log/list',
        { operatorCodes: ['NOPE01'] },
        { token: w.auditor.token },
      );
      expect(unknownCode.status).toBe(400);
    });

    it('answers labels and summaries in the reader’s language', async () => {
      const target = await givenFolder(w.t, w.admin);
      const moving = await givenFolder(w.t, w.admin);
      await w.ok200(
        post(
          w.t.app,
          '/ske-api/v1_0/file/batch-move',
          { folderDataIdList: [moving.id], targetFolderId: target.id },
          { token: w.admin },
        ),
      );
      const [zh] = (await w.list({ operatorCodes: ['FILE02'] }, 'zh')).list;
      expect(zh).toMatchObject({ operationName: '移动', content: `移动到 /${target.name}` });
    });
  });

  describe('add-log (reported by the browser)', () => {
    const report = (body: unknown, token = w.staff.token) =>
      post(w.t.app, '/ske-api/v1_0/operator-log/add-log', body, { token });

    it('records what the server cannot see, marked as reported', async () => {
      const viewed = await w.added(OperationCode.view, () =>
        w.ok200(report({ folderDataIdList: [w.files.SHOE1], operatorCode: 'FILE13', newValue: 'jpg' })),
      );
      expect(viewed).toHaveLength(1);
      expect(viewed[0]).toMatchObject({
        operatorId: w.staff.id,
        fileNames: ['SHOE1'],
        newValue: 'jpg',
        reported: true,
      });
      const copied = await w.added(OperationCode.copyShareLink, () =>
        w.ok200(
          report({ folderIdList: [w.files.SHOE2], operatorCode: 'SHARE05', newValue: 'linkAndPassword' }),
        ),
      );
      expect(copied).toHaveLength(1);
    });

    it('refuses server-only codes, bad values and items the caller cannot see; nothing is written', async () => {
      const before = await w.totalCount();
      for (const code of ['FILE01', 'FILE05', 'USER04', 'LOGIN01', 'NOPE01']) {
        const answer = await report({ folderDataIdList: [w.files.SHOE1], operatorCode: code });
        expect([answer.status, answer.body.errorCode], code).toEqual([400, 'SE_400']);
      }
      const noItem = await report({ operatorCode: 'FILE13' });
      expect(noItem.body.errorCode).toBe('SE_400');
      const freeText = await report({
        folderDataIdList: [w.files.SHOE1],
        operatorCode: 'FILE13',
        newValue: 'I did it',
      });
      expect(freeText.body.errorCode).toBe('SE_400');

      const privateFolder = await w.ok200(
        post(
          w.t.app,
          '/ske-api/v1_0/file/creat-folder',
          { folderName: 'Private', visibility: 'private' },
          { token: w.admin },
        ),
      );
      const hidden = (privateFolder.body as { result: { folderId: number } }).result.folderId;
      const refused = await report({ folderDataIdList: [w.files.SHOE1, hidden], operatorCode: 'FILE13' });
      // Items the caller cannot see answer like unknown ones (docs/decisions.md, Errors).
      expect([refused.status, refused.body.errorCode]).toEqual([404, 'SE_404']);
      // The auditor has no view permission at all.
      const blind = await report(
        { folderDataIdList: [w.files.SHOE1], operatorCode: 'FILE13' },
        w.auditor.token,
      );
      expect(blind.body.errorCode).toBe('SE_404');
      const unknown = await report({ folderDataIdList: [99_999_999], operatorCode: 'FILE13' });
      expect(unknown.body.errorCode).toBe('SE_404');
      // Creating the private folder logged one entry; the refused reports none.
      expect(await w.totalCount()).toBe(before + 1);
    });
  });

  describe('export', () => {
    async function readWorkbook(bytes: Buffer) {
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
      const sheetRows = (index: number) => {
        const rows: string[][] = [];
        workbook.worksheets[index]?.eachRow((row) => {
          rows.push(
            (row.values as unknown[]).slice(1).map((v) => (v === null || v === undefined ? '' : String(v))),
          );
        });
        return rows;
      };
      return { log: sheetRows(0), info: sheetRows(1) };
    }

    it('returns the filtered log as a workbook and logs the export', async () => {
      // Entries of its own to export: a favourite added and taken back.
      for (const action of ['file-collect', 'file-cancel-collect']) {
        await w.ok200(
          get(w.t.app, `/ske-api/v1_0/collect/${action}?folderDataId=${w.files.SHOE1}`, {
            token: w.staff.token,
          }),
        );
      }
      const filter = { operatorCodes: ['FILE07', 'FILE08'] };
      const expected = await w.list({ ...filter, pageSize: LOG_PAGE_SIZE_MAX });
      const exportsBefore = await w.countOf(OperationCode.exportLog);
      const response = await w.t.app.inject({
        method: 'GET',
        url: '/ske-api/v1_0/operator-log/export?operatorCodes=FILE07,FILE08',
        headers: { token: w.auditor.token, lang: 'en' },
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain('spreadsheetml');
      expect(String(response.headers['content-disposition'])).toContain('operation-log-');
      const { log, info } = await readWorkbook(response.rawPayload);
      expect(log[0]?.slice(0, 5)).toEqual([
        'Time (Asia/Shanghai)',
        'Operator',
        'Operator ID',
        'Operation',
        'Code',
      ]);
      expect(log.slice(1)).toHaveLength(expected.total);
      expect(log.slice(1).map((r) => r[4])).toEqual(expected.list.map((e) => e.operatorCode));
      expect(log.slice(1).map((r) => r[6])).toEqual(expected.list.map((e) => e.fileNames.join('\n')));
      // Times are the business time zone's wall clock (UTC+8).
      const first = expected.list[0] as LogEntry;
      const local = new Date(new Date(first.time).getTime() + 8 * 3600_000)
        .toISOString()
        .slice(0, 19)
        .replace('T', ' ');
      expect(log[1]?.[0]).toBe(local);
      expect(info.find((r) => r[0] === 'Entries matching the filter')?.[1]).toBe(String(expected.total));
      expect(info.some((r) => r[0] === 'At most 50,000 rows per export')).toBe(true);

      const exported = await w.entriesOf(OperationCode.exportLog);
      expect(exported.length).toBe(exportsBefore + 1);
      expect(exported[0]).toMatchObject({ operatorId: w.auditor.id });
      expect(exported[0]?.details).toMatchObject({
        rows: expected.total,
        filter: { operatorCodes: ['FILE07', 'FILE08'] },
      });

      const zh = await w.t.app.inject({
        method: 'GET',
        url: '/ske-api/v1_0/operator-log/export',
        headers: { token: w.auditor.token, lang: 'zh' },
      });
      const zhBook = await readWorkbook(zh.rawPayload);
      expect(zhBook.log[0]?.[3]).toBe('操作');
      expect(decodeURIComponent(String(zh.headers['content-disposition']))).toContain('操作日志-');
    });

    it('stops at the cap and says so in the file', async () => {
      const logs = new LogsService(new LogsRepository(w.t.database.db), w.t.clock, 'Asia/Shanghai');
      const auth = {
        userId: w.auditor.id,
        sessionId: 0,
        deptId: null,
        deptPath: null,
        functionCodes: new Set([5]),
        fileScopes: { view: 'none', upload: 'none', download: 'none', share: 'none' },
        passwordExpired: false,
      } as const;
      const total = await w.totalCount();
      const exported = await logs.export(auth, {}, 'en', 3);
      const chunks: Buffer[] = [];
      for await (const chunk of exported.stream) chunks.push(chunk as Buffer);
      const { log, info } = await readWorkbook(Buffer.concat(chunks));
      // Header, 3 entries, the note.
      expect(log).toHaveLength(5);
      expect(log[4]?.[0]).toBe(
        `Export limit of 3 rows reached: ${(total - 3).toLocaleString('en')} older entries were not exported. Narrow the time range and export again.`,
      );
      expect(info.find((r) => r[0] === 'Entries in this file')?.[1]).toBe('3');
      expect(exported).toMatchObject({ total, rows: 3 });
    });
  });

  describe('integrity', () => {
    it('keeps entries append-only, even against direct SQL', async () => {
      const db = w.t.database.db;
      await expect(sql`UPDATE operation_logs SET operator_name = 'someone else'`.execute(db)).rejects.toThrow(
        /append-only/,
      );
      await expect(sql`DELETE FROM operation_logs`.execute(db)).rejects.toThrow(/append-only/);
      await expect(sql`TRUNCATE operation_logs`.execute(db)).rejects.toThrow(/append-only/);
    });

    it('a failed write is a warning, never a failed operation', async () => {
      const warnings: Array<Record<string, unknown>> = [];
      const broken = {
        record: async () => {
          throw new Error('disk full');
        },
        snapshot: async () => {
          throw new Error('disk full');
        },
      } as unknown as LogsService;
      const recorder = new OperationRecorder(broken, (details) => warnings.push(details));
      const request = { ip: '10.0.0.1', headers: {}, auth: null } as unknown as FastifyRequest;
      await expect(recorder.record(request, OperationCode.collect, { items: [1] })).resolves.toBeUndefined();
      await expect(
        recorder.around(request, OperationCode.purge, { items: [1] }, async () => 'done'),
      ).resolves.toBe('done');
      expect(warnings).toHaveLength(3);
      expect(warnings[0]?.operationLog).toMatchObject({
        code: 'FILE07',
        ip: '10.0.0.1',
        subject: { items: [1] },
      });
    });
  });
});
