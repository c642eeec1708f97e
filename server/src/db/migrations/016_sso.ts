import { type Kysely, sql } from 'kysely';

/**
 * Company single sign-on (issue 13): the sign-ins under way at the provider, the provider
 * identity an account is bound to, and how a session that came from the provider is ended there.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // One row per sign-in sent to the provider, keyed by a hash of its `state`: any process can
  // finish it, and taking the row (DELETE … RETURNING) makes a state usable once.
  await sql`
    CREATE TABLE sso_attempts (
      state_hash text PRIMARY KEY,
      nonce text NOT NULL,
      code_verifier text NOT NULL,
      -- hash of the cookie of the browser that started it: only that browser may finish it
      browser_hash text NOT NULL,
      -- the page of the app to open afterwards
      redirect text NOT NULL,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX sso_attempts_expires ON sso_attempts (expires_at)`.execute(db);

  // The provider identity (issuer and subject) an account was first matched to: it finds the
  // account again even when its e-mail or mobile changes at the provider.
  await sql`ALTER TABLE users ADD COLUMN sso_subject text`.execute(db);
  await sql`CREATE UNIQUE INDEX users_sso_subject_live ON users (sso_subject) WHERE status <> 0 AND sso_subject IS NOT NULL`.execute(
    db,
  );

  // The provider's end-session address of a session opened by single sign-on (with its
  // id_token_hint): sign-out answers it without calling the provider. Goes with the session.
  await sql`
    CREATE TABLE sso_sessions (
      session_id integer PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
      logout_url text NOT NULL
    )`.execute(db);
}
