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
    await this.db.transaction().execute((trx) => replacePasswordIn(trx, userId, passwordHash, now));
  }

  /**
   * Keeps a new single-use token of a mailed link for the user; the user's earlier unused tokens of
   * the same purpose stop working (only the newest link works).
   */
  async replaceAccountToken(token: {
    tokenHash: string;
    purpose: 'resetPassword' | 'changeEmail';
    userId: number;
    newEmail: string | null;
    now: Date;
    expiresAt: Date;
  }): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .deleteFrom('account_tokens')
        .where('user_id', '=', token.userId)
        .where('purpose', '=', token.purpose)
        .where('used_at', 'is', null)
        .execute();
      await trx
        .insertInto('account_tokens')
        .values({
          token_hash: token.tokenHash,
          purpose: token.purpose,
          user_id: token.userId,
          new_email: token.newEmail,
          created_at: token.now,
          expires_at: token.expiresAt,
        })
        .execute();
      // Tokens long over are swept as new ones are made.
      await trx
        .deleteFrom('account_tokens')
        .where('expires_at', '<', new Date(token.now.getTime() - 7 * 86_400_000))
        .execute();
    });
  }

  /**
   * Sets a new password with a reset link's token, in one transaction: the token is used up (a
   * token used, late or unknown changes nothing and answers undefined), the password replaced and
   * every session of the account ended. Answers the account.
   */
  async resetPasswordWithToken(
    tokenHash: string,
    passwordHash: string,
    now: Date,
  ): Promise<number | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const token = await trx
        .updateTable('account_tokens')
        .set({ used_at: now })
        .where('token_hash', '=', tokenHash)
        .where('purpose', '=', 'resetPassword')
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .where((eb) =>
          eb.exists(
            eb
              .selectFrom('users')
              .whereRef('users.id', '=', 'account_tokens.user_id')
              .where('users.status', '=', UserStatus.normal)
              .select('users.id'),
          ),
        )
        .returning('user_id')
        .executeTakeFirst();
      if (!token) return undefined;
      await replacePasswordIn(trx, token.user_id, passwordHash, now);
      return token.user_id;
    });
  }

  /**
   * Confirms a change of e-mail address with a mailed link's token, in one transaction: the token is
   * used up and the address set (a taken one throws 23505 and uses nothing up). Answers the account,
   * or undefined for a token used, late or unknown.
   */
  async confirmEmailWithToken(tokenHash: string, now: Date): Promise<number | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const token = await trx
        .updateTable('account_tokens')
        .set({ used_at: now })
        .where('token_hash', '=', tokenHash)
        .where('purpose', '=', 'changeEmail')
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .returning(['user_id', 'new_email'])
        .executeTakeFirst();
      if (!token?.new_email) return undefined;
      const updated = await trx
        .updateTable('users')
        .set({ email: token.new_email, updated_at: now })
        .where('id', '=', token.user_id)
        .where('status', '=', UserStatus.normal)
        .executeTakeFirst();
      return updated.numUpdatedRows > 0n ? token.user_id : undefined;
    });
  }

  /** A live account other than `userId` that has this e-mail address (any case). */
  async emailTakenByOther(email: string, userId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('users')
      .select('id')
      .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
      .where('status', '<>', UserStatus.deleted)
      .where('id', '<>', userId)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Sets the user's mobile number (unique among live accounts: a taken one throws 23505). */
  async setMobile(userId: number, mobile: string, now: Date): Promise<void> {
    await this.db.updateTable('users').set({ mobile, updated_at: now }).where('id', '=', userId).execute();
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

async function replacePasswordIn(trx: Db, userId: number, passwordHash: string, now: Date): Promise<void> {
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
}
