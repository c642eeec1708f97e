import { type Expression, type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/database';
import { likeLiteral } from '../../db/sql-helpers';

/** An import row: art_num and name always, the other columns only when the workbook has them. */
export interface SkuValues {
  art_num: string;
  name: string;
  series?: string | null;
  category?: string | null;
  color?: string | null;
  season?: string | null;
  gender?: string | null;
}
export type SkuColumn = keyof SkuValues;

/** Rows per INSERT statement of an import (7 columns × 1000 stays far below 65535 parameters). */
const UPSERT_CHUNK = 1000;

/** The indexed key of an article number: lower case in the "C" collation (see 004_sku). */
const artNumKey: RawBuilder<string> = sql<string>`lower(sku.art_num) COLLATE "C"`;
/** The expression of the trigram index over number and name. */
const searchText: RawBuilder<string> = sql<string>`lower(sku.art_num || ' ' || sku.name)`;

/** SQL of the SKU master. */
export class SkuRepository {
  constructor(private readonly db: Db) {}

  transaction<T>(work: (sku: SkuRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new SkuRepository(trx)));
  }

  /** One page (plus one row, to tell whether more follow) ordered by article number. */
  list(query: string | undefined, offset: number, limit: number) {
    let select = this.db.selectFrom('sku').selectAll();
    if (query) select = select.where(searchText, 'like', `%${likeLiteral(query.toLowerCase())}%`);
    return select.orderBy(artNumKey).offset(offset).limit(limit).execute();
  }

  /** Picker entries: number or name containing `query`; numbers starting with it first. */
  options(query: string | undefined, limit: number) {
    let select = this.db.selectFrom('sku').select(['art_num', 'name']);
    if (query) {
      const lowered = likeLiteral(query.toLowerCase());
      select = select
        .where(searchText, 'like', `%${lowered}%`)
        .orderBy(sql`CASE WHEN ${artNumKey} LIKE ${`${lowered}%`} THEN 0 ELSE 1 END`);
    }
    return select.orderBy(artNumKey).limit(limit).execute();
  }

  /** Article numbers starting with `prefix` (any case), in order: an index range scan. */
  suggestQuery(prefix: string, limit: number) {
    return this.db
      .selectFrom('sku')
      .select(['id', 'art_num', 'name'])
      .where(artNumKey, 'like', `${likeLiteral(prefix.toLowerCase())}%`)
      .orderBy(artNumKey)
      .limit(limit);
  }

  suggest(prefix: string, limit: number) {
    return this.suggestQuery(prefix, limit).execute();
  }

  /** Whether any SKU data was imported at all. */
  async isEmpty(): Promise<boolean> {
    return (await this.db.selectFrom('sku').select('id').limit(1).executeTakeFirst()) === undefined;
  }

  /** The stored spelling of each of these article numbers that exists (one query for all). */
  async findArtNums(artNums: readonly string[]): Promise<string[]> {
    return (await this.findSkus(artNums)).map((r) => r.art_num);
  }

  /** Id and stored spelling of each of these article numbers that exists (one query for all). */
  async findSkus(artNums: readonly string[]): Promise<Array<{ id: number; art_num: string }>> {
    if (artNums.length === 0) return [];
    const keys = [...new Set(artNums.map((a) => a.toLowerCase()))];
    return this.db
      .selectFrom('sku')
      .select(['id', 'art_num'])
      .where(sql<boolean>`${artNumKey} = ANY(${sql.val(keys)}::text[])`)
      .execute();
  }

  /**
   * Inserts new article numbers and updates existing ones (matched regardless of case), only
   * the columns given; rows equal to what is stored are left alone. Counts what happened.
   */
  async upsert(
    rows: readonly SkuValues[],
    columns: readonly SkuColumn[],
    now: Date,
  ): Promise<{ created: number; updated: number }> {
    let created = 0;
    let updated = 0;
    for (let start = 0; start < rows.length; start += UPSERT_CHUNK) {
      const chunk = rows.slice(start, start + UPSERT_CHUNK).map((row) => ({
        ...Object.fromEntries(columns.map((c) => [c, row[c] ?? null])),
        art_num: row.art_num,
        name: row.name,
        created_at: now,
        updated_at: now,
      }));
      const stored = sql.join(columns.map((c) => sql.ref(`sku.${c}`)));
      const incoming = sql.join(columns.map((c) => sql.ref(`excluded.${c}`)));
      const result = await this.db
        .insertInto('sku')
        .values(chunk)
        .onConflict((oc) =>
          oc
            .expression(sql`(lower(art_num))`)
            .doUpdateSet(() => ({
              ...Object.fromEntries(columns.map((c) => [c, sql.ref(`excluded.${c}`)])),
              updated_at: now,
            }))
            .where(sql<boolean>`(${stored}) IS DISTINCT FROM (${incoming})` as Expression<boolean>),
        )
        // xmax is 0 on a freshly inserted row version and set on an updated one.
        .returning(sql<boolean>`(xmax = 0)`.as('created'))
        .execute();
      for (const row of result) {
        if (row.created) created += 1;
        else updated += 1;
      }
    }
    return { created, updated };
  }
}
