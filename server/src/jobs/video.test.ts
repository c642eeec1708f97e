import { endpoints, PreviewStatus } from '@dam/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../test/call';
import { givenProcessedFile, uniqueName } from '../../test/factories';
import { makeVideo } from '../../test/fixtures';
import { ADMIN, createTestApp, signIn, type TestApp } from '../../test/harness';
import { createStorage } from '../storage/index';

/** The box types at the top level of an MP4 (ftyp, moov, mdat…), in order. */
function topLevelBoxes(bytes: Buffer): string[] {
  const boxes: string[] = [];
  for (let at = 0; at + 8 <= bytes.length && boxes.length < 20; ) {
    const size = bytes.readUInt32BE(at);
    boxes.push(bytes.toString('latin1', at + 4, at + 8));
    if (size < 8) break;
    at += size;
  }
  return boxes;
}

describe('videos play in the viewer (real queue, ffprobe, ffmpeg)', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp({ SESSION_IDLE_HOURS: '720' }, { jobs: true });
    token = await signIn(t.app, ADMIN.email, ADMIN.password);
  });
  afterAll(() => t.close());

  const uploadVideo = (format: 'mp4' | 'mov' | 'avi' | 'mkv' | 'webm') =>
    givenProcessedFile(t, token, {
      fileName: `${uniqueName(`walk-${format}`)}.${format}`,
      bytes: makeVideo(format),
    });

  it.each(['mov', 'avi', 'mkv'] as const)(
    'makes an H.264 MP4 of a %s, streamable from its start, that the player can seek in',
    async (format) => {
      const { itemId, upload } = await uploadVideo(format);
      const detail = await call(t.app, endpoints.fileDetail, { token, query: { id: itemId } });
      expect(detail.playStatus).toBe(PreviewStatus.ready);
      expect(detail.playUrl).toMatch(/^\/ske-api\/v1_0\/media\?token=/);
      const whole = await t.app.inject({ method: 'GET', url: detail.playUrl as string });
      expect(whole.statusCode).toBe(200);
      expect(whole.headers['content-type']).toBe('video/mp4');
      // faststart: the index (moov) comes before the media data, so playback starts at once.
      const boxes = topLevelBoxes(whole.rawPayload);
      expect(boxes[0]).toBe('ftyp');
      expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat'));
      const seek = await t.app.inject({
        method: 'GET',
        url: detail.playUrl as string,
        headers: { range: 'bytes=100-199' },
      });
      expect(seek.statusCode).toBe(206);
      expect(seek.rawPayload.equals(whole.rawPayload.subarray(100, 200))).toBe(true);
      // The original stays what was uploaded; the rendition is stored beside it.
      const row = await t.database.db
        .selectFrom('uploads')
        .select(['play_key', 'play_status'])
        .where('id', '=', upload.id)
        .executeTakeFirstOrThrow();
      expect(row.play_key).toBe(`previews/${upload.storage_key}.play.mp4`);
    },
  );

  it('plays an MP4 or WebM browsers can play as it is, without a rendition', async () => {
    for (const format of ['mp4', 'webm'] as const) {
      const { itemId, upload } = await uploadVideo(format);
      const detail = await call(t.app, endpoints.fileDetail, { token, query: { id: itemId } });
      expect(detail.playStatus).toBe(PreviewStatus.ready);
      const row = await t.database.db
        .selectFrom('uploads')
        .select('play_key')
        .where('id', '=', upload.id)
        .executeTakeFirstOrThrow();
      expect(row.play_key).toBeNull();
      const played = await t.app.inject({ method: 'GET', url: detail.playUrl as string });
      expect(played.headers['content-type']).toBe(format === 'mp4' ? 'video/mp4' : 'video/webm');
    }
  });

  it('removes the rendition with the file when the recycle bin is emptied', async () => {
    const { itemId, upload } = await uploadVideo('mov');
    const key = `previews/${upload.storage_key}.play.mp4`;
    const storage = createStorage(t.config, () => '');
    expect(await storage.stat(key)).not.toBeNull();
    await call(t.app, endpoints.deleteItems, { token, body: { folderIdList: [itemId] } });
    await call(t.app, endpoints.emptyRecycleBin, { token });
    await t.jobs!.objectDeletionDone(key);
    expect(await storage.stat(key)).toBeNull();
  });
});
