// `npm run bench`: issue 12's benches one after another, each in its own process, then the goal
// table (bench/goal-table.ts) — written even when a bench failed, which then shows as "not run" —
// then the benches of later issues. Exits non-zero when any bench failed.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

interface Bench {
  file: string;
  env?: Record<string, string | undefined>;
}

// The PGlite pass must not pick up a PostgreSQL server from the environment.
const ISSUE_12: Bench[] = [
  { file: 'scale.ts' },
  { file: 'explain-listing.ts' },
  { file: 'download-zip.ts' },
  { file: 'upload.ts', env: { BENCH_DB: undefined, BENCH_DATABASE_URL: undefined } },
  { file: 'upload.ts', env: { BENCH_DB: 'postgres', BENCH_UPLOAD_MB: '0' } },
  { file: 'image-limits.ts' },
  { file: 'first-thumbnail.ts' },
  { file: 'scale-out.ts' },
];
const LATER: Bench[] = [
  { file: 'reports.ts' },
  { file: 'composite.ts' },
  { file: 'similar.ts' },
  { file: 'colour.ts' },
];

const root = path.resolve(import.meta.dirname, '..');
const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
const failed: string[] = [];

function run(file: string, args: string[] = [], env: Bench['env'] = {}): boolean {
  const merged: NodeJS.ProcessEnv = { ...process.env };
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) delete merged[name];
    else merged[name] = value;
  }
  console.log(
    `\n== bench/${file} ${args.join(' ')}${Object.keys(env).length > 0 ? ` (${JSON.stringify(env)})` : ''}`,
  );
  const result = spawnSync(tsx, [path.join('bench', file), ...args], {
    cwd: root,
    env: merged,
    stdio: 'inherit',
  });
  if (result.status === 0) return true;
  failed.push(file);
  return false;
}

if (!run('goal-table.ts', ['--reset'])) process.exit(1);
for (const bench of ISSUE_12) run(bench.file, [], bench.env);
run('goal-table.ts');
for (const bench of LATER) run(bench.file, [], bench.env);
if (failed.length > 0) {
  console.error(`\nfailed: ${failed.join(', ')}`);
  process.exit(1);
}
