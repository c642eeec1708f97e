import {
  bandsOf,
  hashToSigned,
  ItemState,
  type PaletteColour,
  paletteDistance,
  probes,
  signedToHash,
  UploadStatus,
} from '@dam/contract';
import { type ExpressionBuilder, sql } from 'kysely';
import type { Db } from '../../db/database';
import type { Database } from '../../db/schema';
import { type Viewer, visibleTo } from '../access/visibility.repository';

/**
 * SQL of near-duplicates and similar images (issue 17; docs/plans/issue-17-near-duplicates.md
 * §3.2, §6, §7). A lookup is multi-index hashing: four index-only scans of the covering band
 * indexes (`media_fp_b0` … `b3`) over the 137 values within 2 bits of each band of the query, each
 * checked with `bit_count` before anything is joined. That finds every hash within 11 bits. Only
 * the few verified hits are joined to `uploads` and `items`, where the visibility rule applies.
 */

/** A verified hit: an upload whose hash is within the distance, and the item it belongs to. */
export interface LookupHit {
  upload_id: number;
  item_id: number;
  distance: number;
  width: number | null;
  height: number | null;
}

/** Who may see the hits, and which items to leave out; null: every fingerprint (the pairs). */
export interface LookupScope {
  viewer: Viewer;
  excludeItemIds: number[];
}

/** What a similar item is presented from. */
export interface SimilarItemRow {
  id: number;
  name: string;
  folder_path: string;
  file_formats: string | null;
  cover_key: string | null;
  total_size: number;
  owner_id: number;
  visibility: 'shared' | 'private';
  dept_path: string;
  created_at: Date;
  user_name: string;
  /** Of its newest visible finished upload. */
  width: number | null;
  height: number | null;
}

/** An upload of the caller's with its fingerprint, if one is stored yet. */
export interface OwnUpload {
  id: number;
  item_id: number | null;
  /** `FingerprintStatusCode`, or null: none stored yet. */
  fingerprint: number | null;
  /** 16 hex digits, when ready. */
  hash: string | null;
  /** The upload is the only record of its file. */
  sole_record: boolean;
  width: number | null;
  height: number | null;
}

/** One of an item's finished, visible uploads with its fingerprint (newest first). */
export interface ItemUpload {
  id: number;
  fingerprint: number | null;
  /** 16 hex digits, when ready. */
  hash: string | null;
}

/** A neighbour by colour, with its palette distance (OKLab units). */
export interface ColourNeighbour {
  item_id: number;
  colour_distance: number;
}

export interface NearDuplicatePair {
  upload_a: number;
  upload_b: number;
  distance: number;
  colour_distance: number;
}

/** Items read a query when presenting. */
const ITEMS_CHUNK = 5_000;

/** Items whose colours are read per nearby cell, newest first, before the palette ranking (§6). */
export const COLOUR_CANDIDATES = 2_000;

type ItemsEb = ExpressionBuilder<Database, 'items'>;

/** A stored hash (read as `hash::text`, the signed decimal) as 16 hex digits. */
const hexOf = (stored: string | null) => (stored === null ? null : signedToHash(stored));

export class SimilarRepository {
  constructor(private readonly db: Db) {}

  /** Hits within `maxDistance` of `hash` (16 hex digits), nearest first. */
  async lookup(
    hash: string,
    maxDistance: number,
    scope: LookupScope | null,
    limit: number,
  ): Promise<LookupHit[]> {
    return (await this.lookupQuery(hash, maxDistance, scope, limit).execute()) as LookupHit[];
  }

  /** The query of `lookup` (its plan at scale is checked by server/test/query-plans.test.ts). */
  lookupQuery(hash: string, maxDistance: number, scope: LookupScope | null, limit: number) {
    const query = sql`${hashToSigned(hash)}::bigint`;
    const bands = bandsOf(hash);
    const scan = (band: 0 | 1 | 2 | 3) =>
      this.db
        .selectFrom('media_fingerprints')
        .select(['upload_id', 'hash'])
        .where('hash', 'is not', null)
        .where(sql<boolean>`${sql.ref(`b${band}`)} = ANY(${probes(bands[band])}::smallint[])`)
        .where(sql<boolean>`bit_count((hash # ${query})::bit(64)) <= ${maxDistance}::int`);
    const hits = scan(0).union(scan(1)).union(scan(2)).union(scan(3));
    let select = this.db
      .selectFrom(hits.as('h'))
      .innerJoin('uploads', 'uploads.id', 'h.upload_id')
      .innerJoin('items', 'items.id', 'uploads.item_id')
      .select([
        'h.upload_id',
        'uploads.item_id',
        sql<number>`bit_count((h.hash # ${query})::bit(64))::int`.as('distance'),
        'uploads.width',
        'uploads.height',
      ]);
    if (scope) {
      select = select
        .where('uploads.status', '=', UploadStatus.done)
        .where('uploads.hidden', '=', false)
        .where('items.state', '=', ItemState.normal)
        .where((eb) => visibleTo(eb as unknown as ItemsEb, scope.viewer));
      if (scope.excludeItemIds.length > 0) select = select.where('items.id', 'not in', scope.excludeItemIds);
    }
    return select.orderBy('distance').orderBy('h.upload_id').limit(limit);
  }

