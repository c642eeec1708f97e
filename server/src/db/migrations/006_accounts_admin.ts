import { type Kysely, sql } from 'kysely';

/**
 * Accounts administration: role names unique regardless of case (the first migration made them
 * unique as typed); indexes for rewriting the denormalised department path of items when a
 * department moves (`dept_path LIKE '/1/4/%'`) or when an owner changes department (every item of
 * theirs, the recycle bin included, which the partial `items_owner` index does not cover).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE UNIQUE INDEX roles_name_lower ON roles (lower(name))`.execute(db);
  await sql`ALTER TABLE roles DROP CONSTRAINT IF EXISTS roles_name_key`.execute(db);
  await sql`CREATE INDEX items_dept_path ON items (dept_path text_pattern_ops)`.execute(db);
  await sql`CREATE INDEX items_owner_all ON items (owner_id)`.execute(db);
  await sql`CREATE INDEX departments_head ON departments (head_user_id) WHERE head_user_id IS NOT NULL`.execute(
    db,
  );
}
