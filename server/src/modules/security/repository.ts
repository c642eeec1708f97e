import { UserStatus } from '@dam/contract';
import type { Db } from '../../db/database';

/** SQL of sign-in, sessions and the current user. The only place this feature touches the database. */
export class SecurityRepository {
  constructor(private readonly db: Db) {}

  findLiveUserByEmail(email: string) {
    return this.db
      .selectFrom('users')
      .selectAll()
      .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
      .where('status', '<>', UserStatus.deleted)
      .executeTakeFirst();
  }

  findLiveUserByMobile(mobile: string) {
    return this.db
      .selectFrom('users')
      .selectAll()
      .where('mobile', '=', mobile)
      .where('status', '<>', UserStatus.deleted)
      .executeTakeFirst();
  }

  findUserWithDepartment(userId: number) {
    return this.db
      .selectFrom('users')
      .leftJoin('departments', 'departments.id', 'users.dept_id')
      .selectAll('users')
      .select(['departments.name as dept_name', 'departments.path as dept_path'])
      .where('users.id', '=', userId)
      .executeTakeFirst();
  }

  async recordSignIn(
    userId: number,
    session: {
      tokenHash: string;
      remember: boolean;
      now: Date;
      expiresAt: Date;
      ip: string | null;
      userAgent: string | null;
    },
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('sessions')
        .values({
          token_hash: session.tokenHash,
          user_id: userId,
          remember: session.remember,
          created_at: session.now,
          expires_at: session.expiresAt,
          last_seen_at: session.now,
          ip: session.ip,
          user_agent: session.userAgent,
        })
        .execute();
      await trx
        .updateTable('users')
        .set((eb) => ({ login_count: eb('login_count', '+', 1), last_login_at: session.now }))
        .where('id', '=', userId)
        .execute();
    });
  }

  /** The live session of a token together with its live user, or undefined. */
  findLiveSession(by: { tokenHash: string } | { sessionId: number }, now: Date) {
    return this.db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .leftJoin('departments', 'departments.id', 'users.dept_id')
      .select([
        'sessions.id as session_id',
        'sessions.remember',
        'sessions.expires_at',
        'sessions.last_seen_at',
        'users.id as user_id',
        'users.dept_id',
        'users.must_change_password',
        'users.password_changed_at',
        'departments.path as dept_path',
      ])
      .where((eb) =>
        'tokenHash' in by
          ? eb('sessions.token_hash', '=', by.tokenHash)
          : eb('sessions.id', '=', by.sessionId),
      )
      .where('sessions.expires_at', '>', now)
      .where('users.status', '=', UserStatus.normal)
      .executeTakeFirst();
  }

  async extendSession(sessionId: number, now: Date, expiresAt: Date): Promise<void> {
    await this.db
      .updateTable('sessions')
      .set({ last_seen_at: now, expires_at: expiresAt })
      .where('id', '=', sessionId)
      .execute();
  }

  async deleteSession(sessionId: number): Promise<void> {
    await this.db.deleteFrom('sessions').where('id', '=', sessionId).execute();
  }

  async deleteExpiredSessions(now: Date): Promise<number> {
    const result = await this.db.deleteFrom('sessions').where('expires_at', '<=', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Stores the new password and ends every session of the user, in one transaction. */
  async replacePassword(userId: number, passwordHash: string, now: Date): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('users')
        .set({
          password_hash: passwordHash,
          password_changed_at: now,
          must_change_password: false,
          updated_at: now,
        })
        .where('id', '=', userId)
        .execute();
      await trx.deleteFrom('sessions').where('user_id', '=', userId).execute();
    });
  }

  /** Every role with the number of live users holding it directly. */
  async listRoles() {
    const rows = await this.db
      .selectFrom('roles')
      .selectAll('roles')
      .select((eb) =>
        eb
          .selectFrom('user_roles')
          .innerJoin('users', 'users.id', 'user_roles.user_id')
          .whereRef('user_roles.role_id', '=', 'roles.id')
          .where('users.status', '=', UserStatus.normal)
          .select((sub) => sub.fn.countAll<string>().as('n'))
          .as('user_count'),
      )
      .orderBy('roles.id')
      .execute();
    return rows.map((row) => ({ ...row, user_count: Number(row.user_count ?? 0) }));
  }
}
