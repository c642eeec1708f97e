import { endpoints, LOG_PAGE_SIZE_MAX, type LogEntry, type LogListResult } from '@dam/contract';
import { expect } from 'vitest';
import { resultOf } from '../call';
import { givenUser, uploadFiles } from '../factories';
import { makeJpeg } from '../fixtures';
import { ADMIN, createTestApp, post, signIn, type TestApp } from '../harness';

/** The app of the operation-log tests: an auditor, a staff member, three files, and the log as the auditor reads it. */

const ALL_SCOPES = { view: 'all', upload: 'all', download: 'all', share: 'all' } as const;
export const MINUTE = 60_000;

export type LogsWorld = Awaited<ReturnType<typeof createLogsWorld>>;

export async function createLogsWorld() {
  const files = {} as Record<'SHOE1' | 'SHOE2' | 'SHOE3', number>;
  const t: TestApp = await createTestApp({ LOGIN_RATE_LIMIT: '1000', SESSION_IDLE_HOURS: '720' });
  const admin = await signIn(t.app, ADMIN.email, ADMIN.password);
  const db = t.database.db;
  const adminRow = await db
    .selectFrom('users')
    .select(['id', 'name'])
    .where('email', '=', ADMIN.email)
    .executeTakeFirstOrThrow();
  const adminId = adminRow.id;
  const adminName = adminRow.name;
  const rootDeptId = (
    await db.selectFrom('departments').select('id').where('parent_id', 'is', null).executeTakeFirstOrThrow()
  ).id;
  const a = await givenUser(t.database, { functionCodes: [5] });
  const auditor = { id: a.id, token: await signIn(t.app, a.email, a.password) };
  const s = await givenUser(t.database, { scopes: ALL_SCOPES, deptId: rootDeptId });
  const staffName = await db
    .selectFrom('users')
    .select('name')
    .where('id', '=', s.id)
    .executeTakeFirstOrThrow();
  const staff = { id: s.id, token: await signIn(t.app, s.email, s.password), name: staffName.name };
  const jpeg = await makeJpeg(64, 48);
  const uploads = await uploadFiles(t, admin, [
    { fileName: 'SHOE1.jpg', bytes: jpeg },
    { fileName: 'SHOE2.jpg', bytes: jpeg },
    { fileName: 'SHOE3.jpg', bytes: jpeg },
  ]);
  const rows = await db.selectFrom('uploads').select(['id', 'item_id']).where('id', 'in', uploads).execute();
  const itemOf = (id: number) => rows.find((r) => r.id === id)?.item_id as number;
  files.SHOE1 = itemOf(uploads[0] as number);
  files.SHOE2 = itemOf(uploads[1] as number);
  files.SHOE3 = itemOf(uploads[2] as number);
  /** The log as the auditor lists it. */
  async function list(filter: Record<string, unknown> = {}, lang = 'en'): Promise<LogListResult> {
    const answer = await post(t.app, '/ske-api/v1_0/operator-log/list', filter, {
      token: auditor.token,
      lang,
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return resultOf(endpoints.operationLog, answer.body);
  }
  const entriesOf = async (code: string) =>
    (await list({ operatorCodes: [code], pageSize: LOG_PAGE_SIZE_MAX })).list;
  const countOf = async (code: string) => (await list({ operatorCodes: [code], pageSize: 1 })).total;
  const totalCount = async () => (await list({ pageSize: 1 })).total;

  /** Runs `action` and returns the entries of `code` it added (newest first). */
  async function added(code: string, action: () => Promise<unknown>): Promise<LogEntry[]> {
    const before = await countOf(code);
    await action();
    const after = await entriesOf(code);
    return after.slice(0, after.length - before);
  }

  const ok200 = async (promise: Promise<{ status: number; body: unknown }>) => {
    const answer = await promise;
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer;
  };

  return {
    t,
    admin,
    adminId,
    adminName,
    rootDeptId,
    auditor,
    staff,
    files,
    jpeg,
    list,
    entriesOf,
    countOf,
    totalCount,
    added,
    ok200,
  };
}
