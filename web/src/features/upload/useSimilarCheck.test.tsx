// @vitest-environment jsdom
import type { SimilarCheckRequest, SimilarCheckResult } from '@dam/contract';
import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { similarItem } from '../../test/similarFixtures';
import type { BrowserFingerprint } from './engine/fingerprints';
import type { PickedFile } from './engine/pickFiles';
import { useSimilarCheck } from './useSimilarCheck';

const picked = (fileName: string, size = 1000): PickedFile => ({
  file: new File(['x'], fileName),
  fileName,
  path: '',
  size,
});

const ready = (n: number): BrowserFingerprint => ({
  status: 'ready',
  hash: n.toString(16).padStart(16, '0'),
  colours: [{ l: 600, a: 200, b: 100, w: 500 }],
});

function setUp(files: PickedFile[], answer?: (batch: SimilarCheckRequest['files']) => SimilarCheckResult) {
  let n = 0;
  const fingerprint = vi.fn(async () => ready(++n));
  const check = vi.fn(async (batch: SimilarCheckRequest['files']) =>
    answer ? answer(batch) : { maxDistance: 10, list: [] },
  );
  const hook = renderHook(({ list }) => useSimilarCheck(list, { deps: { fingerprint, check } }), {
    initialProps: { list: files },
  });
  return { fingerprint, check, hook };
}

