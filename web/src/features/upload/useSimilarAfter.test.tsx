// @vitest-environment jsdom
import { type FingerprintStatus, SIMILAR_LOOKUPS_PER_MINUTE, type SimilarAfterResult } from '@dam/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { similarItem } from '../../test/similarFixtures';
import type { FinishedUpload } from './engine/manager';
import { useSimilarAfter } from './useSimilarAfter';

const done = (id: number, over: Partial<FinishedUpload> = {}): FinishedUpload => ({
  id,
  fileName: `f${id}.psd`,
  fileSize: 1,
  finishedAt: Date.now(),
  ...over,
});

function setUp(finished: FinishedUpload[], ask: (ids: number[]) => Promise<SimilarAfterResult>) {
  const asked = vi.fn(ask);
  const client = new QueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  const hook = renderHook(({ list }) => useSimilarAfter(list, { ask: asked }), {
    wrapper,
    initialProps: { list: finished },
  });
  return { ask: asked, hook };
}

const entry = (id: number, fingerprint: FingerprintStatus, items = 0) => ({
  id,
  fingerprint,
  items: Array.from({ length: items }, (_, i) => similarItem({ id: 100 + i })),
  itemId: 1000 + id,
  soleRecord: true,
  width: 1200,
  height: 900,
});

/**
 * The server's budget as it keeps it: lookups a person asks for in a fixed minute, a call for n
 * uploads counting n; past it SE_429 with Retry-After (seconds to the window's end, as the
 * typed client hands it on in milliseconds).
 */
function budgetedServer(answer: (id: number) => SimilarAfterResult[number]) {
  const counted = new Map<number, number>();
  let refusals = 0;
  const ask = async (ids: number[]) => {
    const now = Date.now();
    const window = Math.floor(now / 60_000);
    const used = (counted.get(window) ?? 0) + ids.length;
    counted.set(window, used);
    if (used > SIMILAR_LOOKUPS_PER_MINUTE) {
      refusals += 1;
      const retryAfterMs = Math.ceil(((window + 1) * 60_000 - now) / 1000) * 1000;
      throw Object.assign(new Error('SE_429'), { code: 'SE_429', status: 429, retryAfterMs });
    }
    return ids.map(answer);
  };
  return { ask, refusals: () => refusals };
}

const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

let consoleError: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  vi.useFakeTimers();
  consoleError = vi.spyOn(console, 'error');
});
afterEach(() => {
  consoleError.mockRestore();
  vi.useRealTimers();
});

describe('the upload panel’s check after upload', () => {
  it('checks all of 200 uploads finishing one by one, in batches, within the server’s budget', async () => {
    // Every 10th upload looks like a file in the archive, and its fingerprint takes a while.
    const made = new Map<number, number>();
    const server = budgetedServer((id) => {
      const polls = (made.get(id) ?? 0) + 1;
      made.set(id, polls);
      return entry(id, id % 10 === 0 && polls < 2 ? 'pending' : 'ready', id % 10 === 0 ? 1 : 0);
    });
    const list: FinishedUpload[] = [];
    const { ask, hook } = setUp(list, server.ask);
    for (let id = 1; id <= 200; id++) {
      list.push(done(id));
      hook.rerender({ list: [...list] });
      await advance(100);
    }
    await advance(5 * 60_000);

    // Every look-alike is shown: none of the checks was dropped.
    expect([...hook.result.current.matches.keys()].sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, i) => (i + 1) * 10),
    );
    expect(hook.result.current.notDone.size).toBe(0);
    // A call every second of uploads at most (plus the second asks of the 20 pending ones), each
    // asking only about what is not answered yet.
    expect(ask.mock.calls.length).toBeLessThanOrEqual(Math.ceil(200 / 10) + 20);
    expect(ask.mock.calls.flatMap(([ids]) => ids).length).toBeLessThanOrEqual(200 + 20);
    expect(server.refusals()).toBe(0);
    expect(consoleError).not.toHaveBeenCalled();
  });

  it('waits out a 429’s Retry-After and asks again rather than dropping the check', async () => {
    let calls = 0;
    const { ask, hook } = setUp([done(1), done(2)], async (ids) => {
      calls += 1;
      if (calls === 1) throw Object.assign(new Error('SE_429'), { status: 429, retryAfterMs: 20_000 });
      return ids.map((id) => entry(id, 'ready', id === 2 ? 1 : 0));
    });
    await advance(2_000);
    expect(ask).toHaveBeenCalledTimes(1);
    await advance(18_000);
    expect(ask).toHaveBeenCalledTimes(1);
    await advance(1_000);
    expect(ask).toHaveBeenCalledTimes(2);
    expect(ask.mock.calls[1]?.[0]).toEqual([1, 2]);
    expect([...hook.result.current.matches.keys()]).toEqual([2]);
    expect(consoleError).not.toHaveBeenCalled();
  });

  it('says the check was not done when the server keeps failing; asks nothing when all were compared', async () => {
    const failing = setUp([done(1)], async () => {
      throw Object.assign(new Error('offline'), { status: 0 });
    });
    await advance(5 * 60_000);
    expect(failing.ask.mock.calls.length).toBeGreaterThan(1);
    expect([...failing.hook.result.current.notDone]).toEqual([1]);
    expect(failing.hook.result.current.matches.size).toBe(0);

    const none = setUp([done(2, { similarChecked: true })], async () => []);
    await advance(30_000);
    expect(none.ask).not.toHaveBeenCalled();
    expect(consoleError).not.toHaveBeenCalled();
  });

  it('puts a note away when dismissed, asking nothing more', async () => {
    const { ask, hook } = setUp([done(3)], async (ids) => ids.map((id) => entry(id, 'ready', 2)));
    await advance(2_000);
    expect(hook.result.current.matches.get(3)).toMatchObject({ itemId: 1003, soleRecord: true });
    expect(hook.result.current.matches.get(3)?.items.map((item) => item.id)).toEqual([100, 101]);
    act(() => hook.result.current.dismiss(3));
    expect(hook.result.current.matches.size).toBe(0);
    await advance(60_000);
    expect(ask).toHaveBeenCalledTimes(1);
  });
});
