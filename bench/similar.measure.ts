// bench/similar.ts's timing: each lookup through the HTTP server, RUNS runs after one warm-up,
// median and p95, beside the bare SQL of the same lookup timed in the same run; the rows it makes
// (Measure) and what one database's pass reports (PhaseReport).
import os from 'node:os';
import type { Db } from '../server/src/db/database';
import type { SimilarRepository } from '../server/src/modules/similar/repository';

export const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 15));
export const GOAL_MS = 50;
/** The plan's goal for the colour filter and the colour search (§10). */
export const COLOUR_GOAL_MS = 100;

export interface Measure {
  label: string;
  /** Divides the times (per-lookup figures of a 200-file check). */
  per: number;
  goalMs: number;
  median: number;
  p95: number;
  bareMedian: number;
  bareLabel: string;
  note?: string;
}
export interface PhaseReport {
  kind: string;
  version: string;
  items: number;
  seed: string;
  load: string;
  measures: Measure[];
  notes: string[];
}

export const fmt = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(1));
export const loadAverage = () =>
  os
    .loadavg()
    .map((v) => v.toFixed(1))
    .join(' / ');
function stats(times: number[]) {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] as number;
  return { median: at(0.5), p95: at(0.95) };
}
/** One warm-up (run -1), then RUNS timed runs; `before` runs untimed before each. */
export async function sample(run: (i: number) => Promise<unknown>, before?: () => Promise<unknown>) {
  await before?.();
  await run(-1);
  const times: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    await before?.();
    const started = performance.now();
    await run(i);
    times.push(performance.now() - started);
  }
  return stats(times);
}

/** A call of the server's API with `token`: its result, or an error when it did not succeed. */
export type Api = (token: string, method: 'GET' | 'POST', url: string, body?: unknown) => Promise<unknown>;

export function apiOf(base: string): Api {
  return async (token, method, url, body) => {
    const response = await fetch(`${base}${url}`, {
      method,
      headers: { token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const envelope = (await response.json()) as { success: boolean; errorDesc?: string; result: unknown };
    if (!envelope.success) throw new Error(`${url}: ${envelope.errorDesc}`);
    return envelope.result;
  };
}

export interface MeasureOptions {
  per?: number;
  goalMs?: number;
  before?: () => Promise<unknown>;
  note?: string;
}
/** Times `run` (through the server) and `bare` (its SQL alone), printing and keeping the row. */
export type Measurer = (
  label: string,
  run: (i: number) => Promise<unknown>,
  bareLabel: string,
  bare: (i: number) => Promise<unknown>,
  options?: MeasureOptions,
) => Promise<void>;

/** A Measurer adding its rows to `measures`. */
export function measurerInto(measures: Measure[]): Measurer {
  return async (label, run, bareLabel, bare, options = {}) => {
    const per = options.per ?? 1;
    const app = await sample(run, options.before);
    const baseline = await sample(bare);
    const row: Measure = {
      label,
      per,
      goalMs: options.goalMs ?? GOAL_MS,
      median: app.median / per,
      p95: app.p95 / per,
      bareMedian: baseline.median / per,
      bareLabel,
      ...(options.note ? { note: options.note } : {}),
    };
    measures.push(row);
    console.log(
      `${label}: median ${fmt(row.median)} ms, p95 ${fmt(row.p95)} ms (bare SQL ${fmt(row.bareMedian)} ms)${options.note ? ` — ${options.note}` : ''}`,
    );
  };
}

/** What the measured phases of one database's pass share. */
export interface PhaseContext {
  db: Db;
  repo: SimilarRepository;
  api: Api;
  measure: Measurer;
  /** Notes written under the pass's table, in order. */
  notes: string[];
  /** The administrator's token, and a department-scoped user's. */
  admin: string;
  scopedToken: string;
  /** Files seeded in all. */
  total: number;
}
