import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { endpoints } from '@dam/contract';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app';
import { type Config, loadConfig } from '../src/config';
import type { DatabaseHandle } from '../src/db/database';
import {
  type JobQueue,
  type MailRetryPolicy,
  startJobQueue,
  type WebhookRetryPolicy,
} from '../src/jobs/queue';
import { ManualClock } from '../src/lib/clock';
import { ensureFirstAdministrator } from '../src/modules/accounts/bootstrap';
import { AccountsRepository } from '../src/modules/accounts/repository';
import { call } from './call';
import { makeS3rverDurable } from './s3rver-durable';

import { createTestDatabase } from './test-database';

export { createPostgresDatabase, createTestDatabase, type DatabaseTemplate } from './test-database';

export const ADMIN = { email: 'admin@example.com', password: 'Admin#2026' } as const;

export interface TestApp {
  app: FastifyInstance;
  database: DatabaseHandle;
  clock: ManualClock;
  config: Config;
  jobs: JobQueue | null;
  close(): Promise<void>;
}

/** The whole application on a real database with the first administrator seeded. */
export async function createTestApp(
  env: Record<string, string> = {},
  options: {
    database?: DatabaseHandle;
    clock?: ManualClock;
    keepDatabase?: boolean;
    jobs?: boolean;
    /** Mail retries of the job queue (tests shorten them). */
    mailRetry?: MailRetryPolicy;
    /** Media job retries of the job queue (tests shorten them). */
    mediaRetry?: MailRetryPolicy;
    /** Webhook delivery retries of the job queue (tests shorten them). */
    webhookRetry?: WebhookRetryPolicy;
  } = {},
): Promise<TestApp> {
  const database = options.database ?? (await createTestDatabase());
  const dataDir = env.DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'dam-test-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    WEB_DIST_DIR: '-',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    ...env,
  });
  await ensureFirstAdministrator(new AccountsRepository(database.db), {
    adminEmail: config.ADMIN_EMAIL,
    adminPassword: config.ADMIN_PASSWORD,
  });
  const clock = options.clock ?? new ManualClock();
  const jobs = options.jobs
    ? await startJobQueue(database, {
        onError: () => {},
        spies: true,
        ...(options.mailRetry ? { mailRetry: options.mailRetry } : {}),
        ...(options.mediaRetry ? { mediaRetry: options.mediaRetry } : {}),
        ...(options.webhookRetry ? { webhookRetry: options.webhookRetry } : {}),
      })
    : undefined;
  const app = await buildApp({ config, database, clock, version: 'test', ...(jobs ? { jobs } : {}) });
  return {
    app,
    database,
    clock,
    config,
    jobs: jobs ?? null,
    close: async () => {
      await app.close();
      await jobs?.stop();
      if (!options.keepDatabase) await database.close();
      if (!env.DATA_DIR) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

interface EnvelopeBody {
  success: boolean;
  result: unknown;
  errorCode: string | null;
  errorDesc: string | null;
}

/** POSTs JSON and returns the status with the parsed envelope. */
export async function post(
  app: FastifyInstance,
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: EnvelopeBody; headers: Record<string, unknown> }> {
  const response = await app.inject({
    method: 'POST',
    url,
    headers,
    ...(body === undefined ? {} : { payload: body as object }),
  });
  return { status: response.statusCode, body: response.json() as EnvelopeBody, headers: response.headers };
}

export async function signIn(
  app: FastifyInstance,
  userName: string,
  password: string,
  remember = false,
): Promise<string> {
  return (await call(app, endpoints.login, { body: { userName, password, remember } })).token;
}

export async function get(
  app: FastifyInstance,
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: EnvelopeBody }> {
  const response = await app.inject({ method: 'GET', url, headers });
  return { status: response.statusCode, body: response.json() as EnvelopeBody };
}

/**
 * The CORS rules a bucket needs for the browser: parts PUT to presigned URLs from the app's
 * origin, with the ETag readable (what an operator configures on their bucket).
 */
const BROWSER_CORS = `<CORSConfiguration><CORSRule><AllowedOrigin>*</AllowedOrigin>
<AllowedMethod>GET</AllowedMethod><AllowedMethod>HEAD</AllowedMethod><AllowedMethod>PUT</AllowedMethod>
<AllowedHeader>*</AllowedHeader><ExposeHeader>ETag</ExposeHeader><MaxAgeSeconds>600</MaxAgeSeconds>
</CORSRule></CORSConfiguration>`;

/** A real S3-protocol server (s3rver) on a free loopback port, with one bucket. */
export async function startS3Server(
  bucket = 'dam-test',
  options: { cors?: boolean } = {},
): Promise<{ endpoint: string; bucket: string; close(): Promise<void> }> {
  const { default: S3rver } = await import('s3rver');
  makeS3rverDurable();
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'dam-s3-'));
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: options.cors ? [BROWSER_CORS] : [] }],
  });
  const { port } = (await server.run()) as unknown as { port: number };
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    close: async () => {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** Environment for an app on the S3 driver against `startS3Server`. */
export function s3Env(server: { endpoint: string; bucket: string }): Record<string, string> {
  return {
    S3_BUCKET: server.bucket,
    S3_ENDPOINT: server.endpoint,
    S3_FORCE_PATH_STYLE: 'true',
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
  };
}

/**
 * The app on one storage driver (`s3` against an S3-protocol server of its own) with the
 * administrator signed in; closing it stops both.
 */
export async function createDriverApp(
  driver: 'local' | 's3',
  options: { jobs?: boolean } = {},
): Promise<TestApp & { token: string }> {
  const s3 = driver === 's3' ? await startS3Server() : null;
  const t = await createTestApp(
    {
      LOGIN_RATE_LIMIT: '1000',
      SESSION_IDLE_HOURS: '720',
      ...(s3 ? s3Env(s3) : {}),
    },
    { jobs: options.jobs === true },
  );
  const token = await signIn(t.app, ADMIN.email, ADMIN.password);
  return {
    ...t,
    token,
    close: async () => {
      await t.close();
      await s3?.close();
    },
  };
}
