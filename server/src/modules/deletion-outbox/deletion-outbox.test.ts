import fs from 'node:fs';
import path from 'node:path';
import { endpoints } from '@dam/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resultOf } from '../../../test/call';
import { createFolder, uploadFiles } from '../../../test/factories';
import { makeTiff } from '../../../test/fixtures';
import { createDriverApp, get, post, type TestApp } from '../../../test/harness';
import { previewKeyOf, thumbKeyOf } from '../../jobs/media';
import { playKeyOf } from '../../jobs/video';
import { pageKeyOf } from '../../storage/document-pages';
import { createStorage } from '../../storage/index';
import type { ObjectStorage } from '../../storage/storage';
import { formatSweepReport } from './report';
import { ObjectDeletionsRepository } from './repository';
import { ObjectCleaner, sourceKeyOf } from './service';

const api = (p: string) => `/ske-api/v1_0/${p}`;
const DAY = 24 * 3600_000;

describe('sourceKeyOf', () => {
  it('finds the original of a thumbnail, a preview, a video rendition and a page, and nothing else', () => {
    const key = '2026/01/05/0b7c2f1e-1111-4a4a-9999-123456789abc.tif';
    expect(sourceKeyOf(thumbKeyOf(key))).toBe(key);
    expect(sourceKeyOf(previewKeyOf(key))).toBe(key);
    expect(sourceKeyOf(playKeyOf(key))).toBe(key);
    expect(sourceKeyOf(pageKeyOf(key, 12))).toBe(key);
    expect(sourceKeyOf(key)).toBeNull();
    expect(sourceKeyOf('previews/x.png')).toBeNull();
  });
});

