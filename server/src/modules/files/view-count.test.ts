import { endpoints, OperationCode, type ReportResult } from '@dam/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, resultOf } from '../../../test/call';
import { EVERY_SCOPE, givenDepartment, givenFiles, givenUser, signInAdmin } from '../../../test/factories';
import { createTestApp, get, signIn, type TestApp } from '../../../test/harness';

/**
 * Issue 39 item 3: opening a file in the viewer is a view the data report counts (FILE13, written
 * by the server with the view count), once per opening: a refetch of the same opening (the viewer's
 * key sent again) counts nothing, opening the file again counts again.
 */
describe('views counted once per opening', () => {
  let t: TestApp;
  let root: string;
  let viewer: { id: number; token: string };
  let deptId: number;
  const day = { startDate: '2026-01-05', endDate: '2026-01-05' } as const;

  beforeAll(async () => {
    t = await createTestApp({ LOGIN_RATE_LIMIT: '1000', SESSION_IDLE_HOURS: '720' });
    root = await signInAdmin(t);
    deptId = (await givenDepartment(t, { name: 'Viewers', token: root })).id;
    const u = await givenUser(t.database, { deptId, scopes: EVERY_SCOPE });
    viewer = { id: u.id, token: await signIn(t.app, u.email, u.password) };
  });
  afterAll(() => t.close());

  const open = (id: number, opening?: string) =>
    get(t.app, `/ske-api/v1_0/file/detail?id=${id}${opening ? `&opening=${opening}` : ''}`, {
      token: viewer.token,
      lang: 'en',
    });
  const report = (dimension: 'user' | 'fileType'): Promise<ReportResult> =>
    call(t.app, endpoints.dataReport, { token: root, body: { ...day, dimension } });
  const viewLogs = (itemId: number) =>
    t.database.db
      .selectFrom('operation_logs')
      .select(['operator_id', 'new_value', 'item_names', 'reported'])
      .where('operator_code', '=', OperationCode.view)
      .where(({ eb, val }) => eb(val(itemId), '=', eb.fn.any('item_ids')))
      .execute();

  it('counts two openings as two views in the report; a refetch of one opening adds none', async () => {
    const [id] = (await givenFiles(t, root, [
      { fileName: 'VIEWCOUNT1.jpg', bytes: Buffer.alloc(200, 3) },
    ])) as [number];
    const first = await open(id, 'opening-one-1');
    expect(first.status).toBe(200);
    expect(resultOf(endpoints.fileDetail, first.body).viewCount).toBe(1);
    // The same opening fetched again (after an edit, "check again"): the same count, no entry.
    const refetch = resultOf(endpoints.fileDetail, (await open(id, 'opening-one-1')).body);
    expect(refetch.viewCount).toBe(1);
    expect(resultOf(endpoints.fileDetail, (await open(id, 'opening-two-2')).body).viewCount).toBe(2);
    expect(resultOf(endpoints.fileDetail, (await open(id, 'opening-two-2')).body).viewCount).toBe(2);

    const logs = await viewLogs(id);
    expect(logs).toEqual([
      { operator_id: viewer.id, new_value: 'jpg', item_names: ['VIEWCOUNT1'], reported: false },
      { operator_id: viewer.id, new_value: 'jpg', item_names: ['VIEWCOUNT1'], reported: false },
    ]);
    const people = await report('user');
    expect(people.rows.find((r) => r.key === String(viewer.id))).toMatchObject({ views: 2 });
    expect((await report('fileType')).rows.find((r) => r.key === 'image')).toMatchObject({ views: 2 });
    const item = await t.database.db
      .selectFrom('items')
      .select('view_count')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(item.view_count).toBe(2);
    // Recent views still has the file.
    const recent = await call(t.app, endpoints.recentFiles, { token: viewer.token });
    expect(recent.list[0]?.id).toBe(id);
  });

  it('refuses a malformed opening key and counts nothing', async () => {
    const [id] = (await givenFiles(t, root, [
      { fileName: 'VIEWCOUNT2.jpg', bytes: Buffer.alloc(90, 4) },
    ])) as [number];
    const bad = await open(id, encodeURIComponent("x' OR 1=1 --"));
    expect(bad.status).toBe(400);
    expect(await viewLogs(id)).toEqual([]);
    // A caller that names no opening (an older client) counts each call, as before.
    await open(id);
    await open(id);
    expect(await viewLogs(id)).toHaveLength(2);
  });
});
