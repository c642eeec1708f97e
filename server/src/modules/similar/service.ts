import {
  COLOUR_TOLERANCES,
  colourCell,
  type FingerprintStatus,
  FingerprintStatusCode,
  type PaletteColour,
  paletteDistance,
  SIMILAR_LOOKUPS_PER_MINUTE,
  SIMILAR_MATCHES_MAX,
  SIMILAR_OF_FILE_MAX,
  type SimilarAfterResult,
  type SimilarCheckRequest,
  type SimilarCheckResult,
  type SimilarItem,
  type SimilarOfFileResult,
  type SimilarOfSelectionResult,
} from '@dam/contract';
import { type AuthContext, fileScopeFilter } from '../access/access';
import type { Viewer } from '../access/visibility.repository';
import { canEdit, canSee, requireLiveItem } from '../items/policy';
import type { MediaUrls } from '../media/urls';
import type { RateLimiter } from '../ratelimit/limiter';
import type { ItemUpload, LookupHit, LookupScope, SimilarItemRow, SimilarRepository } from './repository';

/** Rows a lookup reads before the colour check and the grouping per item (plan §3.2). */
const LOOKUP_ROWS = 50;
/** The pairs of the duplicate report are kept up to these, whatever the configured rule (plan §7). */
export const PAIR_MAX_DISTANCE = 11;
export const PAIR_MAX_COLOUR_DISTANCE = 0.3;
/** Hits a pair lookup reads at most. */
const PAIR_LOOKUP_ROWS = 1_000;
/** The newest uploads of a file whose hashes its "similar images" looks up (plan §6). */
const OF_FILE_UPLOADS = 5;
/** Lookups of one similar-check run this many at a time (the pool's connections). */
const LOOKUP_CONCURRENCY = 4;
/**
 * Fingerprint lookups a user may ask for a minute, over the upload dialog's and panel's checks and
 * "similar images" (a lookup is a few to tens of milliseconds of database time: 2,000 keep one user
 * under a core). A batch of 200 files counts 200.
 */
export const LOOKUPS_PER_MINUTE = SIMILAR_LOOKUPS_PER_MINUTE;
/** "Same colours" lists neighbours within the loose colour-search tolerance. */
const BY_COLOUR_MAX_DISTANCE = COLOUR_TOLERANCES.loose;

type CheckedFile = SimilarCheckRequest['files'][number];

export interface SimilarServiceDeps {
  repo: SimilarRepository;
  mediaUrls: MediaUrls;
  limiter: RateLimiter;
  /** SIMILAR_MAX_DISTANCE: bits (0–11). */
  maxDistance: number;
  /** SIMILAR_MAX_COLOUR_DISTANCE: OKLab units (0.08). */
  maxColourDistance: number;
  /** The archive's back-fill progress while it runs (null when done or off); none: always null. */
  progress?: () => Promise<{ done: number; total: number } | null>;
  /** The files uploads came from, by the signed marks a download wrote into them (issue 42). */
  origins?: (uploadIds: number[]) => Promise<Map<number, number>>;
}

/** A match before it is presented: the item, how close, and the matched upload's size. */
export interface Match {
  itemId: number;
  distance: number | null;
  colourDistance: number | null;
  width: number | null;
  height: number | null;
  /** Found by the platform id a download of ours wrote into the upload, not by its pixels. */
  byEmbeddedId?: boolean;
}

const STATUS_OF_CODE = new Map<number, FingerprintStatus>(
  Object.entries(FingerprintStatusCode).map(([status, code]) => [code, status as FingerprintStatus]),
);

/** A stored status code as the contract names it; no row yet is `pending`. */
function statusOf(code: number | null): FingerprintStatus {
  return code === null ? 'pending' : (STATUS_OF_CODE.get(code) ?? 'failed');
}

/**
 * Near-duplicates and similar images (issue 17; docs/plans/issue-17-near-duplicates.md §4–§7, §9).
 * Every answer lists only what the caller's listings would show: live items they may see
 * (`visibleTo`), non-hidden records of finished uploads. A hash is "the same picture" within
 * SIMILAR_MAX_DISTANCE bits *and* SIMILAR_MAX_COLOUR_DISTANCE in palette (when both sides have
 * colours; otherwise the hash alone decides and `colourDistance` is null).
 */
export class SimilarService {
  constructor(private readonly deps: SimilarServiceDeps) {}

