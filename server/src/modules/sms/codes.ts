import { createHash, randomInt } from 'node:crypto';
import type { CodeSent, SmsPurpose } from '@dam/contract';
import { AppError } from '../../http/app-error';
import type { Clock } from '../../lib/clock';
import { clientKeyOf } from '../ratelimit/client-key';
import type { RateLimiter } from '../ratelimit/limiter';
import { runAfterAnswer } from './after-answer';
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

/**
 * How a new code reaches its number: `afterAnswer` once the request has answered (signed-out
 * requests, whose answer and time must not tell whether an account has the number), `awaited`
 * before answering (SE_506 when the gateway fails), or `none` (nobody to send it to).
 */
export type CodeDelivery = 'afterAnswer' | 'awaited' | 'none';

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
   * Makes a new code for the number and purpose and delivers it as `delivery` says. The same work
   * is done for every number whatever `delivery` is, so the answer, the limits and the time do
   * not tell who has an account: the resend check, the counters, and the code's row (for a number
   * without an account, a code nobody is told: it only starts the number's minute and is refused
   * like any wrong code). SE_429 over a limit; SE_506 when an awaited delivery fails.
   */
  async send(request: {
    mobile: string;
    purpose: SmsPurpose;
    userId: number | null;
    ip: string | null;
    delivery: CodeDelivery;
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
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const codeHash = hashCode(request.mobile, request.purpose, code);
    const expiresAt = new Date(now.getTime() + SMS_CODE_RULES.lifetimeMs);
    await this.deps.repo.replace({
      mobile: request.mobile,
      purpose: request.purpose,
      userId: request.userId,
      codeHash,
      now,
      expiresAt,
    });
    const message = {
      mobile: request.mobile,
      code,
      purpose: request.purpose,
      minutes: SMS_CODE_RULES.lifetimeMs / 60_000,
    };
    if (request.delivery === 'afterAnswer') {
      // A failure is only logged: the code's row stays, as an unknown number's does, so the
      // number asks again after its minute either way (the answer went long before).
      // Dropped unsent once the code has expired: it could no longer be used.
      runAfterAnswer({
        lane: 'sms',
        run: () => this.deps.sender.send(message),
        onError: (err) => this.deps.warn({ err, mobile: request.mobile }, 'SMS code not sent'),
        onDropped: (reason) => this.deps.warn({ reason, mobile: request.mobile }, 'SMS code dropped unsent'),
        staleAt: expiresAt,
        clock: this.deps.clock,
      });
    } else if (request.delivery === 'awaited') {
      try {
        await this.deps.sender.send(message);
      } catch (err) {
        // A code that never arrived must not block asking again.
        await this.deps.repo.remove(request.mobile, request.purpose, codeHash);
        this.deps.warn({ err, mobile: request.mobile }, 'SMS code not sent');
        if (err instanceof SmsNotSent) throw new AppError('SE_506');
        throw err;
      }
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
