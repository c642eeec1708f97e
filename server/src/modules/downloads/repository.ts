import { ItemState, ItemType, UploadStatus } from '@dam/contract';
import { type Kysely, sql } from 'kysely';
import type { Db } from '../../db/database';
import type { Database } from '../../db/schema';
import { likeLiteral } from '../../db/sql-helpers';
import { type Viewer, visibleTo } from '../access/visibility.repository';

/** Download tickets written by one INSERT. */
const TICKETS_PER_INSERT = 500;

/** `%`, `_` and `\` are LIKE wildcards; an id path never holds them, but a pattern stays exact. */

export interface DownloadSource {
  item_id: number;
  item_name: string;
  item_folder_path: string;
  art_num: string | null;
  owner_id: number;
  visibility: 'shared' | 'private';
  dept_path: string;
  id_path: string;
  expire_start_date: string | null;
  expire_end_date: string | null;
  upload_id: number;
  format: string;
  file_name: string;
  file_size: number;
  storage_key: string;
  width: number | null;
  height: number | null;
}

/** SQL of what a download contains: the newest visible record of each format of each file. */
export class DownloadsRepository {
  constructor(private readonly db: Db | Kysely<Database>) {}

  /** Runs `work` in one transaction: what a download contains and its counting agree. */
  transaction<T>(work: (repo: DownloadsRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new DownloadsRepository(trx)));
  }

  /**
   * Live files with the newest visible record of each of their formats, visible to the viewer.
   * The newest record is looked up per file (a lateral query on `uploads_latest`), so the cost
   * follows the files asked for, not the size of the upload table (issue 12: DISTINCT ON over
   * every record took ~1 s at 1.1M records before any file was picked). The status and hidden
   * flags are inlined so the partial index's predicate matches in every plan.
   */
  private latestSources(viewer: Viewer) {
    return this.db
      .selectFrom('items')
      .innerJoinLateral(
        (eb) =>
          eb
            .selectFrom('uploads')
            .distinctOn('uploads.format')
            .select([
              'uploads.id as upload_id',
              'uploads.format',
              'uploads.file_name',
              'uploads.file_size',
              'uploads.storage_key',
              'uploads.width',
              'uploads.height',
            ])
            .whereRef('uploads.item_id', '=', 'items.id')
            .where('uploads.status', '=', sql.lit(UploadStatus.done))
            .where('uploads.hidden', '=', sql.lit(false))
            .orderBy('uploads.format')
            .orderBy('uploads.completed_at', 'desc')
            .orderBy('uploads.id', 'desc')
            .as('latest'),
        (join) => join.onTrue(),
      )
      .select([
        'items.id as item_id',
        'items.name as item_name',
        'items.folder_path as item_folder_path',
        'items.art_num',
        'items.owner_id',
        'items.visibility',
        'items.dept_path',
        'items.id_path',
        'items.expire_start_date',
        'items.expire_end_date',
        'latest.upload_id',
        'latest.format',
        'latest.file_name',
        'latest.file_size',
        'latest.storage_key',
        'latest.width',
        'latest.height',
      ])
      .where('items.state', '=', sql.lit(ItemState.normal))
      .where('items.type', '<>', sql.lit(ItemType.folder))
      .where((eb) => visibleTo(eb, viewer))
      .orderBy('items.folder_path')
      .orderBy(sql`lower(items.name)`)
      .orderBy('latest.format');
  }

  /**
   * Files among `itemIds` and inside the folders among them, visible to the viewer: selected
   * files by primary key, folders' contents by a prefix of their id path (one index range each).
   */
  async sourcesOf(itemIds: number[], viewer: Viewer): Promise<DownloadSource[]> {
    if (itemIds.length === 0) return [];
    const roots = await this.db
      .selectFrom('items')
      .select(['id', 'type', 'id_path'])
      .where('id', '=', sql<number>`ANY(${itemIds}::bigint[])`)
      .where('state', '=', sql.lit(ItemState.normal))
      .execute();
    return this.sourcesOfRoots(roots, viewer);
  }

  /**
   * `sourcesOf` for roots already read (live items with their type and id path), so a download
   * that has just checked them does not read them again.
   */
  async sourcesOfRoots(
    roots: ReadonlyArray<{ id: number; type: number; id_path: string }>,
    viewer: Viewer,
  ): Promise<DownloadSource[]> {
    if (roots.length === 0) return [];
    const fileIds = roots.filter((r) => r.type !== ItemType.folder).map((r) => r.id);
    const folderPaths = roots.filter((r) => r.type === ItemType.folder).map((r) => r.id_path);
    return this.sourcesQuery(fileIds, folderPaths, viewer).execute() as Promise<DownloadSource[]>;
  }

  /** The query of `sourcesOf` (its plan at scale is checked by server/test/query-plans.test.ts). */
  sourcesQuery(fileIds: number[], folderPaths: string[], viewer: Viewer) {
    return this.latestSources(viewer).where((eb) =>
      eb.or([
        ...(fileIds.length > 0 ? [eb('items.id', '=', sql<number>`ANY(${fileIds}::bigint[])`)] : []),
        ...folderPaths.map((path) => eb('items.id_path', 'like', `${likeLiteral(path)}%`)),
      ]),
    );
  }

  /** Live files whose article number is one of `artNums` (compared without regard to case). */
  sourcesByArtNums(artNums: string[], viewer: Viewer): Promise<DownloadSource[]> {
    if (artNums.length === 0) return Promise.resolve([]);
    const lowered = artNums.map((a) => a.toLowerCase());
    return this.latestSources(viewer)
      .where('items.art_num', 'is not', null)
      .where(sql<boolean>`(lower(items.art_num) COLLATE "C") IN (SELECT unnest(${lowered}::text[]))`)
      .execute() as Promise<DownloadSource[]>;
  }

  /** Specific records by id, with their file's access facts. */
  recordsByIds(ids: number[]) {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('uploads')
      .innerJoin('items', 'items.id', 'uploads.item_id')
      .select([
        'items.id as item_id',
        'items.name as item_name',
        'items.folder_path as item_folder_path',
        'items.art_num',
        'items.owner_id',
        'items.visibility',
        'items.dept_path',
        'items.state',
        'uploads.id as upload_id',
        'uploads.format',
        'uploads.file_name',
        'uploads.file_size',
        'uploads.storage_key',
        'uploads.width',
        'uploads.height',
      ])
      .where('uploads.id', 'in', ids)
      .where('uploads.status', '=', UploadStatus.done)
      .execute();
  }

  itemsByIds(ids: number[]) {
    if (ids.length === 0) return Promise.resolve([]);
    return (
      this.db
        .selectFrom('items')
        .select([
          'id',
          'type',
          'name',
          'folder_path',
          'id_path',
          'owner_id',
          'visibility',
          'dept_path',
          'state',
        ])
        // One array parameter: thousands of bound values cost more to send and parse than the read.
        .where('id', '=', sql<number>`ANY(${ids}::bigint[])`)
        .execute()
    );
  }

  /** One more download of each item; `throughShare` also counts it as a share download. */
  async countDownloads(itemIds: number[], throughShare = false): Promise<void> {
    if (itemIds.length === 0) return;
    await this.db
      .updateTable('items')
      .set((eb) => ({
        download_count: eb('download_count', '+', 1),
        ...(throughShare ? { share_download_count: eb('share_download_count', '+', 1) } : {}),
      }))
      .where('id', '=', sql<number>`ANY(${itemIds}::bigint[])`)
      .execute();
  }

  /**
   * Stores download requests behind random tickets, each held by a session, (a visitor's) share
   * link or an open API access record; expired tickets are swept in the same go.
   */
  async saveTickets(
    tickets: ReadonlyArray<{
      tokenHash: string;
      holder: { sessionId: number } | { shareId: number } | { apiAccessId: number };
      kind: string;
      request: unknown;
      expiresAt: Date;
    }>,
    now: Date,
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('download_tickets').where('expires_at', '<', now).execute();
      // In slices: a thousand one-file links of the open API stay well within a statement's parameters.
      for (let start = 0; start < tickets.length; start += TICKETS_PER_INSERT) {
        await trx
          .insertInto('download_tickets')
          .values(
            tickets.slice(start, start + TICKETS_PER_INSERT).map((ticket) => ({
              token_hash: ticket.tokenHash,
              ...('sessionId' in ticket.holder
                ? { session_id: ticket.holder.sessionId }
                : 'shareId' in ticket.holder
                  ? { share_id: ticket.holder.shareId }
                  : { api_access_id: ticket.holder.apiAccessId }),
              kind: ticket.kind,
              request: JSON.stringify(ticket.request),
              expires_at: ticket.expiresAt,
            })),
          )
          .execute();
      }
    });
  }

  ticket(tokenHash: string, kind: string, now: Date) {
    return this.db
      .selectFrom('download_tickets')
      .select(['session_id', 'share_id', 'api_access_id', 'request'])
      .where('token_hash', '=', tokenHash)
      .where('kind', '=', kind)
      .where('expires_at', '>', now)
      .executeTakeFirst();
  }
}
