import {
  API_USAGE_DAYS,
  type ApiAccessDetail,
  type ApiAccessPage,
  type ApiEnterprise,
  type apiAccessListQuerySchema,
  type Endpoint,
  type enterpriseCallsRequestSchema,
  FunctionCode,
  type IssuedApiKey,
  isOpenCall,
  type OpenCallInfo,
  openEndpoints,
  type rotateApiSecretRequestSchema,
  type saveApiAccessRequestSchema,
  type saveEnterpriseRequestSchema,
  UserStatus,
} from '@dam/contract';
import type { z } from 'zod';
import { AppError } from '../../../http/app-error';
import type { Clock } from '../../../lib/clock';
import type { SecretBox } from '../../../lib/secret-box';
import { type AuthContext, administrationReach, requireAnyCode, withinReach } from '../../access/access';
import { requireWithinCaller } from '../../accounts/checks';
import type {
  ApiAccessChange,
  ApiAccessState,
  ApiEnterpriseChange,
  ApiEnterpriseState,
  ApiSecretRotation,
  Saved,
} from './changes';
import { KEY_ID_ATTEMPTS, newKeyId, newSecret, SECRET_HINT_CHARS, secretContext } from './keys';
import {
  enterpriseOf,
  knownCalls,
  requireEnterpriseAdministration,
  requireEnterpriseId,
  stateOf,
  summaryOf,
} from './presenter';
import type { ApiAccessRecord, EnterpriseRecord, OpenAdminRepository } from './repository';

export type {
  ApiAccessChange,
  ApiAccessState,
  ApiEnterpriseChange,
  ApiEnterpriseState,
  ApiSecretRotation,
  Saved,
} from './changes';
export { newKeyId, newSecret, secretContext } from './keys';

type ListQuery = z.output<typeof apiAccessListQuerySchema>;
type SaveAccessInput = z.output<typeof saveApiAccessRequestSchema>;
type RotateInput = z.output<typeof rotateApiSecretRequestSchema>;
type SaveEnterpriseInput = z.output<typeof saveEnterpriseRequestSchema>;
type EnterpriseCallsInput = z.output<typeof enterpriseCallsRequestSchema>;

const HOUR_MS = 3600_000;
const DAY_MS = 86_400_000;

/** The UTC date of an instant, `YYYY-MM-DD`. */
const utcDate = (instant: Date): string => instant.toISOString().slice(0, 10);

/**
 * Open API access management (SPEC §2 /manage/api, §3 API access, §5, §6 code 7, §7 /open/*).
 *
 * Every call needs function code 7. Access records are administered inside the caller's reach
 * (`administrationReach`, as accounts and mail groups are): a record belongs to where its run-as
 * user (the user its mail names) is, and one outside the reach is answered like an unknown id
 * (SE_404) and not listed; the mail of a user outside the reach is answered like an unregistered
 * one (SED_12). Enterprises are shared by every record: anyone with code 7 may list them, but
 * saving or deleting one, or its allowed calls, needs a reach of everything (SE_502 otherwise).
 *
 * A key's secret is answered once, when it is made (creation, rotation), and kept only sealed
 * with the server's key (lib/secret-box), bound to the key id, plus its last 4 characters.
 * Deleting what is gone changes nothing and succeeds; a duplicate enterprise creation is an edit.
 */
export class OpenAdminService {
  constructor(
    private readonly repo: OpenAdminRepository,
    private readonly secretBox: SecretBox,
    private readonly clock: Clock,
  ) {}

  // ── Open calls ───────────────────────────────────────────────────────────────────────────

  /** SPEC getAllApi: every keyed call an enterprise may be allowed, from the contract's table. */
  openCalls(auth: AuthContext): OpenCallInfo[] {
    requireAnyCode(auth, FunctionCode.api);
    return Object.values(openEndpoints).flatMap((endpoint: Endpoint) => {
      const code = endpoint.openCall;
      return code !== undefined && code !== 'any' && isOpenCall(code)
        ? [{ code, method: endpoint.method, path: endpoint.path }]
        : [];
    });
  }

  // ── Access records: reading ──────────────────────────────────────────────────────────────

