import { ItemState, ItemType } from '@dam/contract';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema';
import { likeLiteral } from '../../db/sql-helpers';
import { type Viewer, visibleTo } from '../access/visibility.repository';

/**
 * The distinct article numbers under a selection of files and folders (MakerRepository in
 * ./maker.repository delegates here), read for starting a composition from the files screen.
 */

/**
 * The distinct article numbers of the live files the viewer can see among `itemIds` and inside
 * the folders among them, at most `limit` (in folder and name order of their first file): one
 * index range per folder (id path prefix), the downloads' visibility rule, no records read.
 */
export async function artNumsUnder(
  db: Kysely<Database>,
  itemIds: readonly number[],
  viewer: Viewer,
  limit: number,
): Promise<string[]> {
  if (itemIds.length === 0) return [];
  const roots = await db
    .selectFrom('items')
    .select(['id', 'type', 'id_path'])
    .where('id', '=', sql<number>`ANY(${sql.val([...itemIds])}::bigint[])`)
    .where('state', '=', sql.lit(ItemState.normal))
    .execute();
  const fileIds = roots.filter((r) => r.type !== ItemType.folder).map((r) => r.id);
  const folderPaths = roots.filter((r) => r.type === ItemType.folder).map((r) => r.id_path);
  if (fileIds.length === 0 && folderPaths.length === 0) return [];
  const rows = await db
    .selectFrom((eb) =>
      eb
        .selectFrom('items')
        .select([
          'items.art_num',
          sql<number>`row_number() OVER (ORDER BY items.folder_path, lower(items.name), items.id)`.as('at'),
        ])
        .where('items.state', '=', sql.lit(ItemState.normal))
        .where('items.type', '<>', sql.lit(ItemType.folder))
        .where('items.art_num', 'is not', null)
        .where('items.art_num', '<>', '')
        .where((eb) => visibleTo(eb, viewer))
        .where((eb) =>
          eb.or([
            ...(fileIds.length > 0
              ? [eb('items.id', '=', sql<number>`ANY(${sql.val(fileIds)}::bigint[])`)]
              : []),
            ...folderPaths.map((path) => eb('items.id_path', 'like', `${likeLiteral(path)}%`)),
          ]),
        )
        .as('f'),
    )
    // Spelled as on the first file that carries it (numbers compare without regard to case).
    .select([
      sql<string>`(array_agg(f.art_num ORDER BY f.at))[1]`.as('art_num'),
      sql<number>`min(f.at)`.as('first'),
    ])
    .groupBy(sql`lower(f.art_num)`)
    .orderBy('first')
    .limit(limit)
    .execute();
  return rows.map((r) => r.art_num);
}
