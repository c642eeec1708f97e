import { createHash, randomBytes } from 'node:crypto';
import {
  DepartmentStatus,
  PERSON_NAME_MAX_CHARS,
  type SsoFinishRequest,
  type SsoFinishResult,
  type SsoStatus,
} from '@dam/contract';
import * as client from 'openid-client';
import { AppError, invalidField } from '../../http/app-error';
import type { Clock } from '../../lib/clock';
import { generatePassword, hashPassword } from '../../lib/password';
import { hashToken } from '../../lib/tokens';
import { existingRoles } from '../accounts/checks';
import type { AccountsRepository } from '../accounts/repository';
import { clientKeyOf } from '../ratelimit/client-key';
import type { RateLimiter } from '../ratelimit/limiter';
import type { SecurityRepository } from '../security/repository';
import type { ClientMeta, SecurityService } from '../security/service';
import {
  callbackParams,
  endSessionUrl,
  mainlandMobile,
  providerUnreachable,
  type SsoSettings,
} from './provider';
import type { SsoRepository } from './repository';

export { mainlandMobile, type SsoSettings, ssoSettingsOf } from './provider';

/** How long a sign-in may stay at the provider before it must be started again. */
export const SSO_ATTEMPT_MS = 10 * 60_000;
const MINUTE_MS = 60_000;

export interface SsoDependencies {
  settings: SsoSettings | null;
  repo: SsoRepository;
  security: SecurityService;
  securityRepo: SecurityRepository;
  accounts: AccountsRepository;
  limiter: RateLimiter;
  /** Sign-ins started per minute from one client address. */
  startsPerMinute: number;
  clock: Clock;
  warn: (details: Record<string, unknown>, message: string) => void;
}

/** What the provider says about the person, as far as matching and creating an account needs. */
interface Identity {
  /** `issuer subject`: the same person at the same provider, whatever else changes. */
  subject: string;
  email: string | null;
  mobile: string | null;
  name: string;
}

type AccountRow = NonNullable<Awaited<ReturnType<SsoRepository['findLiveUserBySubject']>>>;

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** A new value for the cookie that binds a sign-in to the browser that started it. */
export const newBrowserKey = (): string => randomBytes(32).toString('base64url');

/**
 * Company single sign-on with OpenID Connect (authorization code flow with PKCE S256, state and
 * nonce): `start` sends the browser to the provider, `finish` takes it back, matches the person to
 * an account (provider identity, else verified e-mail, else verified mobile, else a new account
 * when configured) and opens a session as a password sign-in does. See docs/decisions.md
 * "Single sign-on (issue 13)".
 */
export class SsoService {
  private discovered: Promise<client.Configuration> | null = null;

  constructor(private readonly deps: SsoDependencies) {}

  /**
   * Whether single sign-on is on and, when the provider has one, its end-session page for a session
   * that ended here without a sign-out (SPEC §8 SE_501: the browser goes there after 3 s). That
   * page gets no ID token hint; a provider that cannot be reached leaves it null.
   */
  async status(): Promise<SsoStatus> {
    const settings = this.deps.settings;
    if (!settings) return { enabled: false, logoutUrl: null };
    try {
      const config = await this.configuration(settings);
      return { enabled: true, logoutUrl: endSessionUrl(config, undefined, settings.postLogoutRedirectUri) };
    } catch {
      return { enabled: true, logoutUrl: null };
    }
  }

  /**
   * The provider's authorization address for a new sign-in that comes back to `redirect` (an
   * in-app path), bound to the browser holding `browserKey`. SE_503 when the provider cannot be
   * reached (nothing is recorded then).
   */
  async start(redirect: string | undefined, browserKey: string, meta: ClientMeta): Promise<string> {
    const settings = this.requireSettings();
    await this.deps.limiter.take([
      { key: `sso-start:${clientKeyOf(meta.ip)}`, max: this.deps.startsPerMinute, windowMs: MINUTE_MS },
    ]);
    const config = await this.configuration(settings);
    const state = client.randomState();
    const nonce = client.randomNonce();
    const codeVerifier = client.randomPKCECodeVerifier();
    const now = this.deps.clock.now();
    await this.deps.repo.saveAttempt({
      stateHash: sha256(state),
      nonce,
      codeVerifier,
      browserHash: sha256(browserKey),
      redirect: redirect ?? '/',
      now,
      expiresAt: new Date(now.getTime() + SSO_ATTEMPT_MS),
    });
    return client.buildAuthorizationUrl(config, {
      redirect_uri: settings.redirectUri,
      scope: settings.scopes,
      state,
      nonce,
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
    }).href;
  }

