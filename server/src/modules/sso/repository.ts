import { UserStatus } from '@dam/contract';
import type { Db } from '../../db/database';

export interface NewSsoAttempt {
  stateHash: string;
  nonce: string;
  codeVerifier: string;
  browserHash: string;
  redirect: string;
  now: Date;
  expiresAt: Date;
}

/** SQL of single sign-on: sign-ins under way, provider identities of accounts, SSO sessions. */
export class SsoRepository {
  constructor(private readonly db: Db) {}

  /** Records a sign-in sent to the provider, and drops those that ran out unused. */
  async saveAttempt(attempt: NewSsoAttempt): Promise<void> {
    await this.db.deleteFrom('sso_attempts').where('expires_at', '<=', attempt.now).execute();
    await this.db
      .insertInto('sso_attempts')
      .values({
        state_hash: attempt.stateHash,
        nonce: attempt.nonce,
        code_verifier: attempt.codeVerifier,
        browser_hash: attempt.browserHash,
        redirect: attempt.redirect,
        created_at: attempt.now,
        expires_at: attempt.expiresAt,
      })
      .execute();
  }

  findAttempt(stateHash: string) {
    return this.db
      .selectFrom('sso_attempts')
      .selectAll()
      .where('state_hash', '=', stateHash)
      .executeTakeFirst();
  }

  /** Removes the attempt; true for the one caller that removed it (any process), false for the rest. */
  async takeAttempt(stateHash: string): Promise<boolean> {
    const taken = await this.db
      .deleteFrom('sso_attempts')
      .where('state_hash', '=', stateHash)
      .returning('state_hash')
      .executeTakeFirst();
    return taken !== undefined;
  }

  /** The live account bound to a provider identity (`issuer subject`). */
  findLiveUserBySubject(subject: string) {
    return this.db
      .selectFrom('users')
      .selectAll()
      .where('sso_subject', '=', subject)
      .where('status', '<>', UserStatus.deleted)
      .executeTakeFirst();
  }

  /**
   * The most recently deleted account that had this provider identity, e-mail address or mobile
   * number: a person an administrator removed is refused, not signed up again.
   */
  findDeletedUser(match: { subject: string; email: string | null; mobile: string | null }) {
    return this.db
      .selectFrom('users')
      .selectAll()
      .where('status', '=', UserStatus.deleted)
      .where((eb) =>
        eb.or([
          eb('sso_subject', '=', match.subject),
          ...(match.email ? [eb(eb.fn('lower', ['email']), '=', match.email.toLowerCase())] : []),
          ...(match.mobile ? [eb('mobile', '=', match.mobile)] : []),
        ]),
      )
      .orderBy('updated_at', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirst();
  }

  /** Binds an account to a provider identity. */
  async bindSubject(userId: number, subject: string): Promise<void> {
    await this.db.updateTable('users').set({ sso_subject: subject }).where('id', '=', userId).execute();
  }

  /** Remembers how the session of `tokenHash` is ended at the provider. */
  async recordSession(tokenHash: string, logoutUrl: string): Promise<void> {
    await this.db
      .insertInto('sso_sessions')
      .columns(['session_id', 'logout_url'])
      .expression((eb) =>
        eb
          .selectFrom('sessions')
          .select(['sessions.id', eb.val(logoutUrl).as('logout_url')])
          .where('sessions.token_hash', '=', tokenHash),
      )
      .execute();
  }

  async logoutUrlOf(sessionId: number): Promise<string | null> {
    const row = await this.db
      .selectFrom('sso_sessions')
      .select('logout_url')
      .where('session_id', '=', sessionId)
      .executeTakeFirst();
    return row?.logout_url ?? null;
  }
}
