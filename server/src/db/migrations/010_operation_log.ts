import { type Kysely, sql } from 'kysely';

/**
 * The operation log (SPEC §2 /manage/log, §3 Operation log): one row per operation, written once
 * and never changed. Names are copied as they were at the time (an operator renamed or an item
 * deleted later does not change the past), so no foreign keys tie the log to the tables it tells
 * about: it outlives whatever it mentions.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
  await sql`
    CREATE TABLE operation_logs (
      id bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
      created_at timestamptz NOT NULL,
      -- null: a share-link visitor, who has no account
      operator_id integer,
      -- the operator's name at the time
      operator_name text,
      -- the operation (FILE01, USER04…; see OperationCode in the contract)
      operator_code text NOT NULL CHECK (operator_code ~ '^[A-Z]{2,8}[0-9]{2}$'),
      -- files and folders concerned, with their names at the time (at most 1,000 kept)
      item_ids bigint[] NOT NULL DEFAULT '{}',
      item_names text[] NOT NULL DEFAULT '{}',
      item_count integer NOT NULL DEFAULT 0,
      -- the names lower-cased and joined by '/', which no name contains: the file-name filter
      item_names_search text NOT NULL DEFAULT '',
      -- the modified value (new name, target folder, the changes…)
      new_value text,
      -- structured facts the web renders (target, changes, link settings…)
      details jsonb NOT NULL DEFAULT '{}',
      ip text,
      user_agent text,
      -- reported by the browser (add-log) rather than recorded by the server
      reported boolean NOT NULL DEFAULT false
    )`.execute(db);
  // The list is newest first, optionally for one operator or some operations.
  await sql`CREATE INDEX operation_logs_time ON operation_logs (created_at DESC, id DESC)`.execute(db);
  await sql`CREATE INDEX operation_logs_operator ON operation_logs (operator_id, created_at DESC, id DESC)`.execute(
    db,
  );
  await sql`CREATE INDEX operation_logs_code ON operation_logs (operator_code, created_at DESC, id DESC)`.execute(
    db,
  );
  // "Operator name contains" and "file name contains".
  await sql`CREATE INDEX operation_logs_operator_name_trgm ON operation_logs USING gin (lower(operator_name) gin_trgm_ops)`.execute(
    db,
  );
  await sql`CREATE INDEX operation_logs_item_names_trgm ON operation_logs USING gin (item_names_search gin_trgm_ops)`.execute(
    db,
  );

  // Append-only: a row can be added, never changed or removed, whoever connects. Retention (if
  // ever wanted) is a deliberate act of the database owner, who can disable the trigger.
  await sql`
    CREATE FUNCTION operation_logs_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'operation_logs is append-only';
    END
    $$`.execute(db);
  await sql`
    CREATE TRIGGER operation_logs_no_change BEFORE UPDATE OR DELETE ON operation_logs
    FOR EACH ROW EXECUTE FUNCTION operation_logs_append_only()`.execute(db);
  await sql`
    CREATE TRIGGER operation_logs_no_truncate BEFORE TRUNCATE ON operation_logs
    FOR EACH STATEMENT EXECUTE FUNCTION operation_logs_append_only()`.execute(db);
}
