import { type Kysely, sql } from 'kysely';

/**
 * Upload mail notices (issue 14): one per upload batch, sent once the batch has finished and its
 * delay has passed. A mail of the outbox may carry attachments (the notice's thumbnails, inline),
 * named by storage key and read at delivery, so the outbox row stays small.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE mail_notices (
      id serial PRIMARY KEY,
      batch_num text NOT NULL UNIQUE,
      user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      mail_group_ids integer[] NOT NULL DEFAULT '{}',
      user_ids integer[] NOT NULL DEFAULT '{}',
      subject text NOT NULL DEFAULT '',
      content text NOT NULL DEFAULT '',
      remark text NOT NULL DEFAULT '',
      delay_hours integer NOT NULL CHECK (delay_hours >= 0),
      -- the mails are written in the sender's language (users keep no language of their own)
      language text NOT NULL DEFAULT 'zh',
      -- scheduled until dispatched; then the mails' own states tell how it went
      state text NOT NULL DEFAULT 'scheduled' CHECK (state IN ('scheduled', 'dispatched')),
      recipients integer NOT NULL DEFAULT 0,
      mail_ids integer[] NOT NULL DEFAULT '{}',
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      dispatched_at timestamptz
    )`.execute(db);
  await sql`CREATE INDEX mail_notices_scheduled ON mail_notices (created_at) WHERE state = 'scheduled'`.execute(
    db,
  );
  await sql`ALTER TABLE mails ADD COLUMN attachments jsonb NOT NULL DEFAULT '[]'`.execute(db);
}
