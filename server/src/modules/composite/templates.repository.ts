import { ItemState, ItemType, UploadStatus } from '@dam/contract';
import { type Kysely, sql } from 'kysely';
import type { Db } from '../../db/database';
import type { Database } from '../../db/schema';

/** A template with its current version's columns and spec, and who changed it last. */
export interface TemplateRecord {
  id: number;
  name: string;
  status: number;
  current_version: number;
  updated_at: Date;
  updated_by_name: string | null;
  width: number;
  slice_max_height: number;
  /** The current version's spec as stored (templateSpecSchema output). */
  spec: unknown;
}

/** The row of a template alone (what a save locks and compares). */
export interface TemplateRow {
  id: number;
  name: string;
  status: number;
  current_version: number;
}

export interface VersionRecord {
  version: number;
  created_at: Date;
  created_by_name: string | null;
}

export interface AssetRecord {
  id: number;
  storage_key: string;
  width: number;
  height: number;
  bytes: number;
  /** The file it was copied from (null: uploaded, or the file was purged). */
  source_item_id: number | null;
}

export interface NewVersion {
  templateId: number;
  version: number;
  spec: unknown;
  width: number;
  blockCount: number;
  sliceMaxHeight: number;
  userId: number;
  now: Date;
}

/** A file's item with what the access rules look at, and its newest finished record of each format. */
export interface FileWithSources {
  item: {
    id: number;
    type: number;
    state: number;
    owner_id: number;
    visibility: 'shared' | 'private';
    dept_path: string;
  };
  sources: Array<{ format: string; storage_key: string }>;
}

/** SQL of detail-page templates (issue 16), their immutable versions and their fixed images. */
export class TemplatesRepository {
  constructor(private readonly db: Db | Kysely<Database>) {}

