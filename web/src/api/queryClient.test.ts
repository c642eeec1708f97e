import { afterEach, describe, expect, it, vi } from 'vitest';

// The module keeps whether the first page is loading: a fresh copy for each test.
async function freshModules() {
  vi.resetModules();
  const firstLoad = await import('../app/firstLoad');
  const { FIRST_LOAD_WAIT_MS, firstLoadData } = await import('./queryClient');
  return { firstLoad, FIRST_LOAD_WAIT_MS, firstLoadData };
}

describe('what a route loader waits for (firstLoadData)', () => {
  afterEach(() => vi.useRealTimers());

  it('holds the app’s first page until its answer is in', async () => {
    const { firstLoadData } = await freshModules();
    let answer!: () => void;
    let waited = false;
    const wait = firstLoadData(new Promise<void>((resolve) => (answer = resolve)))?.then(() => {
      waited = true;
    });
    expect(wait).toBeInstanceOf(Promise);
    await Promise.resolve();
    expect(waited).toBe(false);
    answer();
    await wait;
    expect(waited).toBe(true);
  });

  it('draws the first page without its data once the wait is over', async () => {
    vi.useFakeTimers();
    const { firstLoadData, FIRST_LOAD_WAIT_MS } = await freshModules();
    let waited = false;
    const wait = firstLoadData(new Promise<void>(() => {}))?.then(() => {
      waited = true;
    });
    await vi.advanceTimersByTimeAsync(FIRST_LOAD_WAIT_MS - 1);
    expect(waited).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await wait;
    expect(waited).toBe(true);
  });

  it('holds no later navigation: the page being left stays until the next one draws', async () => {
    const { firstLoad, firstLoadData } = await freshModules();
    firstLoad.firstLoadDone();
    expect(firstLoadData(new Promise<void>(() => {}))).toBeNull();
  });
});
