import {
  type BatchDownloadRequest,
  COLLECTION_ITEMS_MAX,
  type CollectionDownloadPayload,
  type CollectionItemsPage,
  type CollectionMemberRole,
  type CollectionMembers,
  type CollectionSummary,
  ItemState,
} from '@dam/contract';
import { isUniqueViolation } from '../../db/sql-helpers';
import { AppError, coded, invalidField } from '../../http/app-error';
import type { Clock } from '../../lib/clock';
import type { AuthContext } from '../access/access';
import { type ItemPresenter, type Paging, pageOf, pageWindow, viewerOf } from '../items/item-pages';
import { type CollectionRow, type CollectionsRepository, type MemberRow, POSITION_STEP } from './repository';

export interface CollectionsDependencies {
  repo: CollectionsRepository;
  presenter: ItemPresenter;
  clock: Clock;
}

/** What a change did, for the operation log: the collection's name and id, and what changed. */
export interface CollectionChange {
  id: number;
  name: string;
  items?: number[];
  details?: Record<string, unknown>;
}

/** An add or a remove: the references it changed, and how many the collection holds after it. */
export type ItemsChange = CollectionChange & { items: number[]; itemCount: number };

const membersView = (row: CollectionRow, members: MemberRow[]): CollectionMembers => ({
  ownerId: row.owner_id,
  ownerName: row.owner_name,
  members: members.map((m) => ({ userId: m.user_id, name: m.name, email: m.email, role: m.role })),
});

/** Every item may be added by the caller: seen by them (else SE_404), and live (else SEF_04). */
async function requireAddable(repo: CollectionsRepository, auth: AuthContext, itemIds: readonly number[]) {
  const found = await repo.visibleItems(itemIds, viewerOf(auth));
  if (found.length !== itemIds.length) throw new AppError('SE_404');
  if (found.some((item) => item.state !== ItemState.normal)) throw new AppError('SEF_04');
}

/** Below this gap between neighbours a move renumbers the collection first. */
const MIN_GAP = 1e-6;

const summaryOf = (row: CollectionRow): CollectionSummary => ({
  id: row.id,
  name: row.name,
  description: row.description,
  ownerId: row.owner_id,
  ownerName: row.owner_name,
  role: row.role,
  itemCount: row.item_count,
  memberCount: row.member_count,
  updatedAt: row.updated_at.toISOString(),
});

/**
 * Collections (issue 43). Who may do what: the owner everything; editors add, remove, order and
 * rename; viewers look. A collection the caller is not in is unknown to them (SE_404, as a file
 * they may not see). Adding needs a live item the caller may see; listing shows each caller only
 * what they may see and counts the rest, so a collection never widens access. Every change runs in
 * one transaction with the collection's row locked: concurrent changes queue, none is lost.
 */
export class CollectionsService {
  constructor(private readonly deps: CollectionsDependencies) {}

  async list(auth: AuthContext): Promise<CollectionSummary[]> {
    return (await this.deps.repo.listFor(auth.userId)).map(summaryOf);
  }

