import type { Readable } from 'node:stream';
import {
  type addLogRequestSchema,
  CLIENT_CODES_NEEDING_ITEMS,
  FunctionCode,
  type Language,
  LOG_ITEMS_KEPT,
  LOG_NAMES_LISTED,
  LOG_NEW_VALUE_MAX_CHARS,
  type LogEntry,
  type LogFilter,
  type LogListResult,
  type logListRequestSchema,
  OperationCode,
} from '@dam/contract';
import type { z } from 'zod';
import { AppError, invalidField } from '../../http/app-error';
import type { Clock } from '../../lib/clock';
import { hashToken } from '../../lib/tokens';
import { type AuthContext, requireAnyCode } from '../access/access';
import { canSee } from '../items/policy';
import type { RateLimiter } from '../ratelimit/limiter';
import { describeChanges, logLanguageOf } from './describe';
import { describeFilter, presentEntry, toQuery } from './presenter';
import type { LogRow, LogsRepository } from './repository';
import { diff, type LogSubject, type Snapshot, type StateValue, takeSnapshot } from './snapshot';
import { localTime, writeLogWorkbook } from './workbook';

/** Who did it, from where. `userId` null: a share-link visitor. */
export interface LogActor {
  userId: number | null;
  ip: string | null;
  userAgent: string | null;
  /**
   * The open API access record the operation came through (issue 15): the entry names it
   * (`API · <name>`, api_access_id) while `userId` stays the record's user.
   */
  apiAccess?: { id: number; name: string } | null;
}

/** Operations whose entry lists what changed (before → after). */
const CHANGE_CODES = new Set<string>([
  OperationCode.move,
  OperationCode.edit,
  OperationCode.editUser,
  OperationCode.editDepartment,
  OperationCode.editRole,
]);
/** Operations whose entry keeps the values created. */
const CREATE_CODES = new Set<string>([
  OperationCode.createUser,
  OperationCode.createDepartment,
  OperationCode.createRole,
]);
/** Operations whose entry keeps the values removed. */
const DELETE_CODES = new Set<string>([
  OperationCode.deleteUser,
  OperationCode.deleteDepartment,
  OperationCode.deleteRole,
]);

const SHARE_LINK_COPIES = new Set(['link', 'linkAndPassword']);
const CLIENT_PLATFORMS = new Set(['mac', 'windows']);

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** add-log calls one person may make per minute, counted across every server process. */
export const REPORTS_PER_MINUTE = 120;

type ListRequest = z.output<typeof logListRequestSchema>;
type AddLogPayload = z.output<typeof addLogRequestSchema>;

/**
 * The operation log: recording (by the server after each operation, or reported by the browser
 * for the few it cannot see), listing and exporting (function code 5). Entries are never changed.
 */
export class LogsService {
  constructor(
    private readonly repo: LogsRepository,
    private readonly clock: Clock,
    private readonly timeZone: string,
    /** Counts add-log calls (REPORTS_PER_MINUTE); absent only where nothing is reported (tests of recording). */
    private readonly limiter?: RateLimiter,
  ) {}

  // ── Recording ───────────────────────────────────────────────────────────────────────────────

  /** The subject as it is now (see takeSnapshot). */
  snapshot(subject: LogSubject): Promise<Snapshot> {
    return takeSnapshot(this.repo, subject);
  }

  /**
   * Appends the entry of an operation that has just succeeded. `before` is the subject's snapshot
   * taken before the operation (for deletions and edits): its names are the ones the operation
   * acted on, and comparing it with now gives the changes.
   */
  async record(
    actor: LogActor,
    code: OperationCode,
    subject: LogSubject,
    before?: Snapshot | null,
  ): Promise<void> {
    const after = await this.snapshot(subject);
    const base = before && (before.itemCount > 0 || Object.keys(before.details).length > 0) ? before : after;
    // Emptying an empty recycle bin deleted nothing.
    if (code === OperationCode.purge && base.itemCount === 0) return;
    const details: Record<string, unknown> = { ...after.details, ...(before?.details ?? {}) };
    if (CHANGE_CODES.has(code) && before?.state && after.state) {
      const changes = diff(before.state, after.state);
      if (Object.keys(changes).length > 0) details.changes = changes;
    }
    if (CREATE_CODES.has(code) && after.state) details.values = after.state;
    if (DELETE_CODES.has(code) && (before?.state ?? after.state))
      details.values = before?.state ?? after.state;
    Object.assign(details, subject.details ?? {});

    let newValue: string | null = subject.newValue ?? null;
    if (subject.newValue === undefined) {
      const changes = details.changes as Record<string, [StateValue, StateValue]> | undefined;
      if (code === OperationCode.move) newValue = (after.state?.path as string | null) ?? null;
      else if (changes && Object.keys(changes).length === 1 && changes.name)
        newValue = String(changes.name[1] ?? '');
      else if (changes) newValue = describeChanges(changes, 'en');
    }
    if (code === OperationCode.createFolder && after.state?.path) details.targetPath = after.state.path;

    await this.repo.insert({
      createdAt: this.clock.now(),
      operatorId: actor.userId,
      operatorName: actor.apiAccess
        ? `API · ${actor.apiAccess.name}`
        : actor.userId === null
          ? null
          : await this.repo.userName(actor.userId),
      apiAccessId: actor.apiAccess?.id ?? null,
      code,
      itemIds: base.itemIds,
      itemNames: base.itemNames,
      itemCount: base.itemCount,
      newValue: newValue === null ? null : cut(newValue, LOG_NEW_VALUE_MAX_CHARS),
      details,
      ip: actor.ip,
      userAgent: actor.userAgent,
      reported: false,
    });
  }

