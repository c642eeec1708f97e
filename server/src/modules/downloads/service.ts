import { createHash, randomBytes } from 'node:crypto';
import {
  type ArtNumDownloadPayload,
  type BatchDownloadRequest,
  endpoints,
  Flag,
  ItemState,
  ItemType,
  safeFileNamePart,
  UNMATCHED_ART_NUMS_FILE,
} from '@dam/contract';
import { AppError, invalidField } from '../../http/app-error';
import { type Clock, calendarDate } from '../../lib/clock';
import type { ObjectStorage } from '../../storage/storage';
import { type AuthContext, fileScopeFilter } from '../access/access';
import { canDownload, canSee } from '../items/policy';
import { isExpired, joinPath } from '../items/presenter';
import type { ImageWork } from '../media/image-limits';
import type { PresetRow } from '../presets/repository';
import { DownloadConverter } from './converter';
import { contentTypeOf, DownloadEntries } from './entries';
import type { DownloadMetadataWriter } from './metadata-writer';
import {
  byItem,
  type DownloadPlan,
  deepestRootOn,
  type ItemSources,
  indexCounter,
  outputsOf,
  type PlannedFile,
  type PresetSettings,
  withMetadata,
  withSidecars,
} from './plan';
import type { DownloadSource, DownloadsRepository } from './repository';

export type { DownloadPlan, PlannedFile, PresetSettings } from './plan';

import { type OpenedEntry, uniquePath, type ZipEntry } from './zip';

/**
 * The kind of a batch-download ticket, which keeps `{ plan }`: the plan checked and resolved when
 * the ticket was issued (issue 12: the link sends its first byte without planning again).
 */
export const BATCH_TICKET = 'batch-plan';

/** How long a download link stays usable. */
export const TICKET_LIFETIME_MS = 5 * 60 * 1000;

/** Who holds a download ticket: a session, a share link (its visitors) or an open API access record. */
export type TicketHolder = { sessionId: number } | { shareId: number } | { apiAccessId: number };

/** Options every plan takes. */
export interface PlanOptions {
  /** false: nothing is counted now (a ticket counts when it is used). */
  count?: boolean;
  /**
   * Conversion settings given inline (the open API's `output`), used instead of a saved preset;
   * the same engine converts, scales and names with them.
   */
  preset?: PresetSettings;
}
const hashTicket = (ticket: string) => createHash('sha256').update(ticket).digest('hex');

/** SPEC §7 batch-download: what goes into a download, then its bytes, converted and scaled as asked. */
export class DownloadsService {
  constructor(
    private readonly downloads: DownloadsRepository,
    storage: ObjectStorage,
    private readonly clock: Clock,
    private readonly presetOf: (id: number) => Promise<PresetRow>,
    /** Time zone whose calendar decides "today" for file validity (SPEC §4). */
    private readonly timeZone: string,
    /** The pixel limit and image memory budget conversions share with the media jobs. */
    images: ImageWork,
    /** Where a stored object is on disk (local driver), or null: it is then copied to convert it. */
    localPath: (key: string) => string | null = () => null,
    warn: (details: Record<string, unknown>, message: string) => void = () => {},
    /** Writes or strips embedded metadata (issue 42); without it files go as they are stored. */
    metadata: DownloadMetadataWriter | null = null,
  ) {
    const converter = new DownloadConverter(storage, images, localPath, warn, metadata);
    this.entries = new DownloadEntries(storage, converter, metadata, clock);
  }

  private readonly entries: DownloadEntries;

  /** Whether a file's validity (SPEC §4) has ended or not yet begun today. */
  private expiredToday(): (source: DownloadSource) => boolean {
    const today = calendarDate(this.clock.now(), this.timeZone);
    return (source) => isExpired(source.expire_start_date ?? null, source.expire_end_date ?? null, today);
  }