  /** Makes a collection, with its first items when given: all in one transaction, or nothing. */
  async create(
    auth: AuthContext,
    name: string,
    description = '',
    itemIds: readonly number[] = [],
  ): Promise<{ summary: CollectionSummary; change: ItemsChange }> {
    try {
      return await this.deps.repo.transaction(async (repo) => {
        const id = await repo.create(auth.userId, name, description);
        const items = [...new Set(itemIds)];
        if (items.length > 0) {
          await requireAddable(repo, auth, items);
          await repo.append(id, items, auth.userId, this.deps.clock.now());
        }
        const summary = summaryOf((await repo.findFor(id, auth.userId)) as CollectionRow);
        return { summary, change: { id, name: summary.name, items, itemCount: items.length } };
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('SECO_01');
      throw error;
    }
  }

  async edit(auth: AuthContext, id: number, name: string, description?: string): Promise<CollectionChange> {
    try {
      // The owner's: names are unique among the owner's collections, and an editor told "taken"
      // would learn the names of the owner's other collections.
      return await this.change(auth, id, 'own', async (repo, row) => {
        const next = description ?? row.description;
        await repo.rename(id, name, next, this.deps.clock.now());
        const changes: Record<string, unknown> = {};
        if (row.name !== name) changes.name = [row.name, name];
        if (row.description !== next) changes.description = [row.description, next];
        return { id, name, details: { changes } };
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('SECO_01');
      throw error;
    }
  }

  async delete(auth: AuthContext, id: number): Promise<CollectionChange> {
    return this.change(auth, id, 'own', async (repo, row) => {
      await repo.delete(id);
      return { id, name: row.name, details: { itemCount: row.item_count } };
    });
  }

  async summary(auth: AuthContext, id: number): Promise<CollectionSummary> {
    return summaryOf(await this.require(auth, id));
  }

  async members(auth: AuthContext, id: number): Promise<CollectionMembers> {
    const row = await this.require(auth, id);
    return membersView(row, await this.deps.repo.members(id));
  }

  /** Replaces the member list (the owner's): accounts in use only, never the owner. */
  async saveMembers(
    auth: AuthContext,
    id: number,
    wanted: ReadonlyArray<{ userId: number; role: CollectionMemberRole }>,
  ): Promise<{ members: CollectionMembers; change: CollectionChange }> {
    const byUser = new Map(wanted.filter((m) => m.userId !== auth.userId).map((m) => [m.userId, m.role]));
    return this.change(auth, id, 'own', async (repo, row) => {
      const before = await repo.members(id);
      // Those already in may stay (an account disabled since is let go by the owner, not by error).
      const fresh = [...byUser.keys()].filter((userId) => !before.some((m) => m.user_id === userId));
      const active = await repo.activeUsers(fresh);
      const unknown = fresh.find((userId) => !active.has(userId));
      if (unknown !== undefined) throw invalidField('members', 'unknownMember', { value: unknown });
      const next = [...byUser].map(([userId, role]) => ({ userId, role }));
      await repo.replaceMembers(id, next, this.deps.clock.now());
      const after = await repo.members(id);
      const beforeRole = new Map(before.map((m) => [m.user_id, m.role]));
      const label = (m: MemberRow) => `${m.name} (${m.role})`;
      const details = {
        added: after.filter((m) => !beforeRole.has(m.user_id)).map(label),
        changed: after
          .filter((m) => beforeRole.has(m.user_id) && beforeRole.get(m.user_id) !== m.role)
          .map(label),
        removed: before.filter((m) => !byUser.has(m.user_id)).map((m) => m.name),
      };
      return { members: membersView(row, after), change: { id, name: row.name, details } };
    });
  }

  async items(auth: AuthContext, id: number, paging: Paging): Promise<CollectionItemsPage> {
    const row = await this.require(auth, id);
    const viewer = viewerOf(auth);
    const { limit, offset } = pageWindow(paging);
    const [rows, visible] = await Promise.all([
      this.deps.repo.page(id, viewer, limit, offset),
      this.deps.repo.visibleCount(id, viewer),
    ]);
    return {
      collection: summaryOf(row),
      ...pageOf(await this.deps.presenter.present(rows, auth), paging),
      hiddenCount: Math.max(0, row.item_count - visible),
    };
  }

  /** Adds live items the caller may see; one they may not see fails the whole call (SE_404). */
  async add(auth: AuthContext, id: number, itemIds: readonly number[]): Promise<ItemsChange> {
    const unique = [...new Set(itemIds)];
    return this.change(auth, id, 'edit', async (repo, row) => {
      await requireAddable(repo, auth, unique);
      const present = await repo.present(id, unique);
      const added = unique.filter((itemId) => !present.has(itemId));
      if (row.item_count + added.length > COLLECTION_ITEMS_MAX)
        throw coded('SECO_02', { max: COLLECTION_ITEMS_MAX, count: row.item_count, adding: added.length });
      if (added.length > 0) await repo.append(id, added, auth.userId, this.deps.clock.now());
      const itemCount = row.item_count + added.length;
      return { id, name: row.name, items: added, itemCount, details: { itemCount } };
    });
  }

  /**
   * Removes references to items the caller may see; one they may not see is as absent (no change):
   * nobody learns through a removal what a collection holds beyond what they see.
   */
  async remove(auth: AuthContext, id: number, itemIds: readonly number[]): Promise<ItemsChange> {
    const unique = [...new Set(itemIds)];
    return this.change(auth, id, 'edit', async (repo, row) => {
      const present = await repo.presentAndVisible(id, unique, viewerOf(auth));
      const removed = present.length > 0 ? await repo.remove(id, present, this.deps.clock.now()) : 0;
      const itemCount = row.item_count - removed;
      return { id, name: row.name, items: present, itemCount, details: { itemCount } };
    });
  }

  /**
   * What a share link of the collection is made from: any member may share it (a viewer included:
   * the link shows only what the sharer may share, at each visit), with the live items they see now,
   * each of which the share service requires to be theirs to share. A stranger gets SE_404.
   */
  async shareScope(auth: AuthContext, id: number): Promise<{ id: number; name: string; itemIds: number[] }> {
    const row = await this.require(auth, id);
    return { id, name: row.name, itemIds: await this.deps.repo.visibleIds(id, viewerOf(auth)) };
  }

  /**
   * The batch download of every live item of the collection the caller may see (folders with their
   * files), with the formats and settings asked for; the downloads service checks each file's
   * download permission. Nothing to see: SECO_03.
   */
  async downloadRequest(auth: AuthContext, body: CollectionDownloadPayload): Promise<BatchDownloadRequest> {
    await this.require(auth, body.id);
    const itemIds = await this.deps.repo.visibleIds(body.id, viewerOf(auth));
    if (itemIds.length === 0) throw new AppError('SECO_03');
    const formats = body.formats.includes('all') ? [] : [...new Set(body.formats)];
    return {
      folderDataIdList: [],
      downloadFolderDataDTOList: itemIds.map((folderDataId) => ({ folderDataId, fileFormatList: formats })),
      uploadIdList: [],
      isShareDownload: 0,
      ...(body.equalScalingPx ? { equalScalingPx: body.equalScalingPx } : {}),
      ...(body.presetId ? { presetId: body.presetId } : {}),
      ...(body.metadata ? { metadata: body.metadata } : {}),
      ...(body.xmpSidecars ? { xmpSidecars: body.xmpSidecars } : {}),
    };
  }

  /** Drag and drop: `itemId` just before `beforeItemId`, or last (null). */
  async move(
    auth: AuthContext,
    id: number,
    itemId: number,
    beforeItemId: number | null,
  ): Promise<CollectionChange | null> {
    return this.change(auth, id, 'edit', async (repo, row) => {
      // Both ends must be references the caller sees: a hidden one is as absent.
      const named = beforeItemId === null ? [itemId] : [itemId, beforeItemId];
      const seen = await repo.presentAndVisible(id, named, viewerOf(auth));
      if (seen.length !== new Set(named).size) throw new AppError('SE_404');
      if (beforeItemId === itemId) return null;
      let place = await this.placeBefore(repo, id, beforeItemId);
      if (place === null) {
        await repo.renumber(id);
        place = (await this.placeBefore(repo, id, beforeItemId)) as number;
      }
      await repo.setPosition(id, itemId, place);
      await repo.touch(id, this.deps.clock.now());
      return { id, name: row.name, items: [itemId], details: { beforeItemId } };
    });
  }

  /** A position just before `beforeItemId` (or after the last); null when the gap is too small. */
  private async placeBefore(repo: CollectionsRepository, id: number, beforeItemId: number | null) {
    if (beforeItemId === null) return ((await repo.neighbourBefore(id)) ?? 0) + POSITION_STEP;
    const next = await repo.positionOf(id, beforeItemId);
    if (next === undefined) throw new AppError('SE_404');
    const previous = (await repo.neighbourBefore(id, next)) ?? next - 2 * POSITION_STEP;
    return next - previous < MIN_GAP ? null : (previous + next) / 2;
  }

  /** The collection as the caller may know it, or SE_404. */
  private async require(auth: AuthContext, id: number): Promise<CollectionRow> {
    const row = await this.deps.repo.findFor(id, auth.userId);
    if (!row) throw new AppError('SE_404');
    return row;
  }

  /**
   * A change under the collection's lock: `edit` needs owner or editor, `own` the owner; a viewer
   * gets SE_502 (they know the collection), a stranger SE_404.
   */
  private change<T>(
    auth: AuthContext,
    id: number,
    right: 'edit' | 'own',
    work: (repo: CollectionsRepository, row: CollectionRow) => Promise<T>,
  ): Promise<T> {
    return this.deps.repo.transaction(async (repo) => {
      const row = await repo.findFor(id, auth.userId, true);
      if (!row) throw new AppError('SE_404');
      const allowed = right === 'own' ? row.role === 'owner' : row.role !== 'viewer';
      if (!allowed) throw new AppError('SE_502');
      return work(repo, row);
    });
  }
}