  /** The account a sign-in's new session token belongs to. */
  userOfToken(token: string): Promise<number | null> {
    return this.repo.userOfSession(hashToken(token));
  }

  /**
   * POST operator-log/add-log: the browser reports an operation the server cannot see. Only the
   * client codes (the schema refuses others); every id must be an item the caller can see.
   * Nothing is written unless all is well; a failure to write fails the call.
   */
  async report(auth: AuthContext, actor: LogActor, body: AddLogPayload): Promise<void> {
    if (!this.limiter) throw new Error('LogsService.report needs the rate limiter');
    // Per account, not per address: one office behind one address is not one bucket.
    await this.limiter.take([
      { key: `oplog-report:${auth.userId}`, max: REPORTS_PER_MINUTE, windowMs: 60_000 },
    ]);
    const code = body.operatorCode;
    const ids = [...new Set([...body.folderDataIdList, ...body.folderIdList])];
    if (ids.length === 0 && CLIENT_CODES_NEEDING_ITEMS.includes(code))
      throw invalidField('folderDataIdList', 'required');
    const value = body.newValue ?? null;
    if (value !== null) {
      const allowed =
        code === OperationCode.view
          ? /^[a-z0-9]{1,16}$/.test(value)
          : code === OperationCode.copyShareLink
            ? SHARE_LINK_COPIES.has(value)
            : CLIENT_PLATFORMS.has(value);
      if (!allowed) throw invalidField('newValue', 'invalidValue');
    }
    const rows = await this.repo.items(ids);
    if (rows.length !== ids.length) throw new AppError('SE_404');
    for (const row of rows) if (!canSee(auth, row)) throw new AppError('SE_404');
    const byId = new Map(rows.map((r) => [r.id, r]));
    const items = ids.map((id) => byId.get(id) as (typeof rows)[number]);
    await this.repo.insert({
      createdAt: this.clock.now(),
      operatorId: auth.userId,
      operatorName: await this.repo.userName(auth.userId),
      code,
      itemIds: items.map((i) => i.id),
      itemNames: items.map((i) => i.name),
      itemCount: items.length,
      newValue: value,
      details: {},
      ip: actor.ip,
      userAgent: actor.userAgent,
      reported: true,
    });
  }

  // ── Reading (function code 5) ───────────────────────────────────────────────────────────────

  async list(auth: AuthContext, request: ListRequest, lang: Language): Promise<LogListResult> {
    requireAnyCode(auth, FunctionCode.log);
    const query = toQuery(request);
    const [rows, total] = await Promise.all([
      this.repo.list(query, request.pageSize, (request.pageNo - 1) * request.pageSize),
      this.repo.count(query),
    ]);
    const language = logLanguageOf(lang);
    return {
      list: rows.map((row) => presentEntry(row, language, LOG_NAMES_LISTED)),
      total,
      pageNo: request.pageNo,
      pageSize: request.pageSize,
    };
  }

  /**
   * The filtered log as an .xlsx stream (newest first, at most `maxRows` rows; the file says how
   * many matched and that the rest were left out). Checked before a byte is written.
   */
  async export(
    auth: AuthContext,
    filter: LogFilter,
    lang: Language,
    maxRows: number,
  ): Promise<{ stream: Readable; fileName: string; total: number; rows: number }> {
    requireAnyCode(auth, FunctionCode.log);
    // The log as it is now: entries written while the file streams (this export's own) stay out.
    const query = { ...toQuery(filter), maxId: await this.repo.maxId() };
    const total = await this.repo.count(query);
    const language = logLanguageOf(lang);
    const repo = this.repo;
    async function* rows(): AsyncGenerator<LogEntry> {
      let after: { time: Date; id: number } | null = null;
      let sent = 0;
      while (sent < maxRows) {
        const batch: LogRow[] = await repo.listAfter(query, after, Math.min(1000, maxRows - sent));
        for (const row of batch) yield presentEntry(row, language, LOG_ITEMS_KEPT);
        sent += batch.length;
        const last = batch[batch.length - 1];
        if (!last || batch.length < 1000) return;
        after = { time: last.created_at, id: last.id };
      }
    }
    const now = this.clock.now();
    const stamp = localTime(now, this.timeZone).replace(/\D/g, '').slice(0, 12);
    const stream = writeLogWorkbook({
      entries: rows(),
      language,
      timeZone: this.timeZone,
      exportedAt: localTime(now, this.timeZone),
      exportedBy: (await this.repo.userName(auth.userId)) ?? String(auth.userId),
      filter: describeFilter(filter),
      total,
      maxRows,
    });
    const fileName = language === 'zh' ? `操作日志-${stamp}.xlsx` : `operation-log-${stamp}.xlsx`;
    return { stream, fileName, total, rows: Math.min(total, maxRows) };
  }
}
