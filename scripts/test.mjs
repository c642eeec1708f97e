#!/usr/bin/env node
// `npm test`: system packages, lint + format, type check, unit and integration tests (the server
// on PGlite and, when one answers on 127.0.0.1:5432, on PostgreSQL too), the web build and its
// JavaScript budget per page, and the browser journeys in Chromium (with PostgreSQL, the upload,
// search, share and download journeys again on the platform scaled out). Steps that only compute
// (lint, type check, build) run side by side (scripts/test-runner.mjs); the unit tests then run
// alone (beside them the journeys' time-outs ran out on two cores), and then the journeys in two
// shards, the scaled-out run following the first. The first failure stops them all.
//
// `node scripts/test.mjs <words>` runs only the steps whose names contain one of the words (and
// nothing they would wait for). TEST_SLOTS says how many steps may run at once; E2E_SHARDS splits
// the journeys between that many runners, each against its own server (2 by default: one runner
// left a two-core machine a third idle; scripts/journey-shards.mjs says which files each takes).
import net from 'node:net';
import os from 'node:os';
import { clusterSeconds, journeyFileShards } from './journey-shards.mjs';
import { runSteps } from './test-runner.mjs';

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
const UNIT = `unit and integration tests (PGlite${env.TEST_DATABASE_URL ? ' + PostgreSQL' : ''})`;
const playwright = npx('playwright', 'test', '-c', 'web/e2e/playwright.config.ts');
/**
 * Journeys in shards, each with its own server, data directory and peers (E2E_PORT; the peers
 * listen at E2E_PORT + 40…44, so ports are 50 apart). Journeys make their own data, so a shard
 * needs nothing of another's. The first shard is given less, by the scaled-out run's time: that run
 * follows it.
 */
const JOURNEY_SHARDS = Math.max(1, Number(env.E2E_SHARDS ?? 2));
const shardFiles =
  JOURNEY_SHARDS > 1
    ? journeyFileShards(JOURNEY_SHARDS, { firstCarries: env.TEST_DATABASE_URL ? clusterSeconds() : 0 })
    : [[]];
const journeyShards = shardFiles.map((files, index) => ({
  name: `browser journeys ${index + 1}/${JOURNEY_SHARDS} (Chromium)`,
  command: [...playwright, ...files],
  env: { E2E_PORT: String(18_480 + index * 50) },
  after: ['web build', UNIT],
}));
const FIRST_SHARD = journeyShards[0].name;

/** @type {import('./test-runner.mjs').Step[]} */
const steps = [
  { name: 'system packages', command: ['bash', 'scripts/setup-system.sh'] },
  { name: 'lint and format (biome)', command: npx('biome', 'check', '.'), after: ['system packages'] },
  { name: 'type check', command: ['npm', 'run', '--silent', 'typecheck'], after: ['system packages'] },
  // After the computing steps: beside them its time-outs would run out on a two-core machine.
  {
    name: UNIT,
    command: npx('vitest', 'run'),
    after: ['lint and format (biome)', 'type check', 'web build'],
  },
  { name: 'web build', command: ['npm', 'run', '--silent', 'build'], after: ['system packages'] },
  { name: 'web bundle budget', command: ['node', 'scripts/check-bundle-size.mjs'], after: ['web build'] },
  ...journeyShards,
  ...(env.TEST_DATABASE_URL
    ? [
        {
          name: 'browser journeys scaled out (2 apps + worker, PostgreSQL + S3, round-robin proxy)',
          command: playwright,
          env: { E2E_CLUSTER: '1', E2E_PORT: String(18_480 + JOURNEY_SHARDS * 50) },
          after: ['web build', FIRST_SHARD],
        },
      ]
    : []),
];

const only = process.argv.slice(2);
const chosen =
  only.length === 0 ? steps : steps.filter((step) => only.some((word) => step.name.includes(word)));
const slots = Number(env.TEST_SLOTS ?? Math.max(3, os.availableParallelism() + 1));
const started = Date.now();
const ok = await runSteps(chosen, { env, slots });
if (!ok) process.exit(1);
if (!env.TEST_DATABASE_URL)
  console.log('\nnote: no PostgreSQL on 127.0.0.1:5432, server tests ran on PGlite only');
console.log(`\nall tests passed in ${((Date.now() - started) / 1000).toFixed(0)}s`);
