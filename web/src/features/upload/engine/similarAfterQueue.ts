import { SIMILAR_CHECK_MAX_FILES, SIMILAR_LOOKUPS_PER_MINUTE, type SimilarAfterResult } from '@dam/contract';

/** Uploads finishing within this long of each other are checked in one call. */
export const SIMILAR_AFTER_GATHER_MS = 1_000;
/** A fingerprint still being made is asked about again after 5 s, then less often… */
export const SIMILAR_AFTER_POLL_MS = 5_000;
/** …at most this long apart… */
export const SIMILAR_AFTER_POLL_MAX_MS = 15_000;
/** …until this long after the upload finished (then the fingerprint is taken not to come). */
export const SIMILAR_AFTER_MAX_MS = 10 * 60_000;
/**
 * Lookups this check spends a minute at most: half the person's budget on the server, which the
 * upload dialog's check and "similar images" share, so a big batch does not run into SE_429.
 */
export const SIMILAR_AFTER_LOOKUPS_PER_MINUTE = SIMILAR_LOOKUPS_PER_MINUTE / 2;
/** A call failing other than with 429 is tried this many times in all, then the check is "not done". */
export const SIMILAR_AFTER_TRIES = 4;
/** Waits between tries without a Retry-After: 2 s, 4 s, 8 s… up to a minute. */
const BACK_OFF_FIRST_MS = 2_000;
const BACK_OFF_MAX_MS = 60_000;

/** One upload's answer: its look-alikes and what may be done about it. */
export type SimilarAfterAnswer = Omit<SimilarAfterResult[number], 'id' | 'fingerprint'>;

/** Where one upload's check stands. */
export type SimilarAfterState =
  | { status: 'waiting' }
  | { status: 'done'; answer: SimilarAfterAnswer | null }
  /** Refused or failed past its tries: the panel says the check was not done. */
  | { status: 'notDone' };

/** A failed call as the typed client throws it (ApiError): its HTTP status and Retry-After. */
interface CallFailure {
  status?: number;
  retryAfterMs?: number;
}

export interface SimilarAfterClock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
}

export interface SimilarAfterQueueDeps {
  /** POST file-upload/similar-after for at most 200 of the caller's uploads. */
  ask: (idList: number[]) => Promise<SimilarAfterResult>;
  clock?: SimilarAfterClock;
}

interface Tracked {
  finishedAt: number;
  /** When it may be asked about (next). */
  dueAt: number;
  /** Answers "pending" so far (spaces the next ask). */
  polls: number;
  /** Calls for it that failed other than with 429. */
  failures: number;
  state: SimilarAfterState;
}

const realClock: SimilarAfterClock = {
  now: () => Date.now(),
  setTimeout: (run, ms) => globalThis.setTimeout(run, ms),
  clearTimeout: (timer) => globalThis.clearTimeout(timer as ReturnType<typeof setTimeout>),
};

const backOff = (tries: number) => Math.min(BACK_OFF_MAX_MS, BACK_OFF_FIRST_MS * 2 ** Math.max(0, tries - 1));

/**
 * The upload panel's near-duplicate check after upload (issue 17 plan §5.2, issue 39 item 7), free
 * of UI: uploads finishing within a second are asked about together (up to 200 a call), one call
 * at a time and within a budget of lookups a minute; a fingerprint still being made is asked about
 * again, less and less often, for 10 minutes. A 429 waits its Retry-After (or an exponential
 * back-off) and asks again: no upload's check is dropped. Other failures are tried a few times,
 * then the upload's check is "not done", which the panel says.
 */
export class SimilarAfterQueue {
  private readonly tracked = new Map<number, Tracked>();
  private readonly clock: SimilarAfterClock;
  private readonly listeners = new Set<() => void>();
  /** Lookups sent, by when: the budget of the last minute. */
  private spent: Array<{ at: number; lookups: number }> = [];
  /** No call before this (a 429's Retry-After). */
  private pausedUntil = 0;
  /** 429s in a row (the back-off when the answer has no Retry-After). */
  private refusals = 0;
  private timer: unknown = null;
  private timerAt = Number.POSITIVE_INFINITY;
  private inFlight = false;
  private closed = false;
  /** Grows with every change of the states (for React's useSyncExternalStore). */
  version = 0;

  constructor(private readonly deps: SimilarAfterQueueDeps) {
    this.clock = deps.clock ?? realClock;
  }

  /** Takes on uploads not seen before; their check is sent within SIMILAR_AFTER_GATHER_MS. */
  add(uploads: ReadonlyArray<{ id: number; finishedAt: number }>): void {
    const now = this.clock.now();
    let added = false;
    for (const { id, finishedAt } of uploads) {
      if (this.tracked.has(id)) continue;
      this.tracked.set(id, {
        finishedAt,
        dueAt: now + SIMILAR_AFTER_GATHER_MS,
        polls: 0,
        failures: 0,
        state: { status: 'waiting' },
      });
      added = true;
    }
    if (added) {
      this.schedule();
      this.changed();
    }
  }

