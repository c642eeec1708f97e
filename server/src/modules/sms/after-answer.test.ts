import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../lib/clock';
import {
  type AfterAnswerLane,
  AfterAnswerQueue,
  type AfterAnswerTask,
  afterAnswerWork,
  type DropReason,
} from './after-answer';

const MINUTE = 60_000;

/** A task that records what became of it; `hang` keeps it running until `finish` is called. */
function probe(
  lane: AfterAnswerLane,
  clock: ManualClock,
  options: { hang?: boolean; lifetimeMs?: number } = {},
) {
  const seen: { ran: boolean; dropped: DropReason | null; finish: () => void } = {
    ran: false,
    dropped: null,
    finish: () => {},
  };
  const task: AfterAnswerTask = {
    lane,
    run: () => {
      seen.ran = true;
      return options.hang ? new Promise<void>((resolve) => (seen.finish = resolve)) : Promise.resolve();
    },
    onError: () => {},
    onDropped: (reason) => {
      seen.dropped = reason;
    },
    staleAt: new Date(clock.now().getTime() + (options.lifetimeMs ?? 5 * MINUTE)),
    clock,
  };
  return { task, seen };
}

/** Work after answers (issue 38 item 3): bounded, per-kind lanes, expiry, drain at close. */
describe('after-answer work', () => {
  let clock: ManualClock;
  beforeEach(() => {
    vi.useFakeTimers();
    clock = new ManualClock();
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  /** Lets queued tasks start (their start is a setImmediate) and their promises settle. */
  const turn = () => vi.advanceTimersByTimeAsync(0);

  it("keeps at most 1,000 waiting tasks a lane: one more drops the oldest, told 'queueFull'", async () => {
    const release = afterAnswerWork.hold();
    const probes = Array.from({ length: 1001 }, () => probe('mail', clock));
    for (const { task } of probes) afterAnswerWork.add(task);
    expect(afterAnswerWork.sizes().mail.waiting).toBe(1000);
    expect(probes[0]?.seen.dropped).toBe('queueFull');
    expect(probes.slice(1).every((p) => p.seen.dropped === null)).toBe(true);
    release();
    const settled = afterAnswerWork.settled();
    await vi.runAllTimersAsync();
    await settled;
    expect(probes[0]?.seen.ran).toBe(false);
    expect(probes.slice(1).every((p) => p.seen.ran)).toBe(true);
  });

  it('runs mail while the SMS lane is full of tasks hanging on their gateway', async () => {
    const queue = new AfterAnswerQueue({ concurrency: 4, maxWaiting: 1000 });
    const hanging = Array.from({ length: 6 }, () => probe('sms', clock, { hang: true }));
    for (const { task } of hanging) queue.add(task);
    await turn();
    expect(queue.sizes().sms).toEqual({ waiting: 2, running: 4 });
    const mail = probe('mail', clock);
    queue.add(mail.task);
    await turn();
    expect(mail.seen.ran).toBe(true);
    // Twice: the two that waited start (and hang) once the first four end.
    for (let round = 0; round < 2; round += 1) {
      for (const { seen } of hanging) seen.finish();
      await turn();
    }
    expect(hanging.every(({ seen }) => seen.ran)).toBe(true);
    await queue.settled();
  });

  it("drops, unrun and told 'expired', a task whose secret expired while it waited", async () => {
    const queue = new AfterAnswerQueue({ concurrency: 1, maxWaiting: 1000 });
    const blocker = probe('sms', clock, { hang: true });
    const code = probe('sms', clock, { lifetimeMs: 5 * MINUTE });
    const link = probe('mail', clock, { lifetimeMs: 30 * MINUTE });
    queue.add(blocker.task);
    queue.add(code.task);
    await turn();
    clock.advance(5 * MINUTE);
    queue.add(link.task);
    blocker.seen.finish();
    await turn();
    expect(code.seen).toMatchObject({ ran: false, dropped: 'expired' });
    expect(link.seen).toMatchObject({ ran: true, dropped: null });
    await queue.settled();
  });

  it('drain runs held and waiting tasks, and waits for them', async () => {
    const queue = new AfterAnswerQueue({ concurrency: 1, maxWaiting: 1000 });
    queue.hold();
    const first = probe('mail', clock, { hang: true });
    const second = probe('mail', clock);
    queue.add(first.task);
    queue.add(second.task);
    await turn();
    expect(first.seen.ran).toBe(false);
    let outcome: unknown = null;
    void queue.drain(10_000).then((o) => (outcome = o));
    await turn();
    expect(first.seen.ran).toBe(true);
    expect(outcome).toBeNull();
    first.seen.finish();
    await turn();
    expect(second.seen.ran).toBe(true);
    expect(outcome).toEqual({ dropped: { sms: 0, mail: 0 }, running: { sms: 0, mail: 0 }, unfinished: 0 });
  });

  it('drain gives up at its deadline: what never started is dropped, and counted', async () => {
    const queue = new AfterAnswerQueue({ concurrency: 1, maxWaiting: 1000 });
    const hanging = probe('sms', clock, { hang: true });
    const behind = probe('sms', clock);
    queue.add(hanging.task);
    queue.add(behind.task);
    let outcome: unknown = null;
    void queue.drain(10_000).then((o) => (outcome = o));
    await vi.advanceTimersByTimeAsync(9_999);
    expect(outcome).toBeNull();
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome).toEqual({ dropped: { sms: 1, mail: 0 }, running: { sms: 1, mail: 0 }, unfinished: 2 });
    hanging.seen.finish();
    await turn();
    expect(behind.seen.ran).toBe(false);
  });

  it('a failure whose report throws is no unhandled rejection, and the lane goes on', async () => {
    vi.useRealTimers();
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    try {
      const queue = new AfterAnswerQueue({ concurrency: 1, maxWaiting: 1000 });
      const failing = probe('sms', clock);
      failing.task.run = () => Promise.reject(new Error('gateway down'));
      failing.task.onError = () => {
        throw new Error('logger broken');
      };
      const next = probe('sms', clock);
      queue.add(failing.task);
      queue.add(next.task);
      await queue.settled();
      // Two turns of the event loop: Node reports an unhandled rejection after the microtasks.
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
      expect(rejections).toEqual([]);
      expect(next.seen.ran).toBe(true);
    } finally {
      process.off('unhandledRejection', onRejection);
    }
  });
});
