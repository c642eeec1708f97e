import {
  type ChangeOwnMobileRequest,
  type CodeSent,
  type Language,
  type LoginResetPasswordRequest,
  type SendSignInCodeRequest,
  SmsPurpose,
  UserStatus,
} from '@dam/contract';
import { isUniqueViolation } from '../../db/sql-helpers';
import { AppError, invalidField } from '../../http/app-error';
import type { Clock } from '../../lib/clock';
import { hashPassword } from '../../lib/password';
import { hashToken, newSessionToken } from '../../lib/tokens';
import type { AuthContext } from '../access/access';
import type { MailService } from '../mail/service';
import { mailLanguageOf } from '../mail/templates';
import { clientKeyOf } from '../ratelimit/client-key';
import type { RateLimiter } from '../ratelimit/limiter';
import { runAfterAnswer } from '../sms/after-answer';
import type { SmsCodes } from '../sms/codes';
import type { SecurityRepository } from './repository';

/** A password-reset link works this long, once (issue 13). */
export const RESET_LINK_MINUTES = 30;
/** Reset mails: per address asked for, and per client address, an hour (e-mail changes: per account). */
const RESET_MAILS_PER_HOUR = { perEmail: 5, perAddress: 20 };
const HOUR_MS = 60 * 60_000;

type Warn = (details: Record<string, unknown>, message: string) => void;

/**
 * Getting back in and changing one's own number: SMS codes for sign-in and reset, password reset
 * by a mailed single-use link or an SMS code, and the change of mobile number. Answers to a
 * signed-out caller never tell whether an account exists.
 */
export class AccountRecoveryService {
  constructor(
    private readonly deps: {
      repo: SecurityRepository;
      codes: SmsCodes;
      mail: MailService;
      limiter: RateLimiter;
      clock: Clock;
      /** The address users open (PUBLIC_URL), which mailed links point to. */
      appUrl: string;
      /** Where work done after an answer reports its failure. */
      warn: Warn;
    },
  ) {}

  /**
   * A sign-in or reset code to a number: sent, after the answer, only when a live, enabled account
   * has it; every number gets the same answer, limits and database work (`SmsCodes.send`).
   */
  async sendSignInCode(body: SendSignInCodeRequest, ip: string | null): Promise<CodeSent> {
    const user = await this.deps.repo.findLiveUserByMobile(body.mobile);
    return this.deps.codes.send({
      mobile: body.mobile,
      purpose: body.purpose,
      userId: null,
      ip,
      delivery: user?.status === UserStatus.normal ? 'afterAnswer' : 'none',
    });
  }

  /**
   * A code to the caller's new number, whoever has it: whether another account has the number is
   * told (SED_08) only at the change, to whoever holds the code, so asking for codes does not
   * tell a signed-in user which numbers have accounts.
   */
  async sendMobileChangeCode(auth: AuthContext, mobile: string, ip: string | null): Promise<CodeSent> {
    return this.deps.codes.send({
      mobile,
      purpose: SmsPurpose.changeMobile,
      userId: auth.userId,
      ip,
      delivery: 'awaited',
    });
  }

  /**
   * Mails a reset link to the address when a live, enabled account has it. The request only counts
   * the limits, the same for every address; looking the account up, making the link and writing
   * the mail come after the answer, so neither the answer nor its time tells whether the account
   * exists. The link works once, for RESET_LINK_MINUTES, and only the newest one does.
   */
  async requestEmailReset(email: string, language: Language, ip: string | null): Promise<void> {
    const address = email.trim().toLowerCase();
    await this.deps.limiter.take([
      { key: `reset-mail-ip:${clientKeyOf(ip)}`, max: RESET_MAILS_PER_HOUR.perAddress, windowMs: HOUR_MS },
      { key: `reset-mail:${address}`, max: RESET_MAILS_PER_HOUR.perEmail, windowMs: HOUR_MS },
    ]);
    // Not written once a link made now would have expired: the user has long given up on it.
    runAfterAnswer({
      lane: 'mail',
      run: () => this.mailResetLink(address, language),
      onError: (err) => this.deps.warn({ err }, 'password reset link not mailed'),
      onDropped: (reason) => this.deps.warn({ reason }, 'password reset link dropped unmailed'),
      staleAt: new Date(this.deps.clock.now().getTime() + RESET_LINK_MINUTES * 60_000),
      clock: this.deps.clock,
    });
  }

