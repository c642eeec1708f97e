import type { ExpressionBuilder } from 'kysely';
import type { Database } from '../../db/schema';
import type { FileScopeFilter } from './access';

/**
 * The visibility rule of items as a Kysely condition, for every repository that lists items
 * (items, search, shares, downloads, tags, similar, completeness, composition, open API): one rule
 * for all, so nothing leaks past the view scope.
 */

/** Who is looking, for the visibility rule: own items always, shared ones within the view scope. */
export interface Viewer {
  userId: number;
  view: FileScopeFilter;
}

/** Items the viewer may see: their own, and shared ones within their view scope. */
export function visibleTo(eb: ExpressionBuilder<Database, 'items'>, viewer: Viewer) {
  const own = eb('items.owner_id', '=', viewer.userId);
  if (viewer.view.kind === 'none') return own;
  const shared = eb('items.visibility', '=', 'shared');
  if (viewer.view.kind === 'all') return eb.or([own, shared]);
  return eb.or([own, eb.and([shared, eb('items.dept_path', 'like', `${viewer.view.pathPrefix}%`)])]);
}
