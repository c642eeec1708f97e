import {
  type AssetChangeKind,
  OPEN_CHANGES_KEPT_DAYS,
  type OpenAssetSummary,
  type OpenChangesPage,
  type openChangesQuerySchema,
} from '@dam/contract';
import type { z } from 'zod';
import { AppError } from '../../../http/app-error';
import type { Clock } from '../../../lib/clock';
import type { AuthContext } from '../../access/access';
import { canSee } from '../../items/policy';
import {
  decodeChangeCursor,
  encodeChangeCursor,
  JOURNAL_START,
  type JournalPosition,
  positionBefore,
} from './cursor';
import type { JournalPage } from './repository';

const DAY_MS = 86_400_000;

export interface OpenChangesDependencies {
  repo: {
    changesAfter(after: JournalPosition, limit: number, since?: Date | null): Promise<JournalPage>;
    sweptUpTo(): Promise<JournalPosition | null>;
    sweep(cutoff: Date): Promise<number>;
  };
  /** The items as they are now (the open asset calls' view of them). */
  assets: {
    currentOf(
      auth: AuthContext,
      ids: readonly number[],
    ): Promise<Map<number, { visible: boolean; summary: OpenAssetSummary | null }>>;
  };
  clock: Clock;
}

/**
 * "What changed since" for the open API (issue 15): the asset journal (migration 023) read in
 * commit-safe order. Entries the record's user cannot see are left out (judged by the file as it
 * is now; a purged file by who could see it when it was last written); the cursor still moves past
 * them, so a page may hold fewer entries than asked while `hasMore` is true.
 */
export class OpenChangesService {
  constructor(private readonly deps: OpenChangesDependencies) {}

  async page(auth: AuthContext, query: z.output<typeof openChangesQuerySchema>): Promise<OpenChangesPage> {
    const cursor = query.cursor ? decodeChangeCursor(query.cursor) : null;
    const since = !cursor && query.since ? new Date(query.since) : null;
    const swept = await this.deps.repo.sweptUpTo();
    if (swept) {
      // Entries after the caller's place were deleted: it has missed some and must resynchronise.
      if (cursor && positionBefore(cursor, swept)) throw new AppError('SEOA_07');
      if (since && since.getTime() < this.deps.clock.now().getTime() - OPEN_CHANGES_KEPT_DAYS * DAY_MS) {
        throw new AppError('SEOA_07');
      }
    }
    const read = await this.deps.repo.changesAfter(cursor ?? JOURNAL_START, query.limit + 1, since);
    const rows = read.rows.slice(0, query.limit);
    const hasMore = read.rows.length > query.limit;
    const last = rows[rows.length - 1];
    // An empty page ends where everything has been read: before the oldest transaction still
    // open. A caller holding a cursor keeps it (nothing lies between it and that place).
    const next: JournalPosition = last
      ? { txid: last.txid, id: last.id }
      : (cursor ?? { txid: read.horizon, id: '0' });
    const current = await this.deps.assets.currentOf(
      auth,
      rows.map((row) => row.item_id),
    );
    const list = rows.flatMap((row) => {
      const now = current.get(row.item_id);
      const visible = now ? now.visible : canSee(auth, row);
      if (!visible) return [];
      return [
        {
          assetId: row.item_id,
          kinds: row.kinds as AssetChangeKind[],
          changedAt: row.changed_at.toISOString(),
          asset: now?.summary ?? null,
        },
      ];
    });
    return { list, nextCursor: encodeChangeCursor(next), hasMore };
  }

  /** The hourly retention sweep: entries older than OPEN_CHANGES_KEPT_DAYS go. */
  sweep(): Promise<number> {
    return this.deps.repo.sweep(new Date(this.deps.clock.now().getTime() - OPEN_CHANGES_KEPT_DAYS * DAY_MS));
  }
}
