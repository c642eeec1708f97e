// @vitest-environment jsdom
import type { FingerprintStatus, SimilarAfterResult } from '@dam/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FinishedUpload } from '../../upload/manager';
import { similarItem } from '../similar/fixtures';
import { SIMILAR_AFTER_MAX_MS, SIMILAR_AFTER_POLL_MS, useSimilarAfter } from './useSimilarAfter';

const done = (id: number, over: Partial<FinishedUpload> = {}): FinishedUpload => ({
  id,
  fileName: `f${id}.psd`,
  fileSize: 1,
  finishedAt: Date.now(),
  ...over,
});

function setUp(finished: FinishedUpload[], answer: (ids: number[], call: number) => SimilarAfterResult) {
  let calls = 0;
  const ask = vi.fn(async (ids: number[]) => answer(ids, ++calls));
  const client = new QueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  const hook = renderHook(({ list }) => useSimilarAfter(list, { ask }), {
    wrapper,
    initialProps: { list: finished },
  });
  return { ask, hook };
}

const entry = (id: number, fingerprint: FingerprintStatus, items = 0) => ({
  id,
  fingerprint,
  items: Array.from({ length: items }, (_, i) => similarItem({ id: 100 + i })),
  itemId: 1000 + id,
  soleRecord: true,
});

const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the upload panel’s check after upload', () => {
  it('asks only for uploads the dialog did not compare, every 5 s until none is pending', async () => {
    const { ask, hook } = setUp([done(1), done(2, { similarChecked: true }), done(3)], (ids, call) =>
      ids.map((id) => (call < 3 && id === 3 ? entry(id, 'pending') : entry(id, 'ready', id === 3 ? 2 : 0))),
    );
    await advance(0);
    expect(ask).toHaveBeenCalledTimes(1);
    expect(ask.mock.calls[0]?.[0]).toEqual([1, 3]);
    expect(hook.result.current.matches.size).toBe(0);
    await advance(SIMILAR_AFTER_POLL_MS - 1);
    expect(ask).toHaveBeenCalledTimes(1);
    await advance(1);
    expect(ask).toHaveBeenCalledTimes(2);
    await advance(SIMILAR_AFTER_POLL_MS);
    expect(ask).toHaveBeenCalledTimes(3);
    await advance(10);
    // Every fingerprint is made: the matches show and the asking stops.
    expect([...hook.result.current.matches.keys()]).toEqual([3]);
    expect(hook.result.current.matches.get(3)?.items.map((item) => item.id)).toEqual([100, 101]);
    expect(hook.result.current.matches.get(3)).toMatchObject({ itemId: 1003, soleRecord: true });
    await advance(60_000);
    expect(ask).toHaveBeenCalledTimes(3);

    // Dismissed: the note goes, nothing is asked.
    act(() => hook.result.current.dismiss(3));
    expect(hook.result.current.matches.size).toBe(0);
    expect(ask).toHaveBeenCalledTimes(3);
  });

  it('gives up 10 minutes after the upload finished when the fingerprint never comes', async () => {
    const { ask } = setUp([done(1)], (ids) => ids.map((id) => entry(id, 'pending')));
    await advance(0);
    await advance(SIMILAR_AFTER_MAX_MS + 60_000);
    const asked = ask.mock.calls.length;
    expect(asked).toBe(SIMILAR_AFTER_MAX_MS / SIMILAR_AFTER_POLL_MS + 1);
    await advance(10 * 60_000);
    expect(ask).toHaveBeenCalledTimes(asked);
  });

  it('says nothing and stops when the server fails; asks nothing when all were compared', async () => {
    const failing = setUp([done(1)], () => {
      throw new Error('offline');
    });
    await advance(0);
    await advance(30_000);
    expect(failing.ask).toHaveBeenCalledTimes(1);
    expect(failing.hook.result.current.matches.size).toBe(0);

    const none = setUp([done(2, { similarChecked: true })], () => []);
    await advance(30_000);
    expect(none.ask).not.toHaveBeenCalled();
  });

  it('asks again, with the new one, when another upload finishes', async () => {
    const first = done(1);
    const { ask, hook } = setUp([first], (ids) => ids.map((id) => entry(id, 'ready', id === 1 ? 1 : 0)));
    await advance(0);
    hook.rerender({ list: [first, done(2)] });
    await advance(0);
    expect(ask.mock.calls.map(([ids]) => ids)).toEqual([[1], [1, 2]]);
    expect([...hook.result.current.matches.keys()]).toEqual([1]);
  });
});
