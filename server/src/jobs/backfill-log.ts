/** A progress line at most this often. */
const PROGRESS_EVERY_MS = 10_000;

/**
 * The progress lines of a back-fill run (the fingerprints', the embedded metadata's):
 * `fingerprint back-fill: 124,000 of 1,000,000 (12.4 %), 96/s, about 2 h 32 min left`, at most one
 * every ten seconds and always the last, then `… back-fill: done`. The rate counts this process's
 * run only, so a restart does not claim the work done before it.
 */
export class BackfillLog {
  private run: { startedAt: number; startDone: number; done: number; total: number; lastLog: number } | null =
    null;

  constructor(
    /** `fingerprint back-fill`, `metadata back-fill`. */
    private readonly name: string,
    private readonly deps: {
      info: (details: Record<string, unknown>, message: string) => void;
      now: () => Date;
    },
  ) {}

  /** Whether a run is under way (its first batch counted where it starts from). */
  get running(): boolean {
    return this.run !== null;
  }

  /** A run starts: `done` of `total` were done before it. */
  start({ done, total }: { done: number; total: number }): void {
    const now = this.deps.now().getTime();
    this.run = { startedAt: now, startDone: done, done, total, lastLog: 0 };
  }

  /** `processed` more are done; says how far the run is when the last line is ten seconds old. */
  advance(processed: number): void {
    const run = this.run;
    if (!run) return;
    const now = this.deps.now().getTime();
    run.done = Math.min(run.total, run.done + processed);
    if (now - run.lastLog < PROGRESS_EVERY_MS && run.done < run.total) return;
    run.lastLog = now;
    const rate = (run.done - run.startDone) / Math.max(1, (now - run.startedAt) / 1000);
    const left = rate > 0 ? `, about ${duration((run.total - run.done) / rate)} left` : '';
    const share = ((100 * run.done) / Math.max(1, run.total)).toFixed(1);
    this.deps.info(
      { done: run.done, total: run.total, perSecond: Math.round(rate) },
      `${this.name}: ${run.done.toLocaleString('en')} of ${run.total.toLocaleString('en')} (${share} %), ${Math.round(rate)}/s${left}`,
    );
  }

  /** The run is over (nothing left): says so once. */
  finish(): void {
    if (this.run) this.deps.info({ total: this.run.total }, `${this.name}: done`);
    this.run = null;
  }
}

function duration(seconds: number): string {
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.round((seconds % 3600) / 60);
  return hours > 0 ? `${hours} h ${minutes} min` : `${minutes} min`;
}
