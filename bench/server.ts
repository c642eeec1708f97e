import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../server/src/db/database';
import { spawnServerProcess } from '../server/test/cluster';

/** The administrator every benchmark's scratch server is started with. */
export const BENCH_ADMIN = { email: 'bench@example.com', password: 'Bench#2026' };

/**
 * Servers still running when the bench's process ends, killed then: a bench that fails part-way
 * (an uncaught error) must not leave its server holding the port for the next run.
 */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});
// A bench stopped by a signal (Ctrl-C, a time-out) exits through the handler above too.
process.once('SIGINT', () => process.exit(130));
process.once('SIGTERM', () => process.exit(143));

export interface BenchServer {
  child: ChildProcess;
  pid: number;
  stop(): Promise<void>;
}

/**
 * A real server process for a benchmark, on its own port and scratch data directory, resolved
 * once /health answers. `production` runs it as `npm start` does (compiled JavaScript, the built
 * web app); otherwise the TypeScript sources through tsx, with no web app.
 */
export async function startBenchServer(options: {
  port: number;
  dataDir: string;
  env?: Record<string, string>;
  production?: boolean;
  /** Node flags before the entry (e.g. --cpu-prof). */
  nodeArgs?: string[];
  showOutput?: boolean;
}): Promise<BenchServer> {
  const server = await spawnServerProcess({
    entry: 'main',
    port: options.port,
    production: options.production,
    nodeArgs: options.nodeArgs,
    showOutput: options.showOutput,
    env: {
      PORT: String(options.port),
      HOST: '127.0.0.1',
      DATA_DIR: options.dataDir,
      ADMIN_EMAIL: BENCH_ADMIN.email,
      ADMIN_PASSWORD: BENCH_ADMIN.password,
      LOG_LEVEL: 'warn',
      LOGIN_RATE_LIMIT: '1000',
      ...(options.production ? {} : { WEB_DIST_DIR: '-' }),
      ...options.env,
    },
  });
  running.add(server.child);
  server.child.once('exit', () => running.delete(server.child));
  return { child: server.child, pid: server.child.pid as number, stop: server.stop };
}

/** Resident memory of a process, in MiB (Linux /proc). */
export function rssMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/** CPU time a process has used so far: user and system (kernel) seconds (Linux /proc). */
export function cpuTimes(pid: number): { user: number; system: number } {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return { user: Number(fields[11]) / 100, system: Number(fields[12]) / 100 };
}

/**
 * CPU seconds (user + system) used so far by `pid` and every live process below it (ExifTool,
 * ffmpeg…), in all and by command name (Linux /proc): what a process tree costs, whatever else
 * the machine is doing.
 */
export function treeCpuSeconds(pid: number): { total: number; byCommand: Map<string, number> } {
  const byCommand = new Map<string, number>();
  let total = 0;
  const pending = [pid];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    try {
      const { user, system } = cpuTimes(next);
      const command = fs.readFileSync(`/proc/${next}/comm`, 'utf8').trim();
      total += user + system;
      byCommand.set(command, (byCommand.get(command) ?? 0) + user + system);
      for (const task of fs.readdirSync(`/proc/${next}/task`)) {
        const children = fs.readFileSync(`/proc/${next}/task/${task}/children`, 'utf8').trim();
        if (children) pending.push(...children.split(' ').map(Number));
      }
    } catch {
      // Ended meanwhile: its time is no longer counted anywhere this can read.
    }
  }
  return { total, byCommand };
}

/** Peak resident memory of `pid`, sampled every 50 ms, while `work` runs. */
export async function peakWhile<T>(
  pid: number,
  work: () => Promise<T>,
): Promise<{ peak: number; result: T }> {
  let peak = rssMiB(pid);
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssMiB(pid));
  }, 50);
  try {
    const result = await work();
    return { peak: Math.max(peak, rssMiB(pid)), result };
  } finally {
    clearInterval(sampler);
  }
}

/** A top-level folder seeded by SQL (bench/scale.ts, bench/similar.ts), owned by user 1. */
export async function seedFolder(db: Db, id: number, name: string): Promise<{ id: number; idPath: string }> {
  await sql`INSERT INTO items (id, type, parent_id, name, id_path, folder_path, owner_id, dept_path)
    VALUES (${id}, 1, NULL, ${name}, ${`/${id}/`}, '/', 1, '/1/')`.execute(db);
  return { id, idPath: `/${id}/` };
}

/**
 * `count` files in `parent` seeded by SQL, ids from `first` + 1, each with one finished upload
 * record (storage key `bench/<id>`), created a second apart from 2026-01-01; every fifth name holds
 * "detail"; 5 files share an article number.
 */
export async function seedFiles(
  db: Db,
  parent: { id: number; idPath: string },
  name: string,
  first: number,
  count: number,
): Promise<void> {
  await sql`INSERT INTO items (id, type, parent_id, name, id_path, folder_path, owner_id, dept_path, art_num, file_formats, total_size, created_at)
    SELECT ${first} + g, 2, ${parent.id},
      CASE WHEN g % 5 = 0 THEN 'detail-' ELSE 'shot-' END || lpad(g::text, 7, '0'),
      ${parent.idPath} || (${first} + g) || '/', ${`/${name}`}, 1, '/1/',
      'AB' || lpad((g / 5)::text, 6, '0'), 'jpg', 2048,
      timestamptz '2026-01-01' + g * interval '1 second'
    FROM generate_series(1, ${count}::int) g`.execute(db);
  await sql`INSERT INTO uploads (batch_num, user_id, folder_id, file_name, base_name, format, file_size, storage_key, status, item_id, width, height, preview_status, completed_at)
    SELECT 'bench', 1, ${parent.id}, 'f' || g || '.jpg', 'f' || g, 'jpg', 2048, 'bench/' || (${first} + g), 2, ${first} + g, 64, 64, 4,
      timestamptz '2026-01-01' + g * interval '1 second'
    FROM generate_series(1, ${count}::int) g`.execute(db);
}

/** Puts an in-process test app on a free local port and answers its base URL. */
export async function listenLocally(app: FastifyInstance): Promise<string> {
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return address.startsWith('http')
    ? address
    : `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}
