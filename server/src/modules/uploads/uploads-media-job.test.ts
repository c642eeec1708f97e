import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { endpoints, PreviewStatus, UploadStatus } from '@dam/contract';
import { sql } from 'kysely';
import { TestClock } from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attempt, call } from '../../../test/call';
import { uploadFiles } from '../../../test/factories';
import { makeJpeg } from '../../../test/fixtures';
import { ADMIN, createTestApp, createTestDatabase, signIn, type TestApp } from '../../../test/harness';
import { buildApp } from '../../app';
import { loadConfig } from '../../config';
import type { DatabaseHandle } from '../../db/database';
import { LostMediaJobSweep, MEDIA_SWEEP_MAX_WAITING } from '../../jobs/media-sweep';
import { type JobQueue, MEDIA_QUEUE, mediaJobKey, startJobQueue } from '../../jobs/queue';
import { ManualClock } from '../../lib/clock';
import { uploadsOn } from '../../repositories';
import { ensureFirstAdministrator } from '../accounts/bootstrap';
import { AccountsRepository } from '../accounts/repository';

/**
 * Issue 38 item 5: 40 parallel callbacks and a kill -9 half a second later left files live with no
 * media job (sent after the commit), "preview pending" for ever. The job is now written in the
 * transaction that makes the record live, and a start-up sweep queues the jobs lost before.
 * A kill between commit and send cannot happen in-process, so the tests hold the structure: what
 * the queue is asked outside the callback's transaction is refused here (as by a dead process).
 */
