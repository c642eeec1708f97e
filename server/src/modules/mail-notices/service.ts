import type { Readable } from 'node:stream';
import {
  type Language,
  MAIL_NOTICE_FILES_SHOWN,
  MAIL_NOTICE_LINK_DAYS,
  MAIL_NOTICE_RECIPIENTS_MAX,
  type MailNoticeRecipient,
  type MailNoticeRequest,
  type MailNoticeSummary,
} from '@dam/contract';
import type { MailAttachment } from '../../db/schema';
import { AppError, invalidField } from '../../http/app-error';
import type { Clock } from '../../lib/clock';
import { signToken, verifyToken } from '../../lib/signing';
import type { ObjectStorage } from '../../storage/storage';
import { type AuthContext, administrationReach } from '../access/access';
import { joinPath } from '../items/presenter';
import type { MailService } from '../mail/service';
import { mailLanguageOf } from '../mail/templates';
import type { MailGroupsService } from '../mail-groups/service';
import type { BatchState, MailNoticesRepository, NoticeRow } from './repository';

type Warn = (details: Record<string, unknown>, message: string) => void;

const HOUR_MS = 3_600_000;
/** A finished batch waits this long at most for its thumbnails before its notice goes without them. */
const THUMBNAIL_WAIT_MS = 10 * 60_000;
/** Notices looked at per pass; the next pass (a minute later at the latest) takes the rest. */
const NOTICES_PER_PASS = 100;

/** The claims of a notice's picture link: which notice, which file. */
interface LinkClaims extends Record<string, unknown> {
  n: number;
  i: number;
}

/**
 * Upload mail notices (SPEC §3 Mail notice, §4 "starting an upload" step 3): the uploader asks,
 * with the batch number, that groups and users be mailed once the batch has finished and the delay
 * has passed. A pass of the notice job (every minute, and as soon as a batch's last media job has
 * run) sends every notice that is due: one mail per recipient, written to the outbox in the same
 * transaction that marks the notice dispatched, so a notice is mailed once whatever runs twice.
 */
export class MailNoticesService {
  constructor(
    private readonly deps: {
      repo: MailNoticesRepository;
      mail: MailService;
      mailGroups: MailGroupsService;
      storage: ObjectStorage;
      clock: Clock;
      /** The address users open (PUBLIC_URL): links in the mails point there. */
      appUrl: string;
      /** Signs the mails' picture links. */
      linkSecret: string;
      /** Asks the notice job for a pass soon (absent without a job queue). */
      nudge: (() => Promise<void>) | undefined;
      warn: Warn;
    },
  ) {}

  /** POST user/mail-notice: schedules (or, while still scheduled, replaces) a batch's notice. */
  async schedule(auth: AuthContext, body: MailNoticeRequest, language: Language): Promise<MailNoticeSummary> {
    const owner = await this.deps.repo.batchOwner(body.batchNum);
    // Another user's batch is not revealed: as one that does not exist.
    if (owner !== auth.userId) throw new AppError('SE_404');
    const groupIds = body.mailGroupIdList ?? [];
    const userIds = body.userIdList ?? [];
    // Only groups the caller may send to (as user/mail-group-list answers them).
    const usable = new Set((await this.deps.mailGroups.usableGroups(auth, undefined)).map((g) => g.id));
    const unusable = groupIds.find((id) => !usable.has(id));
    if (unusable !== undefined)
      throw invalidField('mailGroupIdList', 'unknownMailGroup', { value: unusable });
    if (userIds.length > 0) {
      const line = this.lineOf(auth);
      const reachable =
        line === 'none' ? [] : await this.deps.repo.notifiableUsers(line, undefined, userIds.length, userIds);
      const found = new Set(reachable.map((u) => u.id));
      const unknown = userIds.find((id) => !found.has(id));
      if (unknown !== undefined) throw invalidField('userIdList', 'unknownRecipient', { value: unknown });
    }
    const { id, replaced } = await this.deps.repo.upsert({
      batchNum: body.batchNum,
      userId: auth.userId,
      groupIds,
      userIds,
      subject: body.mailInfo ?? '',
      content: body.mailContent ?? '',
      remark: body.mailRemark ?? '',
      delayHours: body.noticeTime,
      language,
      now: this.deps.clock.now(),
    });
    // A notice that has gone out is not sent again, nor changed.
    if (!replaced) throw invalidField('batchNum', 'wrongState');
    await this.nudge();
    const summary = (await this.summariesOf([body.batchNum])).get(body.batchNum);
    if (!summary) throw new Error(`notice ${id} vanished`);
    return summary;
  }

