import { LIMITS, type UploadRecord } from '@dam/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UploadManager } from './manager';
import { interruptedAmong } from './resume';
import {
  type NetworkStatus,
  type NewTask,
  type PartTarget,
  type PartTransport,
  type StoredPart,
  TaskStatus,
  type UploadApi,
} from './types';

const PART = 1000;

/** The server side as the manager sees it: which parts are stored, which callbacks arrived. */
class FakeServer implements UploadApi {
  stored = new Map<number, Map<number, StoredPart>>();
  sizes = new Map<number, number>();
  callbacks: Array<{ id: number; status: number; schedule: number }> = [];
  cancelled: number[] = [];
  starts: number[] = [];
  failCallbackFor = new Set<number>();

  register(id: number, size: number) {
    this.sizes.set(id, size);
    this.stored.set(id, new Map());
  }
  async startMultipart(id: number) {
    this.starts.push(id);
    const size = this.sizes.get(id) ?? 0;
    return {
      partSize: PART,
      partCount: Math.max(1, Math.ceil(size / PART)),
      parts: [...this.stored.get(id)!.values()],
    };
  }
  async signParts(id: number, partNumbers: number[]): Promise<PartTarget[]> {
    return partNumbers.map((n) => ({
      partNumber: n,
      url: `part://${id}/${n}`,
      method: 'PUT' as const,
      headers: {},
      // As a store's presigned address: the part is recorded by part-done (what resume reads back).
      reportDone: true,
    }));
  }
  async partDone(id: number, part: StoredPart) {
    this.stored.get(id)!.set(part.partNumber, part);
  }
  async callback(id: number, status: 1 | 2, schedule: number) {
    if (status === 2 && this.failCallbackFor.has(id)) throw new Error('callback refused');
    this.callbacks.push({ id, status, schedule });
  }
  async cancel(ids: number[]) {
    this.cancelled.push(...ids);
  }
}

/** Part transfers the test controls: instant, or hanging until aborted (a dead connection). */
class FakeTransport implements PartTransport {
  hang = new Set<number>();
  puts: string[] = [];
  async put(target: PartTarget, body: Blob, signal: AbortSignal, onProgress: (n: number) => void) {
    this.puts.push(target.url);
    const id = Number(target.url.split('/')[2]);
    if (this.hang.has(id)) {
      await new Promise((_resolve, reject) => {
        signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      });
    }
    onProgress(body.size);
    return { etag: `"${target.partNumber}"` };
  }
}

class FakeNetwork implements NetworkStatus {
  online = true;
  private listeners = new Set<(online: boolean) => void>();
  isOnline() {
    return this.online;
  }
  subscribe(listener: (online: boolean) => void) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  set(online: boolean) {
    this.online = online;
    for (const l of this.listeners) l(online);
  }
}

/** A file of `size` bytes to upload as record `id`, known to the fake server. */
function newTask(server: FakeServer, id: number, size: number): NewTask {
  server.register(id, size);
  return {
    id,
    fileName: `file${id}.jpg`,
    fileSize: size,
    file: new Blob([new Uint8Array(size)]),
    path: '/',
    objectKey: `k${id}`,
  };
}