  /**
   * Finishes the sign-in the provider sent back. A state that is unknown, used, expired or
   * started in another browser, and a code the provider refuses, answer SE_400 and change nothing;
   * a provider that cannot be reached answers SE_503 and leaves the sign-in to be tried again.
   */
  async finish(
    body: SsoFinishRequest,
    browserKey: string | undefined,
    meta: ClientMeta,
  ): Promise<SsoFinishResult> {
    const settings = this.requireSettings();
    const params = callbackParams(body);
    const state = params.get('state');
    if (!state) throw invalidField('state', 'required');
    const stateHash = sha256(state);
    const attempt = await this.deps.repo.findAttempt(stateHash);
    const now = this.deps.clock.now();
    if (
      !attempt ||
      attempt.expires_at.getTime() <= now.getTime() ||
      !browserKey ||
      sha256(browserKey) !== attempt.browser_hash
    ) {
      throw invalidField('state', 'invalidToken');
    }
    if (params.has('error')) {
      // Refused or cancelled at the provider: this sign-in is over.
      await this.deps.repo.takeAttempt(stateHash);
      throw invalidField('error', 'invalidValue');
    }

    const config = await this.configuration(settings);
    const currentUrl = new URL(settings.redirectUri);
    for (const [name, value] of params) currentUrl.searchParams.set(name, value);
    let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
    try {
      tokens = await client.authorizationCodeGrant(config, currentUrl, {
        expectedState: state,
        expectedNonce: attempt.nonce,
        pkceCodeVerifier: attempt.code_verifier,
      });
    } catch (error) {
      if (providerUnreachable(error)) {
        this.deps.warn({ err: error }, 'single sign-on: the provider did not answer the code exchange');
        throw new AppError('SE_503');
      }
      await this.deps.repo.takeAttempt(stateHash);
      this.deps.warn({ err: error }, 'single sign-on: sign-in refused (code, state, nonce or issuer)');
      throw invalidField('code', 'invalidToken');
    }
    // Only the first to take the attempt goes on, in whichever process.
    if (!(await this.deps.repo.takeAttempt(stateHash))) throw invalidField('state', 'invalidToken');

    const identity = await this.identityOf(config, tokens);
    const user = await this.accountOf(identity);
    const result = await this.deps.security.openSession(user, false, meta);
    const logoutUrl = endSessionUrl(config, tokens.id_token, settings.postLogoutRedirectUri);
    if (logoutUrl) await this.deps.repo.recordSession(hashToken(result.token), logoutUrl);
    return { ...result, redirect: attempt.redirect };
  }

  /** Where sign-out sends the browser: the provider's end-session page for SSO sessions while SSO is on. */
  async logoutUrl(sessionId: number): Promise<string | null> {
    if (!this.deps.settings) return null;
    return this.deps.repo.logoutUrlOf(sessionId);
  }

  private requireSettings(): SsoSettings {
    if (!this.deps.settings) throw new AppError('SED_11');
    return this.deps.settings;
  }

  /** The provider's metadata, fetched once per process; a failure is not kept, the next call tries again. */
  private configuration(settings: SsoSettings): Promise<client.Configuration> {
    if (!this.discovered) {
      const discovery = client.discovery(
        settings.issuer,
        settings.clientId,
        settings.clientSecret,
        client.ClientSecretBasic(settings.clientSecret),
        {
          timeout: settings.timeoutMs / 1000,
          // http is allowed by the configuration for localhost only (tests, development).
          ...(settings.issuer.protocol === 'http:' ? { execute: [client.allowInsecureRequests] } : {}),
        },
      );
      this.discovered = discovery;
      discovery.catch((err: unknown) => {
        if (this.discovered === discovery) this.discovered = null;
        this.deps.warn(
          { err, issuer: settings.issuer.href },
          'single sign-on: the provider could not be discovered (OIDC_ISSUER)',
        );
      });
    }
    return this.discovered.catch(() => {
      throw new AppError('SE_503');
    });
  }

  /** The ID token's claims, completed from the user-info endpoint when e-mail or phone are not in it. */
  private async identityOf(
    config: client.Configuration,
    tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>,
  ): Promise<Identity> {
    const idClaims = tokens.claims();
    if (!idClaims) throw invalidField('code', 'invalidToken');
    let claims: Record<string, unknown> = { ...idClaims };
    const incomplete = claims.email === undefined || claims.phone_number === undefined;
    if (incomplete && config.serverMetadata().userinfo_endpoint) {
      try {
        const info = await client.fetchUserInfo(config, tokens.access_token, idClaims.sub);
        claims = {
          ...info,
          ...Object.fromEntries(Object.entries(claims).filter(([, v]) => v !== undefined)),
        };
      } catch (error) {
        if (!providerUnreachable(error)) throw error;
        this.deps.warn({ err: error }, 'single sign-on: the provider did not answer the user-info request');
        throw new AppError('SE_503');
      }
    }
    const email =
      claims.email_verified === true && typeof claims.email === 'string' && claims.email.includes('@')
        ? claims.email.trim().toLowerCase()
        : null;
    const mobile = claims.phone_number_verified === true ? mainlandMobile(claims.phone_number) : null;
    const name = [claims.name, claims.preferred_username, email, mobile].find(
      (value): value is string => typeof value === 'string' && value.trim() !== '',
    );
    return {
      subject: `${idClaims.iss} ${idClaims.sub}`,
      email,
      mobile,
      name: (name ?? idClaims.sub).trim().slice(0, PERSON_NAME_MAX_CHARS),
    };
  }