  /** The users the caller may notify: their own department, those above and below it. */
  async notifiableUsers(auth: AuthContext, keyword: string | undefined): Promise<MailNoticeRecipient[]> {
    const line = this.lineOf(auth);
    if (line === 'none') return [];
    const rows = await this.deps.repo.notifiableUsers(line, keyword || undefined, MAIL_NOTICE_RECIPIENTS_MAX);
    return rows.map((u) => ({ userId: u.id, name: u.name, email: u.email as string, deptName: u.dept_name }));
  }

  /** null: everyone; a department path: its line; 'none': nobody (no department, no wide scope). */
  private lineOf(auth: AuthContext): { deptPath: string } | null | 'none' {
    const reach = administrationReach(auth);
    if (reach.kind === 'all') return null;
    return auth.deptPath ? { deptPath: auth.deptPath } : 'none';
  }

  /** Asks for a pass soon; a queue that refuses only delays the notice to the next minute's pass. */
  async nudge(): Promise<void> {
    await this.deps.nudge?.().catch((err) => this.deps.warn({ err }, 'mail notice pass not queued'));
  }

  /** After an upload's media job: a pass soon, if its batch has a notice waiting. */
  async afterMedia(batchNum: string): Promise<void> {
    if (await this.deps.repo.waitingForBatch(batchNum)) await this.nudge();
  }

  /** One pass: sends every notice whose batch has finished and whose delay has passed. */
  async dispatchDue(): Promise<number> {
    let sent = 0;
    const notices = await this.deps.repo.scheduled(NOTICES_PER_PASS);
    const batches = await this.deps.repo.batchStates(notices.map((n) => n.batch_num));
    for (const notice of notices) {
      try {
        if (this.dueNow(notice, batches.get(notice.batch_num))) sent += (await this.dispatch(notice)) ? 1 : 0;
      } catch (err) {
        // One notice that cannot be sent does not hold up the others; it is tried again next pass.
        this.deps.warn({ err, notice: notice.id }, 'mail notice not dispatched');
      }
    }
    return sent;
  }

  private dueNow(notice: NoticeRow, batch: BatchState | undefined): boolean {
    if (!batch || batch.open > 0 || !batch.endedAt) return false;
    const now = this.deps.clock.now().getTime();
    const ended = batch.endedAt.getTime();
    if (now < ended + notice.delay_hours * HOUR_MS) return false;
    // The thumbnails are made just after the upload: a notice due at once waits for them a little.
    return batch.previewsPending === 0 || now >= ended + THUMBNAIL_WAIT_MS;
  }

  private async dispatch(notice: NoticeRow): Promise<boolean> {
    const now = this.deps.clock.now();
    const [{ files, total }, recipients, sender] = await Promise.all([
      this.deps.repo.batchFiles(notice.batch_num, MAIL_NOTICE_FILES_SHOWN),
      this.deps.repo.recipients(notice.mail_group_ids, notice.user_ids),
      this.deps.repo.userName(notice.user_id),
    ]);
    const language = mailLanguageOf(notice.language as Language);
    const expires = new Date(now.getTime() + MAIL_NOTICE_LINK_DAYS * 24 * HOUR_MS);
    const attachments: MailAttachment[] = files
      .filter((f) => f.thumbKey)
      .map((f) => ({
        cid: `file-${f.itemId}@notice`,
        key: f.thumbKey as string,
        contentType: 'image/jpeg',
        fileName: `${f.name.replace(/\.[^.]*$/, '')}.jpg`,
      }));
    const folderId = files[0]?.folderId ?? null;
    const listed = files.map((f) => ({
      name: f.name,
      cid: f.thumbKey ? `file-${f.itemId}@notice` : null,
      link: `${this.deps.appUrl}/ske-api/v1_0/media/mail-notice?token=${signToken(
        { n: notice.id, i: f.itemId } satisfies LinkClaims,
        this.deps.linkSecret,
        expires,
      )}`,
    }));
    const folderPath = await this.folderPathOf(folderId);
    const mailIds = await this.deps.repo.transaction(async (repo, mails) => {
      if (!(await repo.claim(notice.id, now))) return null;
      // Nothing uploaded (every file failed, cancelled or deleted since) or nobody to tell: the
      // notice ends without mails and its state says so.
      if (total === 0) return [];
      const ids: number[] = [];
      for (const recipient of recipients) {
        ids.push(
          await this.deps.mail.write(
            mails,
            recipient.email,
            {
              purpose: 'uploadNotice',
              name: recipient.name,
              sender,
              subject: notice.subject,
              content: notice.content,
              remark: notice.remark,
              folderPath,
              // People of the company open the folder in the app, where their own rights apply.
              folderLink:
                recipient.name !== null
                  ? `${this.deps.appUrl}/allfiles/${folderId === null ? 'all' : folderId}`
                  : null,
              files: listed,
              more: Math.max(0, total - files.length),
              total,
              linkDays: MAIL_NOTICE_LINK_DAYS,
            },
            language,
            notice.user_id,
            attachments,
          ),
        );
      }
      await repo.recordMails(notice.id, ids, total === 0 ? 0 : recipients.length);
      return ids;
    });
    if (mailIds === null) return false;
    await this.deps.mail.enqueueAll(mailIds);
    return true;
  }

