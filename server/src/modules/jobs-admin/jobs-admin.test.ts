import fs from 'node:fs';
import path from 'node:path';
import { endpoints, FunctionCode, OperationCode, REGENERATE_PREVIEWS_MAX } from '@dam/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attempt, call } from '../../../test/call';
import {
  EVERY_SCOPE,
  givenFile,
  givenFolder,
  givenProcessedFile,
  givenSignedInUser,
  signInAdmin,
} from '../../../test/factories';
import { makeJpeg } from '../../../test/fixtures';
import { createTestApp, type TestApp } from '../../../test/harness';
import { JOB_SCHEMA, MEDIA_QUEUE, mediaJobKey } from '../../jobs/queue';

/**
 * The jobs screen's calls (issue 40 item 4) on a real queue: a media job made to fail by taking its
 * source object away, seen failed with its error and file, retried once the object is back.
 * Media jobs are not retried by the queue itself here, so the first failure is the last.
 */
describe('jobs screen', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp({}, { jobs: true, mediaRetry: { retryLimit: 0, retryDelaySeconds: 0 } });
    admin = await signInAdmin(t);
  });
  afterAll(async () => {
    await t.close();
  });

  const objectPath = (key: string) => path.join(t.config.DATA_DIR, 'objects', key);
  const queueOf = async (token: string, queue = 'media') =>
    (await call(t.app, endpoints.jobsOverview, { token })).queues.find((q) => q.queue === queue);
  const waitingMediaJob = async (uploadId: number) => {
    const { rows } = await sql<{ id: string }>`
      SELECT id::text AS id FROM ${sql.table(`${JOB_SCHEMA}.job`)}
       WHERE name = ${MEDIA_QUEUE} AND singleton_key = ${mediaJobKey(uploadId)} AND state IN ('created', 'retry')`.execute(
      t.database.db,
    );
    return rows.map((row) => row.id);
  };
  const logged = async (code: string) =>
    t.database.db
      .selectFrom('operation_logs')
      .select(['operator_code', 'new_value', 'item_names'])
      .where('operator_code', '=', code)
      .orderBy('id')
      .execute();

  it('shows a failed media job with its error and file, retries it once fixed, and logs every action', async () => {
    const name = `JOB-${Date.now()}.jpg`;
    const { itemId, upload } = await givenProcessedFile(t, admin, {
      fileName: name,
      bytes: await makeJpeg(64, 48),
    });
    const aside = `${objectPath(upload.storage_key)}.aside`;
    fs.renameSync(objectPath(upload.storage_key), aside);

    // Paused, nothing is taken: the regenerated job waits, and a second click queues nothing more.
    expect(
      await call(t.app, endpoints.pauseQueue, { token: admin, body: { queue: 'media', paused: true } }),
    ).toEqual({
      queue: 'media',
      paused: true,
    });
    expect(await queueOf(admin)).toMatchObject({ paused: true });
    const first = await call(t.app, endpoints.regeneratePreviews, { token: admin, body: { itemId } });
    expect(first).toEqual({ queued: 1, alreadyPending: 0 });
    const second = await call(t.app, endpoints.regeneratePreviews, { token: admin, body: { itemId } });
    expect(second).toEqual({ queued: 0, alreadyPending: 1 });
    const [jobId] = await waitingMediaJob(upload.id);
    expect(jobId).toBeDefined();
    expect((await waitingMediaJob(upload.id)).length).toBe(1);
    expect((await queueOf(admin))?.waiting).toBeGreaterThanOrEqual(1);

    // Resumed, the job runs and fails for good: its source is gone.
    await call(t.app, endpoints.pauseQueue, { token: admin, body: { queue: 'media', paused: false } });
    await t.jobs?.jobEnded(MEDIA_QUEUE, jobId as string, 'failed');
    expect((await queueOf(admin))?.failed).toBeGreaterThanOrEqual(1);
    const failed = await call(t.app, endpoints.failedJobs, { token: admin, query: { queue: 'media' } });
    const job = failed.list.find((each) => each.id === jobId);
    expect(job).toMatchObject({
      queue: 'media',
      attempts: 1,
      file: { uploadId: upload.id, itemId, name: name.replace(/\.jpg$/, '') },
    });
    expect(job?.error).toMatch(/ENOENT|no such file|not found/i);

    // The cause fixed, a retry runs it again and it completes.
    fs.renameSync(aside, objectPath(upload.storage_key));
    expect(
      await call(t.app, endpoints.retryJob, { token: admin, body: { queue: 'media', id: jobId as string } }),
    ).toEqual({
      retried: 1,
    });
    await t.jobs?.jobEnded(MEDIA_QUEUE, jobId as string, 'completed');
    const after = await call(t.app, endpoints.failedJobs, { token: admin, query: { queue: 'media' } });
    expect(after.list.map((each) => each.id)).not.toContain(jobId);
    // A job no longer failed is not retried again.
    const again = await attempt(t.app, endpoints.retryJob, {
      token: admin,
      body: { queue: 'media', id: jobId as string },
    });
    expect(again).toMatchObject({ success: false, errorCode: 'SEJB_02' });

    expect((await logged(OperationCode.pauseQueue)).at(-1)).toMatchObject({ new_value: 'media' });
    expect((await logged(OperationCode.resumeQueue)).at(-1)).toMatchObject({ new_value: 'media' });
    expect((await logged(OperationCode.regeneratePreviews)).length).toBeGreaterThanOrEqual(2);
    expect((await logged(OperationCode.retryJob)).at(-1)).toMatchObject({ new_value: 'media' });
    expect((await logged(OperationCode.retryJob)).at(-1)?.item_names).toEqual([name]);
  });

  it('retries all failed jobs of a queue and logs it', async () => {
    const { itemId, upload } = await givenProcessedFile(t, admin, {
      fileName: `ALL-${Date.now()}.jpg`,
      bytes: await makeJpeg(40, 30),
    });
    fs.renameSync(objectPath(upload.storage_key), `${objectPath(upload.storage_key)}.aside`);
    await call(t.app, endpoints.pauseQueue, { token: admin, body: { queue: 'media', paused: true } });
    await call(t.app, endpoints.regeneratePreviews, { token: admin, body: { itemId } });
    const [jobId] = await waitingMediaJob(upload.id);
    await call(t.app, endpoints.pauseQueue, { token: admin, body: { queue: 'media', paused: false } });
    await t.jobs?.jobEnded(MEDIA_QUEUE, jobId as string, 'failed');
    fs.renameSync(`${objectPath(upload.storage_key)}.aside`, objectPath(upload.storage_key));
    const { retried } = await call(t.app, endpoints.retryAllJobs, { token: admin, body: { queue: 'media' } });
    expect(retried).toBeGreaterThanOrEqual(1);
    await t.jobs?.jobEnded(MEDIA_QUEUE, jobId as string, 'completed');
    expect((await logged(OperationCode.retryAllJobs)).at(-1)?.new_value).toBe(`media × ${retried}`);
  });

  it('refuses a caller without the jobs code, changing nothing', async () => {
    const other = await givenSignedInUser(t, {
      functionCodes: [FunctionCode.user, FunctionCode.role, FunctionCode.log],
      scopes: EVERY_SCOPE,
    });
    const file = await givenFile(t, admin);
    const pausesBefore = await logged(OperationCode.pauseQueue);
    const token = other.token;
    const refusals = [
      await attempt(t.app, endpoints.jobsOverview, { token }),
      await attempt(t.app, endpoints.failedJobs, { token, query: { queue: 'media' } }),
      await attempt(t.app, endpoints.retryAllJobs, { token, body: { queue: 'media' } }),
      await attempt(t.app, endpoints.pauseQueue, { token, body: { queue: 'mail', paused: true } }),
      await attempt(t.app, endpoints.regeneratePreviews, { token, body: { itemId: file.id } }),
      await attempt(t.app, endpoints.retryJob, {
        token,
        body: { queue: 'media', id: '00000000-0000-4000-8000-000000000000' },
      }),
    ];
    for (const refused of refusals) expect(refused).toMatchObject({ success: false, errorCode: 'SE_502' });
    expect((await queueOf(admin, 'mail'))?.paused).toBe(false);
    expect(await logged(OperationCode.pauseQueue)).toEqual(pausesBefore);
    const uploadId = (
      await t.database.db
        .selectFrom('uploads')
        .select('id')
        .where('item_id', '=', file.id)
        .executeTakeFirstOrThrow()
    ).id;
    expect(await waitingMediaJob(uploadId)).toEqual([]);
  });

  it('regenerates a folder as one batch, and refuses one over the limit queuing nothing', async () => {
    const folder = await givenFolder(t, admin);
    const a = await givenFile(t, admin, { folderId: folder.id });
    const b = await givenFile(t, admin, { folderId: folder.id });
    const sub = await givenFolder(t, admin, { parentId: folder.id });
    const c = await givenFile(t, admin, { folderId: sub.id });
    const records = await t.database.db
      .selectFrom('uploads')
      .select('id')
      .where('item_id', 'in', [a.id, b.id, c.id])
      .execute();
    for (const record of records) await t.jobs?.mediaDone(record.id);
    await call(t.app, endpoints.pauseQueue, { token: admin, body: { queue: 'media', paused: true } });
    try {
      // The three files' records below the folder, in one batch.
      const result = await call(t.app, endpoints.regeneratePreviews, {
        token: admin,
        body: { itemId: folder.id },
      });
      expect(result).toEqual({ queued: 3, alreadyPending: 0 });
      const again = await call(t.app, endpoints.regeneratePreviews, {
        token: admin,
        body: { itemId: folder.id },
      });
      expect(again).toEqual({ queued: 0, alreadyPending: 3 });

      // Over the limit: records copied onto one file of the folder until there are too many.
      const source = await t.database.db
        .selectFrom('uploads')
        .selectAll()
        .where('item_id', '=', a.id)
        .executeTakeFirstOrThrow();
      const { id: _id, created_at: _c, updated_at: _u, version_of_item_id: _v, ...row } = source;
      await t.database.db
        .insertInto('uploads')
        .values(
          Array.from({ length: REGENERATE_PREVIEWS_MAX }, (_, i) => ({
            ...row,
            storage_key: `${source.storage_key}-copy-${i}`,
          })),
        )
        .execute();
      const before = await sql<{ n: number }>`
        SELECT count(*)::int AS n FROM ${sql.table(`${JOB_SCHEMA}.job`)} WHERE name = ${MEDIA_QUEUE}`.execute(
        t.database.db,
      );
      const refused = await attempt(t.app, endpoints.regeneratePreviews, {
        token: admin,
        lang: 'en',
        body: { itemId: folder.id },
      });
      expect(refused).toMatchObject({ success: false, errorCode: 'SEJB_01' });
      expect(refused.errorDesc).toContain(String(REGENERATE_PREVIEWS_MAX));
      const afterRefusal = await sql<{ n: number }>`
        SELECT count(*)::int AS n FROM ${sql.table(`${JOB_SCHEMA}.job`)} WHERE name = ${MEDIA_QUEUE}`.execute(
        t.database.db,
      );
      expect(afterRefusal.rows[0]?.n).toBe(before.rows[0]?.n);
    } finally {
      await call(t.app, endpoints.pauseQueue, { token: admin, body: { queue: 'media', paused: false } });
    }
  });

  it('counts waiting, failed and completed jobs per queue, and reports the back-fills', async () => {
    const overview = await call(t.app, endpoints.jobsOverview, { token: admin });
    expect(overview.queues.map((q) => q.queue)).toContain('fingerprint-backfill');
    expect(overview.queues).toHaveLength(15);
    const media = overview.queues.find((q) => q.queue === 'media');
    expect(media?.completed).toBeGreaterThanOrEqual(2);
    expect(overview.backfills.map((b) => b.kind)).toEqual(['fingerprints', 'metadata', 'previews']);
    for (const backfill of overview.backfills) expect(backfill.done).toBeLessThanOrEqual(backfill.total);
  });
});

describe('the queues the screen lists', () => {
  it('are every queue the job queue declares', async () => {
    const declared = Object.entries(await import('../../jobs/queue'))
      .filter(([name, value]) => name.endsWith('_QUEUE') && typeof value === 'string')
      .map(([, value]) => value as string);
    const { JOB_QUEUE_NAMES } = await import('@dam/contract');
    expect([...JOB_QUEUE_NAMES].sort()).toEqual([...new Set(declared)].sort());
  });
});
