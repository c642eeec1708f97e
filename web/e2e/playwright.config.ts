import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { buildWebIfStale, e2eWebDist } from './build-web';
import { chromiumLaunchOptions } from './chromium';
import { PEER_PORTS, PEERS_URL } from './peer-ports';
import { ssoServerEnv } from './sso-peer';
import { ADMIN, CLIENT_LINKS } from './support';

/**
 * Browser journeys in Debian's Chromium (Playwright cannot download its own browser here),
 * against the real server on a fresh embedded database and data directory. The server serves the
 * built web app, which is rebuilt first when web/dist is older than its sources.
 *
 * With E2E_CLUSTER=1 the upload, search, share and download journeys run instead against the
 * platform scaled out (web/e2e/cluster-server.ts): two app processes and a worker on PostgreSQL
 * and an S3-protocol store behind a round-robin proxy, so one journey's calls alternate between
 * processes and its parts go to the store.
 */
const root = path.resolve(import.meta.dirname, '../..');
process.env.E2E_DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), 'dam-e2e-'));
const port = Number(process.env.E2E_PORT ?? 18_480);
const cluster = process.env.E2E_CLUSTER === '1';
const results = path.join(root, process.env.E2E_PORT ? `test-results-${port}` : 'test-results');
const CLUSTER_JOURNEYS = ['upload.spec.ts', 'search.spec.ts', 'shares.spec.ts', 'presets.spec.ts'];
buildWebIfStale();

export default defineConfig({
  testDir: '.',
  testMatch: cluster ? CLUSTER_JOURNEYS : '*.spec.ts',
  // A run on its own port keeps its own results: Playwright empties the folder when it starts.
  outputDir: results,
  // Room for a loaded two-core machine (the cluster's four processes and S3 store, or journeys in
  // shards, E2E_SHARDS): the waits are for load, not for slowness a person would notice.
  timeout: 120_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  // The JSON report's times are what scripts/journey-shards.mjs splits the shards by.
  reporter: [['list'], ['json', { outputFile: path.join(results, 'report.json') }]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    viewport: { width: 1366, height: 820 },
    locale: 'zh-CN',
    // As someone who asked their system for less motion: menus and dialogs open and close at once.
    // With animations a choice's menu once stayed open under the cluster's load, its closing left to
    // an animation's end; one journey checks the animated path (search.spec.ts).
    reducedMotion: 'reduce',
    trace:
      process.env.E2E_TRACE === 'off'
        ? 'off'
        : { mode: 'retain-on-failure', screenshots: false, snapshots: true, sources: false },
    // Without V8's optimising compiler: a journey's pages live seconds, too short for its compile
    // work to pay back (the renderer's CPU −13%, all of a run's −11%). Not for the browser
    // benchmark, which launches the same Chromium with chromiumLaunchOptions as they are.
    launchOptions: { ...chromiumLaunchOptions, args: [...chromiumLaunchOptions.args, '--js-flags=--no-opt'] },
  },
  webServer: [
    {
      // The SMTP server and SMS gateway the app sends to, and what the journeys read them through.
      command: 'node --import tsx web/e2e/peers.ts',
      cwd: root,
      url: `${PEERS_URL}/health`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
      gracefulShutdown: { signal: 'SIGTERM', timeout: 5_000 },
    },
    {
      command: cluster
        ? 'node --import tsx web/e2e/cluster-server.ts'
        : 'node --import tsx server/src/main.ts',
      // The cluster drops its database and store when told to stop.
      gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
      cwd: root,
      url: `http://127.0.0.1:${port}/health`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: process.env.E2E_DATA_DIR,
        WEB_DIST_DIR: e2eWebDist,
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
        LOG_LEVEL: 'warn',
        LOGIN_RATE_LIMIT: '1000',
        // The page waits longer for its first answers than a person's server would: the journeys
        // check that they come inside the page, on a two-core machine loaded by Chromium.
        FIRST_ANSWERS_WAIT_MS: '10000',
        // A media job that cannot succeed fails for good within a second (its 5 retries at once):
        // the jobs journey makes one fail and retries it from the screen.
        MEDIA_RETRY_DELAY_SECONDS: '0',
        CLIENT_DOWNLOAD_MAC_URL: CLIENT_LINKS.mac,
        CLIENT_DOWNLOAD_WIN_URL: CLIENT_LINKS.windows,
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        SMTP_URL: `smtp://127.0.0.1:${PEER_PORTS.smtp}`,
        MAIL_FROM: 'DAM <dam@example.test>',
        SMS_PROVIDER: 'http',
        SMS_HTTP_URL: `http://127.0.0.1:${PEER_PORTS.sms}/send?to={mobile}&text=code%20{code}`,
        SMS_HTTP_METHOD: 'GET',
        // Webhooks may go to the peers' receiver on the loopback address (web/e2e/peers.ts).
        WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32',
        // Company single sign-on against the peers' OpenID provider (sso-peer.ts).
        ...ssoServerEnv(`http://127.0.0.1:${port}`),
      },
    },
  ],
});
