import { type Kysely, sql } from 'kysely';

/**
 * Mail sent by the product (an outbox the mail job delivers from, keeping the final state the
 * sender can see), SMS verification codes, and the single-use tokens of mailed links (password
 * reset, e-mail change). Codes and tokens are stored as hashes only.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE mails (
      id serial PRIMARY KEY,
      -- what the mail is for: 'resetPassword', 'changeEmail', 'uploadNotice'…
      purpose text NOT NULL,
      recipient text NOT NULL,
      language text NOT NULL,
      subject text NOT NULL,
      text_body text NOT NULL,
      html_body text NOT NULL,
      state text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'sent', 'failed')),
      attempts integer NOT NULL DEFAULT 0,
      last_error text,
      -- who caused it (null: nobody signed in, e.g. a forgotten password)
      created_by integer REFERENCES users (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL,
      sent_at timestamptz
    )`.execute(db);
  await sql`CREATE INDEX mails_created_by ON mails (created_by, id DESC)`.execute(db);
  await sql`CREATE INDEX mails_queued ON mails (created_at) WHERE state = 'queued'`.execute(db);

  await sql`
    CREATE TABLE sms_codes (
      -- one live code per number and purpose: a new one replaces the last
      mobile text NOT NULL,
      purpose text NOT NULL CHECK (purpose IN ('signIn', 'resetPassword', 'changeMobile')),
      -- the account asking, for a change of its own number
      user_id integer REFERENCES users (id) ON DELETE CASCADE,
      code_hash text NOT NULL,
      failed_attempts integer NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      PRIMARY KEY (mobile, purpose)
    )`.execute(db);
  await sql`CREATE INDEX sms_codes_expires ON sms_codes (expires_at)`.execute(db);

  await sql`
    CREATE TABLE account_tokens (
      token_hash text PRIMARY KEY,
      purpose text NOT NULL CHECK (purpose IN ('resetPassword', 'changeEmail')),
      user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      -- the address being confirmed, for 'changeEmail'
      new_email text,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      used_at timestamptz
    )`.execute(db);
  await sql`CREATE INDEX account_tokens_user ON account_tokens (user_id, purpose)`.execute(db);
  await sql`CREATE INDEX account_tokens_expires ON account_tokens (expires_at)`.execute(db);
}
