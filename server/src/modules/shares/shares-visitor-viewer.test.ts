import { endpoints, PreviewStatus } from '@dam/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, resultOf } from '../../../test/call';
import {
  createFolder,
  givenFiles,
  givenProcessedFile,
  givenShare,
  uniqueName,
} from '../../../test/factories';
import { makeJpeg, makePdf, makeVideo } from '../../../test/fixtures';
import { ADMIN, createTestApp, get, post, signIn, type TestApp } from '../../../test/harness';
import { MEDIA_BEARER_CACHE_MS, MEDIA_RIGHTS_CACHE_MS } from '../media/rights';

/**
 * Issue 39 item 6: a share link's visitor views a video and a PDF as a signed-in user does (the
 * video's rendition, the PDF's page images), through media URLs made for the link, for files
 * inside the link only and only while the link lives. Real queue, ffmpeg and pdftoppm.
 */
describe('share links: the visitor views videos and PDF pages', () => {
  let t: TestApp;
  let token: string;
  let video: number;
  let pdf: number;
  let folder: number;
  let outside: number;

  beforeAll(async () => {
    t = await createTestApp({ SESSION_IDLE_HOURS: '720' }, { jobs: true });
    token = await signIn(t.app, ADMIN.email, ADMIN.password);
    // A MOV plays from its H.264 rendition, not the original.
    video = (
      await givenProcessedFile(t, token, { fileName: `${uniqueName('walk')}.mov`, bytes: makeVideo('mov') })
    ).itemId;
    pdf = (
      await givenProcessedFile(t, token, { fileName: `${uniqueName('lookbook')}.pdf`, bytes: makePdf(3) })
    ).itemId;
    folder = await createFolder(t, token, uniqueName('Folder'));
    [outside] = (await givenFiles(t, token, [
      { fileName: `${uniqueName('other')}.jpg`, bytes: await makeJpeg(64, 48) },
    ])) as [number];
  }, 120_000);
  afterAll(() => t.close());

  /** A public link of `ids`, opened by a visitor: its id and the visitor's token. */
  const opened = async (ids: number[]) => {
    const link = await givenShare(t, token, ids);
    const visit = await get(t.app, `/ske-api/v1_0/user/share/random/${link.code}`, { lang: 'en' });
    return { link, visitorToken: (visit.body.result as { shareToken: string }).shareToken };
  };
  const viewFile = (visitorToken: string | null, folderDataId: number) =>
    post(
      t.app,
      endpoints.shareFile.path,
      { folderDataId },
      visitorToken ? { 'share-token': visitorToken, lang: 'en' } : { lang: 'en' },
    );
  const fetchMedia = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers });

  it('streams the video rendition of a file in the link, with byte ranges', async () => {
    const { visitorToken } = await opened([video, pdf]);
    const answer = await viewFile(visitorToken, video);
    expect(answer.status).toBe(200);
    const file = resultOf(endpoints.shareFile, answer.body);
    expect(file.name).toMatch(/^walk-/);
    expect(file.fileFormat).toBe('mov');
    expect(file.playStatus).toBe(PreviewStatus.ready);
    expect(file.playUrl).toMatch(/^\/ske-api\/v1_0\/media\?token=/);
    expect(file.pageUrls).toEqual([]);
    const whole = await fetchMedia(file.playUrl as string);
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-type']).toBe('video/mp4');
    const part = await fetchMedia(file.playUrl as string, { range: 'bytes=0-99' });
    expect(part.statusCode).toBe(206);
    expect(part.rawPayload.equals(whole.rawPayload.subarray(0, 100))).toBe(true);
  });

  it("reads every page of a PDF in the link, as the signed-in viewer's page images", async () => {
    const { visitorToken } = await opened([video, pdf]);
    const answer = await viewFile(visitorToken, pdf);
    expect(answer.status).toBe(200);
    const file = resultOf(endpoints.shareFile, answer.body);
    expect(file.pageCount).toBe(3);
    expect(file.playUrl).toBeNull();
    const signedIn = await call(t.app, endpoints.fileDetail, { token, query: { id: pdf } });
    expect(file.pageUrls).toHaveLength(signedIn.pageUrls.length);
    for (const url of file.pageUrls) {
      const page = await fetchMedia(url);
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toBe('image/jpeg');
    }
    // Pages differ (page 1 blue, 2 red, 3 green): not the first page three times.
    const bodies = await Promise.all(file.pageUrls.map(async (url) => (await fetchMedia(url)).rawPayload));
    expect(new Set(bodies.map((b) => b.toString('base64'))).size).toBe(3);
  });

  it('refuses a file outside the link, a folder, and a call without a visitor token', async () => {
    const { visitorToken } = await opened([video]);
    const foreign = await viewFile(visitorToken, outside);
    expect(foreign.status).toBe(403);
    expect(foreign.body).toMatchObject({ errorCode: 'SE_502' });
    // In the link's owner's tree, but not in this link.
    const otherSharedFile = await viewFile(visitorToken, pdf);
    expect(otherSharedFile.body).toMatchObject({ errorCode: 'SE_502' });
    const unknown = await viewFile(visitorToken, 987_654_321);
    expect(unknown.body).toMatchObject({ errorCode: 'SE_502' });
    const withFolder = await opened([folder]);
    expect((await viewFile(withFolder.visitorToken, folder)).body).toMatchObject({ errorCode: 'SE_404' });
    const anonymous = await viewFile(null, video);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ errorCode: 'SESH_05' });
  });

  it('stops once the link is stopped: the call and the media URLs already handed out', async () => {
    const { link, visitorToken } = await opened([video, pdf]);
    const played = resultOf(endpoints.shareFile, (await viewFile(visitorToken, video)).body);
    const paged = resultOf(endpoints.shareFile, (await viewFile(visitorToken, pdf)).body);
    expect((await fetchMedia(played.playUrl as string)).statusCode).toBe(200);
    await call(t.app, endpoints.cancelShare, { token, query: { id: link.id } });
    // The media endpoint reuses its answers this long.
    t.clock.advance(Math.max(MEDIA_BEARER_CACHE_MS, MEDIA_RIGHTS_CACHE_MS) + 1);
    const after = await viewFile(visitorToken, video);
    expect(after.body).toMatchObject({ errorCode: 'SESH_01' });
    expect((await fetchMedia(played.playUrl as string)).statusCode).toBe(403);
    expect((await fetchMedia(paged.pageUrls[0] as string)).statusCode).toBe(403);
  });
});
