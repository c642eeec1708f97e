import {
  type ChangePasswordRequest,
  classifyIdentifier,
  FunctionCode,
  type LoginRequest,
  type LoginResult,
  ResourceType,
  type Role,
  SmsPurpose,
  type UserInfo,
  UserStatus,
} from '@dam/contract';
import { AppError, invalidField } from '../../http/app-error';
import type { Clock } from '../../lib/clock';
import { decoyPasswordHash, hashPassword, verifyPassword } from '../../lib/password';
import { hashToken, newSessionToken } from '../../lib/tokens';
import { type AuthContext, fileScopesOfRoles, requireAnyCode } from '../access/access';
import type { AccessRepository } from '../access/access.repository';
import { roleDto } from '../accounts/presenter';
import { clientKeyOf } from '../ratelimit/client-key';
import type { RateLimiter } from '../ratelimit/limiter';
import type { SmsCodes } from '../sms/codes';
import type { SecurityRepository } from './repository';

export interface SessionPolicy {
  idleMs: number;
  rememberMs: number;
  /** 0 = passwords never expire. */
  passwordMaxAgeDays: number;
}

/** Sign-in attempts per minute: on the account identifier looked up, and on the client address. */
export interface SignInLimits {
  perIdentifier: number;
  perAddress: number;
}

/** The per-address limit is this multiple of LOGIN_RATE_LIMIT: an office shares one NAT address. */
export const ADDRESS_LIMIT_MULTIPLE = 10;
const MINUTE_MS = 60_000;

/** The account identifier a sign-in looks up, normalised as the lookup compares it. */
export type LoginIdentifier = { kind: 'email'; value: string } | { kind: 'mobile'; value: string };

/** Which account a sign-in names: `email`, else `mobile`, else `userName` by its format (SE_400 otherwise). */
export function loginIdentifierOf(body: LoginRequest): LoginIdentifier {
  if (body.email) return { kind: 'email', value: body.email.trim().toLowerCase() };
  if (body.mobile) return { kind: 'mobile', value: body.mobile.trim() };
  const identifier = (body.userName ?? '').trim();
  const kind = classifyIdentifier(identifier);
  if (kind === 'email') return { kind, value: identifier.toLowerCase() };
  if (kind === 'mobile') return { kind, value: identifier };
  throw invalidField('userName', 'identifier');
}

export interface ClientMeta {
  ip: string | null;
  userAgent: string | null;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** Sliding sessions are extended at most once a minute, not on every request. */
const TOUCH_INTERVAL_MS = 60_000;

export class SecurityService {
  constructor(
    private readonly repo: SecurityRepository,
    private readonly access: AccessRepository,
    private readonly clock: Clock,
    private readonly policy: SessionPolicy,
    private readonly limiter: RateLimiter,
    private readonly limits: SignInLimits,
    private readonly codes: SmsCodes,
  ) {}

  /**
   * Signs in. Every attempt counts against the client address (an IPv6 client by its /64, see
   * `clientKeyOf`) and the identifier looked up (not whatever else the body says); over either
   * limit the answer is SE_429 before the password is even checked. A successful sign-in takes its
   * own attempt back, and only its own, so only failures use the limits up: sign-ins to an account
   * of one's own between guesses at others give the address nothing back.
   */
  async login(body: LoginRequest, meta: ClientMeta): Promise<LoginResult> {
    const fromAddress = await this.limiter.take([
      { key: `login-ip:${clientKeyOf(meta.ip)}`, max: this.limits.perAddress, windowMs: MINUTE_MS },
    ]);
    const identifier = loginIdentifierOf(body);
    const onIdentifier = await this.limiter.take([
      {
        key: `login-id:${identifier.kind}:${identifier.value}`,
        max: this.limits.perIdentifier,
        windowMs: MINUTE_MS,
      },
    ]);
    if (body.password === undefined) {
      const user = await this.signInByCode(identifier, body.messageCode ?? '');
      await fromAddress.refund();
      await onIdentifier.refund();
      return this.openSession(user, body.remember === true, meta);
    }
    const user = await this.findUser(identifier);
    const hashed = user?.password_hash ?? (await decoyPasswordHash());
    const valid = await verifyPassword(hashed, body.password);
    // Unknown account and wrong password answer alike, so the reply does not reveal who exists.
    if (!user?.password_hash || !valid) throw new AppError('SED_10');
    await fromAddress.refund();
    await onIdentifier.refund();
    return this.openSession(user, body.remember === true, meta);
  }

