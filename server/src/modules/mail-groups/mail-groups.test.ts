import {
  type EditMailGroupRequest,
  endpoints,
  type FunctionCode,
  type LogEntry,
  MAIL_GROUP_MAX_USERS,
  type MailGroupInput,
  OperationCode,
} from '@dam/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attempt, call } from '../../../test/call';
import {
  EVERY_SCOPE,
  givenDepartment,
  givenSignedInUser,
  givenUser,
  signInAdmin,
  uniqueName,
} from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/harness';
import { MailGroupsRepository } from './repository';

const DEPT_SCOPES = { view: 'dept', upload: 'dept', download: 'dept', share: 'dept' } as const;
const MAIL: FunctionCode[] = [1];

/**
 * Mail groups (issue 14): made, changed and deleted by holders of function code 1 within their
 * department subtree, listed for sending by everyone on the department's line, and logged.
 */
describe('mail groups', () => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await createTestApp({ LOGIN_RATE_LIMIT: '1000' });
    admin = await signInAdmin(t);
  });
  afterAll(() => t.close());

  /** A name of at most 20 characters no other test uses. */
  const groupName = (prefix = 'G') => uniqueName(prefix).slice(0, 20);

  const create = (token: string, body: MailGroupInput) =>
    call(t.app, endpoints.createMailGroup, { token, body });
  const detail = (token: string, id: number) =>
    call(t.app, endpoints.mailGroupDetail, { token, query: { id } });
  const listed = async (token: string, keyword: string) =>
    (await call(t.app, endpoints.manageMailGroups, { token, query: { keyword } })).list;
  const logged = async (code: OperationCode, groupId: number, lang: 'zh' | 'en' = 'en') =>
    (
      await call(t.app, endpoints.operationLog, {
        token: admin,
        lang,
        body: { operatorCodes: [code], pageSize: 100 },
      })
    ).list.filter((entry: LogEntry) => entry.details.mailGroupId === groupId);

  it('creates, shows, edits and deletes a group, each logged', async () => {
    const dept = await givenDepartment(t);
    const ann = await givenUser(t.database, { deptId: dept.id });
    const bob = await givenUser(t.database, { deptId: dept.id });
    const name = groupName('Design');
    const { id } = await create(admin, {
      mailGroupName: ` ${name} `,
      userIdList: [ann.id, bob.id, ann.id],
      externalEmails: ['Agency@Example.com', 'agency@example.com '],
    });

    const made = await detail(admin, id);
    expect(made).toMatchObject({ id, mailGroupName: name, memberCount: 3 });
    expect(made.members.map((m) => m.userId).sort()).toEqual([ann.id, bob.id].sort());
    expect(made.members.find((m) => m.userId === ann.id)?.email).toBe(ann.email);
    expect(made.externalEmails).toEqual(['agency@example.com']);

    const [summary] = await listed(admin, name);
    expect(summary).toMatchObject({ id, mailGroupName: name, memberCount: 3, checked: false });
    expect(summary?.members).toHaveLength(3);
    expect(summary?.members.at(-1)).toBe('agency@example.com');

    const renamed = groupName('Studio');
    const edit: EditMailGroupRequest = {
      id,
      mailGroupName: renamed,
      userIdList: [bob.id],
      externalEmails: ['agency@example.com', 'print@example.com'],
    };
    expect(await call(t.app, endpoints.editMailGroup, { token: admin, body: edit })).toBeNull();
    const changed = await detail(admin, id);
    expect(changed).toMatchObject({ mailGroupName: renamed, memberCount: 3 });
    expect(changed.members.map((m) => m.userId)).toEqual([bob.id]);
    expect(changed.externalEmails).toEqual(['agency@example.com', 'print@example.com']);

    expect(await call(t.app, endpoints.deleteMailGroup, { token: admin, body: { id } })).toBeNull();
    expect((await attempt(t.app, endpoints.mailGroupDetail, { token: admin, query: { id } })).errorCode).toBe(
      'SE_404',
    );
    expect(await listed(admin, renamed)).toEqual([]);
    const rows = await t.database.db
      .selectFrom('mail_group_users')
      .select('user_id')
      .where('group_id', '=', id)
      .execute();
    expect(rows).toEqual([]);

    const [created] = await logged(OperationCode.createMailGroup, id);
    expect(created).toMatchObject({ operationName: 'Create mail group', newValue: name });
    expect(created?.details.values).toMatchObject({ memberCount: 3, externalEmails: ['agency@example.com'] });
    const [edited] = await logged(OperationCode.editMailGroup, id);
    expect(edited?.details).toMatchObject({
      changes: { name: [name, renamed] },
      removed: { members: [expect.stringMatching(/^Test User/)], externalEmails: [] },
      added: { members: [], externalEmails: ['print@example.com'] },
    });
    const annName = made.members.find((m) => m.userId === ann.id)?.name;
    expect(edited?.content).toBe(
      `mail group: ${renamed}, name: ${name} → ${renamed}; members removed: ${annName}; addresses added: print@example.com`,
    );
    const [editedZh] = await logged(OperationCode.editMailGroup, id, 'zh');
    expect(editedZh?.content).toContain('新增外部邮箱：print@example.com');
    const [deleted] = await logged(OperationCode.deleteMailGroup, id);
    expect(deleted).toMatchObject({ operationName: 'Delete mail group' });
    expect(deleted?.details).toMatchObject({ mailGroupName: renamed, values: { memberCount: 3 } });
  });

  it('refuses a name of 21 characters, a blank one and a group without members', async () => {
    const user = await givenUser(t.database);
    const refused = await attempt(t.app, endpoints.createMailGroup, {
      token: admin,
      lang: 'en',
      body: { mailGroupName: 'x'.repeat(21), userIdList: [user.id] },
    });
    expect(refused).toMatchObject({ status: 400, errorCode: 'SE_400' });
    expect(refused.errorDesc).toContain('mailGroupName: must be at most 20 characters');
    const twenty = `${uniqueName('n')}${'x'.repeat(20)}`.slice(0, 20);
    expect((await create(admin, { mailGroupName: twenty, userIdList: [user.id] })).id).toBeGreaterThan(0);

    const blank = await attempt(t.app, endpoints.createMailGroup, {
      token: admin,
      lang: 'en',
      body: { mailGroupName: '   ', userIdList: [user.id] },
    });
    expect(blank.errorDesc).toContain('mailGroupName: please fill in a name');
    const empty = await attempt(t.app, endpoints.createMailGroup, {
      token: admin,
      lang: 'zh',
      body: { mailGroupName: groupName(), userIdList: [], externalEmails: [] },
    });
    expect(empty.errorDesc).toContain('userIdList: 请至少选择一位成员或填写一个邮箱地址');
  });

  it('refuses an invalid address, naming it, and keeps nothing', async () => {
    const name = groupName('Bad');
    const refused = await attempt(t.app, endpoints.createMailGroup, {
      token: admin,
      lang: 'en',
      body: { mailGroupName: name, externalEmails: ['ok@example.com', 'not-an-address@'] },
    });
    expect(refused).toMatchObject({ status: 400, errorCode: 'SE_400' });
    expect(refused.errorDesc).toBe(
      'Invalid request: externalEmails.1: "not-an-address@" is not a valid e-mail address',
    );
    const zh = await attempt(t.app, endpoints.createMailGroup, {
      token: admin,
      lang: 'zh',
      body: { mailGroupName: name, externalEmails: ['张三'] },
    });
    expect(zh.errorDesc).toContain('externalEmails.0: “张三”不是有效的邮箱地址');
    expect(await listed(admin, name)).toEqual([]);

    const { id } = await create(admin, { mailGroupName: name, externalEmails: ['ok@example.com'] });
    const edit = await attempt(t.app, endpoints.editMailGroup, {
      token: admin,
      body: { id, mailGroupName: name, externalEmails: ['ok@example.com', 'a b@example.com'] },
    });
    expect(edit.errorCode).toBe('SE_400');
    expect((await detail(admin, id)).externalEmails).toEqual(['ok@example.com']);
  });

  it('refuses a name another group has, whatever its case', async () => {
    const name = groupName('Dup');
    const first = await create(admin, { mailGroupName: name, externalEmails: ['a@example.com'] });
    const again = await attempt(t.app, endpoints.createMailGroup, {
      token: admin,
      lang: 'en',
      body: { mailGroupName: name.toUpperCase(), externalEmails: ['b@example.com'] },
    });
    expect(again).toMatchObject({
      status: 409,
      errorCode: 'SEML_01',
      errorDesc: 'A mail group with this name already exists',
    });
    const other = await create(admin, { mailGroupName: groupName('Dup'), externalEmails: ['c@example.com'] });
    const renamed = await attempt(t.app, endpoints.editMailGroup, {
      token: admin,
      body: { id: other.id, mailGroupName: name, externalEmails: ['c@example.com'] },
    });
    expect(renamed.errorCode).toBe('SEML_01');
    // Its own name, in another case, is no clash.
    await call(t.app, endpoints.editMailGroup, {
      token: admin,
      body: { id: first.id, mailGroupName: name.toUpperCase(), externalEmails: ['a@example.com'] },
    });
  });

  it('refuses every management call to someone without function code 1 (SE_502)', async () => {
    const { id } = await create(admin, { mailGroupName: groupName(), externalEmails: ['x@example.com'] });
    const dept = await givenDepartment(t);
    const other = await givenSignedInUser(t, {
      deptId: dept.id,
      functionCodes: [2, 5],
      scopes: EVERY_SCOPE,
    });
    const body = { mailGroupName: groupName(), externalEmails: ['y@example.com'] };
    const calls = [
      attempt(t.app, endpoints.manageMailGroups, { token: other.token }),
      attempt(t.app, endpoints.mailGroupDetail, { token: other.token, query: { id } }),
      attempt(t.app, endpoints.createMailGroup, { token: other.token, body }),
      attempt(t.app, endpoints.editMailGroup, { token: other.token, body: { ...body, id } }),
      attempt(t.app, endpoints.deleteMailGroup, { token: other.token, body: { id } }),
      attempt(t.app, endpoints.mailGroupDepartments, { token: other.token }),
      attempt(t.app, endpoints.mailGroupCandidates, { token: other.token, body: {} }),
    ];
    for (const answer of await Promise.all(calls))
      expect(answer).toMatchObject({ status: 403, errorCode: 'SE_502' });
    expect((await detail(admin, id)).externalEmails).toEqual(['x@example.com']);
    expect((await attempt(t.app, endpoints.manageMailGroups, {})).errorCode).toBe('SE_501');
  });

  describe('an administrator of a sub-department', () => {
    /** Root → A → A1, root → B; Ada administers A1 with code 1 and "self and below" scopes. */
    let a: number;
    let a1: number;
    let b: number;
    let ada: { id: number; token: string };
    let inA1: number;
    let inA: number;
    let inB: number;
    /** Groups made by the first administrator (root), by Ada (A1) and by someone of B. */
    let rootGroup: number;
    let adaGroup: number;
    let bGroup: number;

    beforeAll(async () => {
      a = (await givenDepartment(t)).id;
      a1 = (await givenDepartment(t, { parentId: a })).id;
      b = (await givenDepartment(t)).id;
      ada = await givenSignedInUser(t, { deptId: a1, functionCodes: MAIL, scopes: DEPT_SCOPES });
      inA1 = (await givenUser(t.database, { deptId: a1 })).id;
      inA = (await givenUser(t.database, { deptId: a })).id;
      inB = (await givenUser(t.database, { deptId: b })).id;
      const bAdmin = await givenSignedInUser(t, { deptId: b, functionCodes: MAIL, scopes: DEPT_SCOPES });
      rootGroup = (await create(admin, { mailGroupName: groupName('Root'), userIdList: [inA1, inB] })).id;
      adaGroup = (await create(ada.token, { mailGroupName: groupName('Ada'), userIdList: [inA1] })).id;
      bGroup = (await create(bAdmin.token, { mailGroupName: groupName('B'), userIdList: [inB] })).id;
    });

    it('lists, reads, edits and deletes only groups of the subtree', async () => {
      const page = await call(t.app, endpoints.manageMailGroups, {
        token: ada.token,
        query: { pageSize: 100 },
      });
      // Other tests add groups of A1 too: every one listed is of the subtree, none of the others.
      expect(page.list.map((g) => g.id)).toContain(adaGroup);
      expect(page.list.map((g) => g.id)).not.toContain(rootGroup);
      expect(page.list.map((g) => g.id)).not.toContain(bGroup);
      expect(new Set(page.list.map((g) => g.deptId))).toEqual(new Set([a1]));
      expect(page.total).toBe(page.list.length);
      expect((await detail(ada.token, adaGroup)).deptId).toBe(a1);

      for (const id of [rootGroup, bGroup]) {
        const read = await attempt(t.app, endpoints.mailGroupDetail, { token: ada.token, query: { id } });
        const unknown = await attempt(t.app, endpoints.mailGroupDetail, {
          token: ada.token,
          query: { id: 999_999 },
        });
        expect(read).toMatchObject({ status: 404, errorCode: 'SE_404', errorDesc: unknown.errorDesc });
        const edit = await attempt(t.app, endpoints.editMailGroup, {
          token: ada.token,
          body: { id, mailGroupName: groupName('Taken'), userIdList: [inA1] },
        });
        expect(edit).toMatchObject({ status: 404, errorCode: 'SE_404' });
        // Deleting answers as for a group that is gone, and deletes nothing.
        expect(await call(t.app, endpoints.deleteMailGroup, { token: ada.token, body: { id } })).toBeNull();
        expect((await detail(admin, id)).id).toBe(id);
      }
      expect(await logged(OperationCode.deleteMailGroup, rootGroup)).toEqual([]);
    });

    it('adds only users of the subtree, and keeps members already there', async () => {
      for (const outside of [inA, inB, 999_999]) {
        const made = await attempt(t.app, endpoints.createMailGroup, {
          token: ada.token,
          body: { mailGroupName: groupName('Out'), userIdList: [inA1, outside] },
        });
        expect(made).toMatchObject({ status: 404, errorCode: 'SED_02' });
        const edited = await attempt(t.app, endpoints.editMailGroup, {
          token: ada.token,
          body: { id: adaGroup, mailGroupName: groupName('Out'), userIdList: [inA1, outside] },
        });
        expect(edited.errorCode).toBe('SED_02');
      }
      expect((await detail(ada.token, adaGroup)).members.map((m) => m.userId)).toEqual([inA1]);

      // A member who moves out of the subtree stays in the group when it is saved again.
      const mover = (await givenUser(t.database, { deptId: a1 })).id;
      const name = groupName('Keep');
      const { id } = await create(ada.token, { mailGroupName: name, userIdList: [inA1, mover] });
      await t.database.db.updateTable('users').set({ dept_id: b }).where('id', '=', mover).execute();
      await call(t.app, endpoints.editMailGroup, {
        token: ada.token,
        body: { id, mailGroupName: name, userIdList: [inA1, mover] },
      });
      expect((await detail(ada.token, id)).members.map((m) => m.userId).sort()).toEqual([inA1, mover].sort());
      // …and may be removed.
      await call(t.app, endpoints.editMailGroup, {
        token: ada.token,
        body: { id, mailGroupName: name, userIdList: [inA1] },
      });
      expect((await detail(ada.token, id)).members.map((m) => m.userId)).toEqual([inA1]);
    });

    it('picks members from the departments and users of the subtree only', async () => {
      const { departments } = await call(t.app, endpoints.mailGroupDepartments, { token: ada.token });
      expect(departments.map((d) => d.id)).toEqual([a1]);
      expect(departments[0]?.parentId).toBeNull();
      const users = await call(t.app, endpoints.mailGroupCandidates, {
        token: ada.token,
        body: { pageSize: 100 },
      });
      expect(users.list.map((u) => u.userId)).toContain(inA1);
      expect(users.list.map((u) => u.userId)).not.toContain(inA);
      const outside = await attempt(t.app, endpoints.mailGroupCandidates, {
        token: ada.token,
        body: { deptId: b },
      });
      expect(outside.errorCode).toBe('SED_06');

      const all = await call(t.app, endpoints.mailGroupDepartments, { token: admin });
      expect(all.departments.map((d) => d.id)).toEqual(expect.arrayContaining([a, a1, b]));
      const inBOnly = await call(t.app, endpoints.mailGroupCandidates, {
        token: admin,
        body: { deptId: b, includeSubDepts: false, pageSize: 100 },
      });
      expect(inBOnly.list.map((u) => u.userId)).toContain(inB);
    });

    it('offers everyone the groups of their department, those above and those below', async () => {
      const memberOfA = await givenSignedInUser(t, { deptId: a });
      const usable = (token: string) => call(t.app, endpoints.mailGroupList, { token });
      const seenByA = (await usable(memberOfA.token)).map((g) => g.id);
      expect(seenByA).toEqual(expect.arrayContaining([rootGroup, adaGroup]));
      expect(seenByA).not.toContain(bGroup);
      const seenByA1 = (await usable(ada.token)).map((g) => g.id);
      expect(seenByA1).toEqual(expect.arrayContaining([rootGroup, adaGroup]));
      expect(seenByA1).not.toContain(bGroup);
      const seenByAdmin = (await usable(admin)).map((g) => g.id);
      expect(seenByAdmin).toEqual(expect.arrayContaining([rootGroup, adaGroup, bGroup]));
      const entry = (await usable(ada.token)).find((g) => g.id === adaGroup);
      expect(entry).toMatchObject({ memberCount: 1, checked: false });
      const nobody = await givenSignedInUser(t, { deptId: null });
      expect(await usable(nobody.token)).toEqual([]);
    });
  });

  it('counts only live members: a deleted user drops out', async () => {
    const dept = await givenDepartment(t);
    const stays = await givenUser(t.database, { deptId: dept.id });
    const leaves = await givenUser(t.database, { deptId: dept.id });
    const name = groupName('Live');
    const { id } = await create(admin, {
      mailGroupName: name,
      userIdList: [stays.id, leaves.id],
      externalEmails: ['guest@example.com'],
    });
    expect((await listed(admin, name))[0]?.memberCount).toBe(3);
    await call(t.app, endpoints.deleteUser, { token: admin, body: { userId: leaves.id } });
    const [summary] = await listed(admin, name);
    expect(summary?.memberCount).toBe(2);
    expect(summary?.members).toHaveLength(2);
    const shown = await detail(admin, id);
    expect(shown.members.map((m) => m.userId)).toEqual([stays.id]);
    expect(shown.memberCount).toBe(2);
  });

  it('deletes twice, or twice at once, without an error and logs one deletion', async () => {
    const { id } = await create(admin, {
      mailGroupName: groupName('Twice'),
      externalEmails: ['t@example.com'],
    });
    const answers = await Promise.all([
      attempt(t.app, endpoints.deleteMailGroup, { token: admin, body: { id } }),
      attempt(t.app, endpoints.deleteMailGroup, { token: admin, body: { id } }),
    ]);
    for (const answer of answers) expect(answer).toMatchObject({ status: 200, success: true });
    const again = await attempt(t.app, endpoints.deleteMailGroup, { token: admin, body: { id } });
    expect(again).toMatchObject({ status: 200, success: true });
    expect(await logged(OperationCode.deleteMailGroup, id)).toHaveLength(1);
    const edit = await attempt(t.app, endpoints.editMailGroup, {
      token: admin,
      body: { id, mailGroupName: groupName(), externalEmails: ['t@example.com'] },
    });
    expect(edit.errorCode).toBe('SE_404');
  });

  it('bounds the members of a group and keeps a refused save whole', async () => {
    const tooMany = Array.from({ length: MAIL_GROUP_MAX_USERS + 1 }, (_, i) => i + 1);
    const refused = await attempt(t.app, endpoints.createMailGroup, {
      token: admin,
      lang: 'en',
      body: { mailGroupName: groupName(), userIdList: tooMany },
    });
    expect(refused.errorCode).toBe('SE_400');
    expect(refused.errorDesc).toContain('userIdList: must be at most 500');
    const addresses = Array.from({ length: 101 }, (_, i) => `p${i}@example.com`);
    const many = await attempt(t.app, endpoints.createMailGroup, {
      token: admin,
      body: { mailGroupName: groupName(), externalEmails: addresses },
    });
    expect(many.errorCode).toBe('SE_400');

    // An unknown user refuses the whole save: neither the new name nor the addresses are kept.
    const user = await givenUser(t.database);
    const name = groupName('Whole');
    const { id } = await create(admin, { mailGroupName: name, userIdList: [user.id] });
    const edit = await attempt(t.app, endpoints.editMailGroup, {
      token: admin,
      body: {
        id,
        mailGroupName: groupName(),
        userIdList: [user.id, 999_999],
        externalEmails: ['n@example.com'],
      },
    });
    expect(edit.errorCode).toBe('SED_02');
    const kept = await detail(admin, id);
    expect(kept).toMatchObject({ mailGroupName: name, externalEmails: [], memberCount: 1 });
  });
});

