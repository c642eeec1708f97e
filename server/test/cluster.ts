import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { createPostgresDatabase, startS3Server } from './harness';

const root = path.resolve(import.meta.dirname, '../..');

export interface ServerProcess {
  child: ChildProcess;
  /** What the process wrote to stderr (and stdout when not shown), for a failure message. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * One entry of the server (`main` serves HTTP, `worker` runs jobs) as a process of its own, from
 * the TypeScript sources through tsx, or compiled as `npm start` runs it (`production`).
 * Resolves once it is ready: /health answers on `port` (main) or the worker says it is running.
 */
export async function spawnServerProcess(options: {
  entry: 'main' | 'worker';
  env: Record<string, string>;
  port?: number;
  production?: boolean;
  /** Node flags before the entry (e.g. --cpu-prof). */
  nodeArgs?: string[];
  showOutput?: boolean;
}): Promise<ServerProcess> {
  const script = options.production
    ? ['scripts/start.mjs', ...(options.entry === 'worker' ? ['worker'] : [])]
    : ['--import', 'tsx', `server/src/${options.entry}.ts`];
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), ...script], {
    cwd: root,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', options.showOutput ? 'inherit' : 'pipe', options.showOutput ? 'inherit' : 'pipe'],
  });
  let output = '';
  let workerReady = false;
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
    if (output.includes('media worker running')) workerReady = true;
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  // A production start may build the web app and the server first: allow it minutes.
  const deadline = Date.now() + 300_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`${options.entry} exited with code ${child.exitCode}:\n${output}`);
    if (options.entry === 'worker' ? workerReady : await answers(`http://127.0.0.1:${options.port}/health`))
      break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${options.entry} did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { child, output: () => output, stop };
}

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
}

/** A TCP port free on the loopback interface now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface RoundRobinProxy {
  url: string;
  /** Requests each backend has been given, in the order of `backends`. */
  served: number[];
  /** Requests the proxy could not pass on (a backend refused the connection or broke it). */
  failures: number;
  close(): Promise<void>;
}

/**
 * The load balancer in front of the app processes: each request goes to the next backend in turn,
 * as nginx's default upstream does, with the client's address added to X-Forwarded-For (the apps
 * run with TRUST_PROXY=1, as behind one real proxy). No stickiness: any request may reach any app.
 */
