import {
  type CreateSharePayload,
  type CreateShareResult,
  type Item,
  type MyShareList,
  NEW_SHARE_ITEMS_SHOWN,
  type NewShareList,
  SHARE_LIST_NAMES_SHOWN,
  SHARE_VALIDITY_HOURS,
  ShareType,
  shareUrlOf,
} from '@dam/contract';
import { AppError } from '../../http/app-error';
import { type Clock, calendarDate } from '../../lib/clock';
import { type AuthContext, fileScopeFilter } from '../access/access';
import type { Viewer } from '../access/visibility.repository';
import { type Paging, pageOf, pageWindow } from '../items/item-pages';
import { canShare, requireLiveItem } from '../items/policy';
import { presentItem } from '../items/presenter';
import type { ItemsRepository, ItemWithOwner } from '../items/repository';
import type { MediaUrls } from '../media/urls';
import { HOUR_MS, newShareCode, newSharePassword, outermost, statusOf } from './link-rules';
import type { SharesRepository } from './repository';

export interface SharesDependencies {
  shares: SharesRepository;
  items: ItemsRepository;
  mediaUrls: MediaUrls;
  clock: Clock;
  timeZone: string;
}

/**
 * Share links from the signed-in side (SPEC §2, §7): making them, the owner's list ("my shares"),
 * stopping them, and the latest shares of everyone. What a visitor sees through a link is
 * ShareVisitorService (visitor.ts).
 */
export class SharesService {
  constructor(private readonly deps: SharesDependencies) {}

  private now(): Date {
    return this.deps.clock.now();
  }

  private today(): string {
    return calendarDate(this.now(), this.deps.timeZone);
  }

  /**
   * SPEC §7 produce-random-code. Every id must be a live item the caller may share (unknown
   * or hidden SE_404, in the recycle bin SEF_04, no share permission SE_502); otherwise
   * nothing is created.
   */
  async create(auth: AuthContext, body: CreateSharePayload): Promise<CreateShareResult> {
    const rows = await this.requireShareable(auth, [...new Set(body.folderIds)]);
    return this.insertLink(
      auth,
      body,
      outermost(rows).map((r) => r.id),
      null,
    );
  }

  /**
   * A collection's link (issue 43): live, it shows the collection's items of each visit that its
   * owner may share then (visitor.ts). Made with the rule of produce-random-code for what the
   * collection shows the caller now (`itemIds`: its live items they see): each must be theirs to
   * share (SE_502), so a collection never shares what a listing would refuse. An empty collection
   * may be shared: what is added later shows.
   */
  async createForCollection(
    auth: AuthContext,
    collection: { id: number; itemIds: readonly number[] },
    body: Omit<CreateSharePayload, 'folderIds'>,
  ): Promise<CreateShareResult> {
    await this.requireShareable(auth, [...new Set(collection.itemIds)]);
    return this.insertLink(auth, body, [], collection.id);
  }

  /** Every id a live item the caller may share (unknown or hidden SE_404, recycle bin SEF_04, else SE_502). */
  private async requireShareable(auth: AuthContext, ids: number[]): Promise<ItemWithOwner[]> {
    const found = new Map((await this.deps.items.findByIds(ids, auth.userId)).map((r) => [r.id, r]));
    const rows = ids.map((id) => found.get(id));
    for (const row of rows) if (!canShare(auth, requireLiveItem(auth, row))) throw new AppError('SE_502');
    return rows as ItemWithOwner[];
  }

  private async insertLink(
    auth: AuthContext,
    body: Omit<CreateSharePayload, 'folderIds'>,
    itemIds: number[],
    collectionId: number | null,
  ): Promise<CreateShareResult> {
    const now = this.now();
    const hours = SHARE_VALIDITY_HOURS[body.expireTime];
    const share = await this.deps.shares.insert(
      {
        code: newShareCode(),
        owner_id: auth.userId,
        password: body.needPassword === ShareType.password ? newSharePassword() : null,
        validity: body.expireTime,
        expires_at: hours === null ? null : new Date(now.getTime() + hours * HOUR_MS),
        created_at: now,
        collection_id: collectionId,
      },
      itemIds,
    );
    return {
      id: share.id,
      code: share.code,
      url: shareUrlOf(share.code),
      password: share.password,
      needPassword: share.password !== null,
      validity: share.validity,
      createdAt: share.created_at.toISOString(),
      expiresAt: share.expires_at?.toISOString() ?? null,
    };
  }