  /** SPEC getAllUserApi: the records within the caller's reach, newest first, with their counts. */
  async listAccesses(auth: AuthContext, query: ListQuery): Promise<ApiAccessPage> {
    requireAnyCode(auth, FunctionCode.api);
    const filter = {
      reach: administrationReach(auth),
      enterpriseId: query.enterpriseId || undefined,
      keyword: query.keyword || undefined,
    };
    const [rows, total] = await Promise.all([
      this.repo.listAccesses(filter, (query.pageNo - 1) * query.pageSize, query.pageSize),
      this.repo.countAccesses(filter),
    ]);
    const { from, today } = this.usageWindow();
    const totals = await this.repo.usageTotals(
      rows.map((row) => row.id),
      from,
      today,
    );
    return {
      list: rows.map((row) => summaryOf(row, totals.get(row.id))),
      total,
      pageNo: query.pageNo,
      pageSize: query.pageSize,
    };
  }

  /** SPEC getUserApiById: the record, what its enterprise allows, and its use per day and call. */
  async accessDetail(auth: AuthContext, id: number): Promise<ApiAccessDetail> {
    requireAnyCode(auth, FunctionCode.api);
    const row = await this.reachableAccess(this.repo, auth, id);
    const { from, today } = this.usageWindow();
    const [totals, usage, enterprise, calls] = await Promise.all([
      this.repo.usageTotals([id], from, today),
      this.repo.usageDays(id, from),
      this.repo.findEnterprise(row.enterprise_id),
      this.repo.callsOf([row.enterprise_id]),
    ]);
    return {
      ...summaryOf(row, totals.get(id)),
      apiCodes: knownCalls(calls.get(row.enterprise_id)),
      ratePerMinute: enterprise?.rate_per_minute ?? 0,
      usage: usage.map((u) => ({ day: u.day, callCode: u.call_code, calls: u.calls, failures: u.failures })),
    };
  }

  /**
   * A key acts with its user's rights, so issuing one is like granting them: an administrator may
   * name only a user who holds no function code and no file scope beyond the administrator's own
   * (as a password reset requires), else SE_502.
   */
  private async requireUserWithinCaller(
    repo: OpenAdminRepository,
    auth: AuthContext,
    user: { id: number; dept_id: number | null },
  ): Promise<void> {
    requireWithinCaller(auth, [
      ...(await repo.roles.rolesOfUser(user.id)),
      ...(await repo.roles.rolesOfDepartment(user.dept_id)),
    ]);
  }

  // ── Access records: changing ─────────────────────────────────────────────────────────────

  /**
   * SPEC addOpenApi: without `id` creates a record and answers its secret (the only time it is
   * shown); with `id` edits the record (its key stays, `secret` is null). Name, description and
   * enterprise are required (SPEC §5; a missing enterprise is SEP_02); the enterprise must exist
   * (SED_01); the mail must be a registered user's (SED_12) within the reach (SED_12 too, so
   * nothing outside it is revealed) and that user active (SED_03). The run-as user is the one the
   * mail names at the time of the save.
   */
  async saveAccess(auth: AuthContext, body: SaveAccessInput): Promise<Saved<IssuedApiKey, ApiAccessChange>> {
    requireAnyCode(auth, FunctionCode.api);
    const enterpriseId = requireEnterpriseId(body.enterpriseId);
    return this.repo.transaction(async (repo) => {
      const existing =
        body.id === undefined ? undefined : await this.reachableAccess(repo, auth, body.id, true);
      // Held until the save commits, so the enterprise cannot be deleted underneath it.
      if (!(await repo.findEnterprise(enterpriseId, 'share'))) throw new AppError('SED_01');
      const user = await repo.userByMail(body.userMail);
      if (!user || !withinReach(administrationReach(auth), user.dept_path)) throw new AppError('SED_12');
      if (user.status !== UserStatus.normal) throw new AppError('SED_03');
      if (!existing || existing.run_as_user_id !== user.id)
        await this.requireUserWithinCaller(repo, auth, user);
      const after: ApiAccessState = {
        name: body.name,
        description: body.description,
        enterpriseId,
        userMail: body.userMail,
        status: body.status,
      };
      const now = this.clock.now();
      if (existing) {
        await repo.updateAccess(existing.id, { ...after, runAsUserId: user.id, now });
        return {
          result: { id: existing.id, keyId: existing.key_id, secret: null },
          change: { id: existing.id, keyId: existing.key_id, before: stateOf(existing), after },
        };
      }
      const secret = newSecret();
      for (let attempt = 0; attempt < KEY_ID_ATTEMPTS; attempt += 1) {
        const keyId = newKeyId();
        const id = await repo.insertAccess({
          ...after,
          keyId,
          runAsUserId: user.id,
          secretEnc: this.secretBox.seal(secret, secretContext(keyId)),
          secretHint: secret.slice(-SECRET_HINT_CHARS),
          createdBy: auth.userId,
          now,
        });
        if (id !== undefined)
          return { result: { id, keyId, secret }, change: { id, keyId, before: null, after } };
      }
      throw new Error('open-admin: no free key id after several draws');
    });
  }

