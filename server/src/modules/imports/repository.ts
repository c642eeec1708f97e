import { sql } from 'kysely';
import type { Db } from '../../db/database';
import type { ImportSheetRow, ImportTable, SkuRow } from '../../db/schema';

export type ImportStatus = ImportTable['status'];
export type ImportKind = ImportTable['kind'];

/** A problem as stored: where, and which message with which values (localised when read). */
export interface StoredProblem {
  row: number;
  column: string;
  key: string;
  values: Record<string, string | number>;
  /** For key `tagRule`: the catalogue code whose message is the detail. */
  code?: string;
}

export interface StoredChange {
  row: number;
  artNum: string;
  action: 'create' | 'update';
  fields: Array<{ column: string; before: string; after: string }>;
}

/** An import without its rows, with the names of who made and applied it. */
export interface ImportRecord {
  id: number;
  kind: ImportKind;
  status: ImportStatus;
  file_name: string;
  created_by: number | null;
  user_name: string | null;
  dept_path: string | null;
  created_at: Date;
  applied_by: number | null;
  applied_by_name: string | null;
  applied_at: Date | null;
  total_rows: number;
  processed_rows: number;
  created_count: number;
  updated_count: number;
  unchanged_count: number;
  problem_count: number;
}

/** Which imports a caller may see: all, those of their own and of departments under a path. */
export type ImportReach =
  | { everything: true }
  | { everything: false; userId: number; deptPath: string | null };

export interface CheckOutcome {
  status: 'checked' | 'rejected';
  created: number;
  updated: number;
  unchanged: number;
  problemCount: number;
  problems: StoredProblem[];
  changes: StoredChange[];
}

const SUMMARY_COLUMNS = [
  'i.id',
  'i.kind',
  'i.status',
  'i.file_name',
  'i.created_by',
  'u.name as user_name',
  'd.path as dept_path',
  'i.created_at',
  'i.applied_by',
  'a.name as applied_by_name',
  'i.applied_at',
  'i.total_rows',
  'i.processed_rows',
  'i.created_count',
  'i.updated_count',
  'i.unchanged_count',
  'i.problem_count',
] as const;

/** Chunk of article numbers per lookup (one statement each). */
const LOOKUP_CHUNK = 1000;

/** SQL of import management: the imports table, and the reads and writes the imports need. */
export class ImportsRepository {
  constructor(readonly db: Db) {}

