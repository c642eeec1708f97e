// Issue 12's goals, one table for `npm run bench`: each bench records its rows here (JSON under
// bench/.results/, one file per source), and bench/goal-table.ts prints and writes them together.
import fs from 'node:fs';
import path from 'node:path';

export const RESULTS_DIR = path.resolve(import.meta.dirname, '.results');

/** One measured goal beside its baseline of the same run; strings carry their units. */
export interface GoalRow {
  /** Issue 12's goal number (1–9). */
  goal: number;
  /** What was measured, with the goal's limit. */
  text: string;
  measured: string;
  baseline: string;
  ratio: string;
  met: boolean;
}

export interface GoalResults {
  source: string;
  at: string;
  /** The PostgreSQL server's version, when the bench ran on one. */
  postgres?: string;
  rows: GoalRow[];
}

/** Records `rows` as `source`'s results of this run (replacing that source's earlier ones). */
export function recordGoals(source: string, rows: GoalRow[], context: { postgres?: string } = {}): void {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const results: GoalResults = { source, at: new Date().toISOString(), ...context, rows };
  const file = path.join(RESULTS_DIR, `${source.replace(/[^A-Za-z0-9_-]+/g, '-')}.json`);
  fs.writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
}

/** `measured / baseline` as a ratio with `digits` decimals and a × sign. */
export const times = (measured: number, baseline: number, digits = 1) =>
  `${(measured / baseline).toFixed(digits)}×`;

/** The middle value of a bench's runs (the upper middle of an even count). */
export const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
