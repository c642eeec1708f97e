import {
  type BatchDownloadRequest,
  ItemState,
  ItemType,
  isShareCode,
  RankStatus,
  SHARE_VISITOR_TOKEN_HOURS,
  type ShareDownloadPayload,
  type SharedFile,
  type SharedItem,
  type ShareFolderResult,
  ShareState,
  ShareStatus,
  type ShareVisit,
  UserStatus,
} from '@dam/contract';
import { AppError } from '../../http/app-error';
import { type Clock, calendarDate } from '../../lib/clock';
import { signToken, verifyToken } from '../../lib/signing';
import { type AuthContext, fileScopeFilter, sessionlessAuth } from '../access/access';
import type { AccessRepository } from '../access/access.repository';
import type { DownloadPlan, DownloadsService } from '../downloads/service';
import type { FilesRepository } from '../files/repository';
import { type Paging, pageOf } from '../items/item-pages';
import { canDownload, canSee, canShare } from '../items/policy';
import type { ItemsRepository, ItemWithOwner } from '../items/repository';
import type { ShareMediaRule } from '../media/rights';
import type { MediaUrls } from '../media/urls';
import { clientKeyOf } from '../ratelimit/client-key';
import type { RateLimiter } from '../ratelimit/limiter';
import { expiredFile, HOUR_MS, passwordMatches, statusOf } from './link-rules';
import type { ShareRow, SharesRepository, ShareWithOwner } from './repository';
import { presentSharedFile } from './shared-file';
import { presentSharedItem } from './shared-item';
import { itemInside, rootOf, type Visit } from './visit-scope';

const SHARE_DOWNLOAD_TICKET = 'share';

export interface ShareVisitorDependencies {
  shares: SharesRepository;
  items: ItemsRepository;
  /** A file's records, for the visitor's viewer. */
  files: Pick<FilesRepository, 'records'>;
  access: AccessRepository;
  downloads: DownloadsService;
  mediaUrls: MediaUrls;
  clock: Clock;
  timeZone: string;
  /** Signs visitor tokens (an app setting of its own, made at first start). */
  tokenSecret: string;
  /** Counts password attempts, in the database (shared by every server process). */
  limiter: RateLimiter;
  /** Password attempts per client address and link per minute. */
  passwordRateLimit: number;
}

/** A download through a link, and which link it went through. */
export type ShareDownloadPlan = DownloadPlan & { shareId: number };

interface VisitorClaims extends Record<string, unknown> {
  sh: number;
}

/** The password attempts one link takes a minute from all addresses: this multiple of the per-address limit. */
export const SHARE_LINK_LIMIT_MULTIPLE = 10;

/**
 * What a visitor without an account may see and download through a share link (SPEC §2
 * /visitfile, §7 random/{code}, user/share/…).
 *
 * A link grants what its owner could share: every visit checks that the link is live (sharing,
 * not expired, owner not deleted) and, with the owner's permissions of that moment, which of its
 * items are still there and shareable; inside a shared folder, what the owner can see; downloads
 * with the owner's download permission.
 */
export class ShareVisitorService {
  constructor(private readonly deps: ShareVisitorDependencies) {}

  private now(): Date {
    return this.deps.clock.now();
  }

  private today(): string {
    return calendarDate(this.now(), this.deps.timeZone);
  }

  /**
   * The link is live: it exists, is not stopped, its owner is not deleted and (a collection's link)
   * still in the collection (SESH_01), not expired (SESH_02). A deleted collection took its links.
   */
  private requireLive(share: ShareWithOwner | undefined): ShareWithOwner {
    if (
      share?.status !== ShareState.sharing ||
      share.owner_status !== UserStatus.normal ||
      !share.collection_member
    )
      throw new AppError('SESH_01');
    if (statusOf(share, this.now()) === ShareStatus.expired) throw new AppError('SESH_02');
    return share;
  }

  /** Whether a link is live now (sharing, not expired, owner not deleted): visitors' media URLs die with it. */
  async linkLive(shareId: number): Promise<boolean> {
    const share = await this.deps.shares.findById(shareId);
    return (
      share?.status === ShareState.sharing &&
      share.owner_status === UserStatus.normal &&
      share.collection_member &&
      statusOf(share, this.now()) === ShareStatus.sharing
    );
  }