describe('upload manager (SPEC §4 scheduling)', () => {
  let server: FakeServer;
  let transport: FakeTransport;
  let network: FakeNetwork;
  let manager: UploadManager;
  let checks: number;

  const task = (id: number, size = 2 * PART) => newTask(server, id, size);
  const statuses = () => Object.fromEntries(manager.snapshot().tasks.map((t) => [t.id, t.status]));
  const settle = () => vi.advanceTimersByTimeAsync(0);

  beforeEach(() => {
    vi.useFakeTimers();
    server = new FakeServer();
    transport = new FakeTransport();
    network = new FakeNetwork();
    checks = 0;
    manager = new UploadManager(server, transport, network, () => checks++);
    manager.start();
  });
  afterEach(() => {
    manager.stop();
    vi.useRealTimers();
  });

  it('runs at most 3 tasks and keeps the rest waiting', () => {
    for (const id of [1, 2, 3, 4, 5]) transport.hang.add(id);
    manager.add([1, 2, 3, 4, 5].map((id) => task(id)));
    expect(statuses()).toEqual({ 1: 1, 2: 1, 3: 1, 4: 0, 5: 0 });
  });

  it('starts a waiting task when a slot frees, and finishes with a callback at 100%', async () => {
    transport.hang.add(1).add(2).add(3).add(4);
    manager.add([1, 2, 3, 4].map((id) => task(id)));
    expect(statuses()).toEqual({ 1: 1, 2: 1, 3: 1, 4: 0 });
    transport.hang.delete(1);
    manager.pause(1);
    manager.resume(1);
    await settle();
    expect(server.callbacks).toContainEqual({ id: 1, status: 2, schedule: 100 });
    expect(statuses()).toEqual({ 2: 1, 3: 1, 4: 1 });
    expect(server.stored.get(1)!.size).toBe(2);
  });

  it('counts paused tasks against the 3 slots', () => {
    for (const id of [1, 2, 3, 4]) transport.hang.add(id);
    manager.add([task(1), task(2), task(3)]);
    manager.pause(1);
    manager.add([task(4)]);
    expect(statuses()).toEqual({ 1: 2, 2: 1, 3: 1, 4: 0 });
  });

  it('pauses running transfers when offline and resumes them when back online', async () => {
    transport.hang.add(1);
    manager.add([task(1), task(2, 5 * PART)]);
    transport.hang.add(2);
    await settle();
    network.set(false);
    expect(statuses()).toEqual({ 1: 2, 2: 2 });
    transport.hang.clear();
    network.set(true);
    await settle();
    expect(manager.snapshot().tasks).toEqual([]);
    expect(
      server.callbacks
        .filter((c) => c.status === 2)
        .map((c) => c.id)
        .sort(),
    ).toEqual([1, 2]);
  });

  it('retries a transfer silent for more than 70 s from its checkpoint, sending only missing parts', async () => {
    // Parts 1 and 2 are stored (an earlier session); the connection dies on part 3.
    server.register(7, 3 * PART);
    server.stored.get(7)!.set(1, { partNumber: 1, size: PART, etag: '"1"' });
    server.stored.get(7)!.set(2, { partNumber: 2, size: PART, etag: '"2"' });
    transport.hang.add(7);
    manager.add([
      {
        id: 7,
        fileName: 'x.psd',
        fileSize: 3 * PART,
        file: new Blob([new Uint8Array(3 * PART)]),
        path: '/',
        objectKey: 'k7',
      },
    ]);
    await settle();
    expect(manager.snapshot().tasks[0]).toMatchObject({ doneParts: 2, status: TaskStatus.uploading });
    await vi.advanceTimersByTimeAsync(LIMITS.uploadStallMs - 1000);
    expect(manager.snapshot().tasks[0]?.retryTime).toBe(0);
    transport.hang.delete(7);
    transport.puts = [];
    await vi.advanceTimersByTimeAsync(10_000);
    expect(transport.puts).toEqual(['part://7/3']);
    expect(server.callbacks).toContainEqual({ id: 7, status: 2, schedule: 100 });
  });

  it('fails with "task timeout" and a network-error event once 3 retries are spent', async () => {
    const events: string[] = [];
    manager.onEvent((e) => events.push(e.type));
    transport.hang.add(1);
    manager.add([task(1)]);
    await settle();
    for (let retry = 1; retry <= LIMITS.maxUploadRetries; retry++) {
      await vi.advanceTimersByTimeAsync(LIMITS.uploadStallMs + 5_000);
      expect(manager.snapshot().tasks[0]).toMatchObject({ retryTime: retry, status: TaskStatus.uploading });
    }
    await vi.advanceTimersByTimeAsync(LIMITS.uploadStallMs + 5_000);
    expect(manager.snapshot().tasks[0]).toMatchObject({ status: TaskStatus.failed, error: 'task timeout' });
    expect(events).toContain('network-error');
    expect(server.starts.filter((id) => id === 1)).toHaveLength(1 + LIMITS.maxUploadRetries);
  });

  it('pauses instead of retrying a stalled transfer while offline', async () => {
    transport.hang.add(1);
    manager.add([task(1)]);
    await settle();
    network.online = false; // the browser has not told us yet
    await vi.advanceTimersByTimeAsync(LIMITS.uploadStallMs + 5_000);
    expect(manager.snapshot().tasks[0]).toMatchObject({ status: TaskStatus.paused, retryTime: 0 });
  });

  it('records progress on the server only after more than 3 parts', async () => {
    manager.add([task(1, 10 * PART)]);
    await settle();
    // 10 parts: a progress record after the 4th and the 8th finished part, never after fewer.
    const progress = server.callbacks.filter((c) => c.status === 1).map((c) => c.schedule);
    expect(progress).toHaveLength(2);
    expect(progress[0]).toBeGreaterThanOrEqual(40);
    expect(progress[1]).toBeGreaterThanOrEqual(80);
    expect(progress[1]).toBeLessThan(100);
    expect(server.callbacks.at(-1)).toEqual({ id: 1, status: 2, schedule: 100 });
  });

  it('marks a task failed when the final callback fails, freeing its slot', async () => {
    server.failCallbackFor.add(1);
    transport.hang.add(2).add(3).add(4);
    manager.add([task(1), task(2), task(3), task(4)]);
    await settle();
    expect(statuses()).toEqual({ 1: TaskStatus.failed, 2: 1, 3: 1, 4: 1 });
  });

  it('cancels: removes the task, tells the server, and the next task moves up', async () => {
    for (const id of [1, 2, 3, 4]) transport.hang.add(id);
    manager.add([1, 2, 3, 4].map((id) => task(id)));
    await manager.cancel([2]);
    expect(server.cancelled).toEqual([2]);
    expect(statuses()).toEqual({ 1: 1, 3: 1, 4: 1 });
  });

  it('shows the finished banner when nothing is pending any more, and warns before leaving only while uploading', async () => {
    transport.hang.add(1);
    manager.add([task(1), task(2)]);
    expect(manager.hasActiveUploads()).toBe(true);
    await settle();
    expect(manager.snapshot().finishedBanner).toBe(false);
    transport.hang.delete(1);
    manager.pause(1);
    expect(manager.hasActiveUploads()).toBe(false);
    manager.resume(1);
    await settle();
    expect(manager.snapshot()).toMatchObject({ pending: 0, uploading: 0, finishedBanner: true });
    manager.dismissBanner();
    expect(manager.snapshot().finishedBanner).toBe(false);
  });

  it('discards uploads a closed page left behind: the server cancels them and the list is read again', async () => {
    transport.hang.add(1);
    manager.add([task(1)]);
    await manager.discard([1, 7, 8]);
    expect(server.cancelled).toEqual([1, 7, 8]);
    expect(manager.snapshot().tasks).toEqual([]);
    expect(checks).toBe(1);
  });

  it('after a page reload, a re-picked file sends only the parts the server lacks', async () => {
    const reloaded = task(9, 4 * PART);
    for (const partNumber of [1, 2])
      server.stored.get(9)!.set(partNumber, { partNumber, size: PART, etag: `"${partNumber}"` });
    manager.add([reloaded]);
    await settle();
    expect(transport.puts).toEqual(['part://9/3', 'part://9/4']);
    expect(server.callbacks.at(-1)).toEqual({ id: 9, status: 2, schedule: 100 });
  });

  it('runs the task-list check every 60 s', async () => {
    await vi.advanceTimersByTimeAsync(LIMITS.taskListCheckMs * 2 + 1);
    expect(checks).toBe(2);
  });
});