  /** Checks every permission before a byte is sent; counts one download per file included. */
  async plan(
    auth: AuthContext,
    request: BatchDownloadRequest,
    /**
     * `withoutExpired`: expired files are left out (share links hand none out). `filesOnly`: a
     * folder among the selected ids is SE_404, as an unknown id is (the open API names assets).
     * `undownloadableAsProblems`: a selected file the caller may see but not download goes to the
     * problems file, as one inside a folder does, instead of refusing the download (a collection's).
     */
    options: PlanOptions & {
      withoutExpired?: boolean;
      filesOnly?: boolean;
      undownloadableAsProblems?: boolean;
    } = {},
  ): Promise<DownloadPlan> {
    const expired = options.withoutExpired ? this.expiredToday() : () => false;
    const preset = await this.presetFor(request.presetId, options.preset);
    const formatsById = new Map<number, string[]>();
    for (const id of request.folderDataIdList) formatsById.set(id, []);
    for (const entry of request.downloadFolderDataDTOList)
      formatsById.set(entry.folderDataId, entry.fileFormatList);
    const rootIds = [...formatsById.keys()];

    return this.downloads.transaction(async (repo) => {
      const roots = await repo.itemsByIds(rootIds);
      if (roots.length !== rootIds.length) throw new AppError('SE_404');
      for (const root of roots) {
        if (!canSee(auth, root)) throw new AppError('SE_404');
        if (options.filesOnly && root.type === ItemType.folder) throw new AppError('SE_404');
        if (root.state !== ItemState.normal) throw new AppError('SEF_04');
        if (root.type !== ItemType.folder && !canDownload(auth, root) && !options.undownloadableAsProblems)
          throw new AppError('SE_502');
      }
      const records = await repo.recordsByIds(request.uploadIdList);
      if (records.length !== new Set(request.uploadIdList).size) throw new AppError('SE_404');
      for (const record of records) {
        if (!canSee(auth, record)) throw new AppError('SE_404');
        if (!canDownload(auth, record)) throw new AppError('SE_502');
        if (record.state !== ItemState.normal) throw new AppError('SEF_04');
      }

      const scalePx = request.equalScalingPx ?? null;
      const taken = new Set<string>();
      const problems: string[] = [];
      const files: PlannedFile[] = [];
      const nextIndex = indexCounter();
      const sources = await repo.sourcesOfRoots(roots, {
        userId: auth.userId,
        view: fileScopeFilter(auth, 'view'),
      });

      const rootsByPath = new Map(roots.map((r) => [r.id_path, r]));
      for (const [itemId, itemSources] of byItem(sources)) {
        const first = itemSources[0] as DownloadSource;
        const root = deepestRootOn(first.id_path, rootsByPath);
        if (!root) continue;
        // Inside a selected folder, paths start at that folder: `/A/B` selected, `/A/B/C/x` → `B/C/x`.
        const rootPath = joinPath(root.folder_path, root.name);
        const folderPrefix =
          root.type === ItemType.folder
            ? `${root.name}${first.item_folder_path.slice(rootPath.length)}/`.replace(/^\/+/, '')
            : '';
        if (!canDownload(auth, first)) {
          problems.push(`${folderPrefix}${first.item_name}: no download permission`);
          continue;
        }
        // Left out without a word: a share link's visitor does not see expired files either.
        if (expired(first)) continue;
        for (const file of outputsOf(
          itemSources,
          formatsById.get(root.id) ?? [],
          folderPrefix,
          scalePx,
          preset,
          nextIndex,
          root.type === ItemType.folder,
        )) {
          files.push({ ...file, itemId, path: uniquePath(taken, file.path) });
        }
      }
      for (const record of records) {
        const source = {
          ...record,
          id_path: '',
          item_id: record.item_id,
          expire_start_date: null,
          expire_end_date: null,
        } as DownloadSource;
        const planned = preset
          ? outputsOf([source], [record.format], '', null, preset, nextIndex)
          : outputsOf([source], [record.format], '', scalePx, null, nextIndex);
        for (const file of planned) {
          // A record keeps its own file name unless a preset names it.
          const path = file.naming ? file.path : record.file_name;
          files.push({ ...file, itemId: record.item_id, path: uniquePath(taken, path) });
        }
      }
      // Only the share-link download path sets isShareDownload (signed-in routes force 0).
      if (options.count !== false)
        await repo.countDownloads(
          [...new Set(files.map((f) => f.itemId))],
          request.isShareDownload === Flag.yes,
        );
      const plan = {
        files: withMetadata(files, request.metadata, preset),
        problems,
        notes: [],
        forceZip: false,
      };
      return withSidecars(plan, request.xmpSidecars);
    });
  }

