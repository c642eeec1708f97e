import type { ChildProcess } from 'node:child_process';
import { spawnServerProcess } from '../server/test/cluster';

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
  return { child: server.child, pid: server.child.pid as number, stop: server.stop };
}
