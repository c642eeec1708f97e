import type { Readable } from 'node:stream';
import { endpoints, PreviewStatus } from '@dam/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resultOf } from '../../test/call';
import { uploadFiles } from '../../test/factories';
import { makeCorruptJpeg, makeJpeg, makeMp4, makePdf, makePng, makePsd, makeTiff } from '../../test/fixtures';
import { ADMIN, createTestApp, get, signIn, type TestApp } from '../../test/harness';
import { createStorage } from '../storage/index';

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

// Each case runs real programs (ffmpeg, pdftoppm) through the queue; on a CI machine whose two
// cores the whole suite shares, a case that takes a second here once took over 30 s (stop 23).
describe('media pipeline (real pg-boss queue, sharp, ag-psd, pdftoppm, ffmpeg)', { timeout: 120_000 }, () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp({ SESSION_IDLE_HOURS: '720' }, { jobs: true });
    token = await signIn(t.app, ADMIN.email, ADMIN.password);
  });
  afterAll(() => t.close());

  const record = (id: number) =>
    t.database.db.selectFrom('uploads').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it.each([
    ['photo.jpg', () => makeJpeg(1600, 1200), { width: 1600, height: 1200 }, false],
    ['shot.png', () => makePng(800, 600), { width: 800, height: 600 }, false],
    ['scan.tif', () => makeTiff(1200, 900), { width: 1200, height: 900 }, true],
    ['layout.psd', () => makePsd(640, 480), { width: 640, height: 480 }, true],
    ['spec.pdf', async () => makePdf(), null, true],
    ['clip.mp4', async () => makeMp4(), { width: 320, height: 240 }, true],
  ] as const)('makes a JPEG thumbnail within 500×500 of %s', async (fileName, make, size, withPreview) => {
    const [id] = await uploadFiles(t, token, [{ fileName, bytes: await make() }]);
    await t.jobs!.mediaDone(id!);
    const row = await record(id!);
    expect(row.preview_status).toBe(PreviewStatus.ready);
    if (size) expect({ width: row.width, height: row.height }).toEqual(size);
    const storage = createStorage(t.config, () => '');
    const thumb = await sharp(await bytesOf(await storage.read(row.thumb_key!))).metadata();
    expect(thumb.format).toBe('jpeg');
    expect(Math.max(thumb.width ?? 0, thumb.height ?? 0)).toBeLessThanOrEqual(500);
    expect(Math.max(thumb.width ?? 0, thumb.height ?? 0)).toBeGreaterThan(100);
    expect(row.preview_key !== null).toBe(withPreview);
    const item = await t.database.db
      .selectFrom('items')
      .select('cover_key')
      .where('id', '=', row.item_id!)
      .executeTakeFirstOrThrow();
    expect(item.cover_key).toBe(row.thumb_key);
  });

  it('marks a corrupt image as damaged, keeps the record, and the queue goes on', async () => {
    const [broken, fine] = await uploadFiles(t, token, [
      { fileName: 'broken.jpg', bytes: makeCorruptJpeg() },
      { fileName: 'after-broken.png', bytes: await makePng(300, 200) },
    ]);
    await t.jobs!.mediaDone(broken!);
    await t.jobs!.mediaDone(fine!);
    expect((await record(broken!)).preview_status).toBe(PreviewStatus.damaged);
    expect((await record(broken!)).status).toBe(2);
    expect((await record(fine!)).preview_status).toBe(PreviewStatus.ready);
  });

  it('lists the file with a signed thumbnail URL the browser can load without a token header', async () => {
    const [id] = await uploadFiles(t, token, [{ fileName: 'listed.jpg', bytes: await makeJpeg(900, 600) }]);
    await t.jobs!.mediaDone(id!);
    const listing = await get(t.app, '/ske-api/v1_0/file/all-file-v2?folderDataId=all&pageSize=200', {
      token,
    });
    const item = resultOf(endpoints.folderListing, listing.body).list.find((i) => i.name === 'listed');
    expect(item?.compactUrl).toMatch(/^\/ske-api\/v1_0\/media\?token=/);
    const image = await t.app.inject({ method: 'GET', url: item!.compactUrl! });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/jpeg');
    expect((await sharp(image.rawPayload).metadata()).width).toBe(500);
    const partial = await t.app.inject({
      method: 'GET',
      url: item!.compactUrl!,
      headers: { range: 'bytes=0-9' },
    });
    expect(partial.statusCode).toBe(206);
    expect(partial.rawPayload.length).toBe(10);
    const forged = await t.app.inject({
      method: 'GET',
      url: item!.compactUrl!.replace(/token=(.)/, (_m, c: string) => `token=${c === 'e' ? 'f' : 'e'}`),
    });
    expect(forged.statusCode).toBe(403);
  });

  it('gives formats without a preview a "none" state rather than a failure', async () => {
    const [id] = await uploadFiles(t, token, [
      { fileName: 'notes.docx', bytes: Buffer.from('not really a document') },
    ]);
    await t.jobs!.mediaDone(id!);
    expect((await record(id!)).preview_status).toBe(PreviewStatus.none);
  });
});