  /**
   * Download by article numbers: a folder per article number with the files carrying it that
   * the caller may download, and a list of the numbers that matched nothing. Nothing matched at
   * all is an error (SEDL_02), not an empty zip. Expired files (SPEC §4) are left out.
   */
  async planByArtNums(
    auth: AuthContext,
    request: ArtNumDownloadPayload,
    /** `allowEmpty`: nothing matched is an empty plan (every number unmatched), not SEDL_02. */
    options: PlanOptions & { allowEmpty?: boolean } = {},
  ): Promise<DownloadPlan> {
    const preset = await this.presetFor(request.presetId, options.preset);
    const expired = this.expiredToday();
    return this.downloads.transaction(async (repo) => {
      const sources = await repo.sourcesByArtNums(request.artNumList, {
        userId: auth.userId,
        view: fileScopeFilter(auth, 'view'),
      });
      const byArtNum = new Map<string, ItemSources[]>();
      const problems: string[] = [];
      for (const itemSources of byItem(sources).values()) {
        const first = itemSources[0] as DownloadSource;
        const key = (first.art_num ?? '').toLowerCase();
        if (!canDownload(auth, first)) {
          problems.push(`${first.art_num}/${first.item_name}: no download permission`);
          continue;
        }
        if (expired(first)) {
          problems.push(`${first.art_num}/${first.item_name}: expired`);
          continue;
        }
        byArtNum.set(key, [...(byArtNum.get(key) ?? []), itemSources]);
      }
      const taken = new Set<string>();
      const files: PlannedFile[] = [];
      const unmatched: string[] = [];
      const nextIndex = indexCounter();
      for (const artNum of request.artNumList) {
        const before = files.length;
        const folder = `${safeFileNamePart(artNum)}/`;
        for (const itemSources of byArtNum.get(artNum.toLowerCase()) ?? []) {
          const first = itemSources[0] as DownloadSource;
          for (const file of outputsOf(itemSources, request.formats, folder, null, preset, nextIndex)) {
            files.push({ ...file, itemId: first.item_id, path: uniquePath(taken, file.path) });
          }
        }
        if (files.length === before) unmatched.push(artNum);
      }
      if (files.length === 0 && !options.allowEmpty) throw new AppError('SEDL_02');
      if (options.count !== false) await repo.countDownloads([...new Set(files.map((f) => f.itemId))]);
      const notes =
        unmatched.length > 0 ? [{ path: UNMATCHED_ART_NUMS_FILE, text: `${unmatched.join('\n')}\n` }] : [];
      const plan = {
        files: withMetadata(files, request.metadata, preset),
        problems,
        notes,
        forceZip: true,
        unmatched,
      };
      return withSidecars(plan, request.xmpSidecars);
    });
  }

  /** Inline settings win; else the saved preset the request names (SEDL_01 when gone); else none. */
  private async presetFor(
    presetId: number | null | undefined,
    inline: PresetSettings | undefined,
  ): Promise<PresetSettings | null> {
    if (inline) return inline;
    return presetId ? this.presetOf(presetId) : null;
  }

  /** The bytes of one planned file (entries.ts). An image beyond the limits is SEDL_04. */
  open(file: PlannedFile): Promise<OpenedEntry> {
    return this.entries.open(file);
  }

  zipEntries(plan: DownloadPlan): ZipEntry[] {
    return this.entries.zipEntries(plan);
  }

