import os from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * One run covers the contract, the server on the embedded PGlite, the server again on a real
 * PostgreSQL when TEST_DATABASE_URL is set (scripts/test.mjs sets it when one answers), and the web
 * unit tests. Browser journeys run separately with Playwright (npm run test:e2e).
 */
const serverProject = (name: string, db: 'pglite' | 'postgres') => ({
  test: {
    name,
    root: './server',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    env: { TEST_DB: db },
    // One migrated database per project, copied by each test file (server/test/test-database.ts).
    globalSetup: ['./test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // A worker process runs its files one after another with the modules it has loaded: each
    // file still makes its own database, app and peers, but no longer loads and compiles the
    // server's ~600 modules again. That halved the CPU time of the server tests (a sample of six
    // files: 92.6 s → 47.3 s user + system). The server code keeps no state in its modules that a
    // test could leave behind (no module mocks, no module-level caches of answers); a file must
    // still close what it opens.
    isolate: false,
  },
});

export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: one on the two-core machines the suite
    // runs on. Two there still overlap one file's waits (PostgreSQL, ffmpeg, timers) with another's
    // work: the PGlite project took 823 s instead of 985, though each file ran ~1.5× slower.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    projects: [
      { test: { name: 'contract', root: './packages/contract', include: ['src/**/*.test.ts'] } },
      serverProject('server:pglite', 'pglite'),
      ...(process.env.TEST_DATABASE_URL ? [serverProject('server:postgres', 'postgres')] : []),
      './web/vitest.config.ts',
    ],
  },
});