  /**
   * SPEC deleteAPIById: marks the record deleted, so its key stops at once. One already gone, or
   * outside the reach (answered like one that does not exist), changes nothing and answers null.
   */
  async deleteAccess(auth: AuthContext, id: number): Promise<ApiAccessChange | null> {
    requireAnyCode(auth, FunctionCode.api);
    const reach = administrationReach(auth);
    return this.repo.transaction(async (repo) => {
      const row = await repo.findAccess(id, true);
      if (!row || !withinReach(reach, row.user_dept_path)) return null;
      if (!(await repo.softDeleteAccess(id, this.clock.now()))) return null;
      return { id, keyId: row.key_id, before: stateOf(row), after: null };
    });
  }

  /**
   * A new secret, answered once. With `graceHours` the old one still signs until then (so the
   * other system can switch without a gap); with 0 it stops at once. A secret kept from an
   * earlier rotation is replaced either way.
   */
  async rotateSecret(auth: AuthContext, body: RotateInput): Promise<Saved<IssuedApiKey, ApiSecretRotation>> {
    requireAnyCode(auth, FunctionCode.api);
    return this.repo.transaction(async (repo) => {
      const row = await this.reachableAccess(repo, auth, body.id, true);
      // A new secret is a new way to act as the record's user: only for who holds as much.
      await this.requireUserWithinCaller(repo, auth, { id: row.run_as_user_id, dept_id: row.user_dept_id });
      const now = this.clock.now();
      const previousValidUntil =
        body.graceHours > 0 ? new Date(now.getTime() + body.graceHours * HOUR_MS) : null;
      const secret = newSecret();
      await repo.rotateSecret(row.id, {
        secretEnc: this.secretBox.seal(secret, secretContext(row.key_id)),
        secretHint: secret.slice(-SECRET_HINT_CHARS),
        previousSecretEnc: previousValidUntil ? ((await repo.sealedSecret(row.id)) ?? null) : null,
        previousValidUntil,
        now,
      });
      return {
        result: { id: row.id, keyId: row.key_id, secret },
        change: {
          id: row.id,
          keyId: row.key_id,
          name: row.name,
          graceHours: body.graceHours,
          previousValidUntil,
        },
      };
    });
  }

  // ── Enterprises ──────────────────────────────────────────────────────────────────────────

  /** SPEC getEnterpriseId: one enterprise (SED_01 when unknown), or every one without an ID. */
  async enterprises(auth: AuthContext, enterpriseId: string | undefined): Promise<ApiEnterprise[]> {
    requireAnyCode(auth, FunctionCode.api);
    let rows: EnterpriseRecord[];
    if (enterpriseId) {
      const row = await this.repo.findEnterprise(enterpriseId);
      if (!row) throw new AppError('SED_01');
      rows = [row];
    } else {
      rows = await this.repo.enterprises();
    }
    const calls = await this.repo.callsOf(rows.map((row) => row.enterprise_id));
    return rows.map((row) => enterpriseOf(row, calls.get(row.enterprise_id)));
  }

