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
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'contract', root: './packages/contract', include: ['src/**/*.test.ts'] } },
      serverProject('server:pglite', 'pglite'),
      ...(process.env.TEST_DATABASE_URL ? [serverProject('server:postgres', 'postgres')] : []),
      './web/vitest.config.ts',
    ],
  },
});
