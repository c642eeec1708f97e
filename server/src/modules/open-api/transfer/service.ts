import {
  ApiAccessStatus,
  endpoints,
  Flag,
  ItemState,
  type OpenCall,
  type OpenDownloadUrlResult,
  type OpenUploadResult,
  type openDownloadUrlRequestSchema,
  type openUploadCompleteRequestSchema,
  type openUploadRequestSchema,
  UploadStatus,
  UserStatus,
} from '@dam/contract';
import type { z } from 'zod';
import { AppError, invalidField } from '../../../http/app-error';
import type { OpenAccessCaller } from '../../../http/request-context';
import type { Clock } from '../../../lib/clock';
import { type AuthContext, sessionlessAuth } from '../../access/access';
import type { AccessRepository } from '../../access/access.repository';
import type { DownloadPlan, DownloadsService, PresetSettings } from '../../downloads/service';
import { canDownload } from '../../items/policy';
import type { RateLimiter } from '../../ratelimit/limiter';
import type { UploadsService } from '../../uploads/service';
import type { OpenTransferRepository } from './repository';

/**
 * The open API's transfers (issue 15): time-limited download links planned by the signed-in
 * download engine (permissions, formats, conversion, presets, zips), the link itself (its ticket
 * authorises it, no signature), and the multipart upload entry, run through the same upload
 * pipeline as a user's (records, locks, checks, media jobs). The access record acts as its user.
 */

/** `files` mode gives one link per file, for at most this many files. */
export const OPEN_FILE_LINKS_MAX = 1000;
/** Part links a new upload's answer carries; `uploads/:id/parts` signs the rest. */
export const OPEN_UPLOAD_FIRST_PARTS = 20;
/** Uploads of one create call started (multipart created, parts signed) at once. */
const UPLOAD_STARTS_AT_ONCE = 4;
/** A link's ticket kind: the plan checked and resolved when the link was issued. */
const OPEN_TICKET = 'open-plan';
const DOWNLOAD_CALL: OpenCall = 'assets.downloadUrl';
/** File name the inline `output` gives a converted image: the file's name (extension added). */
const OUTPUT_FILE_NAME = '{name}';

type DownloadUrlRequest = z.output<typeof openDownloadUrlRequestSchema>;
type UploadRequest = z.output<typeof openUploadRequestSchema>;
type CompleteRequest = z.output<typeof openUploadCompleteRequestSchema>;

/** What a link's ticket keeps. */
/** Fetches of an access record's download links per minute, all links together. */
export const OPEN_LINK_FETCHES_PER_MINUTE = 600;

interface OpenTicket {
  plan: DownloadPlan;
  /** The user the record acted as when the link was issued: the link dies if the record changes user. */
  userId?: number;
  /** A download by article numbers (zip mode): the numbers asked, for the log. */
  artNums?: string[];
  /** The zip's name, as the link's answer named it. */
  zipName?: string;
}

export interface IssuedLinks {
  result: OpenDownloadUrlResult;
  /** What was planned (for the OPEN02 log entry). */
  plan: DownloadPlan;
  artNums: string[] | undefined;
  expiresAt: Date;
}

export interface RedeemedLink {
  plan: DownloadPlan;
  artNums: string[] | undefined;
  zipName: string | undefined;
  /** The access record holding the link and its user's rights now. */
  caller: OpenAccessCaller;
  auth: AuthContext;
}

export class OpenTransferService {
  constructor(
    private readonly deps: {
      downloads: DownloadsService;
      uploads: UploadsService;
      repo: OpenTransferRepository;
      access: AccessRepository;
      limiter: RateLimiter;
      clock: Clock;
    },
  ) {}