  /**
   * The upload dialog's check of fingerprints the browser made: per file, up to 5 items the caller
   * may see that look the same (only files with matches are listed). LOOKUPS_PER_MINUTE files a
   * minute per user.
   */
  async check(auth: AuthContext, files: CheckedFile[]): Promise<SimilarCheckResult> {
    await this.takeLookups(auth, files.length);
    const scope: LookupScope = { viewer: viewerOf(auth), excludeItemIds: [] };
    const hits = await inBatches(files, LOOKUP_CONCURRENCY, (file) =>
      this.deps.repo.lookup(file.hash, this.deps.maxDistance, scope, LOOKUP_ROWS),
    );
    const palettes = await this.deps.repo.palettes(hits.flat().map((hit) => hit.upload_id));
    const matches = files.map((file, index) =>
      this.matchesOf(file.colours, hits[index] ?? [], palettes).slice(0, SIMILAR_MATCHES_MAX),
    );
    const presented = await this.present(auth, matches);
    return {
      maxDistance: this.deps.maxDistance,
      list: files
        .map((file, index) => ({ key: file.key, items: presented[index] ?? [] }))
        .filter((entry) => entry.items.length > 0),
    };
  }

  /**
   * The upload panel's check of the caller's own finished uploads with the server's fingerprints:
   * `pending` while the media job has not stored one. Ids of others' uploads are left out.
   */
  async afterUpload(auth: AuthContext, uploadIds: number[]): Promise<SimilarAfterResult> {
    await this.takeLookups(auth, new Set(uploadIds).size);
    const own = new Map(
      (await this.deps.repo.ownUploads(auth.userId, uploadIds)).map((row) => [row.id, row]),
    );
    const ids = [...new Set(uploadIds)].filter((id) => own.has(id));
    const viewer = viewerOf(auth);
    const comparable = ids
      .map((id) => own.get(id)!)
      .filter((row) => row.hash !== null && row.item_id !== null);
    const hits = new Map<number, LookupHit[]>();
    const found = await inBatches(comparable, LOOKUP_CONCURRENCY, (row) =>
      this.deps.repo.lookup(
        row.hash as string,
        this.deps.maxDistance,
        { viewer, excludeItemIds: [row.item_id as number] },
        LOOKUP_ROWS,
      ),
    );
    for (const [index, row] of comparable.entries()) hits.set(row.id, found[index] ?? []);
    const palettes = await this.deps.repo.palettes([
      ...comparable.map((row) => row.id),
      ...found.flat().map((hit) => hit.upload_id),
    ]);
    const origins = (await this.deps.origins?.(ids)) ?? new Map<number, number>();
    const matches = ids.map((id) => {
      const found = this.matchesOf(palettes.get(id) ?? [], hits.get(id) ?? [], palettes);
      // The file a download of ours came from goes first (shown only if the caller may see it).
      const origin = origins.get(id);
      if (origin === undefined || origin === own.get(id)?.item_id) return found.slice(0, SIMILAR_MATCHES_MAX);
      const byId: Match = { itemId: origin, distance: null, colourDistance: null, width: null, height: null };
      const rest = found.filter((match) => match.itemId !== origin);
      return [{ ...byId, byEmbeddedId: true }, ...rest].slice(0, SIMILAR_MATCHES_MAX);
    });
    const presented = await this.present(auth, matches);
    return ids.map((id, index) => ({
      id,
      fingerprint: statusOf(own.get(id)?.fingerprint ?? null),
      items: presented[index] ?? [],
      itemId: own.get(id)?.item_id ?? null,
      soleRecord: own.get(id)?.sole_record === true,
      width: own.get(id)?.width ?? null,
      height: own.get(id)?.height ?? null,
    }));
  }

