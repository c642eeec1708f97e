import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import {
  endpointRoutes,
  FIRST_ANSWERS_ELEMENT_ID,
  firstCallKey,
  firstPageCalls,
  folderListingQuery,
  urlWithQuery,
} from '@dam/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRELOADED_THUMBNAILS } from '../src/http/app-page';
import { givenFiles, givenFolder, givenSignedInUser, uniqueName } from './factories';
import { makeJpeg } from './fixtures';
import { ADMIN, createTestApp, signIn, type TestApp } from './harness';

const SIGNED_IN_PAGE = [
  '<!doctype html><html><head><script type="module" src="/assets/app.js"></script></head>',
  '<body><div id="root"></div></body></html>',
].join('');

/** The answers a page carries, by `METHOD address`, and the thumbnails it preloads. */
function readPage(html: string) {
  const script = new RegExp(
    `<script type="application/json" id="${FIRST_ANSWERS_ELEMENT_ID}">(.*?)</script>`,
  ).exec(html);
  const preloads = [...html.matchAll(/<link rel="preload" as="image" href="([^"]*)">/g)].map((match) =>
    (match[1] as string).replace(/&amp;/g, '&'),
  );
  return { answers: script ? (JSON.parse(script[1] as string) as Record<string, unknown>) : null, preloads };
}

/**
 * Issue 12 goal 4: a browser holding a session that opens a folder gets the answers to the page's
 * first calls inside its HTML, made by the app's own routes with that session, and preloads of the
 * folder's first thumbnails; everyone else gets the page as it was.
 */