  /** Every upload taken on and where its check stands. */
  states(): ReadonlyMap<number, SimilarAfterState> {
    return new Map([...this.tracked].map(([id, entry]) => [id, entry.state]));
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Stops asking (the panel went away). */
  close(): void {
    this.closed = true;
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  private changed(): void {
    this.version += 1;
    for (const listener of this.listeners) listener();
  }

  private waiting(): Array<[number, Tracked]> {
    return [...this.tracked].filter(([, entry]) => entry.state.status === 'waiting');
  }

  /** Sets the timer for the next call: when the earliest upload is due, the pause and budget allow. */
  private schedule(): void {
    if (this.closed || this.inFlight) return;
    const waiting = this.waiting();
    if (waiting.length === 0) return;
    const now = this.clock.now();
    const earliest = Math.min(...waiting.map(([, entry]) => entry.dueAt));
    const at = Math.max(earliest, this.pausedUntil, now);
    if (this.timer !== null && this.timerAt <= at) return;
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = this.clock.setTimeout(() => {
      this.timer = null;
      this.timerAt = Number.POSITIVE_INFINITY;
      void this.send();
    }, at - now);
  }

  /** Lookups left in the last minute's budget, and when the oldest spent ones come back. */
  private budget(now: number): { left: number; refillAt: number } {
    this.spent = this.spent.filter((entry) => entry.at > now - 60_000);
    const used = this.spent.reduce((sum, entry) => sum + entry.lookups, 0);
    return {
      left: SIMILAR_AFTER_LOOKUPS_PER_MINUTE - used,
      refillAt: (this.spent[0]?.at ?? now) + 60_000,
    };
  }

  private async send(): Promise<void> {
    if (this.closed || this.inFlight) return;
    const now = this.clock.now();
    const { left, refillAt } = this.budget(now);
    // Those due within the gathering window come along: uploads finishing a second apart share a call.
    const due = this.waiting()
      .filter(([, entry]) => entry.dueAt <= now + SIMILAR_AFTER_GATHER_MS)
      .sort(([, a], [, b]) => a.dueAt - b.dueAt);
    const size = Math.min(SIMILAR_CHECK_MAX_FILES, due.length, left);
    if (size <= 0) {
      if (due.length > 0) this.pausedUntil = Math.max(this.pausedUntil, refillAt);
      this.schedule();
      return;
    }
    const batch = due.slice(0, size);
    const ids = batch.map(([id]) => id);
    this.spent.push({ at: now, lookups: ids.length });
    this.inFlight = true;
    try {
      const answer = await this.deps.ask(ids);
      this.refusals = 0;
      this.settle(batch, answer);
    } catch (error) {
      this.failed(batch, error as CallFailure);
    } finally {
      this.inFlight = false;
    }
    if (this.closed) return;
    this.changed();
    this.schedule();
  }

  private settle(batch: Array<[number, Tracked]>, answer: SimilarAfterResult): void {
    const now = this.clock.now();
    const byId = new Map(answer.map((entry) => [entry.id, entry]));
    for (const [id, entry] of batch) {
      const found = byId.get(id);
      if (found?.fingerprint === 'pending' && now - entry.finishedAt < SIMILAR_AFTER_MAX_MS) {
        entry.polls += 1;
        entry.dueAt =
          now + Math.min(SIMILAR_AFTER_POLL_MAX_MS, SIMILAR_AFTER_POLL_MS * 2 ** (entry.polls - 1));
        continue;
      }
      // Made, not comparable, never came in 10 minutes, or not the caller's (left out): settled.
      const { id: _, fingerprint: __, ...rest } = found ?? { id, fingerprint: 'pending' as const };
      entry.state = { status: 'done', answer: found ? (rest as SimilarAfterAnswer) : null };
    }
  }

  private failed(batch: Array<[number, Tracked]>, failure: CallFailure): void {
    const now = this.clock.now();
    if (failure?.status === 429) {
      // The budget is the person's, not the batch's: every call waits, and these go first after.
      this.refusals += 1;
      const wait = failure.retryAfterMs ?? backOff(this.refusals);
      this.pausedUntil = Math.max(this.pausedUntil, now + wait);
      return;
    }
    for (const [, entry] of batch) {
      entry.failures += 1;
      if (entry.failures >= SIMILAR_AFTER_TRIES) entry.state = { status: 'notDone' };
      else entry.dueAt = now + backOff(entry.failures);
    }
  }
}
