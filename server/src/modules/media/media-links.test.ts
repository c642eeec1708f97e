import { endpoints, type FileDetail } from '@dam/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, resultOf } from '../../../test/call';
import { createFolder, givenUser, uploadFiles } from '../../../test/factories';
import { makePng } from '../../../test/fixtures';
import {
  ADMIN,
  createTestApp,
  get,
  post,
  s3Env,
  signIn,
  startS3Server,
  type TestApp,
} from '../../../test/harness';
import { ManualClock } from '../../lib/clock';
import { MEDIA_BEARER_CACHE_MS } from './rights';

/**
 * Issue 9 item 10: signed media links die with their reason. Local-driver links carry the
 * session (or, for share-link visitors, the link) they were made for and are refused once it is
 * gone; S3 presigned links last minutes, not hours (5 to 10 since issue 38 item 6).
 */
const everything = { view: 'all', upload: 'all', download: 'all', share: 'all' } as const;

const itemOf = async (t: TestApp, uploadId: number) =>
  (
    await t.database.db
      .selectFrom('uploads')
      .select('item_id')
      .where('id', '=', uploadId)
      .executeTakeFirstOrThrow()
  ).item_id as number;

describe('media links on the local driver', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp({ SESSION_IDLE_HOURS: '720', LOGIN_RATE_LIMIT: '1000' }, { jobs: true });
    admin = await signIn(t.app, ADMIN.email, ADMIN.password);
  });
  afterAll(() => t.close());

  const detail = async (token: string, id: number) => {
    const response = await get(t.app, `/ske-api/v1_0/file/detail?id=${id}`, { token });
    expect(response.status).toBe(200);
    return resultOf(endpoints.fileDetail, response.body);
  };
  const links = (d: FileDetail) => [d.url, d.previewUrl, d.compactUrl] as string[];
  const fetchStatus = async (url: string) => (await t.app.inject({ method: 'GET', url })).statusCode;

  it('die when the session that got them signs out, and when their user is deleted', async () => {
    const user = await givenUser(t.database, { scopes: everything });
    let token = await signIn(t.app, user.email, user.password);
    const [uploadId] = await uploadFiles(t, token, [
      { fileName: `signed-${Date.now()}.png`, bytes: await makePng(300, 200) },
    ]);
    await t.jobs!.mediaDone(uploadId!);
    const id = await itemOf(t, uploadId!);

    const first = links(await detail(token, id));
    for (const url of first) {
      expect(url).toMatch(/^\/ske-api\/v1_0\/media\?token=/);
      expect(await fetchStatus(url)).toBe(200);
    }
    expect((await post(t.app, '/security-api/sign-out', undefined, { token })).status).toBe(200);
    // Whether a bearer is alive is reused for MEDIA_BEARER_CACHE_MS.
    t.clock.advance(MEDIA_BEARER_CACHE_MS + 1);
    for (const url of first) expect(await fetchStatus(url), url).toBe(403);

    // A new session gets working links; deleting the user ends them too.
    token = await signIn(t.app, user.email, user.password);
    const second = links(await detail(token, id));
    for (const url of second) expect(await fetchStatus(url)).toBe(200);
    const deleted = await post(t.app, '/security-api/delete-user', { userId: user.id }, { token: admin });
    expect(deleted.status).toBe(200);
    t.clock.advance(MEDIA_BEARER_CACHE_MS + 1);
    for (const url of second) expect(await fetchStatus(url), url).toBe(403);
    // Someone else's session is unaffected.
    const own = links(await detail(admin, id));
    for (const url of own) expect(await fetchStatus(url)).toBe(200);
  });

  it("a visitor's thumbnails live as long as the share link", async () => {
    const folderId = await createFolder(t, admin, `shared-media-${Date.now()}`);
    const [uploadId] = await uploadFiles(
      t,
      admin,
      [{ fileName: 'visitor.png', bytes: await makePng(320, 240) }],
      {
        targetFolderId: folderId,
      },
    );
    await t.jobs!.mediaDone(uploadId!);
    const created = await post(
      t.app,
      '/ske-api/v1_0/user/share/produce-random-code',
      { folderIds: [folderId], needPassword: 0 },
      { token: admin },
    );
    const { code } = resultOf(endpoints.createShare, created.body);
    const visit = await get(t.app, `/ske-api/v1_0/user/share/random/${code}`);
    const shareToken = resultOf(endpoints.visitShare, visit.body).shareToken;
    const page = await post(t.app, '/ske-api/v1_0/user/share/folder', { folderId, shareToken });
    const thumb = resultOf(endpoints.shareFolder, page.body).list[0]?.compactUrl;
    expect(thumb).toMatch(/^\/ske-api\/v1_0\/media\?token=/);
    // No session, no token header: the link itself is the visitor's right.
    expect(await fetchStatus(thumb as string)).toBe(200);

    const stopped = await get(t.app, `/ske-api/v1_0/user/share/cancel-share?code=${code}`, { token: admin });
    expect(stopped.status).toBe(200);
    t.clock.advance(MEDIA_BEARER_CACHE_MS + 1);
    expect(await fetchStatus(thumb as string)).toBe(403);
  });

  it('refuses a media token that names neither a session nor a link', async () => {
    const { localMediaUrlMaker } = await import('./urls');
    const secret = (
      await t.database.db
        .selectFrom('app_settings')
        .select('value')
        .where('key', '=', 'part-url-secret')
        .executeTakeFirstOrThrow()
    ).value as string;
    const [uploadId] = await uploadFiles(t, admin, [
      { fileName: `unbound-${Date.now()}.png`, bytes: await makePng(10, 10) },
    ]);
    const key = (
      await t.database.db
        .selectFrom('uploads')
        .select('storage_key')
        .where('id', '=', uploadId!)
        .executeTakeFirstOrThrow()
    ).storage_key as string;
    const url = localMediaUrlMaker(secret)({ key }, new Date(t.clock.now().getTime() + 3600_000));
    expect(await fetchStatus(url)).toBe(403);
  });
});

