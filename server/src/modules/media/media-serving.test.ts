import { endpoints } from '@dam/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resultOf } from '../../../test/call';
import { givenFile, signInAdmin, uniqueName } from '../../../test/factories';
import { makePng } from '../../../test/fixtures';
import { createTestApp, get, type TestApp } from '../../../test/harness';
import { SVG_CONTENT_SECURITY_POLICY } from './routes';

/**
 * The local driver's media endpoint answers like a file server (issue 10 item 9): validators for
 * revalidation (ETag, Last-Modified → 304), byte ranges for video seeking (206, suffix ranges,
 * 416 past the end), our own type and caching headers.
 */
describe('local media serving', () => {
  let t: TestApp;
  let url: string;
  let bytes: Buffer;
  beforeAll(async () => {
    t = await createTestApp();
    const admin = await signInAdmin(t);
    bytes = await makePng(640, 480);
    const { id } = await givenFile(t, admin, { fileName: `${uniqueName('served')}.png`, bytes });
    const detail = await get(t.app, `/ske-api/v1_0/file/detail?id=${id}`, { token: admin });
    url = String(resultOf(endpoints.fileDetail, detail.body).url);
    expect(url).toMatch(/^\/ske-api\/v1_0\/media\?token=/);
  });
  afterAll(() => t.close());

  const fetchMedia = (headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

  it('serves the whole object with its type, caching and validators', async () => {
    const response = await fetchMedia();
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.equals(bytes)).toBe(true);
    expect(response.headers['content-type']).toBe('image/png');
    expect(response.headers['content-length']).toBe(String(bytes.length));
    expect(response.headers['cache-control']).toBe('private, max-age=5');
    expect(response.headers['accept-ranges']).toBe('bytes');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers.etag).toEqual(expect.any(String));
    expect(response.headers['last-modified']).toEqual(expect.any(String));
  });

  it('serves an SVG original in a sandbox that runs and loads nothing', async () => {
    const admin = await signInAdmin(t);
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(document.cookie)</script></svg>',
    );
    const { id } = await givenFile(t, admin, { fileName: `${uniqueName('drawn')}.svg`, bytes: svg });
    const detail = await get(t.app, `/ske-api/v1_0/file/detail?id=${id}`, { token: admin });
    const svgUrl = String(resultOf(endpoints.fileDetail, detail.body).url);
    const response = await t.app.inject({ method: 'GET', url: svgUrl });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/svg+xml');
    expect(response.headers['content-security-policy']).toBe(SVG_CONTENT_SECURITY_POLICY);
    expect(String(response.headers['content-security-policy'])).toMatch(/^sandbox;.*default-src 'none'/);
    // Other media keep the application's policy.
    expect((await fetchMedia()).headers['content-security-policy']).not.toContain('sandbox');
  });

  it('answers 304 to a revalidation that still matches', async () => {
    const { headers } = await fetchMedia();
    const byTag = await fetchMedia({ 'if-none-match': String(headers.etag) });
    expect(byTag.statusCode).toBe(304);
    expect(byTag.rawPayload.length).toBe(0);
    const byDate = await fetchMedia({ 'if-modified-since': String(headers['last-modified']) });
    expect(byDate.statusCode).toBe(304);
    expect((await fetchMedia({ 'if-none-match': 'W/"other"' })).statusCode).toBe(200);
  });

  it('serves byte ranges, suffix ranges included', async () => {
    const middle = await fetchMedia({ range: 'bytes=100-199' });
    expect(middle.statusCode).toBe(206);
    expect(middle.headers['content-range']).toBe(`bytes 100-199/${bytes.length}`);
    expect(middle.rawPayload.equals(bytes.subarray(100, 200))).toBe(true);

    const suffix = await fetchMedia({ range: 'bytes=-50' });
    expect(suffix.statusCode).toBe(206);
    expect(suffix.rawPayload.equals(bytes.subarray(bytes.length - 50))).toBe(true);

    const open = await fetchMedia({ range: `bytes=${bytes.length - 10}-` });
    expect(open.statusCode).toBe(206);
    expect(open.rawPayload.equals(bytes.subarray(bytes.length - 10))).toBe(true);
  });

  it('refuses a range past the end with 416, the size and our own headers', async () => {
    const response = await fetchMedia({ range: `bytes=${bytes.length + 5}-` });
    expect(response.statusCode).toBe(416);
    expect(response.headers['content-range']).toBe(`bytes */${bytes.length}`);
    expect(response.headers['cache-control']).toBe('private, max-age=5');
    expect(response.headers['accept-ranges']).toBe('bytes');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('ignores a Range it cannot parse and sends the whole object (RFC 9110 §14.2)', async () => {
    for (const range of ['bytes=abc', 'bytes=', 'items=0-10', 'bytes=5-3x']) {
      const response = await fetchMedia({ range });
      expect(response.statusCode, range).toBe(200);
      expect(response.rawPayload.equals(bytes), range).toBe(true);
    }
  });

  it('sends an empty object whole to a player asking for bytes=0-', async () => {
    const admin = await signInAdmin(t);
    const { id } = await givenFile(t, admin, {
      fileName: `${uniqueName('empty')}.txt`,
      bytes: Buffer.alloc(0),
    });
    const detail = await get(t.app, `/ske-api/v1_0/file/detail?id=${id}`, { token: admin });
    const emptyUrl = String(resultOf(endpoints.fileDetail, detail.body).url);
    const response = await t.app.inject({ method: 'GET', url: emptyUrl, headers: { range: 'bytes=0-' } });
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.length).toBe(0);
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename\*=UTF-8''/);
  });
});
