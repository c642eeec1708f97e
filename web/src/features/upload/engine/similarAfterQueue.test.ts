import { SIMILAR_CHECK_MAX_FILES, type SimilarAfterResult } from '@dam/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { similarItem } from '../../../test/similarFixtures';
import {
  SIMILAR_AFTER_GATHER_MS,
  SIMILAR_AFTER_LOOKUPS_PER_MINUTE,
  SIMILAR_AFTER_MAX_MS,
  SIMILAR_AFTER_POLL_MAX_MS,
  SIMILAR_AFTER_POLL_MS,
  SIMILAR_AFTER_TRIES,
  SimilarAfterQueue,
} from './similarAfterQueue';

const ready = (id: number, items = 0): SimilarAfterResult[number] => ({
  id,
  fingerprint: 'ready',
  items: Array.from({ length: items }, (_, i) => similarItem({ id: 100 + i })),
  itemId: 1000 + id,
  soleRecord: true,
  width: 1200,
  height: 900,
});
const pending = (id: number): SimilarAfterResult[number] => ({ ...ready(id), fingerprint: 'pending' });
/** Failures as the typed client throws them (ApiError: status, Retry-After in ms). */
const failure = (status: number, retryAfterMs?: number) =>
  Object.assign(new Error(`HTTP ${status}`), { status, retryAfterMs });
const refused = (retryAfterMs?: number) => failure(429, retryAfterMs);
const ids = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);

/** A fake server: `answer` decides each call (its 1-based number); every call is recorded with its time. */
function fakeServer(answer: (idList: number[], call: number) => SimilarAfterResult | Error) {
  const calls: Array<{ at: number; ids: number[] }> = [];
  const ask = vi.fn(async (idList: number[]) => {
    calls.push({ at: Date.now(), ids: idList });
    const result = answer(idList, calls.length);
    if (result instanceof Error) throw result;
    return result;
  });
  return { ask, calls };
}

const statuses = (queue: SimilarAfterQueue) => [...queue.states().values()].map((state) => state.status);

let consoleError: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  vi.useFakeTimers();
  consoleError = vi.spyOn(console, 'error');
});
afterEach(() => {
  expect(consoleError).not.toHaveBeenCalled();
  consoleError.mockRestore();
  vi.useRealTimers();
});

