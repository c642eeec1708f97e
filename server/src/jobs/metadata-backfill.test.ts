import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { endpoints, MetadataStatusCode } from '@dam/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../test/call';
import { readWithExiftool, writeWithExiftool } from '../../test/exiftool-cli';
import { uploadFiles } from '../../test/factories';
import { makeCorruptJpeg, makeJpeg, makePdf, makePng } from '../../test/fixtures';
import { ADMIN, createTestApp, s3Env, signIn, startS3Server, type TestApp } from '../../test/harness';
import type { ManualClock } from '../lib/clock';
import { EmbeddedMetadataTool } from '../modules/metadata/exiftool';
import { MetadataReader } from '../modules/metadata/reader';
import { MetadataRepository } from '../modules/metadata/repository';
import { createStorage } from '../storage/index';
import { LocalStorage } from '../storage/local';
import { MetadataBackfill } from './metadata-backfill';
import { JOB_SCHEMA, METADATA_BACKFILL_QUEUE } from './queue';

/**
 * Records uploaded before issue 42 have no metadata row: made here by uploading files (the media
 * job reads them) and deleting the rows it wrote, so the back-fill must write them again, the
 * same. Debian's own ExifTool writes the files' metadata.
 */
describe.each(['local', 's3'] as const)(
  'metadata back-fill of files uploaded before issue 42 (%s driver)',
  (driver) => {
    let t: TestApp;
    let token: string;
    let s3: Awaited<ReturnType<typeof startS3Server>> | null = null;
    const tool = new EmbeddedMetadataTool();
    beforeAll(async () => {
      s3 = driver === 's3' ? await startS3Server() : null;
      // The app's own back-fill stays off: this test runs the one it watches.
      t = await createTestApp(
        { SESSION_IDLE_HOURS: '720', METADATA_BACKFILL: 'false', ...(s3 ? s3Env(s3) : {}) },
        { jobs: true },
      );
      token = await signIn(t.app, ADMIN.email, ADMIN.password);
    }, 60_000);
    afterAll(async () => {
      await tool.end();
      await t.close();
      await s3?.close();
    });

    it('reads every finished record once, oldest first, a batch at a time, from its original bytes, saying how far it is; a damaged or missing file does not stop it', {
      timeout: 180_000,
    }, async () => {
      const jpegs = await Promise.all(
        [1, 2, 3, 4].map(async (n) =>
          writeWithExiftool(await makeJpeg(160 + n, 120), 'jpg', [
            '-Model=Canon EOS R5',
            `-XMP-dc:Title=旧照 ${n}`,
            '-XMP-dc:Subject=archive',
            `-DateTimeOriginal=2019:0${n}:01 08:00:00`,
          ]),
        ),
      );
      const files = [
        ...jpegs.map((bytes, n) => ({ fileName: `old-${n + 1}.jpg`, bytes })),
        {
          fileName: 'old.png',
          bytes: await writeWithExiftool(await makePng(120, 90), 'png', ['-XMP-dc:Creator=张三']),
        },
        {
          fileName: 'manual.pdf',
          bytes: await writeWithExiftool(makePdf(2), 'pdf', ['-PDF:Title=产品手册']),
        },
        { fileName: 'notes.txt', bytes: Buffer.from('nothing embedded here') },
        { fileName: 'broken.jpg', bytes: makeCorruptJpeg() },
        { fileName: 'lost.jpg', bytes: jpegs[0]! },
      ];
      const ids = await uploadFiles(t, token, files);
      for (const id of ids) await t.jobs!.mediaDone(id);
      const db = t.database.db;
      const rowsOf = () =>
        db
          .selectFrom('upload_metadata')
          .selectAll()
          .where('upload_id', 'in', ids)
          .orderBy('upload_id')
          .execute();
      // What the media job read at upload: the back-fill must come to the same.
      const atUpload = await rowsOf();
      expect(atUpload.map((row) => row.upload_id)).toEqual(ids);
      await db.deleteFrom('upload_metadata').where('upload_id', 'in', ids).execute();
      // One record's object is gone from the store.
      const lostId = ids.at(-1)!;
      const lost = await db
        .selectFrom('uploads')
        .select('storage_key')
        .where('id', '=', lostId)
        .executeTakeFirstOrThrow();
      const storage = createStorage(t.config, () => '');
      await storage.delete(lost.storage_key);

      const repo = new MetadataRepository(db);
      expect(await repo.progress()).toEqual({ done: 0, total: files.length });
      const screen = async () =>
        (await call(t.app, endpoints.jobsOverview, { token })).backfills.find((b) => b.kind === 'metadata');
      expect(await screen()).toEqual({ kind: 'metadata', done: 0, total: files.length });

      const lines: string[] = [];
      const warnings: string[] = [];
      const handedOut: number[] = [];
      const reader = new MetadataReader({ repo, tool, warn: (_details, message) => warnings.push(message) });
      const backfill = (now = () => new Date()) =>
        new MetadataBackfill(
          {
            repo,
            // The real reader, watched: which record it is given, in which order.
            reader: {
              read: (uploadId, file) => {
                handedOut.push(uploadId);
                return reader.read(uploadId, file);
              },
              nothingToRead: (uploadId) => {
                handedOut.push(uploadId);
                return reader.nothingToRead(uploadId);
              },
            },
            stopped: () => tool.stopped,
            storage,
            localPath: (key) => (storage instanceof LocalStorage ? storage.pathOf(key) : null),
            info: (_details, message) => lines.push(message),
            warn: (_details, message) => warnings.push(message),
            now,
          },
          3,
        );
      // A first process does two batches and stops; a second one (a restart) finishes.
      const first = backfill();
      expect(await first.runBatch()).toBe(true);
      expect(await first.runBatch()).toBe(true);
      expect(await repo.progress()).toEqual({ done: 6, total: files.length });
      // The second one's clock runs six minutes a call: each batch ends after one record, well
      // inside the job's time, and the next goes on from there.
      let clock = Date.now();
      const second = backfill(() => {
        clock += 6 * 60_000;
        return new Date(clock);
      });
      const answers: boolean[] = [];
      for (let more = true; more; ) {
        more = await second.runBatch();
        answers.push(more);
      }
      expect(answers).toEqual([true, true, false]);

      // Each record once, oldest first; the lost one never reached the reader.
      expect(handedOut).toEqual(ids.slice(0, -1));
      const rows = await rowsOf();
      const withoutTime = (list: typeof rows) => list.map(({ read_at: _readAt, ...row }) => row);
      expect(withoutTime(rows.slice(0, -1))).toEqual(withoutTime(atUpload.slice(0, -1)));
      expect(rows.at(-1)).toMatchObject({
        upload_id: lostId,
        status: MetadataStatusCode.failed,
        reason: 'the stored file is missing',
      });
      expect(warnings.some((message) => message === 'metadata back-fill: the stored file is missing')).toBe(
        true,
      );
      // What the rows hold is what an independent ExifTool reads from the same bytes.
      const independent = await readWithExiftool(jpegs[1]!, 'jpg');
      expect(rows[1]).toMatchObject({
        camera: independent['IFD0:Model'],
        title: independent['XMP-dc:Title'],
        keywords: ['archive'],
      });
      const byName = new Map(files.map((file, index) => [file.fileName, rows[index]!]));
      expect(byName.get('old.png')).toMatchObject({ status: MetadataStatusCode.ready, creator: '张三' });
      expect(byName.get('manual.pdf')).toMatchObject({
        status: MetadataStatusCode.ready,
        title: '产品手册',
        page_count: 2,
      });
      expect(byName.get('notes.txt')).toMatchObject({ status: MetadataStatusCode.none });
      // ExifTool reads what it can of a damaged JPEG (nothing) and says so; the run went on past it.
      expect(byName.get('broken.jpg')).toMatchObject({
        status: MetadataStatusCode.ready,
        title: null,
        camera: null,
      });

      expect(
        lines.filter((line) => /^metadata back-fill: [\d,]+ of [\d,]+ \(\d+\.\d %\), \d+\/s/.test(line))
          .length,
      ).toBeGreaterThan(0);
      expect(lines.at(-2)).toMatch(/^metadata back-fill: 9 of 9 \(100\.0 %\)/);
      expect(lines.at(-1)).toBe('metadata back-fill: done');
      expect(await repo.progress()).toEqual({ done: files.length, total: files.length });
      (t.clock as ManualClock).advance(60_000);
      expect(await screen()).toEqual({ kind: 'metadata', done: files.length, total: files.length });
      // Nothing is left, not even the missing file (its `failed` row stands).
      expect(await backfill().runBatch()).toBe(false);
      expect(handedOut).toHaveLength(files.length - 1);
    });
  },
);