  transaction<T>(work: (repo: ImportsRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new ImportsRepository(trx)));
  }

  async insert(values: {
    kind: ImportKind;
    fileName: string;
    fileSize: number;
    userId: number;
    deptId: number | null;
    header: ImportSheetRow;
    rows: ImportSheetRow[];
    now: Date;
  }): Promise<number> {
    const row = await this.db
      .insertInto('imports')
      .values({
        kind: values.kind,
        status: 'checking',
        file_name: values.fileName,
        file_size: values.fileSize,
        created_by: values.userId,
        dept_id: values.deptId,
        created_at: values.now,
        updated_at: values.now,
        header: JSON.stringify(values.header),
        rows: JSON.stringify(values.rows),
        total_rows: values.rows.length,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  private summaries() {
    return this.db
      .selectFrom('imports as i')
      .leftJoin('users as u', 'u.id', 'i.created_by')
      .leftJoin('users as a', 'a.id', 'i.applied_by')
      .leftJoin('departments as d', 'd.id', 'i.dept_id');
  }

  find(id: number): Promise<ImportRecord | undefined> {
    return this.summaries().select(SUMMARY_COLUMNS).where('i.id', '=', id).executeTakeFirst();
  }

  /** Preview lists of an import (changes and problems as stored). */
  async previewOf(id: number): Promise<{ problems: StoredProblem[]; changes: StoredChange[] }> {
    const row = await this.db
      .selectFrom('imports')
      .select(['problems', 'changes'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    return { problems: row.problems as StoredProblem[], changes: row.changes as StoredChange[] };
  }

  async sheetOf(id: number): Promise<{ header: ImportSheetRow; rows: ImportSheetRow[] }> {
    return this.db
      .selectFrom('imports')
      .select(['header', 'rows'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  }

  /** The status, read under a row lock until the end of the transaction. */
  async lockStatus(id: number): Promise<ImportStatus | undefined> {
    const row = await this.db
      .selectFrom('imports')
      .select('status')
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    return row?.status;
  }

  /** Moves `from` → `to` when the import is in `from`; answers whether it was. */
  async transition(
    id: number,
    from: readonly ImportStatus[],
    to: ImportStatus,
    now: Date,
    extra: { appliedBy?: number } = {},
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('imports')
      .set({
        status: to,
        updated_at: now,
        ...(to === 'applying' ? { processed_rows: 0 } : {}),
        ...(extra.appliedBy === undefined ? {} : { applied_by: extra.appliedBy }),
        // Rows of a discarded import are not needed any more.
        ...(to === 'discarded' ? { rows: '[]' } : {}),
      })
      .where('id', '=', id)
      .where('status', 'in', [...from])
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async setProgress(id: number, processed: number, now: Date): Promise<void> {
    await this.db
      .updateTable('imports')
      .set({ processed_rows: processed, updated_at: now })
      .where('id', '=', id)
      .execute();
  }

  /** Stores the outcome of a check (dry run, or the check of an apply that found problems). */
  async finishCheck(id: number, from: ImportStatus, outcome: CheckOutcome, now: Date): Promise<boolean> {
    const result = await this.db
      .updateTable('imports')
      .set({
        status: outcome.status,
        updated_at: now,
        processed_rows: sql<number>`total_rows`,
        created_count: outcome.created,
        updated_count: outcome.updated,
        unchanged_count: outcome.unchanged,
        problem_count: outcome.problemCount,
        problems: JSON.stringify(outcome.problems),
        changes: JSON.stringify(outcome.changes),
        ...(outcome.status === 'rejected' ? { applied_by: null } : {}),
      })
      .where('id', '=', id)
      .where('status', '=', from)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async finishApply(
    id: number,
    counts: { created: number; updated: number; unchanged: number; changes: StoredChange[] },
    now: Date,
  ): Promise<void> {
    await this.db
      .updateTable('imports')
      .set({
        status: 'applied',
        updated_at: now,
        applied_at: now,
        processed_rows: sql<number>`total_rows`,
        created_count: counts.created,
        updated_count: counts.updated,
        unchanged_count: counts.unchanged,
        problem_count: 0,
        problems: '[]',
        changes: JSON.stringify(counts.changes),
        // The rows are in the data now; the history keeps the counts and the preview.
        rows: '[]',
      })
      .where('id', '=', id)
      .execute();
  }

  async fail(id: number, now: Date): Promise<void> {
    await this.db
      .updateTable('imports')
      .set({ status: 'failed', updated_at: now })
      .where('id', '=', id)
      .where('status', 'in', ['checking', 'applying'])
      .execute();
  }

  /** A page of the history, newest first, within `reach`. */
  async page(
    reach: ImportReach,
    kind: ImportKind | undefined,
    offset: number,
    limit: number,
  ): Promise<{ rows: ImportRecord[]; total: number }> {
    let query = this.summaries();
    if (!reach.everything) {
      const { userId, deptPath } = reach;
      query = query.where((eb) =>
        eb.or([eb('i.created_by', '=', userId), ...(deptPath ? [eb('d.path', 'like', `${deptPath}%`)] : [])]),
      );
    }
    if (kind) query = query.where('i.kind', '=', kind);
    const [rows, count] = await Promise.all([
      query
        .select(SUMMARY_COLUMNS)
        .orderBy('i.created_at', 'desc')
        .orderBy('i.id', 'desc')
        .offset(offset)
        .limit(limit)
        .execute(),
      query.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  }

  /** The SKU rows of these article numbers (any case), keyed by lower-case article number. */
  async skusByArtNums(artNums: readonly string[]): Promise<Map<string, SkuRow>> {
    const keys = [...new Set(artNums.map((a) => a.toLowerCase()))];
    const found = new Map<string, SkuRow>();
    for (let start = 0; start < keys.length; start += LOOKUP_CHUNK) {
      const rows = await this.db
        .selectFrom('sku')
        .selectAll()
        .where(
          sql<boolean>`lower(sku.art_num) COLLATE "C" = ANY(${sql.val(keys.slice(start, start + LOOKUP_CHUNK))}::text[])`,
        )
        .execute();
      for (const row of rows) found.set(row.art_num.toLowerCase(), row);
    }
    return found;
  }

  /** Tag ids of these SKUs. */
  async tagIdsOfSkus(skuIds: readonly number[]): Promise<Map<number, number[]>> {
    const result = new Map<number, number[]>();
    for (let start = 0; start < skuIds.length; start += LOOKUP_CHUNK) {
      const rows = await this.db
        .selectFrom('sku_tags')
        .select(['sku_id', 'tag_id'])
        .where(sql<boolean>`sku_id = ANY(${sql.val(skuIds.slice(start, start + LOOKUP_CHUNK))}::bigint[])`)
        .execute();
      for (const row of rows) {
        const list = result.get(row.sku_id) ?? [];
        list.push(row.tag_id);
        result.set(row.sku_id, list);
      }
    }
    return result;
  }

  /** Replaces the tags of each SKU of `sets` with its set. */
  async setSkuTagSets(sets: ReadonlyMap<number, readonly number[]>): Promise<void> {
    const skuIds = [...sets.keys()];
    for (let start = 0; start < skuIds.length; start += LOOKUP_CHUNK) {
      const chunk = skuIds.slice(start, start + LOOKUP_CHUNK);
      await this.db
        .deleteFrom('sku_tags')
        .where(sql<boolean>`sku_id = ANY(${sql.val(chunk)}::bigint[])`)
        .execute();
      const owners: number[] = [];
      const tags: number[] = [];
      for (const skuId of chunk) {
        for (const tagId of sets.get(skuId) ?? []) {
          owners.push(skuId);
          tags.push(tagId);
        }
      }
      if (owners.length === 0) continue;
      await sql`
        INSERT INTO sku_tags (sku_id, tag_id)
        SELECT * FROM unnest(${sql.val(owners)}::bigint[], ${sql.val(tags)}::bigint[])
        ON CONFLICT DO NOTHING`.execute(this.db);
    }
  }
}
