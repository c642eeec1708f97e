import { type Kysely, sql } from 'kysely';

/**
 * Issue 39 item 5: a view's code is letters of any script and digits (`正面`, `侧面`, `détail`),
 * stored NFC-normalised and lower-cased (COMPLETENESS_VIEW_CODE_PATTERN and normaliseViewCode in
 * the contract check its shape). The table keeps only what the file-name parser relies on: at most
 * 20 characters, NFC, no separator (`_`, `-`, a space) inside it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE completeness_views DROP CONSTRAINT completeness_views_code_check`.execute(db);
  await sql`
    ALTER TABLE completeness_views ADD CONSTRAINT completeness_views_code_check
      CHECK (char_length(code) BETWEEN 1 AND 20 AND code IS NFC NORMALIZED AND code !~ '[_ -]')`.execute(db);
}
