#!/usr/bin/env node
// `npm run build --workspace server`: bundles the server's entry points (the HTTP server, the
// media worker, the storage sweep, backup and restore) into plain JavaScript under server/dist, so production runs
// `node server/dist/main.js` with no TypeScript loader. npm packages stay external (loaded from
// node_modules as usual); only our own code and the workspace contract package are bundled.
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
const server = path.join(root, 'server');
const manifest = JSON.parse(fs.readFileSync(path.join(server, 'package.json'), 'utf8'));
const external = Object.keys(manifest.dependencies).filter((name) => !name.startsWith('@dam/'));

export const SERVER_ENTRIES = {
  main: 'src/main.ts',
  worker: 'src/worker.ts',
  'sweep-objects': 'src/jobs/sweep-objects.ts',
  backup: 'src/modules/backup/backup-cli.ts',
  restore: 'src/modules/backup/restore-cli.ts',
  // Spawned by main to create a new embedded database in a process of its own.
  'prepare-embedded-database': 'src/db/prepare-embedded-database.ts',
  // Loaded by scripts/start.mjs before an entry: a file of its own, so that nothing the entries
  // import (libvips, argon2, pg-boss) is evaluated before it, as it would be in a shared chunk.
  'malloc-arenas': 'src/lib/malloc-arenas-at-start.ts',
};

const outdir = path.join(server, 'dist');
fs.rmSync(outdir, { recursive: true, force: true });
await build({
  absWorkingDir: server,
  entryPoints: SERVER_ENTRIES,
  outdir,
  // Chunks sit beside the entries: code using import.meta.dirname (config's default web/dist,
  // main's package.json) resolves the same from server/dist as from server/src.
  chunkNames: '[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external,
  sourcemap: true,
  logLevel: 'warning',
});