  /** The stored colours of each upload, heaviest first (uploads without any are absent). */
  async palettes(uploadIds: number[]): Promise<Map<number, PaletteColour[]>> {
    const palettes = new Map<number, PaletteColour[]>();
    if (uploadIds.length === 0) return palettes;
    const rows = await this.db
      .selectFrom('media_colours')
      .select(['upload_id', 'l', 'a', 'b', 'weight'])
      .where('upload_id', 'in', [...new Set(uploadIds)])
      .orderBy('upload_id')
      .orderBy('weight', 'desc')
      .orderBy('slot')
      .execute();
    for (const row of rows) {
      const palette = palettes.get(row.upload_id) ?? [];
      palette.push({ l: row.l, a: row.a, b: row.b, w: row.weight });
      palettes.set(row.upload_id, palette);
    }
    return palettes;
  }

  /** An item's copied colours (from its cover upload), heaviest first. */
  async itemPalette(itemId: number): Promise<PaletteColour[]> {
    const rows = await this.db
      .selectFrom('item_colours')
      .select(['l', 'a', 'b', 'weight'])
      .where('item_id', '=', itemId)
      .orderBy('weight', 'desc')
      .orderBy('slot')
      .execute();
    return rows.map((row) => ({ l: row.l, a: row.a, b: row.b, w: row.weight }));
  }

  /** Live items of `ids` the viewer may see, with what a similar item shows. */
  async items(ids: number[], viewer: Viewer): Promise<SimilarItemRow[]> {
    const unique = [...new Set(ids)];
    // A bind list has at most 65,535 parameters: a report's members are read in chunks.
    const rows: SimilarItemRow[] = [];
    for (let start = 0; start < unique.length; start += ITEMS_CHUNK)
      rows.push(...(await this.itemsOf(unique.slice(start, start + ITEMS_CHUNK), viewer)));
    return rows;
  }

  private async itemsOf(ids: number[], viewer: Viewer): Promise<SimilarItemRow[]> {
    return (await this.db
      .selectFrom('items')
      .innerJoin('users', 'users.id', 'items.owner_id')
      .leftJoinLateral(
        (eb) =>
          eb
            .selectFrom('uploads')
            .select(['uploads.width', 'uploads.height'])
            .whereRef('uploads.item_id', '=', 'items.id')
            .where('uploads.status', '=', UploadStatus.done)
            .where('uploads.hidden', '=', false)
            .orderBy(sql`uploads.completed_at DESC NULLS LAST`)
            .orderBy('uploads.id', 'desc')
            .limit(1)
            .as('newest'),
        (join) => join.onTrue(),
      )
      .select([
        'items.id',
        'items.name',
        'items.folder_path',
        'items.file_formats',
        'items.cover_key',
        'items.total_size',
        'items.owner_id',
        'items.visibility',
        'items.dept_path',
        'items.created_at',
        'users.name as user_name',
        'newest.width',
        'newest.height',
      ])
      .where('items.id', 'in', ids)
      .where('items.state', '=', ItemState.normal)
      .where((eb) => visibleTo(eb as unknown as ItemsEb, viewer))
      .execute()) as SimilarItemRow[];
  }

  /** The item the access rule looks at (any state), or undefined. */
  async itemFacts(itemId: number) {
    return this.db
      .selectFrom('items')
      .select([
        'id',
        'type',
        'owner_id',
        'visibility',
        'dept_path',
        'state',
        'id_path',
        'folder_path',
        'name',
      ])
      .where('id', '=', itemId)
      .executeTakeFirst();
  }

  /** Of `ids`, the uploads of `userId`'s, each with its stored fingerprint if any. */
  async ownUploads(userId: number, ids: number[]): Promise<OwnUpload[]> {
    if (ids.length === 0) return [];
    const rows = (await this.db
      .selectFrom('uploads')
      .leftJoin('media_fingerprints', 'media_fingerprints.upload_id', 'uploads.id')
      .select([
        'uploads.id',
        'uploads.item_id',
        'uploads.width',
        'uploads.height',
        'media_fingerprints.status as fingerprint',
        sql<string | null>`media_fingerprints.hash::text`.as('hash'),
        sql<boolean>`uploads.item_id IS NOT NULL AND NOT EXISTS (
          SELECT 1 FROM uploads other WHERE other.item_id = uploads.item_id AND other.id <> uploads.id)`.as(
          'sole_record',
        ),
      ])
      .where('uploads.id', 'in', [...new Set(ids)])
      .where('uploads.user_id', '=', userId)
      .execute()) as OwnUpload[];
    return rows.map((row) => ({ ...row, hash: hexOf(row.hash) }));
  }

