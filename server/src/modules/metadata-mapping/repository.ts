import { ItemState, type MetadataMappingSource, MetadataStatusCode, UploadStatus } from '@dam/contract';
import { type Selectable, sql } from 'kysely';
import type { Db } from '../../db/database';
import type { MetadataTagRuleTable } from '../../db/schema';
import { type Viewer, visibleTo } from '../access/visibility.repository';
import type { TagsRepository } from '../tags/repository';
import type { MappedFields, PlannedFinding } from './plan';

export type RuleRow = Selectable<MetadataTagRuleTable> & { dimension_name: string };

/** A finding with the names the screens show. */
export interface FindingRow {
  id: number;
  upload_id: number;
  item_id: number;
  file_name: string;
  source: string;
  dimension_id: number;
  dimension_name: string;
  value: string;
  reason: string;
  detail: string[];
  created_at: Date;
}

/** A record whose metadata was just stored, with its file (null: not yet, or no longer, a file's). */
export interface MappedRecord {
  itemId: number;
  userId: number;
  fields: MappedFields;
}

/** SQL of keyword → tag mapping rules and their findings (issue 42). */
export class MetadataMappingRepository {
  constructor(
    private readonly db: Db,
    /** The tags repository on a handle (the wiring's: server/src/repositories.ts). */
    private readonly tagsOn: (db: Db) => TagsRepository,
  ) {}

  /** One transaction over rules, findings and tags. */
  transaction<T>(work: (repo: MetadataMappingRepository, tags: TagsRepository) => Promise<T>): Promise<T> {
    return this.db
      .transaction()
      .execute((trx) => work(new MetadataMappingRepository(trx, this.tagsOn), this.tagsOn(trx)));
  }

  private rulesQuery() {
    return this.db
      .selectFrom('metadata_tag_rules as r')
      .innerJoin('tag_dimensions as d', 'd.id', 'r.dimension_id')
      .selectAll('r')
      .select('d.name as dimension_name');
  }

  rules(): Promise<RuleRow[]> {
    return this.rulesQuery().orderBy('r.source').orderBy('d.position').orderBy('r.id').execute();
  }

  rule(id: number): Promise<RuleRow | undefined> {
    return this.rulesQuery().where('r.id', '=', id).executeTakeFirst();
  }

  /** Whether the dimension exists, locked against deletion until commit. */
  async lockDimension(id: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('tag_dimensions')
      .select('id')
      .where('id', '=', id)
      .forShare()
      .executeTakeFirst();
    return row !== undefined;
  }

  async insertRule(
    values: { source: MetadataMappingSource; dimension_id: number },
    userId: number,
    now: Date,
  ) {
    const row = await this.db
      .insertInto('metadata_tag_rules')
      .values({ ...values, created_by: userId, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async updateRule(id: number, values: { source: MetadataMappingSource; dimension_id: number }, now: Date) {
    const result = await this.db
      .updateTable('metadata_tag_rules')
      .set({ ...values, updated_at: now })
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async deleteRule(id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('metadata_tag_rules').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /**
   * The record's fields and file, its file's row locked against concurrent tagging of the mapping
   * (two readings of one record at once); null when the record has no ready metadata or no file.
   */
  async recordForMapping(uploadId: number): Promise<MappedRecord | null> {
    const row = await this.db
      .selectFrom('uploads as u')
      .innerJoin('upload_metadata as m', 'm.upload_id', 'u.id')
      .select([
        'u.item_id',
        'u.user_id',
        'm.keywords',
        'm.title',
        'm.creator',
        'm.copyright',
        'm.label',
        'm.camera',
      ])
      .where('u.id', '=', uploadId)
      .where('u.status', '=', UploadStatus.done)
      .where('m.status', '=', MetadataStatusCode.ready)
      .executeTakeFirst();
    if (!row?.item_id) return null;
    await this.db.selectFrom('items').select('id').where('id', '=', row.item_id).forNoKeyUpdate().execute();
    const one = (value: string | null) => (value === null ? [] : [value]);
    return {
      itemId: row.item_id,
      userId: row.user_id,
      fields: {
        keywords: row.keywords,
        title: one(row.title),
        creator: one(row.creator),
        copyright: one(row.copyright),
        label: one(row.label),
        camera: one(row.camera),
      },
    };
  }

  /** Records findings; one already recorded for the same record, source, dimension and value stays as it was. */
  async insertFindings(uploadId: number, itemId: number, findings: readonly PlannedFinding[], now: Date) {
    if (findings.length === 0) return;
    await this.db
      .insertInto('metadata_tag_findings')
      .values(
        findings.map((f) => ({
          upload_id: uploadId,
          item_id: itemId,
          source: f.source,
          dimension_id: f.dimensionId,
          value: f.value,
          reason: f.reason,
          detail: f.detail,
          created_at: now,
        })),
      )
      .onConflict((oc) => oc.expression(sql`upload_id, source, dimension_id, lower(value)`).doNothing())
      .execute();
  }

  private findingsQuery() {
    return this.db
      .selectFrom('metadata_tag_findings as f')
      .innerJoin('items', 'items.id', 'f.item_id')
      .innerJoin('tag_dimensions as d', 'd.id', 'f.dimension_id')
      .select([
        'f.id',
        'f.upload_id',
        'f.item_id',
        'items.name as file_name',
        'f.source',
        'f.dimension_id',
        'd.name as dimension_name',
        'f.value',
        'f.reason',
        'f.detail',
        'f.created_at',
      ]);
  }

  /** The findings of one file, newest first. */
  findingsOfItem(itemId: number): Promise<FindingRow[]> {
    return this.findingsQuery().where('f.item_id', '=', itemId).orderBy('f.id', 'desc').limit(500).execute();
  }

  /** A page of the findings of live files the viewer may see, newest first, and how many there are. */
  async findingsPage(viewer: Viewer, paging: { limit: number; offset: number }) {
    const visible = this.findingsQuery()
      .where('items.state', '=', ItemState.normal)
      .where((eb) => visibleTo(eb, viewer));
    const [rows, count] = await Promise.all([
      visible
        .orderBy('f.created_at', 'desc')
        .orderBy('f.id', 'desc')
        .limit(paging.limit)
        .offset(paging.offset)
        .execute(),
      visible
        .clearSelect()
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  }
}
