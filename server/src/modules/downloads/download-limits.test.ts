import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { endpoints } from '@dam/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resultOf } from '../../../test/call';
import { createFolder, uploadFiles } from '../../../test/factories';
import { makeJpeg, makePng } from '../../../test/fixtures';
import {
  ADMIN,
  createTestApp,
  post,
  s3Env,
  signIn,
  startS3Server,
  type TestApp,
} from '../../../test/harness';
import { readZip } from '../../../test/zip';

/**
 * Issue 9 item 6: no download can make the server decode or produce more pixels than it can hold.
 * The pixel limit is lowered to 1 MP here so an "over-limit" image is cheap to make; the
 * 20000×20000 case runs in the media pipeline's tests.
 */
describe('download conversions are bounded', () => {
  let t: TestApp;
  let token: string;
  const items: Record<string, number> = {};

  beforeAll(async () => {
    t = await createTestApp({ SESSION_IDLE_HOURS: '720', MAX_IMAGE_PIXELS: '1000000' });
    token = await signIn(t.app, ADMIN.email, ADMIN.password);
    const folderId = await createFolder(t, token, 'Limits');
    const ids = await uploadFiles(
      t,
      token,
      [
        { fileName: 'TINY.jpg', bytes: await makeJpeg(40, 30) },
        { fileName: 'WIDE.png', bytes: await makePng(1600, 1000) },
        { fileName: 'SMALL.png', bytes: await makePng(300, 200) },
      ],
      { targetFolderId: folderId },
    );
    for (const [index, name] of ['TINY', 'WIDE', 'SMALL'].entries()) {
      items[name] = (
        await t.database.db
          .selectFrom('uploads')
          .select('item_id')
          .where('id', '=', ids[index]!)
          .executeTakeFirstOrThrow()
      ).item_id!;
    }
  });
  afterAll(() => t.close());

  const download = (body: Record<string, unknown>, lang = 'en') =>
    t.app.inject({
      method: 'POST',
      url: '/ske-api/v1_0/file/batch-download',
      payload: body,
      headers: { token, lang },
    });

  it('refuses equalScalingPx above 10000 px with a field error, on the ticket and the download', async () => {
    const body = {
      downloadFolderDataDTOList: [{ folderDataId: items.TINY, fileFormatList: ['jpg'] }],
      equalScalingPx: 15000,
    };
    const ticket = await post(t.app, '/ske-api/v1_0/file/download-ticket', body, { token, lang: 'en' });
    expect(ticket.status).toBe(400);
    expect(ticket.body.errorCode).toBe('SE_400');
    expect(ticket.body.errorDesc).toContain('equalScalingPx');
    expect(ticket.body.errorDesc).toContain('10000');
    const direct = await download(body);
    expect(direct.statusCode).toBe(400);
    expect(direct.json().errorCode).toBe('SE_400');
  });

  it('never upscales for equal scaling: a tiny JPEG comes back no larger than it is', async () => {
    const response = await download({
      downloadFolderDataDTOList: [{ folderDataId: items.TINY, fileFormatList: ['jpg'] }],
      equalScalingPx: 5000,
    });
    expect(response.statusCode, response.body.slice(0, 200)).toBe(200);
    expect(await sharp(response.rawPayload).metadata()).toMatchObject({
      format: 'jpeg',
      width: 40,
      height: 30,
    });
    const smaller = await download({
      downloadFolderDataDTOList: [{ folderDataId: items.TINY, fileFormatList: ['jpg'] }],
      equalScalingPx: 20,
    });
    expect(await sharp(smaller.rawPayload).metadata()).toMatchObject({ width: 20, height: 15 });
  });

  it('lets a preset enlarge, since it asks for an exact size, up to 10000 px', async () => {
    const saved = await post(
      t.app,
      '/ske-api/v1_0/download-preset/save',
      { name: 'Marketplace 800', format: 'png', longSidePx: 800, fileNameTemplate: '{name}_{width}' },
      { token },
    );
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const presetId = resultOf(endpoints.saveDownloadPreset, saved.body).id;
    const response = await download({
      downloadFolderDataDTOList: [{ folderDataId: items.TINY, fileFormatList: ['jpg'] }],
      presetId,
    });
    expect(response.statusCode, response.body.slice(0, 200)).toBe(200);
    expect(await sharp(response.rawPayload).metadata()).toMatchObject({
      format: 'png',
      width: 800,
      height: 600,
    });
    const tooLarge = await post(
      t.app,
      '/ske-api/v1_0/download-preset/save',
      { name: 'Poster', format: 'jpg', longSidePx: 15000, fileNameTemplate: '{name}' },
      { token, lang: 'en' },
    );
    expect(tooLarge.status).toBe(400);
    expect(tooLarge.body.errorDesc).toContain('longSidePx');
  });

  it('answers SEDL_04 for converting an image beyond the pixel limit, and names it in a zip', async () => {
    const single = await download(
      { downloadFolderDataDTOList: [{ folderDataId: items.WIDE, fileFormatList: ['jpg'] }] },
      'en',
    );
    expect(single.statusCode).toBe(422);
    expect(single.json()).toMatchObject({ success: false, errorCode: 'SEDL_04' });
    expect(single.json().errorDesc).toMatch(/too large/i);
    const zh = await download(
      { downloadFolderDataDTOList: [{ folderDataId: items.WIDE, fileFormatList: ['jpg'] }] },
      'zh',
    );
    expect(zh.json().errorDesc).toMatch(/像素/);

    const zipped = await download({
      downloadFolderDataDTOList: [
        { folderDataId: items.WIDE, fileFormatList: ['jpg'] },
        { folderDataId: items.SMALL, fileFormatList: ['jpg'] },
      ],
    });
    expect(zipped.statusCode).toBe(200);
    const zip = await readZip(zipped.rawPayload);
    expect(await sharp(zip.get('SMALL.jpg')).metadata()).toMatchObject({ width: 300, height: 200 });
    expect(zip.get('WIDE.jpg')?.length).toBe(0);
    expect(zip.get('_download-problems.txt')?.toString()).toMatch(/WIDE\.jpg: .*too large/i);

    // The original bytes need no decoding and are still handed out.
    const original = await download({
      downloadFolderDataDTOList: [{ folderDataId: items.WIDE, fileFormatList: ['png'] }],
    });
    expect(original.statusCode).toBe(200);
    expect((await sharp(original.rawPayload).metadata()).width).toBe(1600);
  });
});