  /** "My shares" (/myshare): the caller's links, newest first, with their state of this moment. */
  async listMine(auth: AuthContext, paging: Paging): Promise<MyShareList> {
    const { limit, offset } = pageWindow(paging);
    const rows = await this.deps.shares.listOwned(auth.userId, limit, offset);
    const shown = rows.slice(0, paging.pageSize);
    const items = await this.deps.shares.liveItemsOf(shown.map((r) => r.id));
    const now = this.now();
    const list = await Promise.all(
      shown.map(async (share) => {
        const own = items.filter((i) => i.share_id === share.id);
        return {
          id: share.id,
          code: share.code,
          url: shareUrlOf(share.code),
          needPassword: share.password !== null,
          password: share.password,
          validity: share.validity,
          createdAt: share.created_at.toISOString(),
          expiresAt: share.expires_at?.toISOString() ?? null,
          status: statusOf(share, now),
          itemCount: own.length,
          itemNames: own.slice(0, SHARE_LIST_NAMES_SHOWN).map((i) => i.name),
          coverUrl: await this.deps.mediaUrls.urlOf(own.find((i) => i.cover_key)?.cover_key ?? null, auth),
          firstItemType: own[0]?.type ?? null,
          viewCount: share.view_count,
          downloadCount: share.download_count,
          collectionName: share.collection_name,
        };
      }),
    );
    return { ...pageOf(list, paging), hasMore: rows.length > paging.pageSize };
  }

  /**
   * Stops one of the caller's links; stopping it again changes nothing. Someone else's link named by
   * id answers SESH_01 like an unknown id (ids cannot be probed); named by its code, which its
   * holder can open anyway, SE_502.
   */
  async cancel(
    auth: AuthContext,
    ref: { code?: string | undefined; id?: number | undefined },
  ): Promise<void> {
    const share =
      ref.code !== undefined
        ? await this.deps.shares.findByCode(ref.code)
        : await this.deps.shares.findById(ref.id as number);
    if (!share || (ref.id !== undefined && share.id !== ref.id)) throw new AppError('SESH_01');
    if (share.owner_id !== auth.userId) throw new AppError(ref.code !== undefined ? 'SE_502' : 'SESH_01');
    await this.deps.shares.stop(share.id, this.now());
  }

  /**
   * "Latest shares" (/newShare): live links of anyone, newest first, that name at least one live
   * item the caller can see; only those items are listed, presented for the caller (opening one
   * uses the caller's own access, never the link, whose code and password stay the owner's).
   */
  async latest(auth: AuthContext, paging: Paging): Promise<NewShareList> {
    const viewer: Viewer = { userId: auth.userId, view: fileScopeFilter(auth, 'view') };
    const { limit, offset } = pageWindow(paging);
    const rows = await this.deps.shares.listLiveVisible(viewer, this.now(), limit, offset);
    const shown = rows.slice(0, paging.pageSize);
    const visible = await this.deps.shares.visibleItemsOf(
      shown.map((r) => r.id),
      viewer,
    );
    const idsOf = new Map<number, number[]>();
    for (const v of visible) idsOf.set(v.share_id, [...(idsOf.get(v.share_id) ?? []), v.item_id]);
    const wanted = [
      ...new Set(shown.flatMap((r) => (idsOf.get(r.id) ?? []).slice(0, NEW_SHARE_ITEMS_SHOWN))),
    ];
    const byId = new Map((await this.deps.items.findByIds(wanted, auth.userId)).map((r) => [r.id, r]));
    const today = this.today();
    const list = await Promise.all(
      shown.map(async (share) => {
        const ids = idsOf.get(share.id) ?? [];
        const rowsShown = ids
          .slice(0, NEW_SHARE_ITEMS_SHOWN)
          .map((id) => byId.get(id))
          .filter((r): r is ItemWithOwner => r !== undefined);
        const items: Item[] = await Promise.all(
          rowsShown.map(async (row) => ({
            ...presentItem(row, auth, today),
            compactUrl: await this.deps.mediaUrls.urlOf(row.cover_key, auth),
          })),
        );
        return {
          id: share.id,
          ownerId: share.owner_id,
          ownerName: share.owner_name,
          createdAt: share.created_at.toISOString(),
          expiresAt: share.expires_at?.toISOString() ?? null,
          itemCount: ids.length,
          items,
          coverUrl: items.find((i) => i.compactUrl)?.compactUrl ?? null,
        };
      }),
    );
    return { ...pageOf(list, paging), hasMore: rows.length > paging.pageSize };
  }
}
