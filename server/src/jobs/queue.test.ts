import { fromPglite, PgBoss, TestClock } from 'pg-boss';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/test-database';
import type { DatabaseHandle } from '../db/database';
import { type JobQueue, MEDIA_QUEUE, startJobQueue } from './queue';

/**
 * The job queue with pg-boss's TestClock, which never moves here: a worker's poll never comes, so
 * a job is taken only when NOTIFY wakes a worker, or when the queue asks it to fetch again.
 */
describe('job queue: workers woken by NOTIFY, polling only as a backstop', { timeout: 60_000 }, () => {
  let database: DatabaseHandle | undefined;
  let queue: JobQueue | undefined;
  afterEach(async () => {
    await queue?.stop();
    await database?.close();
    queue = undefined;
    database = undefined;
  });

  /** A queue made by a version before NOTIFY: no `notify`, another retry limit. */
  async function givenOlderQueue(handle: DatabaseHandle, name: string) {
    const older = handle.pglite
      ? new PgBoss({ db: fromPglite(handle.pglite), backend: 'pglite' })
      : new PgBoss({ connectionString: handle.url ?? '', max: 1 });
    await older.start();
    await older.createQueue(name, { retryLimit: 1 });
    await older.stop({ graceful: false, close: handle.pglite === null });
  }

  it('takes a job sent while its workers wait, on a queue an older version made, without a poll', async () => {
    database = await createTestDatabase();
    await givenOlderQueue(database, MEDIA_QUEUE);
    queue = await startJobQueue(database, { onError: () => {}, clock: new TestClock() });
    const options = await database.db
      .withSchema('pgboss')
      .selectFrom('queue' as never)
      .select(['notify' as never, 'retry_limit' as never])
      .where('name' as never, '=', MEDIA_QUEUE as never)
      .executeTakeFirstOrThrow();
    expect(options).toEqual({ notify: true, retry_limit: 5 });

    const taken: number[] = [];
    const took = [signal(), signal()];
    await queue.workMedia(async (uploadId) => {
      taken.push(uploadId);
      took[uploadId - 1]?.resolve();
    }, 2);
    await queue.enqueueMedia(1);
    // The first job's fetch may have been the workers' first; after it they wait for a poll that
    // never comes, so the second is taken only because its NOTIFY woke them.
    await took[0]?.promise;
    await queue.enqueueMedia(2);
    await took[1]?.promise;
    expect(taken).toEqual([1, 2]);
  });

  it('takes every job of one insert with a worker that takes one a fetch, without a poll', async () => {
    database = await createTestDatabase();
    queue = await startJobQueue(database, { onError: () => {}, clock: new TestClock() });
    const rendered: number[] = [];
    const allRendered = signal();
    await queue.workComposite(async (articleId) => {
      rendered.push(articleId);
      if (rendered.length === 3) allRendered.resolve();
    }, 1);
    // One insert, one NOTIFY: the worker wakes once and must go on fetching until the queue is empty.
    await queue.enqueueComposite([11, 12, 13], false);
    await allRendered.promise;
    expect(rendered.sort()).toEqual([11, 12, 13]);
  });

  it('tries a failed mail again at once when its retry is due at once, without a poll', async () => {
    database = await createTestDatabase();
    queue = await startJobQueue(database, {
      onError: () => {},
      clock: new TestClock(),
      mailRetry: { retryLimit: 1, retryDelaySeconds: 0 },
    });
    const attempts: boolean[] = [];
    const delivered = signal();
    await queue.workMail(async (_mailId, finalAttempt) => {
      attempts.push(finalAttempt);
      if (!finalAttempt) throw new Error('SMTP 451: try again later');
      delivered.resolve();
    });
    await queue.enqueueMail(7);
    await delivered.promise;
    expect(attempts).toEqual([false, true]);
  });
});

/** A promise and the function that resolves it (Promise.withResolvers is Node 22). */
function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}
