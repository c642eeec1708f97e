import { endpoints, PASSWORD_PATTERN, type UserListResult } from '@dam/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, post } from '../../../test/harness';
import { type AccountsWorld, createAccountsWorld } from '../../../test/scenarios/accounts';
import { AppError } from '../../http/app-error';
import { translateUniqueViolation } from './checks';

describe('accounts administration', () => {
  let w: AccountsWorld;
  beforeAll(async () => {
    w = await createAccountsWorld();
  });
  afterAll(() => w.t.close());

  describe('users', () => {
    let deptId: number;
    beforeAll(async () => {
      deptId = await w.createDept('People');
    });

    it('creates a user with a generated password that must be changed at first sign-in', async () => {
      const roleId = await w.createRole('New starters', [4]);
      const created = await w.succeed(endpoints.createUser, {
        name: ' New Person ',
        email: ' New.Person@Example.com ',
        mobile: '13900000001',
        username: 'new.person',
        deptId,
        roleIdList: [roleId],
      });
      expect(created.password).toMatch(PASSWORD_PATTERN);
      expect(created.password).toHaveLength(16);
      const row = await w.t.database.db
        .selectFrom('users')
        .selectAll()
        .where('id', '=', created.id)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ email: 'new.person@example.com', must_change_password: true, status: 1 });
      expect(row.password_hash).toMatch(/^\$argon2id\$/);
      expect(row.password_changed_at.toISOString()).toBe(w.t.clock.now().toISOString());

      const login = await post(w.t.app, '/security-api/login', {
        userName: 'NEW.PERSON@example.com',
        password: created.password,
      });
      expect(login.status).toBe(200);
      expect(login.body.result).toMatchObject({ passwordExpireFlag: true });

      expect(await w.succeed(endpoints.userDetail, { userId: created.id })).toEqual({
        id: created.id,
        username: 'new.person',
        email: 'new.person@example.com',
        mobile: '13900000001',
        name: 'New Person',
        portrait: null,
        deptId,
        deptName: 'People',
        roleList: [{ id: roleId, name: 'New starters' }],
        roleIdList: [roleId],
        status: 1,
        loginNum: 1,
        lastLoginAt: w.t.clock.now().toISOString(),
        createdAt: w.t.clock.now().toISOString(),
      });
    });

    it('refuses taken identifiers, unknown departments and roles, changing nothing', async () => {
      await w.succeed(endpoints.createUser, {
        name: 'Taken',
        email: 'taken@example.com',
        mobile: '13900000002',
        username: 'Taken.One',
        deptId,
      });
      const base = { name: 'Other', deptId };
      await w.refused('create-user', { ...base, email: 'TAKEN@example.com' }, 'SED_07');
      await w.refused('create-user', { ...base, email: ADMIN.email.toUpperCase() }, 'SED_07');
      await w.refused('create-user', { ...base, mobile: '13900000002' }, 'SED_08');
      await w.refused('create-user', { ...base, mobile: '13900000003', username: 'taken.ONE' }, 'SEAC_07');
      await w.refused('create-user', { ...base, email: 'free@example.com', deptId: 999_999 }, 'SED_06');
      await w.refused('create-user', { ...base, email: 'free@example.com', roleIdList: [999_999] }, 'SED_05');
    });

    it('answers a unique violation that slips past the checks with its code, not SE_500', async () => {
      const db = w.t.database.db;
      const insert = (values: { email?: string; mobile?: string; username?: string }) => () =>
        db
          .insertInto('users')
          .values({ name: 'Racer', ...values })
          .execute();
      await insert({ email: 'racer@example.com', mobile: '13900000077', username: 'racer' })();
      for (const [values, code] of [
        [{ email: 'RACER@example.com' }, 'SED_07'],
        [{ mobile: '13900000077' }, 'SED_08'],
        [{ username: 'Racer' }, 'SEAC_07'],
      ] as const) {
        const error = await translateUniqueViolation(insert(values)).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(AppError);
        expect((error as AppError).code).toBe(code);
      }
      // A role name taken in another case (the test's own role, not one another test made).
      const insertRole = (name: string) =>
        db
          .insertInto('roles')
          .values({
            name,
            view_scope: 'none',
            upload_scope: 'none',
            download_scope: 'none',
            share_scope: 'none',
            function_codes: [],
          })
          .execute();
      await insertRole('Racing crew');
      const role = await translateUniqueViolation(() => insertRole('RACING CREW')).catch((e: unknown) => e);
      expect(role).toBeInstanceOf(AppError);
      expect((role as AppError).code).toBe('SEAC_06');
    });

    it('names the invalid field in the language asked for', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ email: 'not-an-address' }, 'email: is not a valid e-mail address'],
        [{ email: '', mobile: '' }, 'email: fill in an e-mail address or a phone number'],
        [{ email: 'ok@example.com', username: 'Editor' }, 'username: cannot be admin or editor'],
        [{ email: 'ok@example.com', username: 'two words' }, 'username: may contain only'],
        [{ mobile: '123' }, 'mobile:'],
        [{ email: 'ok@example.com', name: '' }, 'name:'],
      ];
      for (const [fields, text] of cases) {
        const response = await w.refused('create-user', { name: 'Someone', deptId, ...fields }, 'SE_400');
        expect(response.body.errorDesc).toContain(text);
      }
      const zh = await w.call('create-user', { name: 'Someone', deptId, email: 'bad' }, w.admin, 'zh');
      expect(zh.body.errorDesc).toBe('参数错误：email: 邮箱格式不正确');
    });

    it('lists live users of a department subtree by name, with a keyword and pages', async () => {
      const list = await w.createDept('List dept');
      const below = await w.createDept('List below', list);
      const make = async (name: string, dept: number, extra: Record<string, unknown> = {}) =>
        (
          await w.succeed(endpoints.createUser, {
            name,
            email: `${name.toLowerCase()}.list@example.com`,
            deptId: dept,
            ...extra,
          })
        ).id;
      const roleId = await w.createRole('Listed role', [1]);
      await make('Lena', list, { roleIdList: [roleId] });
      await make('karl', list, { mobile: '13912345678' });
      const otto = await make('Otto', list);
      await make('Anna', below);
      await make('Bert', below);
      await w.succeed(endpoints.deleteUser, { userId: otto });

      const page = (body: Record<string, unknown>) => w.succeed(endpoints.userList, body);
      const names = (result: UserListResult) => result.list.map((u) => u.name);
      const all = await page({ deptId: list });
      expect(names(all)).toEqual(['Anna', 'Bert', 'karl', 'Lena']);
      expect(all).toMatchObject({ total: 4, pageNo: 1, pageSize: 20 });
      expect(all.list.find((u) => u.name === 'Lena')).toMatchObject({
        deptName: 'List dept',
        roleList: [{ id: roleId, name: 'Listed role' }],
      });
      expect(names(await page({ deptId: list, includeSubDepts: false }))).toEqual(['karl', 'Lena']);
      expect(names(await page({ deptId: list, keyword: 'ANN' }))).toEqual(['Anna']);
      expect(names(await page({ deptId: list, keyword: '912345' }))).toEqual(['karl']);
      expect(names(await page({ deptId: list, keyword: 'bert.list@' }))).toEqual(['Bert']);
      expect(names(await page({ deptId: list, keyword: '%' }))).toEqual([]);
      const second = await page({ deptId: list, pageNo: 2, pageSize: 3 });
      expect(names(second)).toEqual(['Lena']);
      expect(second.total).toBe(4);
      const everyone = await page({ pageSize: 100 });
      expect(everyone.total).toBeGreaterThan(4);
      expect(names(everyone)).not.toContain('Otto');
      await w.refused('user-list', { deptId: 999_999 }, 'SED_06');
      await w.refused('user-list', { pageSize: 101 }, 'SE_400');
    });
  });
});