  /**
   * Counts a download planned earlier (kept with a ticket): one more download of each file in it.
   */
  async countPlanned(plan: DownloadPlan): Promise<void> {
    await this.downloads.countDownloads([...new Set(plan.files.map((f) => f.itemId))]);
  }

  /**
   * A short link for a request too long to sign into a URL (up to 10,000 article numbers): the
   * request is stored under the SHA-256 of a random ticket for `TICKET_LIFETIME_MS`, bound to
   * the caller's session.
   */
  createTicket(auth: AuthContext, kind: string, request: unknown): Promise<string> {
    return this.issueTicket({ sessionId: auth.sessionId }, kind, request);
  }

  /**
   * A batch-download link of a plan made with `count: false`: redeeming it counts and logs the
   * download as any batch download (the composition zip, issue 16, goes through it).
   */
  async ticketLink(auth: AuthContext, plan: DownloadPlan): Promise<string> {
    const ticket = await this.createTicket(auth, BATCH_TICKET, { plan });
    return `${endpoints.redeemDownloadTicket.path}?ticket=${ticket}`;
  }

  /** The same for a share link's visitor: the ticket belongs to the link, not to a session. */
  createShareTicket(shareId: number, kind: string, request: unknown): Promise<string> {
    return this.issueTicket({ shareId }, kind, request);
  }

  /**
   * Tickets held by an open API access record, one per request, all valid until `expiresAt`
   * (the caller's choice, 60 s to a day): links another system fetches without signing.
   */
  async createAccessTickets(
    apiAccessId: number,
    kind: string,
    requests: readonly unknown[],
    expiresAt: Date,
  ): Promise<string[]> {
    const tickets = requests.map(() => randomBytes(32).toString('base64url'));
    await this.downloads.saveTickets(
      requests.map((request, index) => ({
        tokenHash: hashTicket(tickets[index] as string),
        holder: { apiAccessId },
        kind,
        request,
        expiresAt,
      })),
      this.clock.now(),
    );
    return tickets;
  }

  private async issueTicket(holder: TicketHolder, kind: string, request: unknown): Promise<string> {
    const ticket = randomBytes(32).toString('base64url');
    const now = this.clock.now();
    await this.downloads.saveTickets(
      [
        {
          tokenHash: hashTicket(ticket),
          holder,
          kind,
          request,
          expiresAt: new Date(now.getTime() + TICKET_LIFETIME_MS),
        },
      ],
      now,
    );
    return ticket;
  }

  /** The stored request and session of a ticket still valid; `invalidToken` otherwise. */
  async redeemTicket(ticket: string, kind: string): Promise<{ sessionId: number; request: unknown }> {
    const row = await this.downloads.ticket(hashTicket(ticket), kind, this.clock.now());
    if (!row || row.session_id === null) throw invalidField('ticket', 'invalidToken');
    const request = typeof row.request === 'string' ? JSON.parse(row.request) : row.request;
    return { sessionId: row.session_id, request };
  }

  /** The stored request and share link of a visitor's ticket still valid; `invalidToken` otherwise. */
  async redeemShareTicket(ticket: string, kind: string): Promise<{ shareId: number; request: unknown }> {
    const row = await this.downloads.ticket(hashTicket(ticket), kind, this.clock.now());
    if (!row || row.share_id === null) throw invalidField('ticket', 'invalidToken');
    const request = typeof row.request === 'string' ? JSON.parse(row.request) : row.request;
    return { shareId: row.share_id, request };
  }

  /** The stored request and access record of an open API ticket still valid; `invalidToken` otherwise. */
  async redeemAccessTicket(ticket: string, kind: string): Promise<{ apiAccessId: number; request: unknown }> {
    const row = await this.downloads.ticket(hashTicket(ticket), kind, this.clock.now());
    if (!row || row.api_access_id === null) throw invalidField('ticket', 'invalidToken');
    const request = typeof row.request === 'string' ? JSON.parse(row.request) : row.request;
    return { apiAccessId: row.api_access_id, request };
  }

  contentTypeOf(file: PlannedFile): string {
    return contentTypeOf(file);
  }
}