  /**
   * Plans a download as the record's user (checked now: SE_404 for an asset they cannot see,
   * SE_502 without the download permission) and issues links valid for `expiresInSeconds`: one
   * to a zip of everything, or one per file. Article numbers matching nothing the user may
   * download are listed, not refused; nothing at all to download gives no links.
   */
  async downloadUrl(
    auth: AuthContext,
    accessId: number,
    body: DownloadUrlRequest,
    /** Where links start: PUBLIC_URL, or the origin the caller reached. */
    baseUrl: string,
  ): Promise<IssuedLinks> {
    const { downloads, clock } = this.deps;
    const preset: PresetSettings | undefined = body.output
      ? {
          format: body.output.format,
          long_side_px: body.output.longSidePx ?? null,
          background: body.output.background ?? null,
          file_name_template: OUTPUT_FILE_NAME,
        }
      : undefined;
    const options = { count: false, ...(preset ? { preset } : {}) };
    const presetId = body.presetId ?? null;
    let plan: DownloadPlan;
    let artNums: string[] | undefined;
    if (body.artNums) {
      artNums = distinctIgnoringCase(body.artNums);
      plan = await downloads.planByArtNums(
        auth,
        { artNumList: artNums, formats: body.formats ?? [], presetId, metadata: body.metadata },
        { ...options, allowEmpty: true },
      );
    } else {
      plan = await downloads.plan(
        auth,
        {
          folderDataIdList: [],
          downloadFolderDataDTOList: [...new Set(body.assetIds ?? [])].map((folderDataId) => ({
            folderDataId,
            fileFormatList: body.formats ?? [],
          })),
          uploadIdList: [],
          isShareDownload: Flag.no,
          equalScalingPx: null,
          presetId,
          metadata: body.metadata,
        },
        { ...options, filesOnly: true },
      );
    }
    const unmatched = plan.unmatched ?? [];
    const now = clock.now();
    const expiresAt = new Date(now.getTime() + body.expiresInSeconds * 1000);
    const expires = expiresAt.toISOString();
    const linkOf = (ticket: string) => `${baseUrl}${endpoints.openDownload.path}?ticket=${ticket}`;
    const result: OpenDownloadUrlResult = { links: [], fileCount: plan.files.length, unmatched };
    if (plan.files.length === 0) return { result, plan, artNums, expiresAt };

    if (body.mode === 'files') {
      if (plan.files.length > OPEN_FILE_LINKS_MAX)
        throw invalidField('fileCount', 'tooBig', { max: OPEN_FILE_LINKS_MAX });
      const tickets = await downloads.createAccessTickets(
        accessId,
        OPEN_TICKET,
        plan.files.map(
          (file): OpenTicket => ({
            plan: { files: [file], problems: [], notes: [], forceZip: false },
            userId: auth.userId,
          }),
        ),
        expiresAt,
      );
      result.links = plan.files.map((file, index) => ({
        url: linkOf(tickets[index] as string),
        expiresAt: expires,
        assetId: file.itemId,
        format: file.output ?? file.source.format,
        fileName: file.path.split('/').pop() ?? file.path,
      }));
    } else {
      const zipName = `download-${now.toISOString().slice(0, 19).replace(/\D/g, '')}.zip`;
      // `zip` is a zip even of one file: the caller asked for one.
      const [ticket] = await downloads.createAccessTickets(
        accessId,
        OPEN_TICKET,
        [
          {
            plan: { ...plan, forceZip: true },
            userId: auth.userId,
            ...(artNums ? { artNums } : {}),
            zipName,
          } satisfies OpenTicket,
        ],
        expiresAt,
      );
      result.links = [
        {
          url: linkOf(ticket as string),
          expiresAt: expires,
          assetId: null,
          format: 'zip',
          fileName: zipName,
        },
      ];
    }
    return { result, plan, artNums, expiresAt };
  }

  /**
   * A link being fetched: its ticket is unknown or expired (SE_400 `ticket`, as signed-in links),
   * its record deleted, switched off or its user gone (SEOA_01), or its enterprise no longer
   * allows download links (SEOA_04); else the plan kept with it, counted as downloaded once more.
   */
  async redeem(ticket: string): Promise<RedeemedLink> {
    const { downloads, repo, access } = this.deps;
    const { apiAccessId, request } = await downloads.redeemAccessTicket(ticket, OPEN_TICKET);
    // Links need no signature, so fetching them is limited per record on its own.
    await this.deps.limiter.take([
      { key: `open-download:${apiAccessId}`, max: OPEN_LINK_FETCHES_PER_MINUTE, windowMs: 60_000 },
    ]);
    const holder = await repo.holderOf(apiAccessId, DOWNLOAD_CALL);
    if (
      !holder ||
      holder.deleted_at !== null ||
      holder.status !== ApiAccessStatus.on ||
      holder.user_status !== UserStatus.normal
    )
      throw new AppError('SEOA_01');
    if (!holder.allowed) throw new AppError('SEOA_04', undefined, { value: DOWNLOAD_CALL });
    const stored = request as OpenTicket;
    if (stored.userId !== undefined && stored.userId !== holder.run_as_user_id) throw new AppError('SEOA_01');
    const roles = await access.rolesOfUser(holder.run_as_user_id, holder.user_dept_id);
    const auth = sessionlessAuth(
      { id: holder.run_as_user_id, deptId: holder.user_dept_id, deptPath: holder.user_dept_path },
      roles,
    );
    // A link lives up to a day: every file must still be live and downloadable by the user now.
    const itemIds = [...new Set(stored.plan.files.map((file) => file.itemId))];
    const items = await repo.itemsForRecheck(itemIds);
    if (
      items.length !== itemIds.length ||
      items.some((item) => item.state !== ItemState.normal || !canDownload(auth, item))
    )
      throw new AppError('SE_404');
    await downloads.countPlanned(stored.plan);
    return {
      plan: stored.plan,
      artNums: stored.artNums,
      zipName: stored.zipName,
      caller: {
        accessId: holder.id,
        keyId: holder.key_id,
        name: holder.name,
        enterpriseId: holder.enterprise_id,
        userId: holder.run_as_user_id,
      },
      auth,
    };
  }