/**
 * The administration list walks the name index and the member counts probe the primary keys, at a
 * size where the planner would rather scan if it could (PostgreSQL only: PGlite shares the planner,
 * not the scale).
 */
describe.runIf(process.env.TEST_DB === 'postgres')('mail group list plan (PostgreSQL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    const db = t.database.db;
    await sql`INSERT INTO mail_groups (name, dept_id, created_at, updated_at)
      SELECT 'plan-' || g, (SELECT id FROM departments ORDER BY id LIMIT 1), now(), now()
      FROM generate_series(1, 20000) g`.execute(db);
    await sql`INSERT INTO mail_group_addresses (group_id, email)
      SELECT id, 'a' || id || '@example.com' FROM mail_groups`.execute(db);
    await sql`ANALYZE mail_groups`.execute(db);
    await sql`ANALYZE mail_group_addresses`.execute(db);
  }, 120_000);
  afterAll(() => t?.close());

  it('pages by the name index, never sorting every group', async () => {
    const repo = new MailGroupsRepository(t.database.db);
    // Everything (the first administrator): a page of the name index. A subtree's groups are
    // found through its departments (departments_path_prefix, mail_groups_dept) and sorted: few.
    const plan = (await repo.listGroupsQuery({ kind: 'all' }, undefined, 40, 20).explain())
      .map((row) => String(Object.values(row)[0]))
      .join('\n');
    expect(plan).toContain('mail_groups_name_lower');
    expect(plan).not.toMatch(/Seq Scan on mail_groups|Sort/);
  });
});