  /**
   * What a link's visitors may still be shown by their media URLs (the media endpoint asks and
   * keeps the answer a few seconds): by the rules of `itemInside`, an item inside what the link
   * offers now, live, seen by the owner now and not expired; a download also needs the owner's
   * download permission. Null when the link is not live or offers nothing any more.
   */
  async mediaRule(shareId: number): Promise<ShareMediaRule | null> {
    let visit: Visit;
    try {
      visit = await this.open(this.requireLive(await this.deps.shares.findById(shareId)));
    } catch (error) {
      if (error instanceof AppError) return null;
      throw error;
    }
    const today = this.today();
    return (item, download) =>
      item.state === ItemState.normal &&
      rootOf(visit, item) !== undefined &&
      canSee(visit.owner, item) &&
      !expiredFile(item, today) &&
      (!download || canDownload(visit.owner, item));
  }

  /** What the owner may do now: their roles (own and department's) of this moment. */
  private async ownerOf(share: ShareWithOwner): Promise<AuthContext> {
    const roles = await this.deps.access.rolesOfUser(share.owner_id, share.owner_dept_id);
    // Visitors act with the owner's permissions but under no session of theirs.
    return sessionlessAuth(
      { id: share.owner_id, deptId: share.owner_dept_id, deptPath: share.owner_dept_path },
      roles,
    );
  }

  /** The link, its owner's permissions and what it still offers; nothing left → SESH_04. */
  private async open(share: ShareWithOwner): Promise<Visit> {
    const owner = await this.ownerOf(share);
    const ids = await this.deps.shares.itemIdsOf(share.id);
    const found = new Map((await this.deps.items.findByIds(ids, share.owner_id)).map((r) => [r.id, r]));
    const named = ids.map((id) => found.get(id)).filter((r): r is ItemWithOwner => r !== undefined);
    // Expired files (SPEC §4) are not handed out through a link.
    const today = this.today();
    const roots = named.filter(
      (r) => r.state === ItemState.normal && canShare(owner, r) && !expiredFile(r, today),
    );
    if (roots.length === 0) throw new AppError('SESH_04');
    return { share, owner, roots, named: named.map((r) => r.id_path) };
  }

  /** The visit a visitor token stands for; a missing, forged or expired token is SESH_05. */
  private async visitOf(token: string | undefined): Promise<Visit> {
    const claims = token ? this.claimsOf(token) : null;
    if (!claims) throw new AppError('SESH_05');
    return this.open(this.requireLive(await this.deps.shares.findById(claims.sh)));
  }

  private claimsOf(token: string): VisitorClaims | null {
    const checked = verifyToken<VisitorClaims>(token, this.deps.tokenSecret, this.now());
    return checked.ok && typeof checked.payload.sh === 'number' ? checked.payload : null;
  }

  /** A new visitor session: a signed token for a few hours (never past the link's expiry), one view counted. */
  private async startVisit(share: ShareRow): Promise<{ token: string; expiresAt: Date }> {
    const now = this.now();
    let expiresAt = new Date(now.getTime() + SHARE_VISITOR_TOKEN_HOURS * HOUR_MS);
    if (share.expires_at && share.expires_at < expiresAt) expiresAt = share.expires_at;
    const token = signToken({ sh: share.id } satisfies VisitorClaims, this.deps.tokenSecret, expiresAt);
    await this.deps.shares.countView(share.id);
    return { token, expiresAt };
  }

  /** A token presented again for the same link keeps its visitor session (no new view). */
  private reusable(token: string | undefined, share: ShareRow): { token: string; expiresAt: Date } | null {
    const claims = token ? this.claimsOf(token) : null;
    if (!claims || claims.sh !== share.id || !token) return null;
    return { token, expiresAt: new Date(claims.exp as number) };
  }

