#!/usr/bin/env node
// Runs every test on its own — one `vitest run <file> -t <its full name>` each — to prove that no
// test leans on data another test made (issue 10). Slow by design (a process per test): it is a
// check to run by hand, not part of `npm test`.
//   node scripts/run-tests-alone.mjs [--project server:pglite] [--jobs 2] [path filter…]
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  if (at < 0) return fallback;
  const [value] = args.splice(at, 2).slice(1);
  return value;
};
const project = option('--project', 'server:pglite');
const jobs = Number(option('--jobs', '2'));
const filters = args;
const root = path.resolve(import.meta.dirname, '..');
const listFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tests-alone-')), 'tests.json');

spawnSync('npx', ['vitest', 'list', '--project', project, `--json=${listFile}`, ...filters], {
  cwd: root,
  stdio: 'ignore',
});
// Tests of one file sharing a name (it.each rows with the same title) run together: their name
// is all -t can tell them apart by.
const tests = [];
for (const test of JSON.parse(fs.readFileSync(listFile, 'utf8'))) {
  const same = tests.find((t) => t.file === test.file && t.name === test.name);
  if (same) same.count += 1;
  else tests.push({ ...test, count: 1 });
}
// `vitest list` names a test "describe > … > test"; -t matches a regular expression against the
// same names joined by spaces. Anchored, so a test never runs its namesakes too.
const pattern = (name) =>
  `^${name
    .split(' > ')
    .join(' ')
    .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`;
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');
console.log(`${tests.length} tests (by name) of ${project}, each on its own, ${jobs} at a time`);

const failed = [];
let done = 0;
const runOne = (test) =>
  new Promise((resolve) => {
    const child = spawn(
      'npx',
      ['vitest', 'run', '--project', project, path.relative(root, test.file), '-t', pattern(test.name)],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('close', (code) => {
      done += 1;
      // A name that matched nothing would "pass" with every test skipped: count that as a failure.
      const summary = /Tests\s+(.*)/.exec(output.replace(ANSI, ''))?.[1] ?? '';
      const ran = new RegExp(`^${test.count} passed\\b`).test(summary.trim());
      if (code !== 0 || !ran) {
        failed.push(test);
        console.log(`✗ ${path.relative(root, test.file)} › ${test.name}`);
      }
      if (done % 25 === 0) console.log(`${done}/${tests.length} run, ${failed.length} failed`);
      resolve();
    });
  });

const queue = [...tests];
await Promise.all(
  Array.from({ length: jobs }, async () => {
    for (let test = queue.shift(); test; test = queue.shift()) await runOne(test);
  }),
);
console.log(`\n${tests.length - failed.length} of ${tests.length} passed alone`);
process.exit(failed.length > 0 ? 1 : 0);
