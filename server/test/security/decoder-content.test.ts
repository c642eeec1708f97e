import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { PreviewStatus } from '@dam/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { thumbKeyOf } from '../../src/jobs/media';
import { createStorage } from '../../src/storage/index';
import { LocalStorage } from '../../src/storage/local';
import { givenDepartment, givenSignedInUser, uploadFiles } from '../factories';
import { makeJpeg } from '../fixtures';
import { createTestApp, type TestApp } from '../harness';

/**
 * Issue 38 item 2: content is recognised by its bytes, never its name, and decoders read nothing
 * but the file. A user of department A uploads files whose names promise a picture or a video and
 * whose bytes are an SVG or a playlist pointing at department B's objects (by key beside it, by
 * absolute path, by an http URL to a server of the test's own): no preview is made, none of B's
 * pixels reach A's thumbnail, and nothing is fetched. A JPEG named .png still gets its thumbnail.
 */

/** B's pictures are pure magenta: no test pattern or white background has such pixels. */
const MAGENTA = { r: 255, g: 0, b: 255 };

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Share of an image's pixels that are B's magenta (JPEG-tolerant). */
async function magentaShare(image: Buffer): Promise<number> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let hits = 0;
  for (let i = 0; i < data.length; i += info.channels) {
    if ((data[i] ?? 0) > 200 && (data[i + 1] ?? 255) < 70 && (data[i + 2] ?? 0) > 200) hits += 1;
  }
  return hits / (info.width * info.height);
}

/** A 3-second solid magenta MP4 (ffmpeg). */
function magentaVideo(): Buffer {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dam-fixture-'));
  try {
    const file = path.join(dir, 'b.mp4');
    execFileSync('ffmpeg', [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'color=c=0xff00ff:size=320x240:rate=10:duration=3',
      '-pix_fmt',
      'yuv420p',
      '-c:v',
      'libx264',
      file,
    ]);
    return fs.readFileSync(file);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('decoders read the bytes they were given, and only those (issue 38 item 2)', {
  timeout: 120_000,
}, () => {
  let t: TestApp;
  let storage: LocalStorage;
  let tokenA: string;
  let bPicture: { key: string; file: string };
  let bVideo: { key: string; file: string };
  let peer: http.Server;
  let peerUrl: string;
  const peerRequests: string[] = [];

  const record = (id: number) =>
    t.database.db.selectFrom('uploads').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  /** Uploads one file as A's user and runs its media job; answers its record. */
  async function processedByA(fileName: string, bytes: Buffer) {
    const [id] = await uploadFiles(t, tokenA, [{ fileName, bytes }]);
    await t.jobs!.mediaDone(id!);
    return record(id!);
  }

  /** Whatever thumbnail A's upload got (under its key, whatever the record says): B's pixels absent. */
  async function expectNoneOfBsPixels(storageKey: string): Promise<void> {
    const thumb = storage.pathOf(thumbKeyOf(storageKey));
    if (fs.existsSync(thumb)) expect(await magentaShare(fs.readFileSync(thumb))).toBe(0);
  }

  beforeAll(async () => {
    t = await createTestApp({ SESSION_IDLE_HOURS: '720' }, { jobs: true });
    const created = createStorage(t.config, () => '');
    if (!(created instanceof LocalStorage)) throw new Error('the test reads objects on the local driver');
    storage = created;
    const a = await givenDepartment(t);
    const b = await givenDepartment(t);
    const scopes = { view: 'dept', upload: 'dept', download: 'dept', share: 'dept' } as const;
    tokenA = (await givenSignedInUser(t, { deptId: a.id, scopes })).token;
    const tokenB = (await givenSignedInUser(t, { deptId: b.id, scopes })).token;

    const picture = await sharp({ create: { width: 400, height: 400, channels: 3, background: MAGENTA } })
      .jpeg()
      .toBuffer();
    const [pictureId, videoId] = await uploadFiles(t, tokenB, [
      { fileName: 'secret.jpg', bytes: picture },
      { fileName: 'secret.mp4', bytes: magentaVideo() },
    ]);
    for (const id of [pictureId!, videoId!]) await t.jobs!.mediaDone(id);
    const keyOf = async (id: number) => (await record(id)).storage_key;
    bPicture = { key: await keyOf(pictureId!), file: '' };
    bPicture.file = storage.pathOf(bPicture.key);
    bVideo = { key: await keyOf(videoId!), file: '' };
    bVideo.file = storage.pathOf(bVideo.key);
    // B's own thumbnail is magenta: what A must never get.
    const bThumb = await bytesOf(await storage.read(thumbKeyOf(bPicture.key)));
    expect(await magentaShare(bThumb)).toBeGreaterThan(0.9);

    peer = http.createServer((request, response) => {
      peerRequests.push(String(request.url));
      response.writeHead(200, { 'content-type': 'image/jpeg' });
      response.end(picture);
    });
    await new Promise<void>((listening) => peer.listen(0, '127.0.0.1', listening));
    peerUrl = `http://127.0.0.1:${(peer.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((closed) => peer?.close(closed));
    await t?.close();
  });

  it('an SVG named x.png pointing at B’s picture gets no preview, and none of B’s pixels', async () => {
    // Objects of one day share a folder: librsvg resolved a bare name against the SVG's own folder.
    const beside = path.basename(bPicture.key);
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="400" height="400">
  <rect width="400" height="400" fill="#ffffff"/>
  <image href="${beside}" x="0" y="0" width="400" height="400"/>
  <image xlink:href="../../../${bPicture.key}" x="0" y="0" width="200" height="200"/>
  <image href="file://${bPicture.file}" x="200" y="0" width="200" height="200"/>
  <image href="${peerUrl}/svg.jpg" x="0" y="200" width="200" height="200"/>
</svg>`;
    const row = await processedByA('x.png', Buffer.from(svg));
    await expectNoneOfBsPixels(row.storage_key);
    expect(row.preview_status).toBe(PreviewStatus.none);
    expect(row.thumb_key).toBeNull();
    expect(peerRequests).toEqual([]);
  });

  it('an HLS or concat playlist named .mp4 gets no preview and reads nothing else', async () => {
    const hls = [
      '#EXTM3U',
      '#EXT-X-TARGETDURATION:3',
      '#EXTINF:3,',
      bVideo.file,
      '#EXTINF:3,',
      `${peerUrl}/segment.ts`,
      '#EXT-X-ENDLIST',
      '',
    ].join('\n');
    const concat = `ffconcat version 1.0\nfile '${path.basename(bVideo.key)}'\nfile '${bVideo.file}'\n`;
    for (const [fileName, bytes] of [
      ['clip.mp4', hls],
      ['joined.mp4', concat],
    ] as const) {
      const row = await processedByA(fileName, Buffer.from(bytes));
      await expectNoneOfBsPixels(row.storage_key);
      expect(row.preview_status, fileName).toBe(PreviewStatus.none);
      expect(row.thumb_key, fileName).toBeNull();
      expect(row.play_key, fileName).toBeNull();
    }
    expect(peerRequests).toEqual([]);
  });

  it('a JPEG named .png decodes as what it is: it gets its thumbnail', async () => {
    const row = await processedByA('photo.png', await makeJpeg(800, 600));
    expect(row.preview_status).toBe(PreviewStatus.ready);
    expect({ width: row.width, height: row.height }).toEqual({ width: 800, height: 600 });
    const thumb = await sharp(await bytesOf(await storage.read(row.thumb_key!))).metadata();
    expect(thumb.format).toBe('jpeg');
    expect(Math.max(thumb.width ?? 0, thumb.height ?? 0)).toBe(500);
  });
});
