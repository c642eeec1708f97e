import type { PgBoss } from 'pg-boss';

type Work = (name: string, ...args: unknown[]) => Promise<string>;

/**
 * Pausing a queue (issue 40 item 4; docs/decisions.md "Pausing a queue"). pg-boss 12 has no pause of
 * its own (`resume` brings back cancelled jobs, nothing stops a queue), so a paused queue is a flag
 * in the database that every process reads: this process's workers of a paused queue are taken off
 * pg-boss (`offWork`) and take no more jobs; the job running when it was paused ends as it would.
 * Resuming registers them again with the options and handler they were first given. Jobs keep
 * queuing while a queue is paused.
 *
 * Every worker registration of the process goes through here: the constructor puts `register` in
 * the place of `boss.work`, so the queue's code (jobs/queue.ts, jobs/webhook-lanes.ts) registers
 * workers as before and never starts one for a paused queue. Other processes see a change within
 * `start`'s interval; the process that made it applies it at once (`refresh`).
 */
export class QueuePauses {
  private paused: ReadonlySet<string> = new Set();
  /** Every `work` call of a queue, in order: what resuming it registers again. */
  private readonly registrations = new Map<string, unknown[][]>();
  /** Queues whose workers are registered with pg-boss now. */
  private readonly working = new Set<string>();
  private readonly work: Work;
  private timer: NodeJS.Timeout | null = null;
  private applying: Promise<void> = Promise.resolve();

  constructor(
    private readonly boss: PgBoss,
    /** The queues paused now (the database's flags). */
    private readonly read: () => Promise<ReadonlySet<string>>,
  ) {
    this.work = boss.work.bind(boss) as Work;
    (boss as unknown as { work: Work }).work = (name, ...args) => this.register(name, args);
  }

  isPaused(queue: string): boolean {
    return this.paused.has(queue);
  }

  private async register(name: string, args: unknown[]): Promise<string> {
    this.registrations.set(name, [...(this.registrations.get(name) ?? []), args]);
    if (this.paused.has(name)) return `paused:${name}`;
    this.working.add(name);
    return this.work(name, ...args);
  }

  /** Reads the flags and stops or starts this process's workers to match (one pass at a time). */
  refresh(): Promise<void> {
    const next = this.applying.then(() => this.apply());
    this.applying = next.catch(() => undefined);
    return next;
  }

  private async apply(): Promise<void> {
    this.paused = await this.read();
    for (const [name, calls] of this.registrations) {
      if (this.paused.has(name) && this.working.has(name)) {
        this.working.delete(name);
        // Not waiting for the running job: it ends (completes or fails) as it would have.
        await this.boss.offWork(name, { wait: false });
      } else if (!this.paused.has(name) && !this.working.has(name)) {
        this.working.add(name);
        for (const args of calls) await this.work(name, ...args);
      }
    }
  }

  /** Reads the flags every `everyMs` (another process may have changed them); failures go to `onError`. */
  start(everyMs: number, onError: (error: Error) => void): void {
    if (everyMs <= 0 || this.timer) return;
    this.timer = setInterval(() => {
      this.refresh().catch(onError);
    }, everyMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.applying;
  }
}