  /**
   * Upload records for files into a folder, by a user's rules (the batch is checked whole: the
   * folder and the right to upload into it, names, sizes, tags), each with its multipart transfer
   * started and its first parts' links.
   */
  async createUploads(auth: AuthContext, body: UploadRequest, baseUrl: string): Promise<OpenUploadResult> {
    const { uploads } = this.deps;
    const created = await uploads.createBatch(auth, {
      targetFolderId: body.folderId,
      uploadDetailDTOS: body.files.map((file) => ({
        fileName: file.fileName,
        fileSize: file.fileSize,
        path: [],
        ...(file.artNum ? { artNum: file.artNum } : {}),
        ...(file.validFrom ? { expireStartTime: file.validFrom } : {}),
        ...(file.validTo ? { expireEndTime: file.validTo } : {}),
        ...(file.tagIds ? { tagIdList: file.tagIds } : {}),
      })),
    });
    const started = await inTurns(created, UPLOAD_STARTS_AT_ONCE, async (record) => {
      const state = await uploads.startMultipart(auth, record.id);
      const first = Array.from(
        { length: Math.min(state.partCount, OPEN_UPLOAD_FIRST_PARTS) },
        (_, i) => i + 1,
      );
      const signed = await uploads.signParts(auth, record.id, first);
      return {
        uploadId: record.id,
        fileName: record.fileName,
        partSize: state.partSize,
        partCount: state.partCount,
        parts: signed.parts.map((part) => ({
          partNumber: part.partNumber,
          url: absolute(part.url, baseUrl),
        })),
      };
    });
    return { uploads: started };
  }

  /** Links for parts of the user's own upload (SE_404 for anyone else's); starts it if it was not. */
  async signParts(auth: AuthContext, id: number, partNumbers: number[], baseUrl: string) {
    const { uploads } = this.deps;
    const row = await this.ownUpload(auth, id);
    if (row.status === UploadStatus.waiting) await uploads.startMultipart(auth, id);
    const signed = await uploads.signParts(auth, id, [...new Set(partNumbers)]);
    return {
      parts: signed.parts.map((part) => ({ partNumber: part.partNumber, url: absolute(part.url, baseUrl) })),
      expiresAt: signed.expiresAt,
    };
  }

  /**
   * Finishes the user's own upload as the browser does: each part reported with its ETag, then
   * the callback (its lock, completeness and size checks, the file put live, tags, media job).
   * A finished upload answers its asset again. `finished`: this call put the file live.
   */
  async complete(
    auth: AuthContext,
    id: number,
    body: CompleteRequest,
  ): Promise<{ assetId: number; finished: boolean }> {
    const { uploads } = this.deps;
    const row = await this.ownUpload(auth, id);
    if (row.status === UploadStatus.done && row.item_id !== null)
      return { assetId: row.item_id, finished: false };
    let finished: boolean;
    try {
      for (const part of body.parts) await uploads.partDone(auth, { id, ...part });
      finished = await uploads.callback(auth, { id, status: UploadStatus.done, uploadSchedule: 100 });
    } catch (error) {
      // A retry racing the first complete: once that one has finished, answer its asset.
      const now = await this.ownUpload(auth, id);
      if (now.status === UploadStatus.done && now.item_id !== null)
        return { assetId: now.item_id, finished: false };
      throw error;
    }
    const after = await this.ownUpload(auth, id);
    if (after.item_id === null) throw invalidField('id', 'wrongState');
    return { assetId: after.item_id, finished };
  }

  /** Only the uploads the record's user made may be continued; anyone else's is SE_404. */
  private async ownUpload(auth: AuthContext, id: number) {
    const row = await this.deps.repo.uploadOf(id);
    if (!row || row.user_id !== auth.userId) throw new AppError('SE_404');
    return row;
  }
}

/** Article numbers without repeats (compared without regard to case, the first spelling kept). */
function distinctIgnoringCase(values: readonly string[]): string[] {
  const seen = new Set<string>();
  return values.filter((value) => {
    const key = value.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** A local driver's part URL is the server's own path: made absolute for a system elsewhere. */
function absolute(url: string, baseUrl: string): string {
  return url.startsWith('/') ? `${baseUrl}${url}` : url;
}

/** `work` on every item, at most `atOnce` running at a time; results in the items' order. */
async function inTurns<T, R>(
  items: readonly T[],
  atOnce: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(atOnce, items.length) }, lane));
  return results;
}
