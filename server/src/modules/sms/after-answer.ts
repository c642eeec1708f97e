import type { Clock } from '../../lib/clock';

/**
 * Work a signed-out request causes only when an account exists (sending its SMS code, mailing its
 * reset link), run after the answer has gone: the request itself then does the same work whoever
 * asks, so neither its answer nor its time tells whether the account exists (issue 38).
 *
 * Each kind of work has a lane of its own (`sms`, `mail`) with `concurrency` tasks running at
 * once, so a gateway that hangs for its timeout delays only its own kind. A lane keeps at most
 * `maxWaiting` tasks waiting: one more drops the oldest (the one closest to useless), whatever
 * account it was for, so the bound tells nothing either. A task whose secret has expired by the
 * time its turn comes (`staleAt`) is dropped instead of run. Failures and drops go to the task's
 * own callbacks, never to the caller; a callback that throws is swallowed.
 *
 * Kept in memory: the app's close waits for it up to a deadline (`drain`); a task lost with its
 * process (a code or link that never arrived) is asked for again by its user, as after any
 * message lost on the way.
 */
export type AfterAnswerLane = 'sms' | 'mail';
const LANES: readonly AfterAnswerLane[] = ['sms', 'mail'];

/** Why a task was dropped unrun. */
export type DropReason = 'queueFull' | 'expired';

export interface AfterAnswerTask {
  lane: AfterAnswerLane;
  run: () => Promise<void>;
  /** Told of `run`'s failure. */
  onError: (err: unknown) => void;
  /** Told that the task was dropped unrun (a full lane, or its secret expired while waiting). */
  onDropped: (reason: DropReason) => void;
  /** When the task is of no use any more (the code's or link's lifetime), on `clock`. */
  staleAt: Date;
  clock: Clock;
}

/** What a drain left behind when its deadline came, per lane. */
export interface DrainOutcome {
  /** Tasks that never started: dropped. */
  dropped: Record<AfterAnswerLane, number>;
  /** Tasks still running (they end on their own timeouts). */
  running: Record<AfterAnswerLane, number>;
  /** Both, in all lanes. */
  unfinished: number;
}

interface Lane {
  waiting: AfterAnswerTask[];
  running: number;
}

function tell(callback: () => void): void {
  try {
    callback();
  } catch {
    // A callback only logs; if even that fails there is no one left to tell.
  }
}

export class AfterAnswerQueue {
  private readonly lanes: Record<AfterAnswerLane, Lane> = {
    sms: { waiting: [], running: 0 },
    mail: { waiting: [], running: 0 },
  };
  private idleWaiters: Array<() => void> = [];
  /** While above 0 nothing new starts, unless a drain is under way. */
  private holds = 0;
  private draining = 0;

  constructor(private readonly limits: { concurrency: number; maxWaiting: number }) {}

  /** Queues `task` to run once the current request has answered (never before the next macrotask). */
  add(task: AfterAnswerTask): void {
    const lane = this.lanes[task.lane];
    lane.waiting.push(task);
    while (lane.waiting.length > this.limits.maxWaiting) {
      const oldest = lane.waiting.shift();
      if (oldest) tell(() => oldest.onDropped('queueFull'));
    }
    setImmediate(() => this.startWaiting());
  }

  /** Tasks waiting and running, per lane. */
  sizes(): Record<AfterAnswerLane, { waiting: number; running: number }> {
    return {
      sms: { waiting: this.lanes.sms.waiting.length, running: this.lanes.sms.running },
      mail: { waiting: this.lanes.mail.waiting.length, running: this.lanes.mail.running },
    };
  }

  private idle(): boolean {
    return LANES.every((name) => this.lanes[name].running === 0 && this.lanes[name].waiting.length === 0);
  }

  private startWaiting(): void {
    const held = this.holds > 0 && this.draining === 0;
    for (const name of held ? [] : LANES) {
      const lane = this.lanes[name];
      while (lane.running < this.limits.concurrency) {
        const task = lane.waiting.shift();
        if (!task) break;
        if (task.clock.now() >= task.staleAt) {
          tell(() => task.onDropped('expired'));
          continue;
        }
        lane.running += 1;
        void this.runOne(task).finally(() => {
          lane.running -= 1;
          this.startWaiting();
        });
      }
    }
    if (this.idle()) {
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
  }

  private async runOne(task: AfterAnswerTask): Promise<void> {
    try {
      await task.run();
    } catch (err) {
      tell(() => task.onError(err));
    }
  }

  /**
   * Resolves once every task queued so far (and any they queued) has ended or been dropped: tests
   * and benchmarks. While a hold keeps tasks waiting, it resolves only after the release.
   */
  settled(): Promise<void> {
    if (this.idle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Keeps queued tasks from starting until the answered function is called (tests: what a request
   * did before answering, compared for two callers, without racing the work that follows).
   */
  hold(): () => void {
    this.holds += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holds -= 1;
      setImmediate(() => this.startWaiting());
    };
  }

  /**
   * Runs what is queued (holds aside) and waits for it for at most `deadlineMs`: the app's close,
   * so a deploy delivers the codes and links whose limits were already counted. Tasks that have
   * not started by the deadline are dropped; the outcome says how many, and how many still run.
   */
  async drain(deadlineMs: number): Promise<DrainOutcome> {
    this.draining += 1;
    let timer: NodeJS.Timeout | undefined;
    try {
      this.startWaiting();
      await Promise.race([
        this.settled(),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, Math.max(0, deadlineMs));
        }),
      ]);
    } finally {
      clearTimeout(timer);
      this.draining -= 1;
    }
    const outcome: DrainOutcome = {
      dropped: { sms: 0, mail: 0 },
      running: { sms: 0, mail: 0 },
      unfinished: 0,
    };
    for (const name of LANES) {
      const lane = this.lanes[name];
      outcome.dropped[name] = lane.waiting.length;
      outcome.running[name] = lane.running;
      outcome.unfinished += lane.waiting.length + lane.running;
      lane.waiting = [];
    }
    this.startWaiting();
    return outcome;
  }
}

/**
 * The process's queue. Four tasks per lane: a hanging SMS gateway (10 s timeout) still sends 24
 * codes a minute. A thousand waiting per lane: far above what the per-address limits let honest
 * traffic queue, and a bounded memory (closures of a few hundred bytes) whatever an attacker does.
 */
export const afterAnswerWork = new AfterAnswerQueue({ concurrency: 4, maxWaiting: 1000 });

/** Queues `task` on the process's queue (see `AfterAnswerQueue`). */
export function runAfterAnswer(task: AfterAnswerTask): void {
  afterAnswerWork.add(task);
}

/** `settled` of the process's queue. */
export function afterAnswerWorkSettled(): Promise<void> {
  return afterAnswerWork.settled();
}

/** `hold` of the process's queue. */
export function holdAfterAnswerWork(): () => void {
  return afterAnswerWork.hold();
}
