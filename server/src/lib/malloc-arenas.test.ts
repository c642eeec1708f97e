import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { buildSync } from 'esbuild';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const glibc = Boolean(
  (process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header?.glibcVersionRuntime,
);

// Each case in a process of its own: the limit is process-wide and lasts for the process's life.
// The probe is compiled to plain JavaScript and loads the limit first, as scripts/start.mjs loads
// server/dist/malloc-arenas.js before an entry (no TypeScript loader, whose own threads would take
// arenas before the limit); it starts six threads that allocate, then has glibc list its arenas
// (malloc_stats).
function arenasOfProbe(env: Record<string, string | undefined>): { arenas: number; limit: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dam-arenas-'));
  try {
    const source = path.join(dir, 'probe.ts');
    fs.writeFileSync(
      source,
      `import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { mallocArenas } from ${JSON.stringify(path.resolve(import.meta.dirname, 'malloc-arenas-at-start.ts'))};
const koffi = createRequire(import.meta.url)('koffi');
const code = 'const kept = []; for (let i = 0; i < 1000; i++) kept.push(Buffer.alloc(1000)); setTimeout(() => {}, 500);';
const workers = Array.from({ length: 6 }, () => new Worker(code, { eval: true }));
await Promise.all(workers.map((worker) => new Promise((online) => worker.on('online', online))));
console.log(String(mallocArenas), process.env.MALLOC_ARENA_MAX);
koffi.load('libc.so.6').func('void malloc_stats(void)')();
await Promise.all(workers.map((worker) => worker.terminate()));
`,
    );
    const probe = path.join(dir, 'probe.mjs');
    buildSync({ entryPoints: [source], outfile: probe, bundle: true, format: 'esm', platform: 'node' });
    const run = spawnSync(process.execPath, [probe], {
      // The probe lives outside the project: its require finds koffi through NODE_PATH.
      env: {
        ...process.env,
        NODE_PATH: path.resolve(require.resolve('koffi'), '../..'),
        MALLOC_ARENA_MAX: undefined,
        GLIBC_TUNABLES: undefined,
        // A loader's threads (tsx) would take arenas before the limit, as no server process has.
        NODE_OPTIONS: undefined,
        ...env,
      },
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(0);
    // The cap answers null when the environment holds the limit: the process was started again
    // with it, or the caller set it. What counts is the variable glibc read at start.
    return { arenas: (run.stderr.match(/^Arena \d+:/gm) ?? []).length, limit: run.stdout.trim() };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe.runIf(glibc)('malloc arenas of a server process (issue 12 goal 8)', () => {
  it('are capped at two however many threads allocate', () => {
    expect(arenasOfProbe({})).toEqual({ arenas: 2, limit: 'null 2' });
  });

  it('follow MALLOC_ARENA_MAX when the environment sets it', () => {
    expect(arenasOfProbe({ MALLOC_ARENA_MAX: '4' })).toEqual({ arenas: 4, limit: 'null 4' });
  });
});
