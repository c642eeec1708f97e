import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const web = path.resolve(import.meta.dirname, '..');
const root = path.resolve(web, '..');
/** Everything that ends up in web/dist: a change to any of these makes the build stale. */
const SOURCES = [
  path.join(web, 'src'),
  path.join(web, 'public'),
  path.join(web, 'index.html'),
  path.join(web, 'vite.config.ts'),
  path.join(root, 'packages/contract/src'),
];

function newestChange(entry: string): number {
  if (!fs.existsSync(entry)) return 0;
  const stat = fs.statSync(entry);
  // Unit tests are not bundled: editing one must not force a rebuild.
  if (!stat.isDirectory()) return /\.test\.tsx?$/.test(entry) ? 0 : stat.mtimeMs;
  return fs
    .readdirSync(entry)
    .reduce((newest, name) => Math.max(newest, newestChange(path.join(entry, name))), stat.mtimeMs);
}

/**
 * The server under test serves web/dist, so a journey run against an old build tests old code.
 * Builds when dist is missing or older than any source. Only the runner process decides: worker
 * processes load the config again (and inherit the runner's environment), and a rebuild there
 * would swap the assets under the running server while a source is being edited.
 */
/**
 * Where the journeys' build goes: web/dist, or E2E_WEB_DIST when set, so two journey runs from one
 * checkout (two people, or a run beside `npm run build`) never swap assets under each other's server.
 */
export const e2eWebDist = process.env.E2E_WEB_DIST
  ? path.resolve(process.env.E2E_WEB_DIST)
  : path.join(web, 'dist');

export function buildWebIfStale(): void {
  if (process.env.E2E_WEB_CHECKED) return;
  process.env.E2E_WEB_CHECKED = '1';
  const built = path.join(e2eWebDist, 'index.html');
  const builtAt = fs.existsSync(built) ? fs.statSync(built).mtimeMs : 0;
  if (builtAt >= Math.max(...SOURCES.map(newestChange))) return;
  console.log('[e2e] web/dist is missing or older than the sources: running vite build');
  const outDir = ['--', '--outDir', e2eWebDist, '--emptyOutDir'];
  const result = spawnSync('npm', ['run', '--silent', 'build', '--workspace', 'web', ...outDir], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error(`vite build failed (exit ${result.status})`);
}
