import type { Platform, Warn } from '../../platform';
import { AccessRepository } from '../access/access.repository';
import type { AccountsRepository } from '../accounts/repository';
import type { MailService } from '../mail/service';
import { SmsCodes } from '../sms/codes';
import { SmsCodesRepository } from '../sms/repository';
import { httpSmsSender, logSmsSender, type SmsSender } from '../sms/senders';
import { SsoRepository } from '../sso/repository';
import { SsoService, ssoSettingsOf } from '../sso/service';
import { AccountRecoveryService } from './recovery';
import { SecurityRepository } from './repository';
import { ADDRESS_LIMIT_MULTIPLE, SecurityService } from './service';

/** Sign-in and sessions, SMS codes and account recovery, company single sign-on. */
export function wireSignIn(
  { config, db, clock, limiter, warn, appUrl }: Platform,
  { mail, accounts }: { mail: MailService; accounts: AccountsRepository },
) {
  const smsCodes = new SmsCodes({
    repo: new SmsCodesRepository(db),
    sender: smsSenderOf(config, warn),
    limiter,
    clock,
    warn,
  });
  const security = new SecurityService(
    new SecurityRepository(db),
    new AccessRepository(db),
    clock,
    {
      idleMs: config.SESSION_IDLE_HOURS * 3600_000,
      rememberMs: config.SESSION_REMEMBER_DAYS * 86_400_000,
      passwordMaxAgeDays: config.PASSWORD_MAX_AGE_DAYS,
    },
    limiter,
    {
      perIdentifier: config.LOGIN_RATE_LIMIT,
      perAddress: config.LOGIN_RATE_LIMIT * ADDRESS_LIMIT_MULTIPLE,
    },
    smsCodes,
  );
  const recovery = new AccountRecoveryService({
    repo: new SecurityRepository(db),
    codes: smsCodes,
    mail,
    limiter,
    clock,
    appUrl,
    warn,
  });
  const sso = new SsoService({
    settings: ssoSettingsOf(config),
    repo: new SsoRepository(db),
    security,
    securityRepo: new SecurityRepository(db),
    accounts,
    limiter,
    startsPerMinute: config.LOGIN_RATE_LIMIT * ADDRESS_LIMIT_MULTIPLE,
    clock,
    warn,
  });
  return { security, recovery, sso };
}

/** Where SMS codes go: the configured HTTP gateway, or the server log. */
function smsSenderOf(config: Platform['config'], warn: Warn): SmsSender {
  if (config.SMS_PROVIDER === 'log' || !config.SMS_HTTP_URL) return logSmsSender(warn);
  return httpSmsSender({
    url: config.SMS_HTTP_URL,
    method: config.SMS_HTTP_METHOD,
    headers: config.SMS_HTTP_HEADERS,
    body: config.SMS_HTTP_BODY,
    okPattern: config.SMS_HTTP_OK_PATTERN,
    timeoutMs: config.SMS_HTTP_TIMEOUT_MS,
  });
}