describe('what the upload panel and the interrupted list read from the manager', () => {
  let server: FakeServer;
  let manager: UploadManager;
  const task = (id: number, size = 2 * PART) => newTask(server, id, size);
  const record = (id: number, status: 0 | 1) =>
    ({ id, status, fileName: `file${id}.jpg` }) as unknown as UploadRecord;

  beforeEach(() => {
    vi.useFakeTimers();
    server = new FakeServer();
    manager = new UploadManager(server, new FakeTransport(), new FakeNetwork(), () => {});
    manager.start();
  });
  afterEach(() => {
    manager.stop();
    vi.useRealTimers();
  });

  it('keeps finished uploads for the panel until it is closed', async () => {
    manager.add([task(1), task(2)]);
    await vi.advanceTimersByTimeAsync(0);
    expect(manager.snapshot().finished.map((f) => f.fileName)).toEqual(['file1.jpg', 'file2.jpg']);
    expect(manager.snapshot().tasks).toEqual([]);
    manager.clearFinished();
    expect(manager.snapshot().finished).toEqual([]);
  });

  it('does not call uploads this page finished or cancelled "interrupted" while the server list is stale', async () => {
    manager.add([task(1)]);
    await vi.advanceTimersByTimeAsync(0);
    const transport = new FakeTransport();
    transport.hang.add(2).add(3);
    const second = new UploadManager(server, transport, new FakeNetwork(), () => {});
    second.add([task(2), task(3)]);
    await second.cancelAll();
    // The server's list still says uploading for all three, and lists one this page never ran.
    const stale = [record(1, 1), record(2, 1), record(3, 0), record(4, 1)];
    expect(
      interruptedAmong(stale, (id) => manager.hasTaken(id) || second.hasTaken(id)).map((r) => r.id),
    ).toEqual([4]);
    second.stop();
  });
});
