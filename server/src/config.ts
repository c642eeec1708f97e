import path from 'node:path';
import { isStrongPassword } from '@dam/contract';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { crossFieldRules } from './config-rules';
import { trustProxyFromEnv } from './config-trust-proxy';
import { artNumPatternProblem, DEFAULT_ART_NUM_PATTERN } from './modules/sku/art-num';

export type { TrustProxy } from './config-trust-proxy';

/**
 * Configuration comes from the environment only, parsed once at start-up. An invalid value
 * stops start-up with a message naming the variable (docs/architecture.md, Conventions).
 */
const booleanFromEnv = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** An OpenID provider is reached over https, or over http on this machine only (tests, development). */
function isSecureIssuer(issuer: string): boolean {
  if (!URL.canParse(issuer)) return true; // z.url() reports it
  const url = new URL(issuer);
  return url.protocol === 'https:' || ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
}

export const envObject = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  /** Where the embedded database (`db/`) and local objects live. */
  DATA_DIR: z.string().min(1).default('./data'),
  /** PostgreSQL connection string; when unset the embedded PGlite database is used. */
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  /**
   * How long a starting process waits for PostgreSQL to answer before giving up (it may start
   * before the database does, e.g. in one compose file or after a host reboot); 0 fails at once.
   */
  DATABASE_WAIT_SECONDS: z.coerce.number().int().min(0).max(3600).default(120),
  /**
   * shared_buffers of the embedded database, in MB. It sits in PGlite's WebAssembly heap, which
   * never shrinks, so it is most of the idle server's memory; table pages beyond it are read
   * through the operating system's file cache (docs/decisions.md "Embedded database memory").
   */
  EMBEDDED_DB_CACHE_MB: z.coerce.number().int().min(8).max(4096).default(32),
  ADMIN_EMAIL: z.email().default('admin@example.com'),
  /** When unset on first start, a random password is generated and printed once. */
  ADMIN_PASSWORD: z
    .string()
    .refine(isStrongPassword, 'must be 6-16 characters with a letter, a digit and a special character')
    .optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Idle lifetime of a session that was not "remembered". */
  SESSION_IDLE_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 30)
    .default(12),
  /** Lifetime of a "remember me" session (SPEC §9: 7 days). */
  SESSION_REMEMBER_DAYS: z.coerce.number().positive().max(365).default(7),
  /** Passwords older than this must be changed; 0 turns the rule off. */
  PASSWORD_MAX_AGE_DAYS: z.coerce.number().int().min(0).max(3650).default(0),
  /**
   * Failed sign-in attempts allowed per minute on one account identifier; one client address gets
   * ten times as many, and a share link's password this many per address and ten times as many
   * from all addresses together (docs/decisions.md "Rate limit of sign-in").
   */
  LOGIN_RATE_LIMIT: z.coerce.number().int().min(1).max(10000).default(10),
  /**
   * Connection time limits (docs/decisions.md "Connection time limits"): a request's headers must
   * arrive within HTTP_HEADERS_TIMEOUT_MS and its body within HTTP_REQUEST_TIMEOUT_MS, except for
   * upload parts and workbook imports, which get HTTP_UPLOAD_TIMEOUT_MS (an 8 MiB part or a 20 MiB
   * workbook at 64 KiB/s). A connection silent both ways for HTTP_IDLE_TIMEOUT_MS is closed, and so
   * is a kept-alive one with no next request after HTTP_KEEP_ALIVE_TIMEOUT_MS.
   */
  HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  HTTP_UPLOAD_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(360_000),
  HTTP_IDLE_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(120_000),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(72_000),
  /**
   * How long a signed-in page waits for its first calls' answers before it is closed without them
   * (the web app then makes the calls itself; http/app-page.ts). The scripts, named at the top,
   * load meanwhile, but run only once the page has ended.
   */
  FIRST_ANSWERS_WAIT_MS: z.coerce.number().int().min(0).max(10_000).default(1_000),
  /** On SIGTERM/SIGINT, requests still running after this long are cut off. */
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  /** Set when reverse proxies sit in front, so client addresses come from X-Forwarded-For (TrustProxy). */
  TRUST_PROXY: trustProxyFromEnv.default(false),
  /** The address users open, printed at start-up; defaults to http://localhost:PORT. */
  PUBLIC_URL: z.url().optional(),
  /**
   * Outgoing mail (docs/decisions.md "Mail"): smtp://user:password@host:port, or smtps:// for TLS
   * from the first byte. Unset: mails are written to the server log instead (development).
   */
  SMTP_URL: z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).optional(),
  /** The sender of every mail, e.g. `智能图档 <dam@example.com>`. */
  MAIL_FROM: z.string().trim().min(3).max(320).default('DAM <no-reply@localhost>'),
  /**
   * Review (issue 43): a new version of an approved file sends it back to review (its last
   * reviewers are mailed). `false` keeps it approved.
   */
  REVIEW_NEW_VERSION_RETURNS: booleanFromEnv.default(true),
  /**
   * How SMS codes go out (docs/decisions.md "SMS codes"): `log` writes them to the server log
   * (development); `http` calls a gateway: SMS_HTTP_URL (and SMS_HTTP_BODY when set) with the
   * placeholders {mobile}, {code}, {minutes} and {purpose}, SMS_HTTP_HEADERS a JSON object, and the
   * send counted as done on a 2xx answer whose body matches SMS_HTTP_OK_PATTERN (when set).
   */
  SMS_PROVIDER: z.enum(['log', 'http']).default('log'),
  SMS_HTTP_URL: z.url({ protocol: /^https?$/ }).optional(),
  SMS_HTTP_METHOD: z.enum(['GET', 'POST']).default('POST'),
  SMS_HTTP_HEADERS: z
    .string()
    .transform((raw, ctx) => {
      try {
        const value: unknown = JSON.parse(raw);
        if (
          value !== null &&
          typeof value === 'object' &&
          !Array.isArray(value) &&
          Object.values(value).every((v) => typeof v === 'string')
        )
          return value as Record<string, string>;
      } catch {}
      ctx.addIssue({ code: 'custom', message: 'must be a JSON object of header names to strings' });
      return z.NEVER;
    })
    .default({}),
  SMS_HTTP_BODY: z.string().max(10_000).optional(),
  SMS_HTTP_OK_PATTERN: z
    .string()
    .max(500)
    .refine((source) => {
      try {
        new RegExp(source);
        return true;
      } catch {
        return false;
      }
    }, 'must be a valid regular expression')
    .optional(),
  SMS_HTTP_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /**
   * Where the desktop client for macOS and for Windows is downloaded (SPEC §1: static storage
   * links); the top-bar menu offers only those set.
   */
  CLIENT_DOWNLOAD_MAC_URL: z.url({ protocol: /^https?$/ }).optional(),
  CLIENT_DOWNLOAD_WIN_URL: z.url({ protocol: /^https?$/ }).optional(),
  /**
   * Company single sign-on with OpenID Connect (docs/decisions.md "Single sign-on (issue 13)"), on
   * when OIDC_ISSUER is set: the provider's issuer (https; http only on this machine, for tests),
   * this application's client there, and the scopes asked for. The provider must allow the
   * redirect URI `<PUBLIC_URL>/oauth` and the post-logout redirect URI `<PUBLIC_URL>/login`.
   */
  OIDC_ISSUER: z
    .url({ protocol: /^https?$/ })
    .refine(isSecureIssuer, 'must be an https:// URL (http:// only for localhost)')
    .optional(),
  OIDC_CLIENT_ID: z.string().trim().min(1).max(500).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).max(2000).optional(),
  OIDC_SCOPES: z
    .string()
    .trim()
    .refine((scopes) => scopes.split(/\s+/).includes('openid'), 'must include openid')
    .default('openid email profile phone'),
  /** Unknown people signing in are given an account in OIDC_DEFAULT_DEPT_ID (and OIDC_DEFAULT_ROLE_ID). */
  OIDC_AUTO_CREATE: booleanFromEnv.default(false),
  OIDC_DEFAULT_DEPT_ID: z.coerce.number().int().positive().optional(),
  OIDC_DEFAULT_ROLE_ID: z.coerce.number().int().positive().optional(),
  /** Every call to the provider (discovery, token, user info) gives up after this long. */
  OIDC_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /**
   * The key (base64 of 32 bytes) the open API's access secrets are encrypted with at rest. Unset:
   * a key generated once into DATA_DIR/open-api.key. Processes that share a database must share it.
   */
  OPEN_API_SECRET_KEY: z
    .string()
    .trim()
    .refine((value) => Buffer.from(value, 'base64').length === 32 && /^[A-Za-z0-9+/]+={0,2}$/.test(value), {
      message: 'must be 32 random bytes in base64 (e.g. `openssl rand -base64 32`)',
    })
    .optional(),
  /**
   * Webhooks (issue 15): networks they may reach although not public (loopback, private, link-local
   * addresses are refused otherwise), as comma-separated CIDRs such as "10.20.0.0/16, 127.0.0.1/32";
   * and how long one delivery attempt may take.
   */
  WEBHOOK_ALLOWED_NETWORKS: z
    .string()
    .transform((raw, ctx) => {
      const entries = raw
        .split(',')
        .map((entry) => entry.trim())
        .filter((entry) => entry !== '');
      const wrong = entries.filter((entry) => !ipaddr.isValidCIDR(entry));
      if (wrong.length > 0) {
        ctx.addIssue({
          code: 'custom',
          message: `must be comma-separated CIDR ranges such as "10.20.0.0/16" (not a range: ${wrong.join(', ')})`,
        });
        return z.NEVER;
      }
      return entries;
    })
    .default([]),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /** Time zone whose calendar decides "today" for file validity (SPEC §4). */
  BUSINESS_TIME_ZONE: z
    .string()
    .refine((zone) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: zone });
        return true;
      } catch {
        return false;
      }
    }, 'must be an IANA time zone such as Asia/Shanghai')
    .default('Asia/Shanghai'),
  /** S3-compatible object storage; when S3_BUCKET is unset, objects go to DATA_DIR/objects. */
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a valid bucket name (3-63 characters)')
    .optional(),
  S3_ENDPOINT: z.url().optional(),
  /** The endpoint browsers upload to, when it differs from the server's (e.g. a public host). */
  S3_PUBLIC_ENDPOINT: z.url().optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  /** Path-style URLs (`endpoint/bucket/key`), needed by MinIO, Ceph and most self-hosted stores. */
  S3_FORCE_PATH_STYLE: booleanFromEnv.default(false),
  /**
   * Seconds before a failed media job's first retry (doubling for each of its 5 retries); 0 retries
   * at once, so a job that cannot succeed shows as failed on the jobs screen within a second.
   */
  MEDIA_RETRY_DELAY_SECONDS: z.coerce.number().int().min(0).max(3600).default(5),
  /**
   * How often a running media or composition job says it is alive; a job whose process died (a
   * kill, a crash) is taken up again by another that long after its last word, and the queues are
   * looked over as often (at most every 60 s).
   */
  JOB_HEARTBEAT_SECONDS: z.coerce.number().int().min(10).max(600).default(60),
  /** Media jobs (thumbnails, previews) run at once in this process; 0 leaves them to `npm run worker`. */
  MEDIA_WORKERS: z.coerce.number().int().min(0).max(64).default(2),
  /**
   * The media job reads the metadata embedded in each upload with ExifTool (issue 42): camera,
   * capture time, creator, copyright, keywords… `false` skips it (the viewer then says "not read").
   */
  EMBEDDED_METADATA_READ: booleanFromEnv.default(true),
  /** Detail pages (issue 16) rendered at once in this process; 0 leaves them to `npm run worker`. */
  COMPOSE_WORKERS: z.coerce.number().int().min(0).max(16).default(1),
  /**
   * Fonts for detail-page text besides the built-in candidates (WenQuanYi Zen Hei, Noto Sans CJK,
   * DejaVu Sans), as JSON: `[{"id":"brand","file":"/fonts/Brand.ttf","boldFile":"/fonts/Brand-Bold.ttf"}]`.
   * The family is read from the file.
   */
  COMPOSE_FONTS: z
    .string()
    .optional()
    .transform((text, ctx) => {
      if (!text) return [];
      try {
        return z
          .array(
            z.object({
              id: z.string().regex(/^[a-z0-9-]{1,40}$/),
              // Absolute: a relative path would be read against whatever directory the server started in.
              file: z.string().min(1).refine(path.isAbsolute),
              boldFile: z.string().min(1).refine(path.isAbsolute).optional(),
            }),
          )
          .max(50)
          .parse(JSON.parse(text));
      } catch {
        ctx.addIssue({
          code: 'custom',
          message:
            'must be a JSON list of {"id":"lower-case-id","file":"/path/font.ttf","boldFile"?:"…"} (absolute paths)',
        });
        return z.NEVER;
      }
    }),
  /**
   * Near-duplicates (issue 17): files whose perceptual hashes differ in at most this many of 64 bits
   * *and* whose palettes are within SIMILAR_MAX_COLOUR_DISTANCE (OKLab) are "similar". 11 is the
   * most the index lookup covers exactly; the defaults are tuned in docs/decisions.md.
   */
  SIMILAR_MAX_DISTANCE: z.coerce.number().int().min(0).max(11).default(10),
  SIMILAR_MAX_COLOUR_DISTANCE: z.coerce.number().min(0).max(0.3).default(0.08),
  /** Fingerprint the files uploaded before issue 17 in the background (resumable). */
  FINGERPRINT_BACKFILL: booleanFromEnv.default(true),
  /** Read the embedded metadata of files uploaded before issue 42 (resumable; not if EMBEDDED_METADATA_READ is off). */
  METADATA_BACKFILL: booleanFromEnv.default(true),
  /**
   * Scheduled backups (docs/backup.md), off unless BACKUP_SCHEDULE is set: a cron expression of five
   * fields in BUSINESS_TIME_ZONE (e.g. `0 3 * * *`, 03:00 daily); each run writes a backup into a
   * directory of its own under BACKUP_DIR and keeps the newest BACKUP_KEEP.
   */
  BACKUP_SCHEDULE: z
    .string()
    .trim()
    .regex(/^(\S+\s+){4}\S+$/, 'must be a cron expression of five fields, such as "0 3 * * *"')
    .optional(),
  BACKUP_DIR: z.string().min(1).optional(),
  BACKUP_KEEP: z.coerce.number().int().min(1).max(1000).default(7),
  /** The tallest detail page rendered, in pixels (JPEG allows 65,535). */
  COMPOSE_MAX_PAGE_HEIGHT: z.coerce.number().int().min(1000).max(65_000).default(30_000),
  /**
   * Images wider × higher than this are not decoded (no thumbnail, no download conversion); see
   * docs/decisions.md "Image limits".
   */
  MAX_IMAGE_PIXELS: z.coerce.number().int().min(1).max(2_000_000_000).default(200_000_000),
  /** Estimated memory all thumbnails, previews and download conversions of this process may decode at once. */
  IMAGE_MEMORY_MB: z.coerce.number().int().min(32).max(65_536).default(256),
  /**
   * How article numbers are found in file names (a JavaScript regular expression source, matched
   * regardless of case; the whole match or its named group `artNum`). See modules/sku/art-num.ts.
   */
  ART_NUM_PATTERN: z
    .string()
    .max(500)
    .superRefine((source, ctx) => {
      const problem = artNumPatternProblem(source);
      if (problem)
        ctx.addIssue({ code: 'custom', message: `must be a valid regular expression (${problem})` });
    })
    .default(DEFAULT_ART_NUM_PATTERN),
  /** The built web app served at /; empty disables serving it. */
  WEB_DIST_DIR: z.string().optional(),
  /**
   * Prometheus metrics (docs/metrics.md): set, GET /metrics answers a scrape with
   * `Authorization: Bearer <METRICS_TOKEN>`; unset, there is no such route. `npm run worker` has no
   * HTTP server: it answers GET /metrics on METRICS_PORT (on HOST) instead.
   */
  METRICS_TOKEN: z
    .string()
    .regex(
      /^[\x21-\x7e]{16,1000}$/,
      'must be 16-1000 printable characters without spaces (e.g. `openssl rand -hex 32`)',
    )
    .optional(),
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
});

const envSchema = envObject.superRefine(crossFieldRules);

export type Config = Omit<z.infer<typeof envObject>, 'DATA_DIR' | 'WEB_DIST_DIR'> & {
  DATA_DIR: string;
  WEB_DIST_DIR: string | null;
};

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parses the environment; throws ConfigError naming every invalid variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Config {
  // Empty strings mean "unset" so that `.env` files with blank entries behave.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid environment configuration:\n${lines.join('\n')}`);
  }
  const value = parsed.data;
  const defaultWebDist = path.resolve(import.meta.dirname, '../../web/dist');
  return {
    ...value,
    DATA_DIR: path.resolve(cwd, value.DATA_DIR),
    WEB_DIST_DIR:
      value.WEB_DIST_DIR === undefined
        ? defaultWebDist
        : value.WEB_DIST_DIR === '-'
          ? null
          : path.resolve(cwd, value.WEB_DIST_DIR),
  };
}