  private async answer(visit: Visit, access: { token: string; expiresAt: Date } | null): Promise<ShareVisit> {
    const { share } = visit;
    const today = this.today();
    return {
      code: share.code,
      needPassword: share.password !== null,
      ownerName: share.owner_name,
      createdAt: share.created_at.toISOString(),
      expiresAt: share.expires_at?.toISOString() ?? null,
      shareToken: access?.token ?? null,
      tokenExpiresAt: access?.expiresAt.toISOString() ?? null,
      items: access
        ? await Promise.all(visit.roots.map((row) => this.presentShared(row, null, visit, today)))
        : null,
      collectionName: access ? share.collection_name : null,
    };
  }

  /**
   * GET random/{code}: a password link answers who shared it and until when, without its items;
   * a public link (or a visitor token of this link) answers its items and a visitor token.
   */
  async visit(code: string, presented: string | undefined): Promise<ShareVisit> {
    if (!isShareCode(code)) throw new AppError('SESH_01');
    const visit = await this.open(this.requireLive(await this.deps.shares.findByCode(code)));
    const kept = this.reusable(presented, visit.share);
    if (kept) return this.answer(visit, kept);
    if (visit.share.password !== null) return this.answer(visit, null);
    return this.answer(visit, await this.startVisit(visit.share));
  }

  /**
   * POST random/{code} `{ password }`: the right password opens the link (wrong: SESH_03).
   * Attempts are limited per client address and link (an IPv6 client by its /64), and per link
   * from all addresses together at SHARE_LINK_LIMIT_MULTIPLE times that (SE_429 over either,
   * whatever the password): guessing from one address is slowed while an office behind one NAT
   * address can still open other links, and guessing from many addresses is bounded too, at the
   * price that guesses from ten or more addresses can hold a link shut for the rest of a minute.
   * A right password takes its attempts back.
   */
  async unlock(
    code: string,
    password: string,
    presented: string | undefined,
    clientIp: string,
  ): Promise<ShareVisit> {
    // A mistyped address is a link that does not exist, and costs no attempt.
    if (!isShareCode(code)) throw new AppError('SESH_01');
    // The address first: guesses it is refused for do not count against the link, so one address
    // alone cannot hold a link shut for everyone.
    const fromAddress = await this.deps.limiter.take([
      {
        key: `share-pw:${clientKeyOf(clientIp)}|${code}`,
        max: this.deps.passwordRateLimit,
        windowMs: 60_000,
      },
    ]);
    const onLink = await this.deps.limiter.take([
      {
        key: `share-pw-link:${code}`,
        max: this.deps.passwordRateLimit * SHARE_LINK_LIMIT_MULTIPLE,
        windowMs: 60_000,
      },
    ]);
    const visit = await this.open(this.requireLive(await this.deps.shares.findByCode(code)));
    const stored = visit.share.password;
    if (stored !== null && !passwordMatches(stored, password)) throw new AppError('SESH_03');
    await fromAddress.refund();
    await onLink.refund();
    return this.answer(visit, this.reusable(presented, visit.share) ?? (await this.startVisit(visit.share)));
  }

  /** POST user/share/folder: one page of a folder inside the link, or of the link's own items. */
  async browse(
    token: string | undefined,
    request: Paging & { folderId?: number | undefined; rankStatus: RankStatus },
  ): Promise<ShareFolderResult> {
    const visit = await this.visitOf(token);
    const today = this.today();
    const offset = (request.pageNo - 1) * request.pageSize;
    if (request.folderId === undefined) {
      const rows = visit.roots.slice(offset, offset + request.pageSize + 1);
      const list = await Promise.all(
        rows.slice(0, request.pageSize).map((r) => this.presentShared(r, null, visit, today)),
      );
      return {
        folder: null,
        breadcrumb: [],
        ...pageOf(list, request),
        hasMore: rows.length > request.pageSize,
      };
    }
    const { row: folder, root } = await itemInside(this.deps.items, visit, this.today(), request.folderId);
    if (folder.type !== ItemType.folder) throw new AppError('SE_404');
    const order =
      request.rankStatus === RankStatus.up
        ? 'nameAsc'
        : request.rankStatus === RankStatus.down
          ? 'nameDesc'
          : 'normal';
    const rows = await this.deps.items.listChildren(
      folder.id,
      { userId: visit.owner.userId, view: fileScopeFilter(visit.owner, 'view') },
      { validOn: today },
      order,
      request.pageSize + 1,
      offset,
    );
    const path = await this.deps.items.namesOnPath(folder.id_path);
    const list = await Promise.all(
      rows.slice(0, request.pageSize).map((r) => this.presentShared(r, root, visit, today)),
    );
    return {
      folder: await this.presentShared(folder, root.id === folder.id ? null : root, visit, today),
      breadcrumb: path.slice(path.findIndex((p) => p.id === root.id)),
      ...pageOf(list, request),
      hasMore: rows.length > request.pageSize,
    };
  }

