import { endpoints, type FileDetail } from '@dam/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { call } from '../../../test/call';
import {
  EVERY_SCOPE,
  givenDepartment,
  givenFiles,
  givenFolder,
  givenOpenedShare,
  givenSignedInUser,
  givenUser,
  signInAdmin,
  uniqueName,
} from '../../../test/factories';
import { makePng } from '../../../test/fixtures';
import { createTestApp, get, signIn, type TestApp } from '../../../test/harness';
import { createTestApiAccess, openCall } from '../../../test/open-client';
import { SecurityRepository } from '../security/repository';
import { ShareVisitorService } from '../shares/visitor';
import { MEDIA_BEARER_CACHE_MS, MEDIA_RIGHTS_CACHE_MS } from './rights';
import { MediaRightsRepository } from './rights.repository';

/**
 * Issue 38 item 6: media links die with their reason. A thumbnail, preview or download link
 * answers only while its bearer may see that file by the API's own rule, not merely while the
 * session, access record or share link is alive; the answer is reused for seconds, not hours.
 * Every change below goes through the real API, then the clock moves past the reuse interval.
 */
describe('media links follow the right to see the file', () => {
  let t: TestApp;
  let admin: string;
  let deptA: number;
  let deptB: number;
  let owner: { id: number; token: string };
  beforeAll(async () => {
    t = await createTestApp({ SESSION_IDLE_HOURS: '720', LOGIN_RATE_LIMIT: '1000' }, { jobs: true });
    admin = await signInAdmin(t);
    deptA = (await givenDepartment(t, { token: admin })).id;
    deptB = (await givenDepartment(t, { token: admin })).id;
    owner = await givenSignedInUser(t, { deptId: deptA, scopes: EVERY_SCOPE });
  });
  afterAll(() => t.close());
  afterEach(() => vi.restoreAllMocks());

  /** A processed PNG of the owner's (department A), in `folderId` or at the top level. */
  const fileOfOwner = async (folderId?: number): Promise<number> => {
    const [id] = await givenFiles(
      t,
      owner.token,
      [{ fileName: `${uniqueName('seen')}.png`, bytes: await makePng(320, 240) }],
      folderId === undefined ? { path: '/' } : { targetFolderId: folderId },
    );
    const upload = await t.database.db
      .selectFrom('uploads')
      .select('id')
      .where('item_id', '=', id as number)
      .executeTakeFirstOrThrow();
    await t.jobs?.mediaDone(upload.id);
    return id as number;
  };
  /** A member of department A who may see and download what its members own. */
  const viewerInA = async () => {
    const user = await givenUser(t.database, { deptId: deptA, scopes: { view: 'dept', download: 'dept' } });
    return { ...user, token: await signIn(t.app, user.email, user.password) };
  };
  const linksOf = (d: FileDetail) => {
    const links = [d.url, d.previewUrl, d.compactUrl];
    for (const link of links) expect(link).toMatch(/^\/ske-api\/v1_0\/media\?token=/);
    return links as string[];
  };
  const statusOf = async (url: string) => {
    const { pathname, search } = new URL(url, 'http://localhost');
    return (await t.app.inject({ method: 'GET', url: pathname + search })).statusCode;
  };
  const pastTheCheck = () => t.clock.advance(MEDIA_RIGHTS_CACHE_MS + 1);

  it('answer 404 once the user is moved to a department that may not see the file', async () => {
    const id = await fileOfOwner();
    const viewer = await viewerInA();
    const links = linksOf(await call(t.app, endpoints.fileDetail, { token: viewer.token, query: { id } }));
    for (const url of links) expect(await statusOf(url), url).toBe(200);

    await call(t.app, endpoints.editUser, {
      token: admin,
      body: {
        userId: viewer.id,
        name: 'Moved away',
        email: viewer.email,
        deptId: deptB,
        roleIdList: [viewer.roleId as number],
      },
    });
    pastTheCheck();
    expect((await get(t.app, `/ske-api/v1_0/file/detail?id=${id}`, { token: viewer.token })).status).toBe(
      404,
    );
    for (const url of links) expect(await statusOf(url), url).toBe(404);
    // The owner's own links are untouched.
    const own = linksOf(await call(t.app, endpoints.fileDetail, { token: owner.token, query: { id } }));
    for (const url of own) expect(await statusOf(url), url).toBe(200);
  });

  it("answer 404 once the user's role loses the view permission", async () => {
    const id = await fileOfOwner();
    const viewer = await viewerInA();
    const links = linksOf(await call(t.app, endpoints.fileDetail, { token: viewer.token, query: { id } }));
    for (const url of links) expect(await statusOf(url), url).toBe(200);

    await call(t.app, endpoints.editRole, {
      token: admin,
      body: {
        roleId: viewer.roleId as number,
        name: uniqueName('narrowed'),
        filePermissions: { view: 'none', upload: 'none', download: 'none', share: 'none' },
        functionCodes: [],
      },
    });
    pastTheCheck();
    expect((await get(t.app, `/ske-api/v1_0/file/detail?id=${id}`, { token: viewer.token })).status).toBe(
      404,
    );
    for (const url of links) expect(await statusOf(url), url).toBe(404);
  });

  it('answer 404 for an open API record once its user may not see the file', async () => {
    const id = await fileOfOwner();
    const viewer = await viewerInA();
    const access = await createTestApiAccess(t, { userId: viewer.id, calls: ['assets.previewUrl'] });
    const answer = await openCall<{ preview: { url: string } | null; thumbnail: { url: string } | null }>(
      t,
      access,
      'GET',
      endpoints.openAssetPreview.path.replace(':id', String(id)),
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const links = [answer.body.result.preview?.url, answer.body.result.thumbnail?.url] as string[];
    for (const url of links) expect(await statusOf(url), url).toBe(200);

    await call(t.app, endpoints.editUser, {
      token: admin,
      body: {
        userId: viewer.id,
        name: 'Moved away',
        email: viewer.email,
        deptId: deptB,
        roleIdList: [viewer.roleId as number],
      },
    });
    pastTheCheck();
    const again = await openCall(
      t,
      access,
      'GET',
      endpoints.openAssetPreview.path.replace(':id', String(id)),
    );
    expect(again.status).toBe(404);
    for (const url of links) expect(await statusOf(url), url).toBe(404);
  });

  it('answer a share visitor only for what the link still offers, and nothing once it is stopped', async () => {
    const folder = await givenFolder(t, owner.token);
    const ended = await fileOfOwner(folder.id);
    const deleted = await fileOfOwner(folder.id);
    const kept = await fileOfOwner(folder.id);
    const share = await givenOpenedShare(t, owner.token, [folder.id]);
    const page = await call(t.app, endpoints.shareFolder, {
      body: { folderId: folder.id, shareToken: share.shareToken },
    });
    const thumbOf = (id: number) => {
      const url = page.list.find((entry) => entry.id === id)?.compactUrl;
      expect(url).toMatch(/^\/ske-api\/v1_0\/media\?token=/);
      return url as string;
    };
    const [endedThumb, deletedThumb, keptThumb] = [thumbOf(ended), thumbOf(deleted), thumbOf(kept)];
    for (const url of [endedThumb, deletedThumb, keptThumb]) expect(await statusOf(url)).toBe(200);

    // One file's validity ends (yesterday), another goes to the recycle bin.
    await call(t.app, endpoints.editFile, {
      token: owner.token,
      body: { folderDataId: ended, endValidTime: '2026-01-04' },
    });
    await call(t.app, endpoints.deleteItems, { token: owner.token, body: { idList: [deleted] } });
    pastTheCheck();
    expect(await statusOf(endedThumb)).toBe(404);
    expect(await statusOf(deletedThumb)).toBe(404);
    expect(await statusOf(keptThumb)).toBe(200);

    await call(t.app, endpoints.cancelShare, { token: owner.token, query: { code: share.code } });
    t.clock.advance(MEDIA_BEARER_CACHE_MS + 1);
    expect(await statusOf(keptThumb)).not.toBe(200);
  });

  it("read a bearer's liveness once for 100 revalidations within MEDIA_BEARER_CACHE_MS", async () => {
    const folder = await givenFolder(t, owner.token);
    const id = await fileOfOwner(folder.id);
    const viewer = await viewerInA();
    const sessionLinks = linksOf(
      await call(t.app, endpoints.fileDetail, { token: viewer.token, query: { id } }),
    );
    const access = await createTestApiAccess(t, { userId: viewer.id, calls: ['assets.previewUrl'] });
    const open = await openCall<{ preview: { url: string } | null; thumbnail: { url: string } | null }>(
      t,
      access,
      'GET',
      endpoints.openAssetPreview.path.replace(':id', String(id)),
    );
    const accessLinks = [open.body.result.preview?.url, open.body.result.thumbnail?.url] as string[];
    const share = await givenOpenedShare(t, owner.token, [folder.id]);
    const page = await call(t.app, endpoints.shareFolder, {
      body: { folderId: folder.id, shareToken: share.shareToken },
    });
    const shareLinks = [page.list.find((entry) => entry.id === id)?.compactUrl] as string[];
    // Each link's validator, as a browser holding the thumbnail keeps it.
    const etags = new Map<string, string>();
    const revalidate = async (url: string) => {
      const { pathname, search } = new URL(url, 'http://localhost');
      const headers = etags.has(url) ? { 'if-none-match': etags.get(url) as string } : undefined;
      const answer = await t.app.inject({
        method: 'GET',
        url: pathname + search,
        ...(headers ? { headers } : {}),
      });
      if (answer.statusCode === 200) etags.set(url, String(answer.headers.etag));
      return answer.statusCode;
    };
    for (const url of [...sessionLinks, ...accessLinks, ...shareLinks])
      expect(await revalidate(url)).toBe(200);

    // A page of 100 thumbnails revalidated (304) by each kind of bearer: one liveness read each.
    const bearers = [
      { links: sessionLinks, reads: vi.spyOn(SecurityRepository.prototype, 'findLiveSession') },
      { links: accessLinks, reads: vi.spyOn(MediaRightsRepository.prototype, 'personOfAccess') },
      { links: shareLinks, reads: vi.spyOn(ShareVisitorService.prototype, 'linkLive') },
    ];
    for (const { links, reads } of bearers) {
      t.clock.advance(MEDIA_RIGHTS_CACHE_MS + 1);
      for (let i = 0; i < 100; i++) {
        const url = links[i % links.length] as string;
        expect(await revalidate(url), url).toBe(304);
      }
      expect(reads).toHaveBeenCalledTimes(1);
      // Past the interval the bearer is read again.
      t.clock.advance(MEDIA_BEARER_CACHE_MS + 1);
      expect(await revalidate(links[0] as string)).toBe(304);
      expect(reads).toHaveBeenCalledTimes(2);
    }
  });
});