const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the upload dialog’s similar check', () => {
  it('hashes the pictures it can, then sends them in batches of 200 once hashing pauses 500 ms', async () => {
    const files = [...Array.from({ length: 250 }, (_, i) => picked(`p${i}.jpg`)), picked('layers.psd')];
    const { fingerprint, check, hook } = setUp(files, (batch) => ({
      maxDistance: 10,
      list: batch.slice(0, 1).map((entry) => ({ key: entry.key, items: [similarItem({ id: 7 })] })),
    }));
    await advance(0);
    expect(fingerprint).toHaveBeenCalledTimes(250);
    expect(hook.result.current.hashed).toEqual({ done: 250, total: 250 });
    await advance(499);
    expect(check).not.toHaveBeenCalled();
    await advance(1);
    expect(check.mock.calls.map(([batch]) => batch.length)).toEqual([200, 50]);
    const keys = check.mock.calls.flatMap(([batch]) => batch.map((entry) => entry.key));
    expect(new Set(keys).size).toBe(250);
    expect(check.mock.calls[0]?.[0][0]).toEqual({ key: keys[0], ...ready(1), status: undefined });

    // The first of each batch had a match: those two files carry it.
    const matched = [...hook.result.current.matches.keys()].map((file) => file.name);
    expect(matched).toEqual(['p0.jpg', 'p200.jpg']);
    expect(hook.result.current.matches.get(files[0]?.file as File)?.[0]?.id).toBe(7);

    // Every answered file was compared here; the PSD is left to the check after upload.
    expect(hook.result.current.compared.size).toBe(250);
    expect(hook.result.current.compared.has(files[250]?.file as File)).toBe(false);

    // Nothing is sent twice.
    await advance(5_000);
    expect(check).toHaveBeenCalledTimes(2);
  });

  it('waits for a pause: a file added 300 ms later goes in the same call', async () => {
    const first = picked('a.jpg');
    const { check, hook } = setUp([first]);
    await advance(300);
    hook.rerender({ list: [first, picked('b.png')] });
    await advance(0);
    await advance(499);
    expect(check).not.toHaveBeenCalled();
    await advance(1);
    expect(check).toHaveBeenCalledTimes(1);
    expect(check.mock.calls[0]?.[0]).toHaveLength(2);
  });

  it('still sends every 3 s while hashing goes on without a pause', async () => {
    const files = [picked('a.jpg')];
    const { check, hook } = setUp(files);
    await advance(0);
    for (let i = 0; i < 8; i++) {
      await advance(400);
      files.push(picked(`more${i}.jpg`));
      hook.rerender({ list: [...files] });
      await advance(0);
    }
    expect(check.mock.calls.map(([batch]) => batch.length)).toEqual([8]);
  });

  it('leaves out files removed before the check and those it cannot hash', async () => {
    const a = picked('a.jpg');
    const b = picked('b.jpg');
    const { check, hook } = setUp([a, b, picked('huge.jpg', 60 * 1024 * 1024), picked('clip.mp4')]);
    await advance(100);
    hook.rerender({ list: [a] });
    await advance(500);
    expect(check.mock.calls.map(([batch]) => batch.length)).toEqual([1]);
    expect(hook.result.current.hashed).toEqual({ done: 1, total: 1 });
  });

  it('says nothing when the check fails, and only ready fingerprints are sent', async () => {
    const fingerprint = vi.fn(
      async (file: File): Promise<BrowserFingerprint> =>
        file.name === 'tiny.png' ? { status: 'tooSmall' } : ready(1),
    );
    const check = vi.fn(async (_batch: SimilarCheckRequest['files']): Promise<SimilarCheckResult> => {
      throw new Error('offline');
    });
    const files = [picked('a.jpg'), picked('tiny.png')];
    const hook = renderHook(() => useSimilarCheck(files, { deps: { fingerprint, check } }));
    await advance(0);
    await advance(500);
    expect(check).toHaveBeenCalledTimes(1);
    expect(check.mock.calls[0]?.[0]).toHaveLength(1);
    expect(hook.result.current.matches.size).toBe(0);
    expect(hook.result.current.hashed).toEqual({ done: 2, total: 2 });
    // The file whose check failed is compared after upload; the too-small one never would match.
    expect([...hook.result.current.compared].map((file) => file.name)).toEqual(['tiny.png']);
  });

  it('sends a check refused with 429 again after its Retry-After, and nothing before it (issue 39 item 7)', async () => {
    const consoleError = vi.spyOn(console, 'error');
    let calls = 0;
    const files = Array.from({ length: 250 }, (_, i) => picked(`p${i}.jpg`));
    const { check, hook } = setUp(files, (batch) => {
      calls += 1;
      // The first batch of 200 is refused (the person's minute is used up for 7 s more).
      if (calls === 1) throw Object.assign(new Error('SE_429'), { status: 429, retryAfterMs: 7_000 });
      return { maxDistance: 10, list: [{ key: batch[0]?.key as string, items: [similarItem({ id: 7 })] }] };
    });
    await advance(0);
    await advance(500);
    expect(check.mock.calls.map(([batch]) => batch.length)).toEqual([200, 50]);
    expect(hook.result.current.compared.size).toBe(50);
    // A file added meanwhile waits too.
    hook.rerender({ list: [...files, picked('late.jpg')] });
    await advance(1_000);
    await advance(1_000);
    expect(check).toHaveBeenCalledTimes(2);
    await advance(4_999);
    expect(check).toHaveBeenCalledTimes(2);
    // Sent again, with the late file, as soon as the wait is over.
    await advance(1);
    expect(check.mock.calls.slice(2).map(([batch]) => batch.length)).toEqual([200, 1]);
    expect(check.mock.calls[2]?.[0]).toEqual(check.mock.calls[0]?.[0]);
    expect(hook.result.current.compared.size).toBe(251);
    expect(hook.result.current.matches.get(files[0]?.file as File)?.[0]?.id).toBe(7);
    await advance(60_000);
    expect(check).toHaveBeenCalledTimes(4);
    expect(consoleError).not.toHaveBeenCalled();
    consoleError.mockRestore();
  });

  it('does nothing when switched off (a new version of a file)', async () => {
    const fingerprint = vi.fn(async () => ready(1));
    const check = vi.fn();
    const files = [picked('a.jpg')];
    const hook = renderHook(() => useSimilarCheck(files, { enabled: false, deps: { fingerprint, check } }));
    await advance(1000);
    expect(fingerprint).not.toHaveBeenCalled();
    expect(check).not.toHaveBeenCalled();
    expect(hook.result.current.hashed).toEqual({ done: 0, total: 0 });
  });
});