  /**
   * Opens a session for a user whose sign-in was proven (password, SMS code or single sign-on):
   * refuses a disabled account (SED_03), counts the sign-in and answers the new token.
   */
  async openSession(
    user: { id: number; status: number; must_change_password: boolean; password_changed_at: Date },
    remember: boolean,
    meta: ClientMeta,
  ): Promise<LoginResult> {
    if (user.status !== UserStatus.normal) throw new AppError('SED_03');
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + (remember ? this.policy.rememberMs : this.policy.idleMs));
    const token = newSessionToken();
    await this.repo.recordSignIn(user.id, { tokenHash: hashToken(token), remember, now, expiresAt, ...meta });
    return {
      token,
      expiresAt: expiresAt.toISOString(),
      passwordExpireFlag: this.passwordExpired(user.must_change_password, user.password_changed_at, now),
    };
  }

  /** The account an SMS sign-in code proves (SE_504 for a wrong, late, burnt or unsent code). */
  private async signInByCode(identifier: LoginIdentifier, code: string) {
    if (identifier.kind !== 'mobile') throw invalidField('mobile', 'identifier');
    await this.codes.verify(identifier.value, SmsPurpose.signIn, code);
    const user = await this.repo.findLiveUserByMobile(identifier.value);
    // Codes go only to numbers with an account; one deleted since answers like a wrong code.
    if (!user) throw new AppError('SE_504');
    return user;
  }

  private findUser(identifier: LoginIdentifier) {
    return identifier.kind === 'email'
      ? this.repo.findLiveUserByEmail(identifier.value)
      : this.repo.findLiveUserByMobile(identifier.value);
  }

  /** Resolves a token to its caller, or throws SE_501 (missing, unknown, expired, signed out). */
  async authenticate(token: string | undefined): Promise<AuthContext> {
    if (!token) throw new AppError('SE_501');
    return this.contextOf({ tokenHash: hashToken(token) });
  }

  /** Whether a session is still alive (its user live): signed media URLs die with their session. */
  async sessionAlive(sessionId: number): Promise<boolean> {
    return (await this.repo.findLiveSession({ sessionId }, this.clock.now())) !== undefined;
  }

  /** The caller behind a session still alive (signed download links carry the session, not the token). */
  authenticateSession(sessionId: number): Promise<AuthContext> {
    return this.contextOf({ sessionId });
  }

  private async contextOf(by: { tokenHash: string } | { sessionId: number }): Promise<AuthContext> {
    const now = this.clock.now();
    const session = await this.repo.findLiveSession(by, now);
    if (!session) throw new AppError('SE_501');
    if (!session.remember && now.getTime() - session.last_seen_at.getTime() >= TOUCH_INTERVAL_MS) {
      await this.repo.extendSession(session.session_id, now, new Date(now.getTime() + this.policy.idleMs));
    }
    const roles = await this.access.rolesOfUser(session.user_id, session.dept_id);
    return {
      userId: session.user_id,
      sessionId: session.session_id,
      deptId: session.dept_id,
      deptPath: session.dept_path,
      functionCodes: new Set(roles.flatMap((r) => r.function_codes)),
      fileScopes: fileScopesOfRoles(roles),
      passwordExpired: this.passwordExpired(session.must_change_password, session.password_changed_at, now),
    };
  }

  async userInfo(auth: AuthContext): Promise<UserInfo> {
    const user = await this.repo.findUserWithDepartment(auth.userId);
    if (!user) throw new AppError('SE_501');
    const codes = [...auth.functionCodes].sort((a, b) => a - b);
    return {
      id: user.id,
      username: user.username,
      name: user.name,
      mobile: user.mobile,
      email: user.email,
      deptId: user.dept_id,
      deptname: user.dept_name,
      avatar: user.portrait,
      loginNum: user.login_count,
      passwordExpireFlag: auth.passwordExpired,
      resourcesList: codes.map((code) => ({ resourceType: ResourceType.functionCode, resourceId: code })),
      filePermissions: { ...auth.fileScopes },
    };
  }

  async signOut(auth: AuthContext): Promise<void> {
    await this.repo.deleteSession(auth.sessionId);
  }

  /** Changes the caller's own password; every session of theirs ends, this one included. */
  async changePassword(auth: AuthContext, body: ChangePasswordRequest): Promise<void> {
    const user = await this.repo.findUserWithDepartment(auth.userId);
    if (!user?.password_hash || !(await verifyPassword(user.password_hash, body.password))) {
      throw new AppError('SE_505');
    }
    await this.repo.replacePassword(auth.userId, await hashPassword(body.newPassword), this.clock.now());
  }

  async listRoles(auth: AuthContext): Promise<Role[]> {
    // Roles are read when editing users or roles.
    requireAnyCode(auth, FunctionCode.user, FunctionCode.role);
    const rows = await this.repo.listRoles();
    return rows.map((row) => roleDto(row, row.user_count));
  }

  private passwordExpired(mustChange: boolean, changedAt: Date, now: Date): boolean {
    if (mustChange) return true;
    const maxAge = this.policy.passwordMaxAgeDays;
    return maxAge > 0 && now.getTime() - changedAt.getTime() > maxAge * DAY_MS;
  }
}