  /**
   * A file's "similar images": near-duplicates of its newest 5 visible uploads (merged by item,
   * itself left out) and up to 20 neighbours by colour. SE_404 for a file the caller may not see,
   * SEF_04 for one in the recycle bin.
   */
  async ofFile(auth: AuthContext, itemId: number): Promise<SimilarOfFileResult> {
    requireLiveItem(auth, await this.deps.repo.itemFacts(itemId));
    await this.takeLookups(auth, OF_FILE_UPLOADS);
    const progress = this.deps.progress ? await this.deps.progress() : null;
    const uploads = await this.deps.repo.itemUploads(itemId, OF_FILE_UPLOADS);
    const newest = uploads[0];
    if (!newest) return { fingerprint: 'none', progress, near: [], byColour: [] };
    const scope: LookupScope = { viewer: viewerOf(auth), excludeItemIds: [itemId] };
    const ready = uploads.filter((upload) => upload.hash !== null);
    const found = await inBatches(ready, LOOKUP_CONCURRENCY, (upload) =>
      this.deps.repo.lookup(upload.hash as string, this.deps.maxDistance, scope, LOOKUP_ROWS),
    );
    const palettes = await this.deps.repo.palettes([
      ...uploads.map((upload) => upload.id),
      ...found.flat().map((hit) => hit.upload_id),
    ]);
    const near = bestPerItem(
      ready.flatMap((upload, index) =>
        this.matchesOf(palettes.get(upload.id) ?? [], found[index] ?? [], palettes),
      ),
    ).slice(0, SIMILAR_OF_FILE_MAX);

    // Colours: the item's own (copied from its cover), else its newest upload's.
    let palette = await this.deps.repo.itemPalette(itemId);
    if (palette.length === 0) palette = palettes.get(newest.id) ?? [];
    const cells = [...new Set(palette.slice(0, 2).map((colour) => colourCell(colour.l, colour.a, colour.b)))];
    const neighbours = await this.deps.repo.byColour(
      palette,
      cells,
      { viewer: scope.viewer, excludeItemIds: [itemId, ...near.map((match) => match.itemId)] },
      BY_COLOUR_MAX_DISTANCE,
      SIMILAR_OF_FILE_MAX,
    );
    const byColour: Match[] = neighbours.map((row) => ({
      itemId: row.item_id,
      distance: null,
      colourDistance: Math.round(row.colour_distance * 1000),
      width: null,
      height: null,
    }));
    const [presentedNear = [], presentedByColour = []] = await this.present(auth, [near, byColour]);
    return {
      fingerprint: statusOf(newest.fingerprint),
      progress,
      near: presentedNear,
      byColour: presentedByColour,
    };
  }

  /**
   * The selection menu's "similar images": per selected file the caller may see (others are left
   * out), the near-duplicates of its newest fingerprinted record. One lookup a file, from the same
   * budget as the checks.
   */
  async ofSelection(auth: AuthContext, itemIds: number[]): Promise<SimilarOfSelectionResult> {
    const ids = [...new Set(itemIds)];
    await this.takeLookups(auth, ids.length);
    const viewer = viewerOf(auth);
    const visible = new Set((await this.deps.repo.items(ids, viewer)).map((row) => row.id));
    const chosen = ids.filter((id) => visible.has(id));
    // Each file's newest fingerprinted record and its lookup, a few files at a time.
    const newest = new Map<number, ItemUpload>();
    const found = await inBatches(chosen, LOOKUP_CONCURRENCY, async (id) => {
      const upload = (await this.deps.repo.itemUploads(id, OF_FILE_UPLOADS)).find((row) => row.hash !== null);
      if (!upload) return [];
      newest.set(id, upload);
      return this.deps.repo.lookup(
        upload.hash as string,
        this.deps.maxDistance,
        { viewer, excludeItemIds: [id] },
        LOOKUP_ROWS,
      );
    });
    const palettes = await this.deps.repo.palettes([
      ...[...newest.values()].map((upload) => upload.id),
      ...found.flat().map((hit) => hit.upload_id),
    ]);
    const matches = chosen.map((id, index) =>
      this.matchesOf(palettes.get(newest.get(id)?.id ?? -1) ?? [], found[index] ?? [], palettes).slice(
        0,
        SIMILAR_MATCHES_MAX,
      ),
    );
    const presented = await this.present(auth, matches);
    return { groups: chosen.map((id, index) => ({ folderDataId: id, near: presented[index] ?? [] })) };
  }

  /**
   * Stores the near-duplicate pairs of one upload's fingerprint for the duplicate report (plan §7):
   * every fingerprint within 11 bits and 0.3 in palette, whoever may see it, except the upload's
   * own item's records. Run after a fingerprint is stored; running it again adds nothing. Returns
   * how many pairs were new. The media job passes the hash and file it has just stored, which
   * saves reading them back.
   */
  async recordPairs(uploadId: number, known?: { hash: string; item_id: number }): Promise<number> {
    const own = known ?? (await this.deps.repo.fingerprintOf(uploadId));
    if (!own || own.hash === null || own.item_id === null) return 0;
    const hits = (await this.deps.repo.lookup(own.hash, PAIR_MAX_DISTANCE, null, PAIR_LOOKUP_ROWS)).filter(
      (hit) => hit.upload_id !== uploadId && hit.item_id !== own.item_id,
    );
    if (hits.length === 0) return 0;
    const palettes = await this.deps.repo.palettes([uploadId, ...hits.map((hit) => hit.upload_id)]);
    const mine = palettes.get(uploadId) ?? [];
    const pairs = hits.flatMap((hit) => {
      const colour = paletteDistance(mine, palettes.get(hit.upload_id) ?? []);
      if (!(colour <= PAIR_MAX_COLOUR_DISTANCE)) return [];
      return [
        {
          upload_a: Math.min(uploadId, hit.upload_id),
          upload_b: Math.max(uploadId, hit.upload_id),
          distance: hit.distance,
          colour_distance: Math.round(colour * 1000),
        },
      ];
    });
    return this.deps.repo.insertPairs(pairs);
  }