describe('the upload panel’s check after upload (issue 39 item 7)', () => {
  it('checks 200 uploads finishing together in one call', async () => {
    const server = fakeServer((idList) => idList.map((id) => ready(id, id === 7 ? 1 : 0)));
    const queue = new SimilarAfterQueue({ ask: server.ask });
    queue.add(ids(1, 200).map((id) => ({ id, finishedAt: Date.now() })));
    await vi.advanceTimersByTimeAsync(SIMILAR_AFTER_GATHER_MS - 1);
    expect(server.ask).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(server.calls.map((call) => call.ids.length)).toEqual([SIMILAR_CHECK_MAX_FILES]);
    expect(statuses(queue).every((status) => status === 'done')).toBe(true);
    expect(queue.states().get(7)).toMatchObject({ status: 'done', answer: { itemId: 1007 } });
    await vi.advanceTimersByTimeAsync(SIMILAR_AFTER_MAX_MS);
    expect(server.ask).toHaveBeenCalledTimes(1);
    queue.close();
  });

  it('checks 200 uploads finishing one by one in batches, waits out each 429’s Retry-After and drops none', async () => {
    // Every third call is refused with Retry-After 7 s, as the server does past the budget.
    const server = fakeServer((idList, call) =>
      call % 3 === 0 ? refused(7_000) : idList.map((id) => ready(id)),
    );
    const queue = new SimilarAfterQueue({ ask: server.ask });
    for (const id of ids(1, 200)) {
      queue.add([{ id, finishedAt: Date.now() }]);
      await vi.advanceTimersByTimeAsync(100);
    }
    await vi.advanceTimersByTimeAsync(5 * 60_000);

    expect(statuses(queue)).toEqual(Array(200).fill('done'));
    const refusedCalls = server.calls.filter((_, index) => (index + 1) % 3 === 0);
    const answered = server.calls.filter((_, index) => (index + 1) % 3 !== 0);
    // Uploads of a second (10 of them) go together: 200 files, 20 calls plus the retries.
    expect(answered.length).toBeLessThanOrEqual(Math.ceil(200 / 10));
    expect(server.calls.length).toBe(answered.length + refusedCalls.length);
    // Each upload was answered exactly once: no call asks again about what was answered.
    expect(answered.flatMap((call) => call.ids).sort((a, b) => a - b)).toEqual(ids(1, 200));
    // After a 429 nothing is asked before its Retry-After, and the refused uploads go first.
    for (const refusal of refusedCalls) {
      const next = server.calls[server.calls.indexOf(refusal) + 1];
      expect(next).toBeDefined();
      expect((next?.at ?? 0) - refusal.at).toBeGreaterThanOrEqual(7_000);
      expect(next?.ids.slice(0, refusal.ids.length)).toEqual(refusal.ids);
    }
    queue.close();
  });

  it('backs off exponentially on a 429 without Retry-After, as long as it takes', async () => {
    const server = fakeServer((idList, call) => (call <= 5 ? refused() : idList.map((id) => ready(id))));
    const queue = new SimilarAfterQueue({ ask: server.ask });
    queue.add([{ id: 1, finishedAt: Date.now() }]);
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    const gaps = server.calls.slice(1).map((call, index) => call.at - (server.calls[index]?.at ?? 0));
    expect(gaps).toEqual([2_000, 4_000, 8_000, 16_000, 32_000]);
    expect(statuses(queue)).toEqual(['done']);
    queue.close();
  });

  it('asks again about a fingerprint being made, less and less often, for 10 minutes', async () => {
    const server = fakeServer((idList) => idList.map(pending));
    const queue = new SimilarAfterQueue({ ask: server.ask });
    const start = Date.now();
    queue.add([{ id: 1, finishedAt: start }]);
    await vi.advanceTimersByTimeAsync(SIMILAR_AFTER_MAX_MS + 60_000);
    const gaps = server.calls.slice(1).map((call, index) => call.at - (server.calls[index]?.at ?? 0));
    expect(gaps.slice(0, 4)).toEqual([SIMILAR_AFTER_POLL_MS, 10_000, 15_000, 15_000]);
    expect(Math.max(...gaps)).toBe(SIMILAR_AFTER_POLL_MAX_MS);
    // About 40 asks in 10 minutes, where every 5 s made 120.
    expect(server.calls.length).toBeLessThanOrEqual(SIMILAR_AFTER_MAX_MS / SIMILAR_AFTER_POLL_MAX_MS + 2);
    expect(statuses(queue)).toEqual(['done']);
    const asked = server.calls.length;
    await vi.advanceTimersByTimeAsync(SIMILAR_AFTER_MAX_MS);
    expect(server.calls.length).toBe(asked);
    queue.close();
  });

  it('tries a failing call a few times, then says the check was not done', async () => {
    const server = fakeServer(() => failure(500));
    const queue = new SimilarAfterQueue({ ask: server.ask });
    queue.add([{ id: 1, finishedAt: Date.now() }]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(server.ask).toHaveBeenCalledTimes(SIMILAR_AFTER_TRIES);
    expect(statuses(queue)).toEqual(['notDone']);
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(server.ask).toHaveBeenCalledTimes(SIMILAR_AFTER_TRIES);
    queue.close();
  });

  it('keeps within its budget of lookups a minute', async () => {
    const server = fakeServer((idList) => idList.map((id) => ready(id)));
    const queue = new SimilarAfterQueue({ ask: server.ask });
    const count = SIMILAR_AFTER_LOOKUPS_PER_MINUTE + 200;
    queue.add(ids(1, count).map((id) => ({ id, finishedAt: Date.now() })));
    await vi.advanceTimersByTimeAsync(30_000);
    expect(server.calls.flatMap((call) => call.ids)).toHaveLength(SIMILAR_AFTER_LOOKUPS_PER_MINUTE);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(statuses(queue)).toEqual(Array(count).fill('done'));
    expect(server.calls.every((call) => call.ids.length <= SIMILAR_CHECK_MAX_FILES)).toBe(true);
    queue.close();
  });
});