  /** An item's newest `limit` finished, visible uploads with their fingerprints. */
  async itemUploads(itemId: number, limit: number): Promise<ItemUpload[]> {
    const rows = (await this.db
      .selectFrom('uploads')
      .leftJoin('media_fingerprints', 'media_fingerprints.upload_id', 'uploads.id')
      .select([
        'uploads.id',
        'media_fingerprints.status as fingerprint',
        sql<string | null>`media_fingerprints.hash::text`.as('hash'),
      ])
      .where('uploads.item_id', '=', itemId)
      .where('uploads.status', '=', UploadStatus.done)
      .where('uploads.hidden', '=', false)
      .orderBy(sql`uploads.completed_at DESC NULLS LAST`)
      .orderBy('uploads.id', 'desc')
      .limit(limit)
      .execute()) as ItemUpload[];
    return rows.map((row) => ({ ...row, hash: hexOf(row.hash) }));
  }

  /** One upload's stored fingerprint and its item (for the pairs), or undefined. */
  async fingerprintOf(uploadId: number) {
    const row = (await this.db
      .selectFrom('media_fingerprints')
      .innerJoin('uploads', 'uploads.id', 'media_fingerprints.upload_id')
      .select([
        'uploads.item_id',
        'media_fingerprints.status',
        sql<string | null>`media_fingerprints.hash::text`.as('hash'),
      ])
      .where('media_fingerprints.upload_id', '=', uploadId)
      .executeTakeFirst()) as { item_id: number | null; status: number; hash: string | null } | undefined;
    return row && { ...row, hash: hexOf(row.hash) };
  }

  /**
   * Live items the viewer may see that share a colour cell with `cells`, ranked by the palette
   * distance to `palette` (the larger of the two weighted one-way distances, as `paletteDistance`
   * in fingerprint.ts, in OKLab units), within `maxDistance`. The cells are walked newest first
   * through `item_colours_cell_time`, at most `COLOUR_CANDIDATES` items in all.
   */
  async byColour(
    palette: PaletteColour[],
    cells: number[],
    scope: LookupScope,
    maxDistance: number,
    limit: number,
  ): Promise<ColourNeighbour[]> {
    if (palette.length === 0 || cells.length === 0) return [];
    const rows = (await this.colourCandidatesQuery(cells, scope).execute()) as Array<{
      item_id: number;
      created_at: Date;
      colours: Array<{ l: number; a: number; b: number; w: number }>;
    }>;
    // Ranked here, once per candidate (≤ 2,000 × 5 colours): the same palette distance as the
    // upload check's, instead of per-colour subqueries in SQL.
    return rows
      .map((row) => ({ ...row, colour_distance: paletteDistance(palette, row.colours) }))
      .filter((row) => row.colour_distance <= maxDistance)
      .sort(
        (p, q) =>
          p.colour_distance - q.colour_distance ||
          new Date(q.created_at).getTime() - new Date(p.created_at).getTime() ||
          q.item_id - p.item_id,
      )
      .slice(0, limit)
      .map((row) => ({ item_id: row.item_id, colour_distance: row.colour_distance }));
  }

  /**
   * The live, visible items sharing a colour cell with `cells`, the newest 2,000, each with its
   * colours (its plan is printed by bench/similar.ts).
   */
  colourCandidatesQuery(cells: number[], scope: LookupScope) {
    const candidates = sql<{ item_id: number }>`(
      SELECT c.item_id FROM unnest(${cells}::smallint[]) AS wanted(cell)
      CROSS JOIN LATERAL (
        SELECT item_id, created_at FROM item_colours
        WHERE item_colours.cell = wanted.cell
        ORDER BY created_at DESC, item_id DESC LIMIT ${COLOUR_CANDIDATES}::int) c
      GROUP BY c.item_id ORDER BY max(c.created_at) DESC, c.item_id DESC LIMIT ${COLOUR_CANDIDATES}::int)`;
    let query = this.db
      .selectFrom(candidates.as('cand'))
      .innerJoin('items', 'items.id', 'cand.item_id')
      .select([
        'items.id as item_id',
        'items.created_at',
        sql<Array<{ l: number; a: number; b: number; w: number }>>`(
          SELECT coalesce(json_agg(json_build_object('l', ic.l, 'a', ic.a, 'b', ic.b, 'w', ic.weight)), '[]'::json)
          FROM item_colours ic WHERE ic.item_id = items.id)`.as('colours'),
      ])
      .where('items.state', '=', ItemState.normal)
      .where((eb) => visibleTo(eb as unknown as ItemsEb, scope.viewer));
    if (scope.excludeItemIds.length > 0) query = query.where('items.id', 'not in', scope.excludeItemIds);
    return query;
  }

  /** Stores pairs once (`upload_a < upload_b`); returns how many were new. */
  async insertPairs(pairs: NearDuplicatePair[]): Promise<number> {
    if (pairs.length === 0) return 0;
    const result = await this.db
      .insertInto('near_duplicate_pairs')
      .values(pairs)
      .onConflict((oc) => oc.columns(['upload_a', 'upload_b']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0);
  }
}