  /**
   * The hits that pass the colour check against `palette`, one per item (its nearest record),
   * nearest first. Either side without colours: the hash alone decides.
   */
  private matchesOf(
    palette: PaletteColour[],
    hits: LookupHit[],
    palettes: Map<number, PaletteColour[]>,
  ): Match[] {
    const matches: Match[] = [];
    for (const hit of hits) {
      const other = palettes.get(hit.upload_id) ?? [];
      let colourDistance: number | null = null;
      if (palette.length > 0 && other.length > 0) {
        const distance = paletteDistance(palette, other);
        if (!(distance <= this.deps.maxColourDistance)) continue;
        colourDistance = Math.round(distance * 1000);
      }
      matches.push({
        itemId: hit.item_id,
        distance: hit.distance,
        colourDistance,
        width: hit.width,
        height: hit.height,
      });
    }
    return bestPerItem(matches);
  }

  /** Counts `lookups` against the user's budget a minute (SE_429 beyond it). */
  private async takeLookups(auth: AuthContext, lookups: number): Promise<void> {
    await this.deps.limiter.take([
      { key: `similar:${auth.userId}`, max: LOOKUPS_PER_MINUTE, windowMs: 60_000, cost: lookups },
    ]);
  }

  /** Each list of matches as the caller sees them (one items read for all), in the lists' order. */
  async present(auth: AuthContext, lists: Match[][]): Promise<SimilarItem[][]> {
    const rows = await this.deps.repo.items(
      lists.flat().map((match) => match.itemId),
      viewerOf(auth),
    );
    const byId = new Map(rows.map((row) => [row.id, row]));
    const urls = new Map<number, string | null>();
    for (const row of rows) urls.set(row.id, await this.deps.mediaUrls.urlOf(row.cover_key, auth));
    return lists.map((matches) =>
      matches.flatMap((match) => {
        const row = byId.get(match.itemId);
        return row ? [presentSimilar(row, match, urls.get(row.id) ?? null, auth)] : [];
      }),
    );
  }
}

function viewerOf(auth: AuthContext): Viewer {
  return { userId: auth.userId, view: fileScopeFilter(auth, 'view') };
}

/** One match per item, the nearest (then the closest in colour), nearest first. */
function bestPerItem(matches: Match[]): Match[] {
  const best = new Map<number, Match>();
  for (const match of matches) {
    const current = best.get(match.itemId);
    if (!current || compareMatches(match, current) < 0) best.set(match.itemId, match);
  }
  return [...best.values()].sort(compareMatches);
}

function compareMatches(p: Match, q: Match): number {
  return (
    (p.distance ?? 65) - (q.distance ?? 65) ||
    (p.colourDistance ?? 1001) - (q.colourDistance ?? 1001) ||
    p.itemId - q.itemId
  );
}

function presentSimilar(
  row: SimilarItemRow,
  match: Match,
  compactUrl: string | null,
  auth: AuthContext,
): SimilarItem {
  return {
    id: row.id,
    name: row.name,
    path: row.folder_path,
    fileFormat: row.file_formats,
    compactUrl,
    fileSize: row.total_size,
    width: match.width ?? row.width,
    height: match.height ?? row.height,
    userName: row.user_name,
    createdAt: row.created_at.toISOString(),
    distance: match.distance,
    colourDistance: match.colourDistance,
    ...(match.byEmbeddedId ? { byEmbeddedId: true } : {}),
    // The rule that offers "upload a new version" today (items/presenter: a file's 'upload').
    canAddVersion: canSee(auth, row) && canEdit(auth, row),
  };
}

/** `work` over `values`, `size` at a time, results in order. */
async function inBatches<T, R>(values: T[], size: number, work: (value: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < values.length; start += size)
    results.push(...(await Promise.all(values.slice(start, start + size).map(work))));
  return results;
}
