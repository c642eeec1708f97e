import { sql } from 'kysely';
import type { Db } from '../../db/database';
import type { ScopeColumn } from '../../db/schema';

export interface NewDepartment {
  name: string;
  parentId: number | null;
}

export interface NewRole {
  name: string;
  scopes: Record<'view' | 'upload' | 'download' | 'share', ScopeColumn>;
  functionCodes: number[];
  isSystem?: boolean;
}

export interface NewAccount {
  name: string;
  email: string | null;
  mobile: string | null;
  username: string | null;
  deptId: number | null;
  passwordHash: string;
  mustChangePassword: boolean;
  roleIds: number[];
}

/** SQL of departments, roles and users. */
export class AccountsRepository {
  constructor(private readonly db: Db) {}

  /**
   * Runs `work` once across every process sharing the database: a transaction-scoped advisory
   * lock keeps two servers starting together from both seeding the first administrator.
   */
  withStartupLock<T>(work: (repo: AccountsRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(async (trx) => {
      await sql`SELECT pg_advisory_xact_lock(727001)`.execute(trx);
      return work(new AccountsRepository(trx));
    });
  }

  async countUsers(): Promise<number> {
    const row = await this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async createDepartment(dept: NewDepartment): Promise<{ id: number; path: string }> {
    const parent = dept.parentId
      ? await this.db
          .selectFrom('departments')
          .select('path')
          .where('id', '=', dept.parentId)
          .executeTakeFirstOrThrow()
      : null;
    // The path needs the new id, so insert with a placeholder and set it in the same transaction.
    const { id } = await this.db
      .insertInto('departments')
      .values({ name: dept.name, parent_id: dept.parentId, path: `/pending-${crypto.randomUUID()}/` })
      .returning('id')
      .executeTakeFirstOrThrow();
    const path = `${parent?.path ?? '/'}${id}/`;
    await this.db.updateTable('departments').set({ path }).where('id', '=', id).execute();
    return { id, path };
  }

  async createRole(role: NewRole): Promise<number> {
    const { id } = await this.db
      .insertInto('roles')
      .values({
        name: role.name,
        view_scope: role.scopes.view,
        upload_scope: role.scopes.upload,
        download_scope: role.scopes.download,
        share_scope: role.scopes.share,
        function_codes: role.functionCodes,
        is_system: role.isSystem ?? false,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return id;
  }

  async createAccount(account: NewAccount): Promise<number> {
    const { id } = await this.db
      .insertInto('users')
      .values({
        name: account.name,
        email: account.email?.toLowerCase() ?? null,
        mobile: account.mobile,
        username: account.username,
        dept_id: account.deptId,
        password_hash: account.passwordHash,
        must_change_password: account.mustChangePassword,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (account.roleIds.length > 0) {
      await this.db
        .insertInto('user_roles')
        .values(account.roleIds.map((role_id) => ({ user_id: id, role_id })))
        .execute();
    }
    return id;
  }
}
