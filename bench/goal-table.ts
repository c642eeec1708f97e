// Issue 12's goals in one table. `npm run bench` calls it with --reset first (clears
// bench/.results/), then runs every bench (each records its rows through bench/goals.ts), then
// calls it again without: the rows of this run, ordered by goal, printed and written as the first
// section of docs/benchmarks.md (replacing the previous one; the benches' own sections stay).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type GoalResults, type GoalRow, RESULTS_DIR } from './goals';

const GOALS: Record<number, string> = {
  1: 'downloads: first byte < 1 s, 3,000 selected files and a 3,000-item folder at 1M items (bench/scale.ts)',
  2: 'every sort of a 1M-item folder < 100 ms (bench/scale.ts)',
  3: 'batch search of 10,000 values < 300 ms, broad term newest page < 100 ms (bench/scale.ts)',
  4: 'first thumbnail of a 200-image folder < 1 s after navigation (bench/first-thumbnail.ts)',
  5: 'zip streaming ≥ 0.8× a bare HTTP stream (bench/download-zip.ts)',
  6: 'thumbnail queue ≥ 0.9× bare sharp, PGlite and PostgreSQL (bench/upload.ts)',
  7: 'uploads ≥ 0.9× a bare HTTP part writer (bench/upload.ts)',
  8: 'server RSS: idle < 250 MiB (PostgreSQL), < 350 MiB (PGlite); peak < 400 MiB (upload.ts, download-zip.ts, first-thumbnail.ts)',
  9: 'scale-out: 2 apps + worker behind a proxy, 30 s of load, 0 errors, each media job once (bench/scale-out.ts)',
};
const HEADING = '## Issue 12 goals (npm run bench)';
/** Which bench records which goals: a bench that recorded nothing shows as "not run" for each. */
const SOURCES: Record<string, number[]> = {
  scale: [1, 2, 3],
  'download-zip': [5, 8],
  'upload-pglite': [6, 7, 8],
  'upload-postgresql': [6, 8],
  'first-thumbnail': [4, 8],
  'scale-out': [9],
};

if (process.argv.includes('--reset')) {
  fs.rmSync(RESULTS_DIR, { recursive: true, force: true });
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  process.exit(0);
}

const results: GoalResults[] = fs.existsSync(RESULTS_DIR)
  ? fs
      .readdirSync(RESULTS_DIR)
      .filter((name) => name.endsWith('.json'))
      .map((name) => JSON.parse(fs.readFileSync(path.join(RESULTS_DIR, name), 'utf8')) as GoalResults)
      .sort((a, b) => a.at.localeCompare(b.at))
  : [];
if (results.length === 0) {
  console.error(`no results in ${path.relative(process.cwd(), RESULTS_DIR)}: run the benches first`);
  process.exit(1);
}

// Ordered by goal; within a goal, in the order the benches ran and recorded them.
const rows: GoalRow[] = results.flatMap((r) => r.rows).sort((a, b) => a.goal - b.goal);
const missing = Object.entries(SOURCES).filter(([source]) => !results.some((r) => r.source === source));
const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');
const lines = [
  '| goal | measured | baseline | ratio | met |',
  '|---|---:|---|---:|:---:|',
  ...Object.keys(GOALS)
    .map(Number)
    .flatMap((goal) => {
      const own = rows.filter((row) => row.goal === goal);
      const absent = missing
        .filter(([, goals]) => goals.includes(goal))
        .map(
          ([source]) =>
            `| ${goal}. ${cell(GOALS[goal] as string)}: bench/${source.replace(/-(pglite|postgresql)$/, ' on $1')} | not run | — | — | **not run** |`,
        );
      return [
        ...own.map(
          (row) =>
            `| ${goal}. ${cell(row.text)} | ${cell(row.measured)} | ${cell(row.baseline)} | ${cell(row.ratio)} | ${row.met ? 'yes' : '**no**'} |`,
        ),
        ...absent,
      ];
    }),
];
// The run's date: when its last bench recorded (the table may be written again later).
const now = new Date(Math.max(...results.map((r) => Date.parse(r.at))));
const cpus = os.cpus();
const postgres = [...new Set(results.flatMap((r) => (r.postgres ? [r.postgres] : [])))];
const machine = [
  `${now.toISOString().slice(0, 16).replace('T', ' ')} UTC`,
  `${cpus.length} × ${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB`,
  `Node ${process.versions.node}`,
  ...(postgres.length > 0 ? [`PostgreSQL ${postgres.join(', ')}`] : []),
].join(' · ');
const met = rows.filter((row) => row.met).length;
const section = `${HEADING}

${machine} ·
every goal beside its baseline, both measured in the same run (the benches' own sections below
give the set-ups); ${met} of ${rows.length} rows met${missing.length > 0 ? `; not run: ${missing.map(([source]) => source).join(', ')}` : ''}.

${lines.join('\n')}
`;
console.log(`\n${section}`);

const target = path.resolve(import.meta.dirname, '../docs/benchmarks.md');
const existing = fs.existsSync(target) ? fs.readFileSync(target, 'utf8') : '';
const rest = existing
  .replace(/^# Benchmarks\n+/, '')
  .replace(/## Issue 12 goals \(npm run bench\)[\s\S]*?(?=\n## |$)/, '')
  .trim();
fs.writeFileSync(target, `# Benchmarks\n\n${section}${rest ? `\n${rest}\n` : ''}`);
console.log(`written to ${path.relative(process.cwd(), target)}`);