export async function startRoundRobinProxy(backends: string[], port = 0): Promise<RoundRobinProxy> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const served = backends.map(() => 0);
  const state = { next: 0, failures: 0 };
  const server = http.createServer((request, response) => {
    const index = state.next;
    state.next = (state.next + 1) % backends.length;
    served[index] = (served[index] ?? 0) + 1;
    const target = new URL(request.url ?? '/', backends[index]);
    const forwarded = [request.headers['x-forwarded-for'], request.socket.remoteAddress]
      .filter(Boolean)
      .join(', ');
    const upstream = http.request(
      target,
      { method: request.method, headers: { ...request.headers, 'x-forwarded-for': forwarded }, agent },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
        answer.on('error', () => response.destroy());
      },
    );
    upstream.on('error', () => {
      state.failures += 1;
      if (!response.headersSent) response.writeHead(502).end();
      else response.destroy();
    });
    request.on('error', () => upstream.destroy());
    request.pipe(upstream);
  });
  server.on('clientError', (_error, socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: bound } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}`,
    served,
    get failures() {
      return state.failures;
    },
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface Cluster {
  /** The address users open: the round-robin proxy. */
  url: string;
  proxy: RoundRobinProxy;
  /** The cluster's own database on the PostgreSQL server, for checks behind the API. */
  databaseUrl: string;
  apps: ServerProcess[];
  /** Each app process's own address, bypassing the proxy. */
  appUrls: string[];
  workers: ServerProcess[];
  stop(): Promise<void>;
}

/**
 * The platform scaled out as docs/architecture.md describes: `apps` stateless HTTP processes that run
 * no media jobs (MEDIA_WORKERS=0), `workers` job processes (`npm run worker`), one fresh database
 * on the PostgreSQL server of `serverUrl`, an S3-protocol store (s3rver, with the CORS rules a
 * bucket needs for the browser's part uploads), and the round-robin proxy in front. All processes
 * start at once, so they also race for the migrations and the queue's schema, as a rolling
 * deployment does. Stopping ends every process and drops the database and the store.
 */
export async function startCluster(options: {
  serverUrl: string;
  apps?: number;
  workers?: number;
  admin: { email: string; password: string };
  env?: Record<string, string>;
  proxyPort?: number;
  /** Serve the built web app (for browser journeys). */
  web?: boolean;
}): Promise<Cluster> {
  const database = await createPostgresDatabase(options.serverUrl, 'dam_cluster');
  const databaseUrl = database.url;
  const s3 = await startS3Server('dam-cluster', { cors: true });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dam-cluster-'));

  const appPorts = await Promise.all(Array.from({ length: options.apps ?? 2 }, () => freePort()));
  const proxy = await startRoundRobinProxy(
    appPorts.map((port) => `http://127.0.0.1:${port}`),
    options.proxyPort,
  );
  const shared: Record<string, string> = {
    DATABASE_URL: databaseUrl,
    DATABASE_POOL_SIZE: '8',
    S3_BUCKET: s3.bucket,
    S3_ENDPOINT: s3.endpoint,
    S3_FORCE_PATH_STYLE: 'true',
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    ADMIN_EMAIL: options.admin.email,
    ADMIN_PASSWORD: options.admin.password,
    PUBLIC_URL: proxy.url,
    TRUST_PROXY: '1',
    LOG_LEVEL: 'warn',
    ...(options.web ? {} : { WEB_DIST_DIR: '-' }),
    ...options.env,
  };
  const started = await Promise.allSettled([
    ...appPorts.map((port, index) =>
      spawnServerProcess({
        entry: 'main',
        port,
        env: {
          ...shared,
          PORT: String(port),
          HOST: '127.0.0.1',
          MEDIA_WORKERS: '0',
          DATA_DIR: path.join(dataDir, `app-${index + 1}`),
        },
      }),
    ),
    ...Array.from({ length: options.workers ?? 1 }, (_, index) =>
      spawnServerProcess({
        entry: 'worker',
        env: {
          ...shared,
          LOG_LEVEL: 'info',
          MEDIA_WORKERS: '2',
          DATA_DIR: path.join(dataDir, `worker-${index + 1}`),
        },
      }),
    ),
  ]);
  const processes = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const stop = async () => {
    await proxy.close();
    await Promise.all(processes.map((child) => child.stop()));
    await s3.close();
    await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const failed = started.find((result) => result.status === 'rejected');
  if (failed) {
    await stop();
    throw failed.reason;
  }
  const appCount = appPorts.length;
  return {
    url: proxy.url,
    proxy,
    databaseUrl,
    apps: processes.slice(0, appCount),
    appUrls: appPorts.map((port) => `http://127.0.0.1:${port}`),
    workers: processes.slice(appCount),
    stop,
  };
}

/** A media job as the queue recorded it in the cluster's database (`pgboss.job`). */
export interface MediaJobRow {
  upload_id: string;
  state: string;
  retry_count: number;
}

/** Every media job of the cluster's database: one row per job, with its upload and outcome. */
export async function mediaJobs(database: pg.Client): Promise<MediaJobRow[]> {
  return (
    await database.query<MediaJobRow>(
      `SELECT data->>'uploadId' AS upload_id, state, retry_count FROM pgboss.job WHERE name = 'media'`,
    )
  ).rows;
}

/** Waits, polling the queue, until no media job is waiting or running; throws after `timeoutMs`. */
export async function mediaJobsSettled(database: pg.Client, timeoutMs: number): Promise<MediaJobRow[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const jobs = await mediaJobs(database);
    if (jobs.every((job) => job.state === 'completed' || job.state === 'failed')) return jobs;
    if (Date.now() > deadline) throw new Error(`media jobs did not finish in ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