  /**
   * SPEC updateEnterpriseId: creates the enterprise, or renames it and sets its rate (kept when
   * not sent). Two creations of one ID at once both succeed, the second as an edit.
   */
  async saveEnterprise(
    auth: AuthContext,
    body: SaveEnterpriseInput,
  ): Promise<Saved<ApiEnterprise, ApiEnterpriseChange>> {
    requireEnterpriseAdministration(auth);
    const enterpriseId = requireEnterpriseId(body.enterpriseId);
    return this.repo.transaction(async (repo) => {
      const before = await this.enterpriseState(repo, enterpriseId, 'update');
      // An upsert: a creation racing this one (no row to lock yet) makes this save an edit.
      await repo.upsertEnterprise({
        enterpriseId,
        name: body.name,
        ratePerMinute: body.ratePerMinute,
        createdBy: auth.userId,
        now: this.clock.now(),
      });
      return this.savedEnterprise(repo, enterpriseId, before);
    });
  }

  /** SPEC updateOpenApiToEnterpriseId: the enterprise's allowed calls, replaced whole. */
  async saveEnterpriseCalls(
    auth: AuthContext,
    body: EnterpriseCallsInput,
  ): Promise<Saved<ApiEnterprise, ApiEnterpriseChange>> {
    requireEnterpriseAdministration(auth);
    const enterpriseId = requireEnterpriseId(body.enterpriseId);
    return this.repo.transaction(async (repo) => {
      const before = await this.enterpriseState(repo, enterpriseId, 'update');
      if (!before) throw new AppError('SED_01');
      await repo.setEnterpriseCalls(enterpriseId, body.apiCodes, this.clock.now());
      return this.savedEnterprise(repo, enterpriseId, before);
    });
  }

  /**
   * SPEC deleteEnterpriseId: refused (SEOA_05) while live records use it. Its deleted records go
   * with it. One already gone changes nothing and answers null.
   */
  async deleteEnterprise(
    auth: AuthContext,
    enterpriseId: string | undefined,
  ): Promise<ApiEnterpriseChange | null> {
    requireEnterpriseAdministration(auth);
    const id = requireEnterpriseId(enterpriseId);
    return this.repo.transaction(async (repo) => {
      // The row lock waits for records being saved into the enterprise (they hold it shared).
      const before = await this.enterpriseState(repo, id, 'update');
      if (!before) return null;
      const row = await repo.findEnterprise(id);
      if (row && row.access_count > 0) throw new AppError('SEOA_05');
      return (await repo.deleteEnterprise(id)) ? { enterpriseId: id, before, after: null } : null;
    });
  }

  // ── Helpers ──────────────────────────────────────────────────────────────────────────────

  /** A live record within the caller's reach; SE_404 otherwise, as for an id that does not exist. */
  private async reachableAccess(
    repo: OpenAdminRepository,
    auth: AuthContext,
    id: number,
    lock = false,
  ): Promise<ApiAccessRecord> {
    const row = await repo.findAccess(id, lock);
    if (!row || !withinReach(administrationReach(auth), row.user_dept_path)) throw new AppError('SE_404');
    return row;
  }

  private async enterpriseState(
    repo: OpenAdminRepository,
    enterpriseId: string,
    lock: 'update' | null = null,
  ): Promise<ApiEnterpriseState | null> {
    const row = await repo.findEnterprise(enterpriseId, lock);
    if (!row) return null;
    const calls = await repo.callsOf([enterpriseId]);
    return {
      name: row.name,
      ratePerMinute: row.rate_per_minute,
      apiCodes: knownCalls(calls.get(enterpriseId)),
    };
  }

  private async savedEnterprise(
    repo: OpenAdminRepository,
    enterpriseId: string,
    before: ApiEnterpriseState | null,
  ): Promise<Saved<ApiEnterprise, ApiEnterpriseChange>> {
    const row = await repo.findEnterprise(enterpriseId);
    if (!row) throw new Error(`open-admin: enterprise ${enterpriseId} gone within its own save`);
    const calls = await repo.callsOf([enterpriseId]);
    const result = enterpriseOf(row, calls.get(enterpriseId));
    return {
      result,
      change: {
        enterpriseId,
        before,
        after: { name: result.name, ratePerMinute: result.ratePerMinute, apiCodes: result.apiCodes },
      },
    };
  }

  /** From API_USAGE_DAYS − 1 days ago to today, in UTC dates of the service's clock. */
  private usageWindow(): { from: string; today: string } {
    const now = this.clock.now();
    return { from: utcDate(new Date(now.getTime() - (API_USAGE_DAYS - 1) * DAY_MS)), today: utcDate(now) };
  }
}
