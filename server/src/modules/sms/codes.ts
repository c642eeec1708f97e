import { createHash, randomInt } from 'node:crypto';
import type { CodeSent, SmsPurpose } from '@dam/contract';
import { AppError } from '../../http/app-error';
import type { Clock } from '../../lib/clock';
import { clientKeyOf } from '../ratelimit/client-key';
import type { RateLimiter } from '../ratelimit/limiter';
import type { SmsCodesRepository } from './repository';
import { SmsNotSent, type SmsSender } from './senders';

/** SPEC-level rules of SMS codes (issue 13): six digits, 5 minutes, burnt after 5 wrong tries. */
export const SMS_CODE_RULES = {
  lifetimeMs: 5 * 60_000,
  maxFailures: 5,
  /** A number gets a new code at most once a minute… */
  resendAfterMs: 60_000,
  /** …and at most this many an hour; one client address at most `perAddressPerHour`. */
  perNumberPerHour: 5,
  perAddressPerHour: 20,
} as const;
const HOUR_MS = 60 * 60_000;

type Warn = (details: Record<string, unknown>, message: string) => void;

function hashCode(mobile: string, purpose: SmsPurpose, code: string): string {
  return createHash('sha256').update(`${purpose}:${mobile}:${code}`).digest('hex');
}

/**
 * SMS verification codes for every purpose (sign-in, password reset, change of number): one live
 * code per number and purpose, sent through the configured gateway, counted against limits kept in
 * the database (they hold across processes), and used up by the first right answer.
 */
export class SmsCodes {
  constructor(
    private readonly deps: {
      repo: SmsCodesRepository;
      sender: SmsSender;
      limiter: RateLimiter;
      clock: Clock;
      warn: Warn;
    },
  ) {}

  /**
   * Sends a new code when `deliver` is true; when it is false (a number without an account, for
   * sign-in and reset) nothing is sent but the limits count and the answer is the same, so the
   * answer does not tell who has an account. SE_429 over a limit, SE_506 when the gateway refuses.
   */
  async send(request: {
    mobile: string;
    purpose: SmsPurpose;
    userId: number | null;
    ip: string | null;
    deliver: boolean;
  }): Promise<CodeSent> {
    const now = this.deps.clock.now();
    const resendAfterSeconds = SMS_CODE_RULES.resendAfterMs / 1000;
    const lastSent = await this.deps.repo.sentAt(request.mobile, request.purpose, now);
    if (lastSent && now.getTime() - lastSent.getTime() < SMS_CODE_RULES.resendAfterMs) {
      throw new AppError('SE_429');
    }
    await this.deps.limiter.take([
      { key: `sms-ip:${clientKeyOf(request.ip)}`, max: SMS_CODE_RULES.perAddressPerHour, windowMs: HOUR_MS },
      { key: `sms-mobile:${request.mobile}`, max: SMS_CODE_RULES.perNumberPerHour, windowMs: HOUR_MS },
    ]);
    if (!request.deliver) return { resendAfterSeconds };

    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const codeHash = hashCode(request.mobile, request.purpose, code);
    await this.deps.repo.replace({
      mobile: request.mobile,
      purpose: request.purpose,
      userId: request.userId,
      codeHash,
      now,
      expiresAt: new Date(now.getTime() + SMS_CODE_RULES.lifetimeMs),
    });
    try {
      await this.deps.sender.send({
        mobile: request.mobile,
        code,
        purpose: request.purpose,
        minutes: SMS_CODE_RULES.lifetimeMs / 60_000,
      });
    } catch (err) {
      // A code that never arrived must not block asking again.
      await this.deps.repo.remove(request.mobile, request.purpose, codeHash);
      this.deps.warn({ err, mobile: request.mobile }, 'SMS code not sent');
      if (err instanceof SmsNotSent) throw new AppError('SE_506');
      throw err;
    }
    return { resendAfterSeconds };
  }

  /**
   * Uses up the code sent to `mobile` for `purpose` (and, for a change of number, asked by
   * `userId`), or throws SE_504: wrong, expired, burnt, for another purpose or never sent. Each
   * wrong answer counts; the fifth burns the code.
   */
  async verify(
    mobile: string,
    purpose: SmsPurpose,
    code: string,
    userId: number | null = null,
  ): Promise<void> {
    const now = this.deps.clock.now();
    const codeHash = hashCode(mobile, purpose, code.trim());
    if (await this.deps.repo.consume(mobile, purpose, codeHash, userId, SMS_CODE_RULES.maxFailures, now))
      return;
    await this.deps.repo.countFailure(mobile, purpose);
    throw new AppError('SE_504');
  }
}
