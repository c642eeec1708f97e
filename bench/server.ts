import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

/** The administrator every benchmark's scratch server is started with. */
export const BENCH_ADMIN = { email: 'bench@example.com', password: 'Bench#2026' };

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
  const entry = options.production ? ['scripts/start.mjs'] : ['--import', 'tsx', 'server/src/main.ts'];
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), ...entry], {
    cwd: root,
    env: {
      ...process.env,
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
    stdio: ['ignore', options.showOutput ? 'inherit' : 'ignore', 'inherit'],
  });
  // A production start may build the web app and the server first: allow it minutes.
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`);
    try {
      if ((await fetch(`http://127.0.0.1:${options.port}/health`)).ok) break;
    } catch {
      if (attempt > 3000) throw new Error('the server did not start');
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    child,
    pid: child.pid as number,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
