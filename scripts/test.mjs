#!/usr/bin/env node
// `npm test`: system packages, lint + format, type check, unit and integration tests (the server
// on PGlite and, when one answers on 127.0.0.1:5432, on PostgreSQL too), the web build and its
// JavaScript budget per page, and the browser journeys in Chromium (with PostgreSQL, the upload,
// search, share and download journeys again on the platform scaled out). Stops at the first
// failing step.
import { spawnSync } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const env = { ...process.env };

function canConnect(host, port, timeoutMs = 1500) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

if (!env.TEST_DATABASE_URL && (await canConnect('127.0.0.1', 5432))) {
  env.TEST_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
}

const npx = (...args) => ['npx', '--no-install', ...args];
const steps = [
  ['system packages', ['bash', 'scripts/setup-system.sh']],
  ['lint and format (biome)', npx('biome', 'check', '.')],
  ['type check', ['npm', 'run', '--silent', 'typecheck']],
  [
    `unit and integration tests (PGlite${env.TEST_DATABASE_URL ? ' + PostgreSQL' : ''})`,
    npx('vitest', 'run'),
  ],
  ['web build', ['npm', 'run', '--silent', 'build']],
  ['web bundle budget', ['node', 'scripts/check-bundle-size.mjs']],
  ['browser journeys (Chromium)', npx('playwright', 'test', '-c', 'web/e2e/playwright.config.ts')],
  ...(env.TEST_DATABASE_URL
    ? [
        [
          'browser journeys scaled out (2 apps + worker, PostgreSQL + S3, round-robin proxy)',
          npx('playwright', 'test', '-c', 'web/e2e/playwright.config.ts'),
          { E2E_CLUSTER: '1', E2E_PORT: '18482' },
        ],
      ]
    : []),
];

const only = process.argv.slice(2);
const started = Date.now();
for (const [name, [command, ...args], stepEnv = {}] of steps) {
  if (only.length > 0 && !only.some((word) => name.includes(word))) continue;
  const stepStart = Date.now();
  console.log(`\n▶ ${name}`);
  const result = spawnSync(command, args, { cwd: root, env: { ...env, ...stepEnv }, stdio: 'inherit' });
  const seconds = ((Date.now() - stepStart) / 1000).toFixed(1);
  if (result.status !== 0) {
    console.error(`\n✖ ${name} failed after ${seconds}s (${[command, ...args].join(' ')})`);
    process.exit(result.status ?? 1);
  }
  console.log(`✔ ${name} (${seconds}s)`);
}
if (!env.TEST_DATABASE_URL)
  console.log('\nnote: no PostgreSQL on 127.0.0.1:5432, server tests ran on PGlite only');
console.log(`\nall tests passed in ${((Date.now() - started) / 1000).toFixed(0)}s`);