  /** One transaction: a save as a whole (the template row stays locked until it ends). */
  transaction<T>(work: (repo: TemplatesRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new TemplatesRepository(trx)));
  }

  private selectTemplates() {
    return this.db
      .selectFrom('composite_templates as t')
      .innerJoin('composite_template_versions as v', (join) =>
        join.onRef('v.template_id', '=', 't.id').onRef('v.version', '=', 't.current_version'),
      )
      .leftJoin('users as editor', 'editor.id', 't.updated_by')
      .select([
        't.id',
        't.name',
        't.status',
        't.current_version',
        't.updated_at',
        'editor.name as updated_by_name',
        'v.width',
        'v.slice_max_height',
        'v.spec',
      ])
      .where('t.deleted_at', 'is', null);
  }

  /** Templates not deleted, by name; `includeArchived` false: the active ones only. */
  list(includeArchived: boolean): Promise<TemplateRecord[]> {
    let query = this.selectTemplates();
    if (!includeArchived) query = query.where('t.status', '=', 1);
    return query.orderBy(sql`lower(t.name)`).orderBy('t.id').execute();
  }

  find(id: number): Promise<TemplateRecord | undefined> {
    return this.selectTemplates().where('t.id', '=', id).executeTakeFirst();
  }

  /** The template row, locked until the transaction ends (so two saves cannot both pass the version check). */
  lock(id: number): Promise<TemplateRow | undefined> {
    return this.db
      .selectFrom('composite_templates')
      .select(['id', 'name', 'status', 'current_version'])
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .forUpdate()
      .executeTakeFirst();
  }

  async versionSpec(templateId: number, version: number): Promise<unknown> {
    const row = await this.db
      .selectFrom('composite_template_versions')
      .select('spec')
      .where('template_id', '=', templateId)
      .where('version', '=', version)
      .executeTakeFirst();
    return row?.spec;
  }

  /** Every version of a template, newest first (without their specs). */
  versions(templateId: number): Promise<VersionRecord[]> {
    return this.db
      .selectFrom('composite_template_versions as v')
      .leftJoin('users as maker', 'maker.id', 'v.created_by')
      .select(['v.version', 'v.created_at', 'maker.name as created_by_name'])
      .where('v.template_id', '=', templateId)
      .orderBy('v.version', 'desc')
      .execute();
  }

  async insertTemplate(values: { name: string; status: number; userId: number; now: Date }): Promise<number> {
    const row = await this.db
      .insertInto('composite_templates')
      .values({
        name: values.name,
        status: values.status,
        current_version: 1,
        created_by: values.userId,
        updated_by: values.userId,
        created_at: values.now,
        updated_at: values.now,
        deleted_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async insertVersion(values: NewVersion): Promise<void> {
    await this.db
      .insertInto('composite_template_versions')
      .values({
        template_id: values.templateId,
        version: values.version,
        spec: JSON.stringify(values.spec),
        width: values.width,
        block_count: values.blockCount,
        slice_max_height: values.sliceMaxHeight,
        created_by: values.userId,
        created_at: values.now,
      })
      .execute();
  }

  async updateTemplate(
    id: number,
    values: { name: string; status: number; currentVersion: number; userId: number; now: Date },
  ): Promise<void> {
    await this.db
      .updateTable('composite_templates')
      .set({
        name: values.name,
        status: values.status,
        current_version: values.currentVersion,
        updated_by: values.userId,
        updated_at: values.now,
      })
      .where('id', '=', id)
      .execute();
  }

  /** Marks a template deleted; answers its name, or null when there was none to delete. */
  async softDelete(id: number, userId: number, now: Date): Promise<string | null> {
    const row = await this.db
      .updateTable('composite_templates')
      .set({ deleted_at: now, updated_at: now, updated_by: userId })
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .returning('name')
      .executeTakeFirst();
    return row?.name ?? null;
  }

  assets(ids: readonly number[]): Promise<AssetRecord[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('composite_assets')
      .select(['id', 'storage_key', 'width', 'height', 'bytes', 'source_item_id'])
      .where('id', 'in', [...ids])
      .orderBy('id')
      .execute();
  }

  insertAsset(values: {
    storageKey: string;
    width: number;
    height: number;
    bytes: number;
    sourceItemId: number | null;
    userId: number;
    now: Date;
  }): Promise<AssetRecord> {
    return this.db
      .insertInto('composite_assets')
      .values({
        storage_key: values.storageKey,
        width: values.width,
        height: values.height,
        bytes: values.bytes,
        source_item_id: values.sourceItemId,
        created_by: values.userId,
        created_at: values.now,
      })
      .returning(['id', 'storage_key', 'width', 'height', 'bytes', 'source_item_id'])
      .executeTakeFirstOrThrow();
  }

  /** Which of `ids` are tags (the rest are unknown). */
  async existingTags(ids: readonly number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('tags')
      .select('id')
      .where('id', 'in', [...ids])
      .execute();
    return new Set(rows.map((row) => row.id));
  }

  /** An article's SKU row as text fields (`{name}` …), or undefined without one. */
  skuFields(artNum: string) {
    return this.db
      .selectFrom('sku')
      .select(['art_num', 'name', 'series', 'category', 'color', 'season', 'gender'])
      .where(sql<string>`lower(sku.art_num) COLLATE "C"`, '=', artNum.toLowerCase())
      .executeTakeFirst();
  }

  /**
   * A file's item and the newest finished, visible record of each of its formats (the records
   * a download would send). Undefined when there is no such item.
   */
  /** Items with what their access checks read (state, owner, visibility, department). */
  itemsForAccess(ids: readonly number[]) {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('items')
      .select(['id', 'type', 'state', 'owner_id', 'visibility', 'dept_path'])
      .where('id', 'in', [...ids])
      .execute();
  }

  async fileWithSources(itemId: number): Promise<FileWithSources | undefined> {
    const item = await this.db
      .selectFrom('items')
      .select(['id', 'type', 'state', 'owner_id', 'visibility', 'dept_path'])
      .where('id', '=', itemId)
      .executeTakeFirst();
    if (!item) return undefined;
    if (item.type === ItemType.folder || item.state !== ItemState.normal) return { item, sources: [] };
    const sources = await this.db
      .selectFrom('uploads')
      .distinctOn('format')
      .select(['format', 'storage_key'])
      .where('item_id', '=', itemId)
      .where('status', '=', sql.lit(UploadStatus.done))
      .where('hidden', '=', sql.lit(false))
      .orderBy('format')
      .orderBy('completed_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return { item, sources };
  }
}
