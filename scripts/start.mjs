#!/usr/bin/env node
// `npm start` (and `npm run worker`, `npm run sweep-objects`, `npm run backup`, `npm run restore`): builds what is missing or older
// than its sources — the web app for the server, the server's JavaScript for every entry — then
// runs the compiled entry with plain Node (TypeScript through tsx is for `npm run dev:server`).
// The server runs on the embedded defaults unless the environment says otherwise.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');
const ENTRIES = ['main', 'worker', 'sweep-objects', 'backup', 'restore'];
const [entry = 'main', ...entryArgs] = process.argv.slice(2);
if (!ENTRIES.includes(entry)) {
  console.error(`unknown entry ${entry}: one of ${ENTRIES.join(', ')}`);
  process.exit(2);
}

function newestMtime(target) {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of fs.readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, name)));
  return newest;
}

function buildIfStale(what, output, sources, workspace) {
  const builtAt = fs.existsSync(output) ? fs.statSync(output).mtimeMs : 0;
  const changedAt = Math.max(...sources.map((source) => newestMtime(path.join(root, source))));
  if (changedAt <= builtAt) return;
  console.log(`Building ${what}…`);
  const build = spawnSync('npm', ['run', '--silent', 'build', '--workspace', workspace], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const contract = ['packages/contract/src', 'packages/contract/package.json'];
if (entry === 'main') {
  buildIfStale(
    'the web app',
    path.join(root, 'web/dist/index.html'),
    ['web/src', 'web/index.html', 'web/vite.config.ts', 'web/public', 'web/package.json', ...contract],
    'web',
  );
}
buildIfStale(
  'the server',
  path.join(root, `server/dist/${entry}.js`),
  ['server/src', 'server/package.json', 'scripts/build-server.mjs', ...contract],
  'server',
);

// The entry runs in this process, not a child: one Node process instead of two (a wrapper alone
// holds ~45 MiB), and signals reach the server's own handlers directly.
process.setSourceMapsEnabled(true);
process.chdir(root);
// Before anything of the entry is loaded: the malloc arena limit must hold before any thread starts
// (server/src/lib/malloc-arenas.ts).
await import(pathToFileURL(path.join(root, 'server/dist/malloc-arenas.js')).href);
const entryFile = path.join(root, 'server/dist', `${entry}.js`);
process.argv = [process.argv[0], entryFile, ...entryArgs];
await import(pathToFileURL(entryFile).href);