/**
 * Issue 9 item 6 (review): on S3 a conversion used to copy the whole object to a temporary file
 * before its header was read. The store is the real S3 test server behind a proxy that records
 * every GET, so the test sees which bytes were asked for.
 */
describe('download conversions on S3 read the header first', () => {
  let t: TestApp;
  let token: string;
  let s3: Awaited<ReturnType<typeof startS3Server>>;
  let proxy: http.Server;
  const gets: Array<{ url: string; range: string | undefined }> = [];

  beforeAll(async () => {
    s3 = await startS3Server();
    const target = new URL(s3.endpoint);
    proxy = http.createServer((request, response) => {
      if (request.method === 'GET') gets.push({ url: request.url ?? '', range: request.headers.range });
      const forwarded = http.request(
        {
          host: target.hostname,
          port: target.port,
          method: request.method,
          path: request.url,
          headers: request.headers,
        },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        },
      );
      request.pipe(forwarded);
    });
    await new Promise<void>((listening) => proxy.listen(0, '127.0.0.1', listening));
    const { port } = proxy.address() as AddressInfo;
    t = await createTestApp({
      SESSION_IDLE_HOURS: '720',
      MAX_IMAGE_PIXELS: '1000000',
      ...s3Env({ endpoint: `http://127.0.0.1:${port}`, bucket: s3.bucket }),
    });
    token = await signIn(t.app, ADMIN.email, ADMIN.password);
  });
  afterAll(async () => {
    await t.close();
    await new Promise((closed) => proxy.close(closed));
    await s3.close();
  });

  const itemOf = async (uploadId: number) => {
    const row = await t.database.db
      .selectFrom('uploads')
      .select(['item_id', 'storage_key'])
      .where('id', '=', uploadId)
      .executeTakeFirstOrThrow();
    return { itemId: row.item_id!, key: row.storage_key };
  };
  const convert = (itemId: number) =>
    t.app.inject({
      method: 'POST',
      url: '/ske-api/v1_0/file/batch-download',
      payload: { downloadFolderDataDTOList: [{ folderDataId: itemId, fileFormatList: ['jpg'] }] },
      headers: { token, lang: 'en' },
    });

  it('refuses an over-limit image from its first 64 KiB, never fetching the whole object', async () => {
    // Noise does not compress: about 4.8 MB of PNG, far more than the header read.
    const noise = Buffer.alloc(1600 * 1000 * 3);
    for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
    const wide = await sharp(noise, { raw: { width: 1600, height: 1000, channels: 3 } })
      .png()
      .toBuffer();
    const [id] = await uploadFiles(t, token, [{ fileName: 'WIDE.png', bytes: wide }]);
    const { itemId, key } = await itemOf(id!);
    gets.length = 0;
    const response = await convert(itemId);
    expect(response.statusCode).toBe(422);
    expect(response.json().errorCode).toBe('SEDL_04');
    const ofObject = gets.filter((get) => get.url.includes(key));
    expect(ofObject).toEqual([{ url: expect.any(String), range: 'bytes=0-65535' }]);
  });

  it('still converts an image within the limit, copying it once its header is read', async () => {
    const [id] = await uploadFiles(t, token, [{ fileName: 'SMALL.png', bytes: await makePng(300, 200) }]);
    const { itemId, key } = await itemOf(id!);
    gets.length = 0;
    const response = await convert(itemId);
    expect(response.statusCode, response.body.slice(0, 200)).toBe(200);
    expect(await sharp(response.rawPayload).metadata()).toMatchObject({
      format: 'jpeg',
      width: 300,
      height: 200,
    });
    expect(gets.filter((get) => get.url.includes(key)).map((get) => get.range)).toEqual([
      'bytes=0-65535',
      undefined,
    ]);
  });
});