describe('media links on the S3 driver', () => {
  let s3: Awaited<ReturnType<typeof startS3Server>>;
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    s3 = await startS3Server();
    // S3 checks presigned links against real time, so this app's clock starts now.
    t = await createTestApp(
      { ...s3Env(s3), SESSION_IDLE_HOURS: '720', LOGIN_RATE_LIMIT: '1000' },
      { clock: new ManualClock(new Date()) },
    );
    token = await signIn(t.app, ADMIN.email, ADMIN.password);
  });
  afterAll(async () => {
    await t.close();
    await s3.close();
  });

  it('are presigned for at most ten minutes, and the same within a window (browser caching)', async () => {
    const [uploadId] = await uploadFiles(t, token, [
      { fileName: `s3-${Date.now()}.png`, bytes: await makePng(200, 100) },
    ]);
    const id = await itemOf(t, uploadId!);
    const d1 = await call(t.app, endpoints.fileDetail, { token, query: { id } });
    const d2 = await call(t.app, endpoints.fileDetail, { token, query: { id } });
    for (const url of [d1.url, d1.previewUrl] as string[]) {
      const query = new URL(url).searchParams;
      const signedAt = query.get('X-Amz-Date') as string;
      const expires = Number(query.get('X-Amz-Expires'));
      const signedMs = Date.parse(
        `${signedAt.slice(0, 4)}-${signedAt.slice(4, 6)}-${signedAt.slice(6, 8)}T${signedAt.slice(9, 11)}:${signedAt.slice(11, 13)}:${signedAt.slice(13, 15)}Z`,
      );
      const lastsUntil = signedMs + expires * 1000;
      // Issue 38 item 6: a revoked right outlives an S3 link by at most ten minutes.
      expect(lastsUntil - t.clock.now().getTime()).toBeLessThanOrEqual(10 * 60_000);
      expect(lastsUntil - t.clock.now().getTime()).toBeGreaterThan(5 * 60_000);
      const fetched = await fetch(url);
      expect(fetched.status).toBe(200);
    }
    // Stable within the window, so the browser's cache keeps working.
    expect(d2.previewUrl).toBe(d1.previewUrl);
    expect(d2.url).toBe(d1.url);
  });
});
