import type { Db } from '../../db/database';
import type { EmbedFacts } from './embed';

/** What a download writes into a file, read when its bytes are about to go (issue 42). */
export class EmbedFactsRepository {
  constructor(private readonly db: Db) {}

  /**
   * The facts of the file a stored object belongs to (its tags as they are now), or null when the
   * object is no record's any more.
   */
  async ofObject(storageKey: string): Promise<EmbedFacts | null> {
    const row = await this.db
      .selectFrom('uploads as u')
      .innerJoin('items as i', 'i.id', 'u.item_id')
      .leftJoin('upload_metadata as m', 'm.upload_id', 'u.id')
      .select([
        'i.id',
        'i.name',
        'i.art_num',
        'i.expire_start_date',
        'i.expire_end_date',
        'm.creator',
        'm.copyright',
        'm.usage_terms',
        'm.keywords',
      ])
      .where('u.storage_key', '=', storageKey)
      .executeTakeFirst();
    if (!row) return null;
    const tags = await this.db
      .selectFrom('item_tags as it')
      .innerJoin('tags as t', 't.id', 'it.tag_id')
      .innerJoin('tag_dimensions as d', 'd.id', 't.dimension_id')
      .select(['d.name as dimension', 't.name as tag'])
      .where('it.item_id', '=', row.id)
      .orderBy('d.position')
      .orderBy('d.id')
      .orderBy('t.position')
      .orderBy('t.id')
      .execute();
    return {
      fileId: row.id,
      name: row.name,
      artNum: row.art_num,
      tags,
      creator: row.creator ?? null,
      copyright: row.copyright ?? null,
      usageTerms: row.usage_terms ?? null,
      keywords: row.keywords ?? [],
      validFrom: row.expire_start_date ? String(row.expire_start_date).slice(0, 10) : null,
      validTo: row.expire_end_date ? String(row.expire_end_date).slice(0, 10) : null,
    };
  }
}
