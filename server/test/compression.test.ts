import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { endpointPath, endpoints } from '@dam/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { givenFile, givenFolder } from './factories';
import { ADMIN, createTestApp, signIn, type TestApp } from './harness';

/**
 * Issue 12 goal 4: large JSON answers are compressed for a browser that accepts it, the built web
 * app is sent pre-compressed with immutable caching, and bytes (downloads, media) never are.
 */
describe('compressed answers', () => {
  let t: TestApp;
  let token: string;
  let webRoot: string;
  const script = `console.log(${JSON.stringify('x'.repeat(4000))});\n`;

  beforeAll(async () => {
    webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'dam-web-'));
    fs.mkdirSync(path.join(webRoot, 'assets'));
    fs.writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><title>DAM</title>');
    fs.writeFileSync(path.join(webRoot, 'signed-in.html'), '<!doctype html><title>DAM, signed in</title>');
    fs.writeFileSync(path.join(webRoot, 'assets/app-abc123.js'), script);
    fs.writeFileSync(path.join(webRoot, 'assets/app-abc123.js.br'), zlib.brotliCompressSync(script));
    fs.writeFileSync(path.join(webRoot, 'assets/app-abc123.js.gz'), zlib.gzipSync(script));
    t = await createTestApp({ WEB_DIST_DIR: webRoot });
    token = await signIn(t.app, ADMIN.email, ADMIN.password);
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(webRoot, { recursive: true, force: true });
  });

  it('compresses a large JSON answer with brotli or gzip, as the client accepts, and not otherwise', async () => {
    const parent = await givenFolder(t, token);
    for (let i = 0; i < 12; i += 1) await givenFolder(t, token, { parentId: parent.id });
    const listing = (acceptEncoding?: string) =>
      t.app.inject({
        method: 'GET',
        url: `${endpointPath(endpoints.folderListing)}?folderDataId=${parent.id}&pageSize=50`,
        headers: { token, ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}) },
      });
    const plain = await listing();
    expect(plain.headers['content-encoding']).toBeUndefined();
    const listed = plain.json();
    expect(listed.result.list).toHaveLength(12);
    expect(plain.rawPayload.length).toBeGreaterThan(1024);

    const br = await listing('gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(JSON.parse(zlib.brotliDecompressSync(br.rawPayload).toString())).toEqual(listed);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);

    const gz = await listing('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(gz.rawPayload).toString())).toEqual(listed);
  });

  it('sends the bytes of a download as they are, whatever the client accepts', async () => {
    const file = await givenFile(t, token, { bytes: Buffer.from('plain text '.repeat(500)) });
    const response = await t.app.inject({
      method: 'POST',
      url: endpointPath(endpoints.downloadItems),
      headers: { token, 'accept-encoding': 'br, gzip' },
      payload: { folderDataIdList: [file.id] },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.rawPayload.equals(file.bytes)).toBe(true);
  });

  it('serves the built scripts pre-compressed, cached for good, and plain to a client that accepts nothing', async () => {
    const asset = (acceptEncoding?: string) =>
      t.app.inject({
        method: 'GET',
        url: '/assets/app-abc123.js',
        headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {},
      });
    const br = await asset('gzip, br');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(script);
    const gz = await asset('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(script);
    const plain = await asset();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it("sends a browser holding a session the page that loads the signed-in layout's chunks up front", async () => {
    const open = (url: string, cookie?: string) =>
      t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
    for (const url of ['/', '/allfiles/12', '/login']) {
      const visitor = await open(url);
      expect(visitor.statusCode).toBe(200);
      expect(visitor.body).toBe('<!doctype html><title>DAM</title>');
      expect(visitor.headers['cache-control']).toBe('no-cache');
      const member = await open(url, `lang=en; skToken=${encodeURIComponent(token)}`);
      expect(member.body).toBe('<!doctype html><title>DAM, signed in</title>');
      expect(member.headers['cache-control']).toBe('no-cache');
      // One address, two pages: a shared cache must keep them apart.
      expect(String(member.headers.vary).toLowerCase()).toContain('cookie');
      expect(String(visitor.headers.vary).toLowerCase()).toContain('cookie');
    }
    // A probe asking for the headers only (a load balancer's) gets them.
    const probe = await t.app.inject({ method: 'HEAD', url: '/' });
    expect(probe.statusCode).toBe(200);
    expect(probe.headers['content-type']).toContain('text/html');
    // An API address never gets a page.
    expect((await open('/ske-api/v1_0/no-such-call', `skToken=${token}`)).statusCode).toBe(404);
  });
});
