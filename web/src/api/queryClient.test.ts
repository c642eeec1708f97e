import { afterEach, describe, expect, it, vi } from 'vitest';

// The module keeps whether the first page is loading: a fresh copy for each test.
async function freshModules() {
  vi.resetModules();
  const firstLoad = await import('../app/firstLoad');
  const { FIRST_LOAD_WAIT_MS, firstLoadData } = await import('./queryClient');
  return { firstLoad, FIRST_LOAD_WAIT_MS, firstLoadData };
}

/** Whether a loader's wait is over, watched as timers are moved on. */
function watch(wait: Promise<null> | null) {
  const state = { over: false };
  void wait?.then(() => {
    state.over = true;
  });
  return state;
}

describe('what a route loader waits for (firstLoadData)', () => {
  afterEach(() => vi.useRealTimers());

  it('holds the app’s first page until its answer is in, asking without retries', async () => {
    vi.useFakeTimers();
    const { firstLoadData } = await freshModules();
    let answer!: () => void;
    const prefetch = vi.fn(() => new Promise<void>((resolve) => (answer = resolve)));
    const state = watch(firstLoadData(prefetch));
    expect(prefetch).toHaveBeenCalledWith({ retry: false });
    await vi.advanceTimersByTimeAsync(100);
    expect(state.over).toBe(false);
    answer();
    await vi.advanceTimersByTimeAsync(0);
    expect(state.over).toBe(true);
  });

  it('draws the first page without its data once the wait is over', async () => {
    vi.useFakeTimers();
    const { firstLoadData, FIRST_LOAD_WAIT_MS } = await freshModules();
    const state = watch(firstLoadData(() => new Promise<void>(() => {})));
    await vi.advanceTimersByTimeAsync(FIRST_LOAD_WAIT_MS - 1);
    expect(state.over).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(state.over).toBe(true);
  });

  it('stops waiting at once when the query fails', async () => {
    vi.useFakeTimers();
    const { firstLoadData } = await freshModules();
    const state = watch(firstLoadData(() => Promise.reject(new Error('refused'))));
    await vi.advanceTimersByTimeAsync(0);
    expect(state.over).toBe(true);
  });

  it('neither asks nor holds a later navigation: the page being left stays until the next one draws', async () => {
    const { firstLoad, firstLoadData } = await freshModules();
    firstLoad.firstLoadDone();
    const prefetch = vi.fn(() => Promise.resolve());
    expect(firstLoadData(prefetch)).toBeNull();
    expect(prefetch).not.toHaveBeenCalled();
  });
});