  /** POST user/share/file: a file inside the link for the visitor's viewer (a folder is SE_404). */
  async file(token: string | undefined, id: number): Promise<SharedFile> {
    const visit = await this.visitOf(token);
    const { row } = await itemInside(this.deps.items, visit, this.today(), id);
    if (row.type === ItemType.folder) throw new AppError('SE_404');
    return presentSharedFile(row, this.deps.files, this.deps.mediaUrls, visit.share.id, this.today());
  }

  /** A file or folder as a visitor sees it; its media URL lives as long as the link. */
  private async presentShared(
    row: ItemWithOwner,
    root: ItemWithOwner | null,
    visit: Visit,
    today: string,
  ): Promise<SharedItem> {
    const compactUrl = await this.deps.mediaUrls.urlOf(row.cover_key, { shareId: visit.share.id });
    return presentSharedItem(row, root, visit.owner, compactUrl, today);
  }

  /**
   * The download request of a visitor as file/batch-download takes it, marked as a share download:
   * every id must lie inside the link; none chosen = everything the link names.
   */
  private async downloadRequest(
    visit: Visit,
    body: Omit<ShareDownloadPayload, 'shareToken'>,
  ): Promise<BatchDownloadRequest> {
    const chosen = [...body.folderDataIdList, ...body.downloadFolderDataDTOList.map((d) => d.folderDataId)];
    for (const id of new Set(chosen)) await itemInside(this.deps.items, visit, this.today(), id);
    return {
      folderDataIdList: chosen.length === 0 ? visit.roots.map((r) => r.id) : body.folderDataIdList,
      downloadFolderDataDTOList: body.downloadFolderDataDTOList,
      uploadIdList: [],
      isShareDownload: 1,
      equalScalingPx: body.equalScalingPx ?? null,
    };
  }

  /**
   * A visitor's download, planned with the owner's download permission of this moment (files the
   * owner may no longer download are refused, or listed in the zip's problems file), counted on
   * the files as share downloads and once on the link.
   */
  async download(token: string | undefined, body: ShareDownloadPayload): Promise<ShareDownloadPlan> {
    const visit = await this.visitOf(token);
    return this.planDownload(visit, body);
  }

  private async planDownload(
    visit: Visit,
    body: Omit<ShareDownloadPayload, 'shareToken'>,
  ): Promise<ShareDownloadPlan> {
    const plan = await this.deps.downloads.plan(visit.owner, await this.downloadRequest(visit, body), {
      withoutExpired: true,
    });
    await this.deps.shares.countDownload(visit.share.id);
    return { ...plan, shareId: visit.share.id };
  }

  /**
   * The same download as a short link the browser saves to disk (5 minutes): checked now, the
   * request kept on the server under the link, planned afresh when the link is opened.
   */
  async downloadTicket(token: string | undefined, body: ShareDownloadPayload): Promise<string> {
    const visit = await this.visitOf(token);
    const { shareToken: _token, ...request } = body;
    await this.deps.downloads.plan(visit.owner, await this.downloadRequest(visit, request), {
      count: false,
      withoutExpired: true,
    });
    return this.deps.downloads.createShareTicket(visit.share.id, SHARE_DOWNLOAD_TICKET, request);
  }

  /** Opens a visitor's download link: the link must still be live, the items still inside it. */
  async redeemDownload(
    ticket: string,
    parse: (stored: unknown) => Omit<ShareDownloadPayload, 'shareToken'>,
  ): Promise<ShareDownloadPlan> {
    const { shareId, request } = await this.deps.downloads.redeemShareTicket(ticket, SHARE_DOWNLOAD_TICKET);
    const visit = await this.open(this.requireLive(await this.deps.shares.findById(shareId)));
    return this.planDownload(visit, parse(request));
  }
}