describe.each(['local', 's3'] as const)('deleting for good frees the stored objects (%s)', (driver) => {
  let t: TestApp & { token: string };
  let storage: ObjectStorage;
  let cleaner: ObjectCleaner;

  beforeAll(async () => {
    t = await createDriverApp(driver, { jobs: true });
    storage = createStorage(t.config, () => '');
    cleaner = new ObjectCleaner({
      objects: new ObjectDeletionsRepository(t.database.db),
      storage,
      clock: t.clock,
    });
  });
  afterAll(() => t.close());

  const record = (id: number) =>
    t.database.db.selectFrom('uploads').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const outbox = () => t.database.db.selectFrom('object_deletions').selectAll().execute();
  const exists = async (key: string) => (await storage.stat(key)) !== null;

  /** Uploads a TIFF (original, thumbnail and preview) and waits for its media job. */
  async function uploadWithPreviews(fileName: string) {
    const [id] = await uploadFiles(t, t.token, [{ fileName, bytes: await makeTiff(600, 400) }]);
    await t.jobs!.mediaDone(id!);
    const row = await record(id!);
    const keys = [row.storage_key, row.thumb_key, row.preview_key] as string[];
    expect(keys.every(Boolean)).toBe(true);
    for (const key of keys) expect(await exists(key)).toBe(true);
    return { id: id!, itemId: row.item_id!, keys };
  }

  async function toRecycleBin(itemId: number) {
    const moved = await post(t.app, api('file/batch-del'), { folderIdList: [itemId] }, { token: t.token });
    expect(moved.status).toBe(200);
  }

  it('deleting from the recycle bin deletes the original, thumbnail and preview', async () => {
    const { itemId, keys } = await uploadWithPreviews(`purge-${driver}.tif`);
    await toRecycleBin(itemId);
    // In the recycle bin the bytes stay: the file can be restored.
    for (const key of keys) expect(await exists(key)).toBe(true);
    const purged = await get(t.app, api(`recycle/batch-del?ids=${itemId}`), { token: t.token });
    expect(purged.status).toBe(200);
    for (const key of keys) await t.jobs!.objectDeletionDone(key);
    for (const key of keys) expect(await exists(key)).toBe(false);
    expect((await outbox()).filter((r) => keys.includes(r.key))).toEqual([]);
  });

  it('emptying the recycle bin deletes the objects of everything in it', async () => {
    const a = await uploadWithPreviews(`clear-a-${driver}.tif`);
    const b = await uploadWithPreviews(`clear-b-${driver}.tif`);
    await toRecycleBin(a.itemId);
    await toRecycleBin(b.itemId);
    const cleared = await post(t.app, api('recycle/clear'), undefined, { token: t.token });
    expect(cleared.status).toBe(200);
    const keys = [...a.keys, ...b.keys];
    for (const key of keys) await t.jobs!.objectDeletionDone(key);
    for (const key of keys) expect(await exists(key)).toBe(false);
  });

  it('deleting one upload record of a file deletes its objects and keeps the others', async () => {
    const kept = await uploadWithPreviews(`record-${driver}.tif`);
    const [second] = await uploadFiles(t, t.token, [
      { fileName: `record-${driver}.tif`, bytes: await makeTiff(300, 200) },
    ]);
    await t.jobs!.mediaDone(second!);
    const row = await record(second!);
    const keys = [row.storage_key, row.thumb_key, row.preview_key] as string[];
    const removed = await get(t.app, api(`file/delete-record?id=${second}&folderDataId=${kept.itemId}`), {
      token: t.token,
    });
    expect(removed.status).toBe(200);
    for (const key of keys) await t.jobs!.objectDeletionDone(key);
    for (const key of keys) expect(await exists(key)).toBe(false);
    for (const key of kept.keys) expect(await exists(key)).toBe(true);
  });

  /** Creates a record and starts its multipart upload with one part stored, never finished. */
  async function startedUpload(fileName: string) {
    const bytes = Buffer.alloc(1000, 7);
    const created = await post(
      t.app,
      api('file-upload/upload'),
      { path: '/', uploadDetailDTOS: [{ fileName, fileSize: bytes.length, path: '' }] },
      { token: t.token },
    );
    const id = resultOf(endpoints.createUploads, created.body)[0]!.id;
    await post(t.app, api('file-upload/multipart/start'), { id }, { token: t.token });
    const signed = await post(
      t.app,
      api('file-upload/multipart/sign'),
      { id, partNumbers: [1] },
      { token: t.token },
    );
    const url = resultOf(endpoints.signParts, signed.body).parts[0]!.url;
    const etag = url.startsWith('/')
      ? String(
          (
            await t.app.inject({
              method: 'PUT',
              url,
              payload: bytes,
              headers: { 'content-type': 'application/octet-stream' },
            })
          ).headers.etag,
        )
      : String((await fetch(url, { method: 'PUT', body: bytes })).headers.get('etag'));
    const row = await record(id);
    return {
      id,
      key: row.storage_key,
      multipartId: row.multipart_id!,
      part: { partNumber: 1, size: 1000, etag },
    };
  }

  /**
   * Whether the multipart upload is gone: completing it fails and leaves no object. (s3rver has no
   * AbortMultipartUpload, so on S3 only the object's absence can be checked.)
   */
  async function multipartGone(upload: Awaited<ReturnType<typeof startedUpload>>) {
    if (driver === 's3') return !(await exists(upload.key));
    const completed = await storage
      .completeMultipartUpload(upload.key, upload.multipartId, [upload.part])
      .then(() => true)
      .catch(() => false);
    return !completed && !(await exists(upload.key));
  }

  it('cancelling an upload aborts its multipart upload through the outbox', async () => {
    const upload = await startedUpload(`cancel-${driver}.bin`);
    const cancelled = await post(
      t.app,
      api('file-upload/cancel-upload'),
      { idList: [upload.id] },
      { token: t.token },
    );
    expect(cancelled.status).toBe(200);
    await t.jobs!.objectDeletionDone(upload.key);
    expect(await multipartGone(upload)).toBe(true);
    expect((await outbox()).filter((r) => r.key === upload.key)).toEqual([]);
  });

  it('an upload left unfinished for a week is abandoned: cancelled and its parts freed', async () => {
    const upload = await startedUpload(`abandoned-${driver}.bin`);
    const fresh = await startedUpload(`fresh-${driver}.bin`);
    t.clock.advance(8 * DAY);
    // The fresh one was touched a moment ago (by the clock of the test).
    await t.database.db
      .updateTable('uploads')
      .set({ updated_at: t.clock.now() })
      .where('id', '=', fresh.id)
      .execute();
    const keys = await cleaner.maintain();
    expect(keys).toContain(upload.key);
    expect(keys).not.toContain(fresh.key);
    expect((await record(upload.id)).status).toBe(4);
    expect((await record(fresh.id)).status).toBe(1);
    expect(await cleaner.deleteObject(upload.key)).toBe('deleted');
    expect(await multipartGone(upload)).toBe(true);
  });

  it('re-uploading a cancelled record writes to a fresh key, so its queued deletion cannot hit it', async () => {
    const upload = await startedUpload(`again-${driver}.bin`);
    await post(t.app, api('file-upload/cancel-upload'), { idList: [upload.id] }, { token: t.token });
    await t.jobs!.objectDeletionDone(upload.key);
    const again = await get(t.app, api(`file-upload/reupload?id=${upload.id}&status=0&uploadSchedule=0`), {
      token: t.token,
    });
    expect(again.status).toBe(200);
    expect((await record(upload.id)).storage_key).not.toBe(upload.key);
  });

  it('an object a live record holds is never deleted, even when queued', async () => {
    const { keys } = await uploadWithPreviews(`held-${driver}.tif`);
    await new ObjectDeletionsRepository(t.database.db).enqueueKeys(keys, t.clock.now());
    for (const key of keys) expect(await cleaner.deleteObject(key)).toBe('kept');
    for (const key of keys) expect(await exists(key)).toBe(true);
    expect((await outbox()).filter((r) => keys.includes(r.key))).toEqual([]);
  });

  it('a folder an unfinished upload targets can be deleted for good; the upload is cancelled', async () => {
    const folder = await createFolder(t, t.token, `target-${driver}`);
    const created = await post(
      t.app,
      api('file-upload/upload'),
      { targetFolderId: folder, uploadDetailDTOS: [{ fileName: 'late.bin', fileSize: 10, path: '' }] },
      { token: t.token },
    );
    expect(created.status).toBe(200);
    await toRecycleBin(folder);
    const purged = await get(t.app, api(`recycle/batch-del?ids=${folder}`), { token: t.token });
    expect(purged.status).toBe(200);
    // The upload was heading into a folder deleted for good: it is cancelled.
    const id = resultOf(endpoints.createUploads, created.body)[0]!.id;
    expect(await record(id)).toMatchObject({ status: 4, folder_id: null });
  });

  it('the sweep lists an orphan in a dry run, deletes it with apply, and leaves held objects alone', async () => {
    const held = await uploadWithPreviews(`sweep-${driver}.tif`);
    const orphan = `2020/01/01/orphan-${driver}.bin`;
    await storage.write(orphan, Buffer.alloc(1234, 1), 'application/octet-stream');
    // Another application's object in a shared bucket: never ours to delete.
    const foreign = `backups/other-app-${driver}.bin`;
    await storage.write(foreign, Buffer.alloc(10, 1), 'application/octet-stream');
    const later = new Date(Date.now() + 2 * DAY);

    // Young objects are left alone whatever they are.
    const young = await cleaner.sweep({ apply: false, now: new Date() });
    expect(young.orphans.map((o) => o.key)).not.toContain(orphan);

    const dry = await cleaner.sweep({ apply: false, now: later });
    const found = dry.orphans.find((o) => o.key === orphan);
    expect(found?.size).toBe(1234);
    expect(dry.orphanBytes).toBeGreaterThanOrEqual(1234);
    for (const key of held.keys) expect(dry.orphans.map((o) => o.key)).not.toContain(key);
    expect(await exists(orphan)).toBe(true);
    const text = formatSweepReport(dry, false);
    expect(text).toContain(orphan);
    expect(text).toMatch(/dry run/);

    const applied = await cleaner.sweep({ apply: true, now: later });
    expect(applied.deleted).toBe(applied.orphans.length);
    expect(applied.failed).toEqual([]);
    expect(await exists(orphan)).toBe(false);
    expect(await exists(foreign)).toBe(true);
    expect(applied.foreign).toBeGreaterThanOrEqual(1);
    for (const key of held.keys) expect(await exists(key)).toBe(true);
    expect((await cleaner.sweep({ apply: false, now: later })).orphans).toEqual([]);
  });
});

