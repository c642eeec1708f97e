import { LIMITS, UploadStatus } from '@dam/contract';
import { sendMissingParts } from './transfer';
import {
  type NetworkStatus,
  type NewTask,
  type PartTransport,
  TaskStatus,
  type UploadApi,
  type UploadEvent,
  type UploadTask,
} from './types';

/** How often stalled transfers are looked for; a stall is declared after LIMITS.uploadStallMs. */
const STALL_CHECK_MS = 5_000;
interface Running {
  controller: AbortController;
  partsSinceRecord: number;
}

/** An upload this page finished, kept for the upload panel until it is closed. */
export interface FinishedUpload {
  id: number;
  fileName: string;
  fileSize: number;
  finishedAt: number;
  /** The upload dialog compared it with the archive already (NewTask.similarChecked). */
  similarChecked?: boolean;
}

export interface ManagerSnapshot {
  tasks: UploadTask[];
  /** Uploads finished in this page since the panel was last closed, newest last. */
  finished: FinishedUpload[];
  /** Tasks waiting or paused (SPEC §4: status 0 and 2 count as pending). */
  pending: number;
  uploading: number;
  /** The dismissible "all uploads finished" banner. */
  finishedBanner: boolean;
}

/**
 * The browser's upload scheduler of SPEC §4, free of UI: at most 3 tasks uploading or paused,
 * the rest waiting; offline pauses and online resumes; a transfer silent for 70 s is retried
 * from its checkpoint, and fails with "task timeout" once 3 retries are spent; progress goes to
 * the server only after more than 3 parts; the callback at 100 % finishes the task.
 */
export class UploadManager {
  private readonly tasks = new Map<number, UploadTask>();
  private readonly running = new Map<number, Running>();
  private readonly listeners = new Set<(snapshot: ManagerSnapshot) => void>();
  private readonly eventListeners = new Set<(event: UploadEvent) => void>();
  /** Undoes start(): clears the timers and stops watching the network; null while stopped. */
  private stopWatching: (() => void) | null = null;
  private finishedBanner = false;
  private finished: FinishedUpload[] = [];
  /** Every upload this page took on (running, finished, cancelled): none of them was interrupted. */
  private readonly taken = new Set<number>();

  constructor(
    private readonly api: UploadApi,
    private readonly transport: PartTransport,
    private readonly network: NetworkStatus,
    /** The 60 s task-list check (SPEC §4), e.g. re-reading the server's list. */
    private readonly onTaskListCheck: () => void = () => {},
  ) {}

  /**
   * Starts the stall checks, the task-list check and the network watch. The constructor has no
   * side effects and start/stop may repeat, so React StrictMode's mount, unmount and mount again
   * leaves exactly one manager running with its tasks kept.
   */
  start(): () => void {
    if (!this.stopWatching) {
      const unsubscribeNetwork = this.network.subscribe((online) =>
        online ? this.wentOnline() : this.wentOffline(),
      );
      const timers = [
        setInterval(() => this.checkStalls(), STALL_CHECK_MS),
        setInterval(() => {
          this.checkStalls();
          this.onTaskListCheck();
        }, LIMITS.taskListCheckMs),
      ];
      this.stopWatching = () => {
        for (const timer of timers) clearInterval(timer);
        unsubscribeNetwork();
      };
    }
    return () => this.stop();
  }

  /** Stops watching and aborts the transfers in flight (the session ends). */
  stop(): void {
    this.stopWatching?.();
    this.stopWatching = null;
    for (const running of this.running.values()) running.controller.abort();
    this.running.clear();
  }

  subscribe(listener: (snapshot: ManagerSnapshot) => void): () => void {
    this.listeners.add(listener);
    listener(this.snapshot());
    return () => this.listeners.delete(listener);
  }

  onEvent(listener: (event: UploadEvent) => void): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  snapshot(): ManagerSnapshot {
    const tasks = [...this.tasks.values()].map((t) => ({ ...t }));
    return {
      tasks,
      finished: [...this.finished],
      pending: tasks.filter((t) => t.status === TaskStatus.waiting || t.status === TaskStatus.paused).length,
      uploading: tasks.filter((t) => t.status === TaskStatus.uploading).length,
      finishedBanner: this.finishedBanner,
    };
  }