  /**
   * The account of the person: bound to their provider identity, else the live account of their
   * verified e-mail, else of their verified mobile (bound to the identity from then on), else a
   * deleted one (refused SED_03 by `openSession`), else a new one when OIDC_AUTO_CREATE is on,
   * else SED_02.
   */
  private async accountOf(identity: Identity): Promise<AccountRow> {
    const bound = await this.deps.repo.findLiveUserBySubject(identity.subject);
    if (bound) return bound;
    const matched = await this.liveAccountByClaims(identity);
    if (matched) return this.bind(matched, identity);
    const deleted = await this.deps.repo.findDeletedUser(identity);
    if (deleted) return deleted;
    const settings = this.requireSettings();
    if (!settings.autoCreate) throw new AppError('SED_02');
    const created = await this.createAccount(identity, settings);
    // Another sign-in of the same person made the account first.
    return created ?? this.bind(await this.requireLiveAccount(identity), identity);
  }

  private async liveAccountByClaims(identity: Identity): Promise<AccountRow | undefined> {
    if (identity.email) {
      const byEmail = await this.deps.securityRepo.findLiveUserByEmail(identity.email);
      if (byEmail) return byEmail;
    }
    return identity.mobile ? this.deps.securityRepo.findLiveUserByMobile(identity.mobile) : undefined;
  }

  private async requireLiveAccount(identity: Identity): Promise<AccountRow> {
    const account = await this.liveAccountByClaims(identity);
    if (!account) throw new AppError('SED_02');
    return account;
  }

  /**
   * Binds a matched account to the identity. An account already bound to another identity of the
   * same provider is not taken over by whoever now has its e-mail or mobile there (SED_02); one
   * bound at another issuer (the provider was replaced) is bound anew.
   */
  private async bind(account: AccountRow, identity: Identity): Promise<AccountRow> {
    if (account.sso_subject === identity.subject) return account;
    const issuer = identity.subject.slice(0, identity.subject.lastIndexOf(' '));
    if (account.sso_subject?.startsWith(`${issuer} `)) {
      this.deps.warn(
        { userId: account.id },
        'single sign-on: the account is bound to another identity at the provider; sign-in refused',
      );
      throw new AppError('SED_02');
    }
    await this.deps.repo.bindSubject(account.id, identity.subject);
    return { ...account, sso_subject: identity.subject };
  }

  /**
   * A new account in the configured department and role (null when one with these identifiers
   * appeared meanwhile). Needs a verified e-mail or mobile: an account with neither could not be
   * told apart or reached by anyone. No password is known: a random one is set.
   */
  private async createAccount(identity: Identity, settings: SsoSettings): Promise<AccountRow | null> {
    if (!identity.email && !identity.mobile) throw new AppError('SED_02');
    const deptId = settings.defaultDeptId;
    if (deptId === null) throw new AppError('SED_02');
    const passwordHash = await hashPassword(generatePassword());
    const id = await this.deps.accounts.locked(async (repo) => {
      const dept = await repo.departments.findDepartment(deptId);
      if (dept?.status !== DepartmentStatus.normal) {
        this.deps.warn(
          { OIDC_DEFAULT_DEPT_ID: deptId },
          'single sign-on: OIDC_DEFAULT_DEPT_ID is not a department; no account can be created',
        );
        throw new AppError('SE_500');
      }
      const roleIds = settings.defaultRoleId === null ? [] : [settings.defaultRoleId];
      await existingRoles(repo, roleIds).catch(() => {
        this.deps.warn(
          { OIDC_DEFAULT_ROLE_ID: settings.defaultRoleId },
          'single sign-on: OIDC_DEFAULT_ROLE_ID is not a role; no account can be created',
        );
        throw new AppError('SE_500');
      });
      const taken = await repo.users.takenIdentifiers(
        { email: identity.email, mobile: identity.mobile, username: null },
        null,
      );
      if (taken.email || taken.mobile) return null;
      return repo.users.createAccount({
        name: identity.name,
        email: identity.email,
        mobile: identity.mobile,
        username: null,
        deptId: dept.id,
        passwordHash,
        mustChangePassword: false,
        roleIds,
        now: this.deps.clock.now(),
      });
    });
    if (id === null) return null;
    await this.deps.repo.bindSubject(id, identity.subject);
    return (await this.deps.repo.findLiveUserBySubject(identity.subject)) ?? null;
  }
}