describe('a media job is never lost (issue 38 item 5)', { timeout: 60_000 }, () => {
  let database: DatabaseHandle;
  let queue: JobQueue;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let dataDir: string;
  let token: string;
  /** What the queue does with a media job written inside a transaction (`db` given) or outside it. */
  let sendMedia: JobQueue['enqueueMedia'];

  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dam-media-job-'));
    // No media workers and a clock that never moves: jobs stay where the callback left them.
    queue = await startJobQueue(database, { onError: () => {}, clock: new TestClock() });
    const jobs: JobQueue = { ...queue, enqueueMedia: (uploadId, db) => sendMedia(uploadId, db) };
    const config = loadConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      WEB_DIST_DIR: '-',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      MEDIA_WORKERS: '0',
      LOGIN_RATE_LIMIT: '1000',
    });
    await ensureFirstAdministrator(new AccountsRepository(database.db), {
      adminEmail: config.ADMIN_EMAIL,
      adminPassword: config.ADMIN_PASSWORD,
    });
    app = await buildApp({ config, database, clock: new ManualClock(), version: 'test', jobs });
    token = await signIn(app, ADMIN.email, ADMIN.password);
  });
  afterAll(async () => {
    await app?.close();
    await queue?.stop();
    await database?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** An upload record whose bytes are all stored, waiting for its final callback. */
  const storedRecord = async (fileName: string, bytes: Buffer): Promise<number> => {
    const [record] = await call(app, endpoints.createUploads, {
      token,
      body: { path: '/', uploadDetailDTOS: [{ fileName, fileSize: bytes.length, path: '' }] },
    });
    const id = record?.id as number;
    await call(app, endpoints.startMultipart, { token, body: { id } });
    const signed = await call(app, endpoints.signParts, { token, body: { id, partNumbers: [1] } });
    const put = await app.inject({
      method: 'PUT',
      url: signed.parts[0]?.url as string,
      payload: bytes,
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(put.statusCode, put.body).toBe(200);
    return id;
  };

  const finish = (id: number) =>
    attempt(app, endpoints.finishUpload, { token, query: { id, status: 2, uploadSchedule: 100 } });

  const recordOf = (id: number) =>
    database.db
      .selectFrom('uploads')
      .select(['status', 'item_id', 'preview_status'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  /** The media jobs of an upload in pg-boss's own table, as committed. */
  const jobsOf = async (uploadId: number) => {
    const { rows } = await sql<{ state: string; data: { uploadId: number } }>`
      SELECT state, data FROM pgboss.job WHERE name = ${MEDIA_QUEUE} AND singleton_key = ${mediaJobKey(uploadId)}`.execute(
      database.db,
    );
    return rows;
  };

  it('writes the job in the transaction that makes the record live: a process gone after the commit loses nothing', async () => {
    // A send after the commit (outside any transaction) is what a process killed there never makes.
    sendMedia = async (uploadId, db) => {
      if (!db) throw new Error('the process died between the commit and the send');
      await queue.enqueueMedia(uploadId, db);
    };
    const id = await storedRecord('COMMITTED-WITH-ITS-JOB.jpg', await makeJpeg(64, 48));
    const answer = await finish(id);
    expect(answer.status, JSON.stringify(answer)).toBe(200);
    expect(await recordOf(id)).toMatchObject({
      status: UploadStatus.done,
      preview_status: PreviewStatus.pending,
    });
    expect(await jobsOf(id)).toEqual([{ state: 'created', data: { uploadId: id } }]);
  });

  it('rolls the job back with the record: a callback failing after the job was written leaves neither', async () => {
    sendMedia = async (uploadId, db) => {
      await queue.enqueueMedia(uploadId, db);
      throw new Error('fails after the job was written');
    };
    const id = await storedRecord('ROLLED-BACK.jpg', await makeJpeg(64, 48));
    const failed = await finish(id);
    expect(failed.status).toBe(500);
    const record = await recordOf(id);
    expect(record.status).toBe(UploadStatus.uploading);
    expect(record.item_id).toBeNull();
    expect(await jobsOf(id)).toEqual([]);

    // The record stayed open: the browser's retry of the callback finishes it, with one job.
    sendMedia = (uploadId, db) => queue.enqueueMedia(uploadId, db);
    expect((await finish(id)).status).toBe(200);
    expect((await recordOf(id)).status).toBe(UploadStatus.done);
    expect(await jobsOf(id)).toHaveLength(1);
  });

  it('queues, once, a job for each live record without preview or job, and none for the others', async () => {
    sendMedia = (uploadId, db) => queue.enqueueMedia(uploadId, db);
    const bytes = await makeJpeg(64, 48);
    const lost = await storedRecord('LOST-JOB.jpg', bytes);
    const waiting = await storedRecord('JOB-WAITING.jpg', bytes);
    const previewed = await storedRecord('PREVIEW-MADE.jpg', bytes);
    const open = await storedRecord('STILL-OPEN.jpg', bytes);
    for (const id of [lost, waiting, previewed]) expect((await finish(id)).status).toBe(200);
    // What an older version left: a live record whose job was never sent, and one whose job ran.
    await sql`DELETE FROM pgboss.job WHERE name = ${MEDIA_QUEUE} AND singleton_key IN (${mediaJobKey(lost)}, ${mediaJobKey(previewed)})`.execute(
      database.db,
    );
    await database.db
      .updateTable('uploads')
      .set({ preview_status: PreviewStatus.ready })
      .where('id', '=', previewed)
      .execute();

    const sweep = new LostMediaJobSweep({
      uploads: uploadsOn(database.db),
      mediaJobs: (uploadId, db) => queue.enqueueMedia(uploadId, db),
      info: () => {},
      warn: () => {},
    });
    // Records of the earlier tests have their jobs too: only the lost one is queued.
    expect(await sweep.run()).toBe(1);
    expect(await jobsOf(lost)).toEqual([{ state: 'created', data: { uploadId: lost } }]);
    expect(await jobsOf(waiting)).toHaveLength(1);
    expect(await jobsOf(previewed)).toEqual([]);
    expect(await jobsOf(open)).toEqual([]);

    // Twice, or by two processes at once: nothing more.
    expect(await Promise.all([sweep.run(), sweep.run()])).toEqual([0, 0]);
    expect(await jobsOf(lost)).toHaveLength(1);
    expect(await jobsOf(waiting)).toHaveLength(1);
  });

  it(`skips the sweep while more than ${MEDIA_SWEEP_MAX_WAITING} media jobs wait (its query would turn quadratic)`, async () => {
    sendMedia = (uploadId, db) => queue.enqueueMedia(uploadId, db);
    const lost = await storedRecord('LOST-BEHIND-A-FULL-QUEUE.jpg', await makeJpeg(64, 48));
    expect((await finish(lost)).status).toBe(200);
    await sql`DELETE FROM pgboss.job WHERE name = ${MEDIA_QUEUE} AND singleton_key = ${mediaJobKey(lost)}`.execute(
      database.db,
    );
    // A queue that full: jobs of records that are not there, all waiting.
    await sql`INSERT INTO pgboss.job (name, data, singleton_key, policy)
      SELECT ${MEDIA_QUEUE}, jsonb_build_object('uploadId', -g), ${`${mediaJobKey(0)}-`} || g, 'standard'
        FROM generate_series(1, ${MEDIA_SWEEP_MAX_WAITING + 1}) g`.execute(database.db);
    const said: string[] = [];
    const sweep = new LostMediaJobSweep({
      uploads: uploadsOn(database.db),
      mediaJobs: (uploadId, db) => queue.enqueueMedia(uploadId, db),
      info: (_details, message) => said.push(message),
      warn: (_details, message) => said.push(message),
    });
    try {
      expect(await sweep.run()).toBe(0);
      expect(said).toEqual([
        `media sweep skipped: more than ${MEDIA_SWEEP_MAX_WAITING} media jobs are waiting`,
      ]);
      expect(await jobsOf(lost)).toEqual([]);
    } finally {
      await sql`DELETE FROM pgboss.job WHERE name = ${MEDIA_QUEUE} AND singleton_key LIKE ${`${mediaJobKey(0)}-%`}`.execute(
        database.db,
      );
    }
    // With the queue worked down, the next start-up's sweep queues it.
    expect(await sweep.run()).toBe(1);
    expect(await jobsOf(lost)).toHaveLength(1);
  });

  it('runs in the background: a failing database is logged, never thrown, and stop() waits for it', async () => {
    const gone = await createTestDatabase();
    await gone.close();
    const warned: string[] = [];
    const sweep = new LostMediaJobSweep({
      uploads: uploadsOn(gone.db),
      mediaJobs: (uploadId, db) => queue.enqueueMedia(uploadId, db),
      info: () => {},
      warn: (_details, message) => warned.push(message),
    });
    expect(sweep.start()).toBeUndefined();
    await sweep.stop();
    expect(warned).toEqual(['media sweep failed; it runs again at the next start-up']);
  });
});

/** After a restart, the server's start-up sweep queues the lost jobs and its workers make the previews. */
describe('the start-up sweep of lost media jobs (issue 38 item 5)', { timeout: 60_000 }, () => {
  let first: TestApp;
  let restarted: TestApp | undefined;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dam-media-sweep-'));
    first = await createTestApp({ DATA_DIR: dataDir, LOGIN_RATE_LIMIT: '1000' }, { keepDatabase: true });
  });
  afterAll(async () => {
    await restarted?.close();
    await first?.database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('gives every live file its preview after a restart, though its job was lost', async () => {
    const token = await signIn(first.app, ADMIN.email, ADMIN.password);
    // No job queue in the first process: the records go live and no job is written (as lost).
    const ids = await uploadFiles(first, token, [
      { fileName: 'RESTART-1.jpg', bytes: await makeJpeg(80, 60) },
      { fileName: 'RESTART-2.jpg', bytes: await makeJpeg(80, 60) },
    ]);
    await first.close();

    restarted = await createTestApp(
      { DATA_DIR: dataDir, LOGIN_RATE_LIMIT: '1000' },
      { database: first.database, keepDatabase: true, jobs: true },
    );
    for (const id of ids) await restarted.jobs?.mediaDone(id);
    const rows = await restarted.database.db
      .selectFrom('uploads')
      .select('preview_status')
      .where('id', 'in', ids)
      .execute();
    expect(rows.map((r) => r.preview_status)).toEqual([PreviewStatus.ready, PreviewStatus.ready]);
  });
});