  private async folderPathOf(folderId: number | null): Promise<string> {
    if (folderId === null) return '/';
    const folder = await this.deps.repo.folder(folderId);
    return folder ? joinPath(folder.folder_path, folder.name) : '/';
  }

  /** The notices of batches as their sender sees them on the upload records. */
  async summariesOf(batchNums: readonly string[]): Promise<Map<string, MailNoticeSummary>> {
    const notices = await this.deps.repo.findByBatches([...new Set(batchNums)]);
    const mails = await this.deps.repo.mailStates(notices.flatMap((n) => n.mail_ids));
    const byId = new Map(mails.map((m) => [m.id, m]));
    const batches = await this.deps.repo.batchStates(
      notices.filter((n) => n.state === 'scheduled').map((n) => n.batch_num),
    );
    const summaries = new Map<string, MailNoticeSummary>();
    for (const notice of notices) {
      const own = notice.mail_ids.map((id) => byId.get(id)).filter((m) => m !== undefined);
      const sent = own.filter((m) => m.state === 'sent').length;
      const failed = own.filter((m) => m.state === 'failed');
      let dueAt: string | null = null;
      const batch = batches.get(notice.batch_num);
      if (notice.state === 'scheduled' && batch) {
        if (batch.open === 0 && batch.endedAt)
          dueAt = new Date(batch.endedAt.getTime() + notice.delay_hours * HOUR_MS).toISOString();
      }
      const lastSent = own.map((m) => m.sent_at?.getTime() ?? 0).reduce((a, b) => Math.max(a, b), 0);
      summaries.set(notice.batch_num, {
        id: notice.id,
        state:
          notice.state === 'scheduled'
            ? 'scheduled'
            : own.length === 0 || failed.length > 0
              ? 'failed'
              : sent === own.length
                ? 'sent'
                : 'sending',
        dueAt,
        delayHours: notice.delay_hours,
        recipients: notice.recipients,
        sent,
        failed: failed.length,
        sentAt: sent === own.length && lastSent > 0 ? new Date(lastSent).toISOString() : null,
        lastError:
          failed[0]?.last_error ??
          (notice.state === 'dispatched' && own.length === 0 ? 'nothingToSend' : null),
      });
    }
    return summaries;
  }

  /**
   * The picture behind a notice's file link (no sign-in: the link is signed and expires). A file
   * deleted since, or a notice gone, answers SE_404.
   */
  async picture(token: string): Promise<{ body: Readable; contentType: string }> {
    const check = verifyToken<LinkClaims>(token, this.deps.linkSecret, this.deps.clock.now());
    if (!check.ok || typeof check.payload.n !== 'number' || typeof check.payload.i !== 'number')
      throw new AppError('SE_502');
    const notice = await this.deps.repo.find(check.payload.n);
    if (!notice) throw new AppError('SE_404');
    const key = await this.deps.repo.linkedPicture(notice.batch_num, check.payload.i);
    if (!key) throw new AppError('SE_404');
    return { body: await this.deps.storage.read(key), contentType: 'image/jpeg' };
  }
}