describe('the page of a signed-in address', () => {
  let t: TestApp;
  let token: string;
  let webRoot: string;

  beforeAll(async () => {
    webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'dam-web-'));
    fs.writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><title>DAM</title>');
    fs.writeFileSync(path.join(webRoot, 'signed-in.html'), SIGNED_IN_PAGE);
    t = await createTestApp({ WEB_DIST_DIR: webRoot }, { jobs: true });
    token = await signIn(t.app, ADMIN.email, ADMIN.password);
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(webRoot, { recursive: true, force: true });
  });

  const open = (url: string, cookieToken: string | null, acceptEncoding?: string) =>
    t.app.inject({
      method: 'GET',
      url,
      headers: {
        ...(cookieToken ? { cookie: `skToken=${encodeURIComponent(cookieToken)}` } : {}),
        ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}),
      },
    });
  /** What the web app's own call would have answered, with the session in its header. */
  const answerOf = async (method: 'GET' | 'POST', url: string, session: string) =>
    (await t.app.inject({ method, url, headers: { token: session } })).json();

  it("carries a folder's first calls answered as the calls would be, and preloads its first thumbnails", async () => {
    const folder = await givenFolder(t, token);
    const jpeg = await makeJpeg(320, 240);
    // A name that, written as it is, would keep the script element open past its end (`<!--<script`).
    const names = [`${uniqueName('a')}<!--<script>`, ...Array.from({ length: 13 }, () => uniqueName('b'))];
    const ids = await givenFiles(
      t,
      token,
      names.map((name) => ({ fileName: `${name}.jpg`, bytes: jpeg })),
      { targetFolderId: folder.id },
    );
    for (const id of ids) {
      const upload = await t.database.db
        .selectFrom('uploads')
        .select('id')
        .where('item_id', '=', id)
        .executeTakeFirstOrThrow();
      await t.jobs?.mediaDone(upload.id);
    }
    const listingUrl = urlWithQuery(
      endpointRoutes.folderListing.path,
      folderListingQuery(String(folder.id), 1),
    );
    expect(firstPageCalls(`/allfiles/${folder.id}`)).toEqual([
      { method: 'POST', url: endpointRoutes.userInfo.path },
      { method: 'GET', url: listingUrl },
    ]);

    const page = await open(`/allfiles/${folder.id}`, token, 'gzip, deflate, br');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-encoding']).toBe('br');
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    // This session's data of this moment: no cache keeps it, and the address has a page per cookie.
    expect(page.headers['cache-control']).toBe('private, no-store');
    expect(String(page.headers.vary).toLowerCase()).toContain('cookie');
    const html = zlib.brotliDecompressSync(page.rawPayload).toString();
    expect(html.startsWith(SIGNED_IN_PAGE.slice(0, SIGNED_IN_PAGE.indexOf('</body>')))).toBe(true);
    expect(html.endsWith('</body></html>')).toBe(true);
    // The hostile name is in the answers, but escapes nothing: one script element of answers, whole.
    expect(html.match(/<\/script>/g)).toHaveLength(2);
    expect(html).not.toContain('<!--');
    expect(html).not.toContain('<script>');

    const { answers, preloads } = readPage(html);
    const listing = (await answerOf('GET', listingUrl, token)) as {
      result: { list: Array<{ name: string; compactUrl: string | null }> };
    };
    expect(answers).toEqual({
      [firstCallKey({ method: 'POST', url: endpointRoutes.userInfo.path })]: await answerOf(
        'POST',
        endpointRoutes.userInfo.path,
        token,
      ),
      [firstCallKey({ method: 'GET', url: listingUrl })]: listing,
    });
    expect(listing.result.list.map((item) => item.name).sort()).toEqual([...names].sort());
    // The first screen's thumbnails, in the listing's order, at most PRELOADED_THUMBNAILS.
    expect(preloads).toEqual(
      listing.result.list.slice(0, PRELOADED_THUMBNAILS).map((item) => item.compactUrl),
    );
    expect(preloads.every((url) => url.startsWith('/ske-api/'))).toBe(true);

    // The same page for a browser that accepts gzip only, or nothing.
    const gzip = await open(`/allfiles/${folder.id}`, token, 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(readPage(zlib.gunzipSync(gzip.rawPayload).toString()).answers).toEqual(answers);
    const plain = await open(`/allfiles/${folder.id}`, token);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(readPage(plain.body).answers).toEqual(answers);
  });

  it("answers with the cookie's session only what that user's calls would: never another's folder", async () => {
    const folder = await givenFolder(t, token, { visibility: 'private' });
    const secret = uniqueName('secret');
    await givenFiles(t, token, [{ fileName: `${secret}.txt`, bytes: Buffer.from('x') }], {
      targetFolderId: folder.id,
    });
    const stranger = await givenSignedInUser(t);
    const html = (await open(`/allfiles/${folder.id}`, stranger.token)).body;
    expect(html).not.toContain(secret);
    const { answers } = readPage(html);
    const listingKey = `GET ${urlWithQuery(endpointRoutes.folderListing.path, folderListingQuery(String(folder.id), 1))}`;
    // The user is theirs; the listing their own call refuses is not in it (they ask, and are told).
    expect(answers?.[`POST ${endpointRoutes.userInfo.path}`]).toEqual(
      await answerOf('POST', endpointRoutes.userInfo.path, stranger.token),
    );
    const own = (await answerOf('GET', listingKey.slice(4), stranger.token)) as { success: boolean };
    expect(own.success).toBe(false);
    expect(answers).not.toHaveProperty(listingKey);
  });

  it('carries no answers for a session that is not one, nor on pages that make no such calls', async () => {
    const expired = await open('/allfiles/1', 'not-a-session');
    expect(expired.statusCode).toBe(200);
    // The refusal the web app asks for itself, and shows in its user's language.
    expect(readPage(expired.body)).toEqual({ answers: null, preloads: [] });
    expect(expired.body).toBe(SIGNED_IN_PAGE);
    // The sign-in page makes none of the signed-in layout's calls; a visitor gets the plain page.
    expect((await open('/login', token)).body).toBe(SIGNED_IN_PAGE);
    expect((await open('/allfiles/1', null)).body).toBe('<!doctype html><title>DAM</title>');
    // A probe asking for the headers only gets them, and no calls are made for it.
    const probe = await t.app.inject({
      method: 'HEAD',
      url: '/allfiles/1',
      headers: { cookie: `skToken=${token}` },
    });
    expect(probe.statusCode).toBe(200);
    expect(probe.headers['content-type']).toContain('text/html');
    // A file the build does not have gets the page, with no calls made for it.
    expect((await open('/favicon.ico', token)).body).toBe(SIGNED_IN_PAGE);
    // A target no URL parser reads still gets the page.
    expect((await open('//[', token)).statusCode).toBe(200);
  });
});