describe('a failing deletion is retried', () => {
  let t: TestApp & { token: string };
  let storage: ObjectStorage;
  let cleaner: ObjectCleaner;

  beforeAll(async () => {
    t = await createDriverApp('local');
    storage = createStorage(t.config, () => '');
    cleaner = new ObjectCleaner({
      objects: new ObjectDeletionsRepository(t.database.db),
      storage,
      clock: t.clock,
    });
  });
  afterAll(() => t.close());

  it('keeps the outbox row, with the attempt and error, until storage deleted the object', async () => {
    const [id] = await uploadFiles(t, t.token, [{ fileName: 'stuck.bin', bytes: Buffer.alloc(500, 3) }]);
    const row = await t.database.db
      .selectFrom('uploads')
      .selectAll()
      .where('id', '=', id!)
      .executeTakeFirstOrThrow();
    await post(t.app, api('file/batch-del'), { folderIdList: [row.item_id] }, { token: t.token });
    // The disk refuses: the object's path has become a folder with something in it.
    const file = path.join(t.config.DATA_DIR, 'objects', row.storage_key);
    fs.rmSync(file);
    fs.mkdirSync(file);
    fs.writeFileSync(path.join(file, 'blocker'), 'x');
    const purged = await get(t.app, api(`recycle/batch-del?ids=${row.item_id}`), { token: t.token });
    expect(purged.status).toBe(200);
    const outboxRow = () =>
      t.database.db
        .selectFrom('object_deletions')
        .selectAll()
        .where('key', '=', row.storage_key)
        .executeTakeFirst();
    expect(await outboxRow()).toMatchObject({ attempts: 0 });

    await expect(cleaner.deleteObject(row.storage_key)).rejects.toThrow();
    await expect(cleaner.deleteObject(row.storage_key)).rejects.toThrow();
    const failed = await outboxRow();
    expect(failed?.attempts).toBe(2);
    expect(failed?.last_error).toBeTruthy();

    // An hour later the maintenance pass sends it again, and once the disk obliges it is gone.
    t.clock.advance(2 * 3600_000);
    expect(await cleaner.maintain()).toContain(row.storage_key);
    fs.rmSync(file, { recursive: true });
    fs.writeFileSync(file, 'back');
    expect(await cleaner.deleteObject(row.storage_key)).toBe('deleted');
    expect(fs.existsSync(file)).toBe(false);
    expect(await outboxRow()).toBeUndefined();
    // Deleting again is a no-op, and an object already gone counts as deleted.
    expect(await cleaner.deleteObject(row.storage_key)).toBe('nothing');
    await expect(storage.delete(row.storage_key)).resolves.toBeUndefined();
  });
});
