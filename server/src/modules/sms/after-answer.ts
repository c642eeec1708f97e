/**
 * Work a signed-out request causes only when an account exists (sending its SMS code, mailing its
 * reset link), run after the answer has gone: the request itself then does the same work whoever
 * asks, so neither its answer nor its time tells whether the account exists (issue 38). At most
 * `MAX_RUNNING` tasks run at once (a gateway that hangs for its timeout holds up one lane, not
 * all); the rest wait in order. A task's failure goes to its `onError`, never to the caller.
 *
 * Kept in memory: a task lost with its process (a code or link that never arrived) is asked for
 * again by its user, as after any message lost on the way.
 */
const MAX_RUNNING = 4;

type Task = () => Promise<void>;
const waiting: Task[] = [];
let running = 0;
let idleWaiters: Array<() => void> = [];
/** While above 0 nothing new starts (tests look at what requests did before their work ran). */
let holds = 0;

/** Queues `task` to run once the current request has answered (never before the next macrotask). */
export function runAfterAnswer(task: Task, onError: (err: unknown) => void): void {
  waiting.push(async () => {
    try {
      await task();
    } catch (err) {
      onError(err);
    }
  });
  setImmediate(startWaiting);
}

function startWaiting(): void {
  while (running < MAX_RUNNING && holds === 0) {
    const next = waiting.shift();
    if (!next) break;
    running += 1;
    void next().finally(() => {
      running -= 1;
      if (running === 0 && waiting.length === 0) {
        const waiters = idleWaiters;
        idleWaiters = [];
        for (const resolve of waiters) resolve();
      } else {
        startWaiting();
      }
    });
  }
}

/**
 * Resolves once every task queued so far (and any they queued) has ended: tests and benchmarks.
 * While a hold keeps tasks waiting, it resolves only after the release.
 */
export function afterAnswerWorkSettled(): Promise<void> {
  if (running === 0 && waiting.length === 0) return Promise.resolve();
  return new Promise((resolve) => idleWaiters.push(resolve));
}

/**
 * Keeps queued tasks from starting until the answered function is called (tests: what a request
 * did before answering, compared for two callers, without racing the work that follows).
 */
export function holdAfterAnswerWork(): () => void {
  holds += 1;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    holds -= 1;
    setImmediate(startWaiting);
  };
}