describe('metadata back-fill started with the platform', () => {
  it('runs by itself when a process that works jobs starts, and reads what an earlier version left unread', {
    timeout: 180_000,
  }, async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dam-test-'));
    const env = { SESSION_IDLE_HOURS: '720', DATA_DIR: dataDir };
    // An earlier version: files uploaded and made into thumbnails, their metadata never read.
    const before = await createTestApp(
      { ...env, METADATA_BACKFILL: 'false' },
      { jobs: true, keepDatabase: true },
    );
    let after: TestApp | null = null;
    try {
      const token = await signIn(before.app, ADMIN.email, ADMIN.password);
      const bytes = await writeWithExiftool(await makeJpeg(200, 150), 'jpg', ['-XMP-dc:Title=升级前']);
      const ids = await uploadFiles(before, token, [
        { fileName: 'before-1.jpg', bytes },
        { fileName: 'before-2.txt', bytes: Buffer.from('text') },
      ]);
      for (const id of ids) await before.jobs!.mediaDone(id);
      await before.database.db.deleteFrom('upload_metadata').where('upload_id', 'in', ids).execute();
      await before.close();
      // The new version starts on the same database and store, the back-fill on by default.
      after = await createTestApp(env, { jobs: true, database: before.database });
      const queued = await sql<{ id: string }>`SELECT id FROM ${sql.table(`${JOB_SCHEMA}.job`)}
        WHERE name = ${METADATA_BACKFILL_QUEUE} ORDER BY created_on DESC LIMIT 1`.execute(after.database.db);
      await after.jobs!.jobEnded(METADATA_BACKFILL_QUEUE, queued.rows[0]!.id, 'completed');
      const rows = await after.database.db
        .selectFrom('upload_metadata')
        .select(['upload_id', 'status', 'title'])
        .where('upload_id', 'in', ids)
        .orderBy('upload_id')
        .execute();
      expect(rows).toEqual([
        { upload_id: ids[0], status: MetadataStatusCode.ready, title: '升级前' },
        { upload_id: ids[1], status: MetadataStatusCode.none, title: null },
      ]);
    } finally {
      await after?.close();
      if (!after) await before.database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