  /** Leaving the page now would cut an upload (SPEC §4: warn while a task has status 1). */
  hasActiveUploads(): boolean {
    return [...this.tasks.values()].some((t) => t.status === TaskStatus.uploading);
  }

  /**
   * Whether this page took the upload on. The server lists a finished or cancelled upload as
   * unfinished until its list is read again; such a record was not interrupted.
   */
  hasTaken(id: number): boolean {
    return this.taken.has(id);
  }

  /** Forgets the finished uploads (the panel is closed). */
  clearFinished(): void {
    this.finished = [];
    this.emit();
  }

  dismissBanner(): void {
    this.finishedBanner = false;
    this.emit();
  }

  add(newTasks: NewTask[]): void {
    const now = Date.now();
    for (const task of newTasks) {
      if (this.tasks.has(task.id)) continue;
      this.taken.add(task.id);
      const dot = task.fileName.lastIndexOf('.');
      this.tasks.set(task.id, {
        ...task,
        fileFormat: dot > 0 ? task.fileName.slice(dot + 1).toLowerCase() : '',
        status: TaskStatus.waiting,
        process: 0,
        remainingTime: null,
        uploadStartTime: null,
        updateAt: now,
        retryTime: 0,
        doneParts: 0,
        error: null,
      });
    }
    this.finishedBanner = false;
    this.schedule();
    this.emit();
  }

  pause(id: number): void {
    const task = this.tasks.get(id);
    if (task?.status !== TaskStatus.uploading) return;
    this.stopTransfer(id);
    task.status = TaskStatus.paused;
    this.emit();
  }

  /** Continues a paused or failed task from its checkpoint. */
  resume(id: number): void {
    const task = this.tasks.get(id);
    if (!task || (task.status !== TaskStatus.paused && task.status !== TaskStatus.failed)) return;
    if (task.status === TaskStatus.failed) {
      // A failed task gives up its slot; it needs one again.
      if (this.slotsInUse() >= LIMITS.concurrentUploads) {
        task.status = TaskStatus.waiting;
        task.error = null;
        this.emit();
        return;
      }
      task.retryTime = 0;
    }
    this.begin(task);
  }

  pauseAll(): void {
    for (const task of this.tasks.values()) if (task.status === TaskStatus.uploading) this.pause(task.id);
  }

  resumeAll(): void {
    for (const task of this.tasks.values()) if (task.status === TaskStatus.paused) this.resume(task.id);
  }

  /** Removes tasks, aborts their transfers, tells the server, and lets waiting tasks move up. */
  async cancel(ids: number[]): Promise<void> {
    const present = ids.filter((id) => this.tasks.has(id));
    for (const id of present) {
      this.stopTransfer(id);
      this.tasks.delete(id);
    }
    this.schedule();
    this.emit();
    if (present.length > 0) await this.api.cancel(present);
  }

  /**
   * Cancels uploads whether this page runs them or not (those a closed page left unfinished):
   * the server frees what they stored, and the task list is read again.
   */
  async discard(ids: number[]): Promise<void> {
    for (const id of ids) {
      this.taken.add(id);
      this.stopTransfer(id);
      this.tasks.delete(id);
    }
    this.schedule();
    this.emit();
    if (ids.length > 0) await this.api.cancel(ids);
    this.onTaskListCheck();
  }

  async cancelAll(): Promise<void> {
    await this.cancel([...this.tasks.keys()]);
  }

  private slotsInUse(): number {
    let count = 0;
    for (const task of this.tasks.values()) {
      if (task.status === TaskStatus.uploading || task.status === TaskStatus.paused) count++;
    }
    return count;
  }

  /** SPEC §4: a waiting task starts when fewer than 3 tasks are uploading or paused. */
  private schedule(): void {
    for (const task of this.tasks.values()) {
      if (this.slotsInUse() >= LIMITS.concurrentUploads) break;
      if (task.status !== TaskStatus.waiting) continue;
      if (!this.network.isOnline()) {
        task.status = TaskStatus.paused;
        continue;
      }
      this.begin(task);
    }
    this.updateBanner();
  }