  private async mailResetLink(address: string, language: Language): Promise<void> {
    const user = await this.deps.repo.findLiveUserByEmail(address);
    if (!user?.email || user.status !== UserStatus.normal) return;
    const token = newSessionToken();
    const now = this.deps.clock.now();
    await this.deps.repo.replaceAccountToken({
      tokenHash: hashToken(token),
      purpose: 'resetPassword',
      userId: user.id,
      newEmail: null,
      now,
      expiresAt: new Date(now.getTime() + RESET_LINK_MINUTES * 60_000),
    });
    const link = new URL(
      `/login/reset-password?token=${encodeURIComponent(token)}`,
      this.deps.appUrl,
    ).toString();
    await this.deps.mail.send(
      user.email,
      { purpose: 'resetPassword', name: user.name, link, minutes: RESET_LINK_MINUTES },
      mailLanguageOf(language),
      null,
    );
  }

  /**
   * Sets a forgotten password with a mailed link's token or an SMS code; every session of the
   * account ends. Answers the account (for the operation log).
   */
  async resetPassword(body: LoginResetPasswordRequest): Promise<number> {
    const passwordHash = await hashPassword(body.password);
    const now = this.deps.clock.now();
    if ('token' in body) {
      const userId = await this.deps.repo.resetPasswordWithToken(hashToken(body.token), passwordHash, now);
      if (userId === undefined) throw invalidField('token', 'invalidToken');
      return userId;
    }
    await this.deps.codes.verify(body.mobile, SmsPurpose.resetPassword, body.messageCode);
    const user = await this.deps.repo.findLiveUserByMobile(body.mobile);
    // Codes are sent only to enabled accounts; one disabled since answers like a wrong code.
    if (user?.status !== UserStatus.normal) throw new AppError('SE_504');
    await this.deps.repo.replacePassword(user.id, passwordHash, now);
    return user.id;
  }

  /**
   * Mails a link to confirm the caller's new e-mail address to that address (SED_07 when another
   * account has it); the address changes only when the link is opened, within RESET_LINK_MINUTES.
   */
  async requestEmailChange(
    auth: AuthContext,
    email: string,
    language: Language,
  ): Promise<{ mailId: number }> {
    const address = email.trim();
    await this.deps.limiter.take([
      { key: `email-change:${auth.userId}`, max: RESET_MAILS_PER_HOUR.perEmail, windowMs: HOUR_MS },
    ]);
    if (await this.deps.repo.emailTakenByOther(address, auth.userId)) throw new AppError('SED_07');
    const user = await this.deps.repo.findUserWithDepartment(auth.userId);
    if (!user) throw new AppError('SE_501');
    const token = newSessionToken();
    const now = this.deps.clock.now();
    await this.deps.repo.replaceAccountToken({
      tokenHash: hashToken(token),
      purpose: 'changeEmail',
      userId: auth.userId,
      newEmail: address,
      now,
      expiresAt: new Date(now.getTime() + RESET_LINK_MINUTES * 60_000),
    });
    const link = new URL(
      `/login/confirm-email?token=${encodeURIComponent(token)}`,
      this.deps.appUrl,
    ).toString();
    const mailId = await this.deps.mail.send(
      address,
      { purpose: 'changeEmail', name: user.name, link, minutes: RESET_LINK_MINUTES, email: address },
      mailLanguageOf(language),
      auth.userId,
    );
    return { mailId };
  }

  /** Sets the address a mailed link confirms; answers the account (for the operation log). */
  async confirmEmail(token: string): Promise<number> {
    try {
      const userId = await this.deps.repo.confirmEmailWithToken(hashToken(token), this.deps.clock.now());
      if (userId === undefined) throw invalidField('token', 'invalidToken');
      return userId;
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('SED_07');
      throw error;
    }
  }

  /** The caller's number becomes the one the code was sent to. */
  async changeMobile(auth: AuthContext, body: ChangeOwnMobileRequest): Promise<void> {
    await this.deps.codes.verify(body.mobile, SmsPurpose.changeMobile, body.messageCode, auth.userId);
    try {
      await this.deps.repo.setMobile(auth.userId, body.mobile, this.deps.clock.now());
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('SED_08');
      throw error;
    }
  }
}
