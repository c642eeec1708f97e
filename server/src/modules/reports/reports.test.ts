import { endpoints, OperationCode, type ReportRequest, type ReportResult } from '@dam/contract';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attempt, call, fetchBytes } from '../../../test/call';
import { EVERY_SCOPE, givenDepartment, givenFiles, givenUser, signInAdmin } from '../../../test/factories';
import { createTestApp, signIn, type TestApp } from '../../../test/harness';
import { ReportsRepository } from './repository';
import { ReportsService } from './service';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * Data reports (issue 14): the figures equal the events this test makes through the real API, on
 * both days of the period (in the business time zone, Asia/Shanghai), before and after the rollup
 * job; the report stays inside the caller's department subtree; bad periods are refused.
 */
describe('data reports (/manage/data-table, code 6)', () => {
  let t: TestApp;
  let root: string;
  let deptA: { id: number; name: string };
  let deptA1: { id: number; name: string };
  let deptB: { id: number; name: string };
  let alice: { id: number; token: string };
  let anna: { id: number; token: string };
  let bob: { id: number; token: string };
  let adminA: string;
  let staff: string;
  let files: { jpg: number; pdf: number; mp4: number; psd: number };
  const bytes = { jpg: 1000, pdf: 2500, mp4: 7000, psd: 400 };
  const PERIOD = { startDate: '2026-01-05', endDate: '2026-01-07' } as const;

  const report = (token: string, body: Partial<ReportRequest> = {}): Promise<ReportResult> =>
    call(t.app, endpoints.dataReport, { token, body: { ...PERIOD, ...body } });
  const rowOf = (result: ReportResult, key: string | number) =>
    result.rows.find((r) => r.key === String(key));

  beforeAll(async () => {
    t = await createTestApp({ LOGIN_RATE_LIMIT: '1000', SESSION_IDLE_HOURS: '720' });
    root = await signInAdmin(t);
    deptA = await givenDepartment(t, { name: 'Design A', token: root });
    deptA1 = await givenDepartment(t, { name: 'Design A1', parentId: deptA.id, token: root });
    deptB = await givenDepartment(t, { name: 'Sales B', token: root });
    const person = async (deptId: number) => {
      const u = await givenUser(t.database, { deptId, scopes: EVERY_SCOPE });
      return { id: u.id, token: await signIn(t.app, u.email, u.password) };
    };
    alice = await person(deptA.id);
    anna = await person(deptA1.id);
    bob = await person(deptB.id);
    const a = await givenUser(t.database, {
      deptId: deptA.id,
      functionCodes: [6],
      scopes: { view: 'dept', upload: 'dept', download: 'dept', share: 'dept' },
    });
    adminA = await signIn(t.app, a.email, a.password);
    const s = await givenUser(t.database, { deptId: deptA.id, functionCodes: [5], scopes: EVERY_SCOPE });
    staff = await signIn(t.app, s.email, s.password);

    // Day 1 (Monday 5 January, 17:00 in Shanghai): Alice uploads an image and a PDF, Bob a video.
    const [jpg, pdf] = await givenFiles(t, alice.token, [
      { fileName: 'SHOE1.jpg', bytes: Buffer.alloc(bytes.jpg, 1) },
      { fileName: 'SPEC1.pdf', bytes: Buffer.alloc(bytes.pdf, 2) },
    ]);
    const [mp4] = await givenFiles(t, bob.token, [
      { fileName: 'AD1.mp4', bytes: Buffer.alloc(bytes.mp4, 3) },
    ]);
    // Alice downloads both of her files at once: one download.
    const zip = await t.app.inject({
      method: 'POST',
      url: endpoints.downloadItems.path,
      headers: { token: alice.token },
      payload: { folderDataIdList: [jpg, pdf] },
    });
    expect(zip.statusCode).toBe(200);

    // 8 hours later: 01:00 on Tuesday in Shanghai (still Monday in UTC).
    t.clock.advance(8 * HOUR);
    // Anna views the image twice and shares it; a visitor opens the link and downloads through it.
    for (let i = 0; i < 2; i += 1)
      await call(t.app, endpoints.reportOperation, {
        token: anna.token,
        body: { operatorCode: OperationCode.view, folderDataIdList: [jpg as number], newValue: 'jpg' },
      });
    const share = await call(t.app, endpoints.createShare, {
      token: anna.token,
      body: { needPassword: 0, expireTime: 'none', folderIds: [jpg as number] },
    });
    const visit = await call(t.app, endpoints.visitShare, { params: { code: share.code } });
    const viaLink = await t.app.inject({
      method: 'POST',
      url: endpoints.shareDownload.path,
      headers: { 'share-token': visit.shareToken as string },
      payload: { folderDataIdList: [jpg] },
    });
    expect(viaLink.statusCode).toBe(200);
    // Anna uploads a PSD.
    const [psd] = await givenFiles(t, anna.token, [
      { fileName: 'SOLE1.psd', bytes: Buffer.alloc(bytes.psd, 4) },
    ]);
    files = { jpg: jpg as number, pdf: pdf as number, mp4: mp4 as number, psd: psd as number };

    // A day later (Wednesday): Bob views his video; then 2 days on, outside the period, Alice uploads.
    t.clock.advance(DAY);
    await call(t.app, endpoints.reportOperation, {
      token: bob.token,
      body: { operatorCode: OperationCode.view, folderDataIdList: [files.mp4] },
    });
    t.clock.advance(2 * DAY);
    await givenFiles(t, alice.token, [{ fileName: 'LATE.jpg', bytes: Buffer.alloc(10, 5) }]);
  });
  afterAll(() => t.close());

  const expectDepartments = (result: ReportResult) => {
    expectDepartmentA(result);
    expect(rowOf(result, deptB.id)).toMatchObject({ uploads: 1, uploadBytes: bytes.mp4, views: 1 });
  };
  const expectDepartmentA = (result: ReportResult) => {
    expect(rowOf(result, deptA.id)).toMatchObject({
      label: 'Design A',
      uploads: 2,
      uploadBytes: bytes.jpg + bytes.pdf,
      downloads: 1,
      views: 0,
      shares: 0,
    });
    expect(rowOf(result, deptA1.id)).toMatchObject({
      label: 'Design A1',
      uploads: 1,
      uploadBytes: bytes.psd,
      views: 2,
      shares: 1,
      shareVisits: 1,
      shareDownloads: 1,
      downloads: 0,
    });
  };

  it('counts by department, and by day in the business time zone', async () => {
    const result = await report(root, { dimension: 'department', bucket: 'day' });
    expectDepartments(result);
    expect(result.totals).toMatchObject({
      uploads: 4,
      uploadBytes: bytes.jpg + bytes.pdf + bytes.mp4 + bytes.psd,
      downloads: 1,
      shareDownloads: 1,
      views: 3,
      shares: 1,
      shareVisits: 1,
    });
    expect(result.series.map((p) => [p.bucket, p.uploads, p.downloads, p.views, p.shares])).toEqual([
      ['2026-01-05', 3, 1, 0, 0],
      ['2026-01-06', 1, 0, 2, 1],
      ['2026-01-07', 0, 0, 1, 0],
    ]);
    expect(result.timeZone).toBe('Asia/Shanghai');
    // The clock stands at 17:00 UTC on 8 January: already the 9th in Shanghai, the day a browser
    // elsewhere ends its default period on.
    expect(result.today).toBe('2026-01-09');
    // Weekly and monthly buckets hold the same figures.
    const weekly = await report(root, { bucket: 'week' });
    expect(weekly.series).toHaveLength(1);
    expect(weekly.series[0]).toMatchObject({ bucket: '2026-01-05', uploads: 4, views: 3 });
    const monthly = await report(root, { bucket: 'month', startDate: '2025-12-20', endDate: '2026-01-31' });
    expect(monthly.series.map((p) => [p.bucket, p.uploads])).toEqual([
      ['2025-12-01', 0],
      ['2026-01-01', 5],
    ]);
  });

  it('counts by person and by file type', async () => {
    const people = await report(root, { dimension: 'user' });
    expect(rowOf(people, alice.id)).toMatchObject({ uploads: 2, downloads: 1, views: 0 });
    expect(rowOf(people, anna.id)).toMatchObject({ uploads: 1, views: 2, shares: 1, shareVisits: 1 });
    expect(rowOf(people, bob.id)).toMatchObject({ uploads: 1, views: 1 });
    const types = await report(root, { dimension: 'fileType', sortBy: 'uploadBytes' });
    expect(rowOf(types, 'image')).toMatchObject({
      uploads: 1,
      views: 2,
      shares: 1,
      shareVisits: 1,
      shareDownloads: 1,
    });
    expect(rowOf(types, 'document')).toMatchObject({ uploads: 1, uploadBytes: bytes.pdf });
    expect(rowOf(types, 'video')).toMatchObject({ uploads: 1, views: 1 });
    expect(rowOf(types, 'design')).toMatchObject({ uploads: 1, uploadBytes: bytes.psd });
    // The download of an image and a PDF together is of several types.
    expect(rowOf(types, 'mixed')).toMatchObject({ downloads: 1 });
    // Largest first by the chosen figure.
    expect(types.rows.map((r) => r.key).slice(0, 2)).toEqual(['video', 'document']);
  });

  it('gives the same figures from the rollup job, and counts storage', async () => {
    const before = await report(root, { dimension: 'department' });
    const repo = new ReportsRepository(t.database.db);
    expect(await repo.state()).toBeNull();
    const service = new ReportsService(repo, t.clock, 'Asia/Shanghai');
    const rolled = await service.rollUp();
    // Now is 01:00 on Friday 9 January in Shanghai: Monday to Thursday are rolled up.
    expect(rolled).toMatchObject({ from: '2026-01-05', days: 4 });
    expect(await repo.state()).toMatchObject({ rolledUntil: '2026-01-09', timeZone: 'Asia/Shanghai' });
    const daily = await t.database.db
      .selectFrom('report_daily_dept')
      .select((eb) => eb.fn.sum<number>('uploads').as('n'))
      .executeTakeFirstOrThrow();
    // Alice's late upload is of today: not rolled up yet, read from the log.
    expect(Number(daily.n)).toBe(4);
    const after = await report(root, { dimension: 'department' });
    expect(after.series).toEqual(before.series);
    // Storage before the first count: every file, read live; after it, the count.
    expect(before.totals.storageBytes).toBe(bytes.jpg + bytes.pdf + bytes.mp4 + bytes.psd + 10);
    expect(after.totals).toEqual(before.totals);
    expectDepartments(after);
    expect(rowOf(after, deptA.id)?.storageBytes).toBe(bytes.jpg + bytes.pdf + 10);
    expect(rowOf(after, deptB.id)?.storageBytes).toBe(bytes.mp4);
    // Running it again changes nothing; an event of today is counted at once, from the log.
    expect(await service.rollUp()).toMatchObject({ days: 0 });
    await call(t.app, endpoints.reportOperation, {
      token: bob.token,
      body: { operatorCode: OperationCode.view, folderDataIdList: [files.mp4] },
    });
    const today = await report(root, { startDate: '2026-01-05', endDate: '2026-01-10' });
    expect(today.totals.views).toBe(before.totals.views + 1);
    expect(today.totals.uploads).toBe(5);
    const types = await report(root, { dimension: 'fileType' });
    expect(rowOf(types, 'image')?.storageBytes).toBe(bytes.jpg + 10);
    // A file finished after the count is in the storage figures at once.
    t.clock.advance(HOUR);
    await givenFiles(t, bob.token, [{ fileName: 'AD2.mp4', bytes: Buffer.alloc(50, 6) }]);
    const now = await report(root, { dimension: 'department' });
    expect(rowOf(now, deptB.id)?.storageBytes).toBe(bytes.mp4 + 50);
    expect(now.totals.storageBytes).toBe(after.totals.storageBytes + 50);

    // A month later the whole of January is read from the monthly sums of people: same figures.
    t.clock.advance(24 * DAY);
    expect(await service.rollUp()).toMatchObject({ from: '2026-01-09', days: 24 });
    const months = await t.database.db.selectFrom('report_monthly_user').select('month').distinct().execute();
    expect(months.map((m) => m.month).sort()).toEqual(['2026-01-01']);
    const people = await report(root, { dimension: 'user', startDate: '2026-01-01', endDate: '2026-02-02' });
    expect(rowOf(people, alice.id)).toMatchObject({ uploads: 3, downloads: 1, views: 0 });
    expect(rowOf(people, anna.id)).toMatchObject({ uploads: 1, views: 2, shares: 1, shareVisits: 1 });
    expect(rowOf(people, bob.id)).toMatchObject({ uploads: 2, views: 2 });
    expect(people.totals).toMatchObject({ uploads: 6, views: 4, downloads: 1 });
    // And a period starting mid-month mixes days and months correctly.
    const mid = await report(root, { dimension: 'user', startDate: '2026-01-06', endDate: '2026-02-02' });
    expect(rowOf(mid, alice.id)).toMatchObject({ uploads: 1, downloads: 0 });
  });

  it("stays inside the administrator's department subtree", async () => {
    const result = await report(adminA, { dimension: 'department' });
    expect(result.scope).toEqual({ deptId: deptA.id, name: 'Design A' });
    expectDepartmentA(result);
    expect(rowOf(result, deptB.id)).toBeUndefined();
    expect(result.totals.uploads).toBe(3);
    expect(result.totals.views).toBe(2);
    const people = await report(adminA, { dimension: 'user' });
    expect(rowOf(people, bob.id)).toBeUndefined();
    // A department within reach narrows the report; one outside is answered like an unknown one.
    const a1 = await report(adminA, { deptId: deptA1.id, dimension: 'user' });
    expect(a1.rows.map((r) => r.key)).toEqual([String(anna.id)]);
    const outside = await attempt(t.app, endpoints.dataReport, {
      token: adminA,
      body: { ...PERIOD, deptId: deptB.id },
    });
    expect([outside.status, outside.errorCode]).toEqual([404, 'SED_06']);
  });

  it('needs function code 6 for the report and its export', async () => {
    const refused = await attempt(t.app, endpoints.dataReport, { token: staff, body: PERIOD });
    expect([refused.status, refused.errorCode]).toEqual([403, 'SE_502']);
    const exported = await fetchBytes(t.app, endpoints.exportDataReport, { token: staff, query: PERIOD });
    expect(exported.statusCode).toBe(403);
    const anonymous = await attempt(t.app, endpoints.dataReport, { body: PERIOD });
    expect(anonymous.status).toBe(401);
  });

  it('refuses a period that is too long or reversed, with a localised message', async () => {
    const tooLong = { startDate: '2025-01-01', endDate: '2026-01-02' };
    const zh = await attempt(t.app, endpoints.dataReport, { token: root, lang: 'zh', body: tooLong });
    expect([zh.status, zh.errorCode]).toEqual([400, 'SE_400']);
    expect(zh.errorDesc).toContain('报表时间段不能超过 366 天');
    const en = await attempt(t.app, endpoints.dataReport, { token: root, lang: 'en', body: tooLong });
    expect(en.errorDesc).toContain('a report period can be at most 366 days');
    const exported = await fetchBytes(t.app, endpoints.exportDataReport, {
      token: root,
      lang: 'en',
      query: tooLong,
    });
    expect(exported.statusCode).toBe(400);
    expect(JSON.parse(exported.body).errorDesc).toContain('366 days');
    // 366 days is allowed.
    const year = await report(root, { startDate: '2025-01-07', endDate: '2026-01-07' });
    expect(year.totals.uploads).toBe(4);
    const reversed = await attempt(t.app, endpoints.dataReport, {
      token: root,
      lang: 'en',
      body: { startDate: '2026-01-07', endDate: '2026-01-05' },
    });
    expect(reversed.errorDesc).toContain('the end date cannot be before the start date');
    const garbage = await attempt(t.app, endpoints.dataReport, {
      token: root,
      body: { startDate: '2026-13-01', endDate: '2026-01-05', bucket: 'year' },
    });
    expect(garbage.status).toBe(400);
  });

  it('exports the report as an .xlsx in the caller language', async () => {
    const answer = await fetchBytes(t.app, endpoints.exportDataReport, {
      token: root,
      lang: 'zh',
      query: { ...PERIOD, dimension: 'department' },
    });
    expect(answer.statusCode).toBe(200);
    expect(String(answer.headers['content-disposition'])).toContain(
      encodeURIComponent('数据报表-20260105_20260107'),
    );
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(answer.rawPayload as unknown as ArrayBuffer);
    expect(workbook.worksheets.map((w) => w.name)).toEqual(['概览', '明细', '趋势']);
    const table = workbook.getWorksheet('明细');
    expect(table?.getRow(1).getCell(1).value).toBe('部门');
    const rows = new Map<string, unknown[]>();
    table?.eachRow((row, n) => {
      if (n > 1) rows.set(String(row.getCell(1).value), (row.values as unknown[]).slice(2));
    });
    // uploads, MB uploaded, downloads, share downloads, views, shares, share visits, MB stored
    expect(rows.get('Design A1')?.slice(0, 7)).toEqual([
      1,
      Math.round((bytes.psd / 1048576) * 100) / 100,
      0,
      1,
      2,
      1,
      1,
    ]);
    const trend = workbook.getWorksheet('趋势');
    expect(trend?.getRow(2).values).toEqual([undefined, '2026-01-05', 3, expect.any(Number), 1, 0, 0, 0, 0]);
  });
});