  private begin(task: UploadTask): void {
    task.status = TaskStatus.uploading;
    task.error = null;
    task.updateAt = Date.now();
    task.uploadStartTime ??= task.updateAt;
    const running: Running = { controller: new AbortController(), partsSinceRecord: 0 };
    this.running.set(task.id, running);
    this.emit();
    void this.transfer(task, running);
  }

  private stopTransfer(id: number): void {
    this.running.get(id)?.controller.abort();
    this.running.delete(id);
  }

  private async transfer(task: UploadTask, running: Running): Promise<void> {
    const { signal } = running.controller;
    const isCurrent = () => this.running.get(task.id) === running && !signal.aborted;
    try {
      const sent = await sendMissingParts(task, running, {
        api: this.api,
        transport: this.transport,
        signal,
        isCurrent,
        emit: () => this.emit(),
      });
      if (!sent) return;
      task.process = 100;
      this.emit();
      try {
        await this.api.callback(task.id, UploadStatus.done, 100);
      } catch {
        if (isCurrent()) this.fail(task, 'upload failed');
        return;
      }
      if (!isCurrent()) return;
      this.running.delete(task.id);
      this.tasks.delete(task.id);
      this.finished.push({
        id: task.id,
        fileName: task.fileName,
        fileSize: task.fileSize,
        finishedAt: Date.now(),
        ...(task.similarChecked ? { similarChecked: true } : {}),
      });
      this.emitEvent({ type: 'finished', taskId: task.id });
      this.schedule();
      this.emit();
    } catch {
      if (!isCurrent()) return;
      // A transfer that broke counts like one that stalled.
      this.retry(task);
    }
  }

  private checkStalls(): void {
    const now = Date.now();
    for (const task of [...this.tasks.values()]) {
      if (task.status === TaskStatus.uploading && now - task.updateAt > LIMITS.uploadStallMs)
        this.retry(task);
    }
  }

  /** SPEC §4 retry: offline → pause; retries spent → fail "task timeout"; else count, pause, resume. */
  private retry(task: UploadTask): void {
    this.stopTransfer(task.id);
    if (!this.network.isOnline()) {
      task.status = TaskStatus.paused;
      this.emit();
      return;
    }
    if (task.retryTime >= LIMITS.maxUploadRetries) {
      this.fail(task, 'task timeout');
      this.emitEvent({ type: 'network-error', taskId: task.id });
      return;
    }
    task.retryTime++;
    task.status = TaskStatus.paused;
    this.begin(task);
  }

  private fail(task: UploadTask, error: UploadTask['error']): void {
    this.stopTransfer(task.id);
    task.status = TaskStatus.failed;
    task.error = error;
    this.emitEvent({ type: 'failed', taskId: task.id });
    this.schedule();
    this.emit();
  }

  private wentOffline(): void {
    for (const task of this.tasks.values()) {
      if (task.status === TaskStatus.uploading) {
        this.stopTransfer(task.id);
        task.status = TaskStatus.paused;
      }
    }
    this.emitEvent({ type: 'offline' });
    this.emit();
  }

  private wentOnline(): void {
    this.emitEvent({ type: 'online' });
    this.resumeAll();
    this.schedule();
    this.emit();
  }

  private updateBanner(): void {
    const anyLeft = [...this.tasks.values()].some(
      (t) =>
        t.status === TaskStatus.waiting ||
        t.status === TaskStatus.paused ||
        t.status === TaskStatus.uploading,
    );
    if (!anyLeft && this.hadWork) this.finishedBanner = true;
    this.hadWork = anyLeft;
  }
  private hadWork = false;

  private emit(): void {
    this.updateBanner();
    const snapshot = this.snapshot();
    for (const listener of this.listeners) listener(snapshot);
  }

  private emitEvent(event: UploadEvent): void {
    for (const listener of this.eventListeners) listener(event);
  }
}
