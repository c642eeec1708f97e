// bench/similar.ts's report: a table per database pass, printed and written as the "Near-duplicates
// and colour search" section of docs/benchmarks.md (replacing the previous one).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { COLOUR_GOAL_MS, fmt, GOAL_MS, type PhaseReport, RUNS } from './similar.measure';

const tableOf = (report: PhaseReport) =>
  [
    `| ${report.kind}, ${report.items.toLocaleString('en')} files | median | p95 | goal | bare SQL (median) | ratio | met |`,
    '|---|---:|---:|---:|---|---:|:---:|',
    ...report.measures.map(
      (m) =>
        `| ${m.label}${m.note ? ` (${m.note})` : ''} | ${fmt(m.median)} ms | ${fmt(m.p95)} ms | < ${m.goalMs} ms | ${fmt(m.bareMedian)} ms (${m.bareLabel}) | ${(m.median / m.bareMedian).toFixed(1)}× | ${m.p95 < m.goalMs ? 'yes' : m.median < m.goalMs ? 'median' : 'no'} |`,
    ),
  ].join('\n');

/** Prints the passes' tables and writes them, with the set-up, to docs/benchmarks.md. */
export function writeReport(reports: PhaseReport[]): void {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const sections = reports.map(
    (
      report,
    ) => `${report.kind} ${report.version} · ${report.seed} · load average (1 / 5 / 15 min) ${report.load}.

${tableOf(report)}

${report.notes.map((note) => `- ${note[0]?.toUpperCase()}${note.slice(1)}.`).join('\n')}
`,
  );
  for (const section of sections) console.log(`\n${section}`);
  const report = `## Near-duplicates and colour search (bench/similar.ts, issue 17)

${new Date().toISOString().slice(0, 10)} · ${os.cpus().length} × ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB ·
median and p95 of ${RUNS} runs after one warm-up (${RUNS - Math.ceil(0.95 * RUNS) === 0 ? 'the p95 is the slowest run' : `the p95 is the slowest but ${RUNS - Math.ceil(0.95 * RUNS)}`}), through the HTTP server (one
process, the TypeScript sources), each beside the bare SQL of the same lookup timed in the same run
(no visibility rule, nothing presented). Goals: < ${GOAL_MS} ms per lookup (issue 17), < ${COLOUR_GOAL_MS} ms
for the colour filter and the colour search (plan §10); "median" in the last column: the median
meets it, the p95 does not. Fingerprints by SQL: 90 % random 64-bit hashes, 10 % near copies (2
bits flipped) of 1,000 base hashes, so each base has a ten-thousandth of the uploads as near copies
(~105 at 1M) and band values clump; a clumped query is a base with 1 bit flipped, a random query a fresh
random hash. Colours: 5 per upload (a light background and 4 spread over OKLab), copied per item.
The 200-file check sends a tenth clumped; its figures are per lookup (the call's time / 200).

${sections.join('\n')}`;
  const target = path.resolve(import.meta.dirname, '../docs/benchmarks.md');
  const existing = fs.existsSync(target) ? fs.readFileSync(target, 'utf8') : '# Benchmarks\n';
  const section = /## Near-duplicates and colour search \(bench\/similar\.ts[\s\S]*?(?=\n## |$)/;
  const updated = section.test(existing)
    ? existing.replace(section, report.trimEnd())
    : `${existing.trimEnd()}\n\n${report.trimEnd()}\n`;
  fs.writeFileSync(target, updated.endsWith('\n') ? updated : `${updated}\n`);
  console.log(`written to ${path.relative(process.cwd(), target)}`);
}
