import type { OperationCode } from '@dam/contract';
import type { FastifyRequest } from 'fastify';
import type { AuthContext } from '../access/access';
import type { LogActor, LogsService } from './service';
import type { LogSubject, Snapshot } from './snapshot';

type Warn = (details: Record<string, unknown>, message: string) => void;

/**
 * What route handlers call, in one line, right after their operation succeeded. It knows who
 * and from where (the request) and hands the rest to the logs service, which knows what to copy.
 *
 * The entry is written within the request, before the answer goes out (nothing is left to a
 * background task that a shutdown could drop). Writing it never fails the user's operation,
 * which has already happened: a failure is logged as a warning carrying the whole entry, so it
 * can still be recovered from the server log.
 */
export class OperationRecorder {
  /** Requests an entry was written for (the open API logs OPEN01 for a call that wrote none). */
  private readonly wrote = new WeakSet<FastifyRequest>();

  constructor(
    private readonly logs: LogsService,
    private readonly warn: Warn,
  ) {}

  /**
   * Who and from where. A signed open API call (request.openAccess, modules/open-api/auth) names its
   * access record: `API · <name>` and api_access_id, with the record's user as the operator.
   */
  private actor(request: FastifyRequest, userId: number | null): LogActor {
    this.wrote.add(request);
    const access = request.openAccess;
    return {
      userId,
      ip: request.ip ?? null,
      userAgent: request.headers['user-agent']?.slice(0, 300) ?? null,
      ...(access ? { apiAccess: { id: access.accessId, name: access.name } } : {}),
    };
  }

  /**
   * Who and from where, for an entry the operation writes itself in its own transaction (a view of
   * a file, counted once per opening: FilesRepository.recordOpening).
   */
  actorOf(request: FastifyRequest, auth: AuthContext | null = request.auth): LogActor {
    return this.actor(request, auth?.userId ?? null);
  }

  /** Whether an entry was written for this request (by any of the methods here). */
  wroteFor(request: FastifyRequest): boolean {
    return this.wrote.has(request);
  }

  private async write(
    actor: LogActor,
    code: OperationCode,
    subject: LogSubject,
    before?: Snapshot | null,
  ): Promise<void> {
    try {
      await this.logs.record(actor, code, subject, before);
    } catch (err) {
      this.warn({ err, operationLog: { code, ...actor, subject } }, 'operation log entry not written');
    }
  }

  /** The signed-in caller (or `auth`, for routes authorised otherwise) did `code` to `subject`. */
  async record(
    request: FastifyRequest,
    code: OperationCode,
    subject: LogSubject = {},
    auth: AuthContext | null = request.auth,
  ): Promise<void> {
    await this.write(this.actor(request, auth?.userId ?? null), code, subject);
  }

  /**
   * Runs an operation that removes or changes its subject; when it succeeds, records it with the
   * names the subject had before and what changed. A failing operation records nothing.
   */
  async around<T>(
    request: FastifyRequest,
    code: OperationCode,
    subject: LogSubject,
    operation: () => Promise<T>,
  ): Promise<T> {
    let before: Snapshot | null = null;
    try {
      before = await this.logs.snapshot(subject);
    } catch (err) {
      this.warn(
        { err, operationLog: { code, subject } },
        'operation log: subject not read before the operation',
      );
    }
    const result = await operation();
    await this.write(this.actor(request, request.auth?.userId ?? null), code, subject, before);
    return result;
  }

  /** An account proven otherwise than by a session (a mailed link, an SMS code) did `code`. */
  async byAccount(
    request: FastifyRequest,
    code: OperationCode,
    userId: number,
    subject: LogSubject = {},
  ): Promise<void> {
    await this.write(this.actor(request, userId), code, subject);
  }

  /**
   * An open API call through access record `access` (known: its user is the operator; unknown,
   * e.g. a refused call with no valid key: no operator) did `code`; used for OPEN09 refusals,
   * which happen before request.openAccess is set.
   */
  async byApiAccess(
    request: FastifyRequest,
    access: { accessId: number; name: string; userId: number } | null,
    code: OperationCode,
    subject: LogSubject = {},
  ): Promise<void> {
    const actor = this.actor(request, access?.userId ?? null);
    await this.write(
      access ? { ...actor, apiAccess: { id: access.accessId, name: access.name } } : actor,
      code,
      subject,
    );
  }

  /** A share-link visitor (no account) did `code`. */
  async visitor(request: FastifyRequest, code: OperationCode, subject: LogSubject): Promise<void> {
    await this.write(this.actor(request, null), code, subject);
  }

  /** A sign-in succeeded: the operator is the account of the session just made. */
  async signedIn(request: FastifyRequest, code: OperationCode, token: string): Promise<void> {
    let userId: number | null = null;
    try {
      userId = await this.logs.userOfToken(token);
    } catch (err) {
      this.warn({ err }, 'operation log: signed-in account not found');
    }
    if (userId !== null) await this.write(this.actor(request, userId), code, {});
  }
}

/** How many article numbers a download entry lists (the count is always kept). */
const ART_NUMS_LISTED = 100;

/**
 * What a download entry keeps: the files actually sent (their items, one entry per request, not
 * per file), how many outputs, and for a download by article numbers which numbers were asked.
 */
export function downloadSubject(
  plan: { files: ReadonlyArray<{ itemId: number }>; shareId?: number },
  artNums?: readonly string[],
): LogSubject {
  return {
    items: [...new Set(plan.files.map((f) => f.itemId))],
    ...(plan.shareId === undefined ? {} : { share: plan.shareId }),
    ...(artNums ? { newValue: artNums.join(', ') } : {}),
    details: {
      fileCount: plan.files.length,
      ...(artNums ? { artNumCount: artNums.length, artNums: artNums.slice(0, ART_NUMS_LISTED) } : {}),
    },
  };
}
