import net from 'node:net';
import { endpoints } from '@dam/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resultOf } from '../call';
import { ADMIN, createTestApp, post, signIn, type TestApp } from '../harness';

/**
 * Issue 9 item 5: every connection is bounded in time. Real sockets against a listening server
 * whose timeouts are set to about a second (the defaults are minutes): half-sent headers, a
 * half-sent body, an idle keep-alive connection, a truncated workbook import and an upload part
 * refused before its body was read are all closed by the server.
 */

interface Outcome {
  /** Milliseconds from `since` until the server closed the connection. */
  ms: number;
  /** Everything the server sent. */
  received: string;
  /** Milliseconds from the first byte the server sent until it closed the connection. */
  afterAnswerMs: number;
}

/** Resolves when the server closes the socket; fails when it is still open after `limitMs`. */
function closedBy(socket: net.Socket, limitMs: number, since = Date.now()): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    let received = '';
    let answeredAt = 0;
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      answeredAt ||= Date.now();
      received += chunk;
    });
    socket.on('error', () => {});
    const guard = setTimeout(() => {
      socket.destroy();
      reject(
        new Error(`still open after ${limitMs} ms; received: ${JSON.stringify(received.slice(0, 300))}`),
      );
    }, limitMs);
    socket.on('close', () => {
      clearTimeout(guard);
      const now = Date.now();
      resolve({ ms: now - since, received, afterAnswerMs: answeredAt ? now - answeredAt : 0 });
    });
  });
}

async function connect(port: number): Promise<net.Socket> {
  const socket = net.connect({ host: '127.0.0.1', port });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return socket;
}

const TIMEOUTS = {
  HTTP_HEADERS_TIMEOUT_MS: '500',
  HTTP_REQUEST_TIMEOUT_MS: '1000',
  HTTP_UPLOAD_TIMEOUT_MS: '3000',
  HTTP_IDLE_TIMEOUT_MS: '4000',
  HTTP_KEEP_ALIVE_TIMEOUT_MS: '500',
};

describe('connections are bounded in time', () => {
  let t: TestApp;
  let port: number;
  let token: string;

  beforeAll(async () => {
    t = await createTestApp({ ...TIMEOUTS, LOGIN_RATE_LIMIT: '1000', SESSION_IDLE_HOURS: '720' });
    token = await signIn(t.app, ADMIN.email, ADMIN.password);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as net.AddressInfo).port;
  });
  afterAll(() => t.close());

  it('closes a connection whose headers never end (headers timeout)', async () => {
    const socket = await connect(port);
    socket.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
    const { ms } = await closedBy(socket, 5000);
    expect(ms).toBeLessThan(2500);
  });

  it('closes an unauthenticated request whose body never ends (request timeout), answering 408', async () => {
    const socket = await connect(port);
    socket.write(
      'POST /security-api/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
        'Content-Length: 200\r\n\r\n{"userName":"someone@example.com",',
    );
    const { ms, received } = await closedBy(socket, 5000);
    expect(ms).toBeLessThan(2500);
    expect(ms).toBeGreaterThanOrEqual(900);
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('closes a kept-alive connection that stays idle after its response (keep-alive timeout)', async () => {
    const socket = await connect(port);
    socket.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    const { afterAnswerMs, received } = await closedBy(socket, 6000);
    expect(received).toMatch(/^HTTP\/1\.1 200 /);
    expect(received.toLowerCase()).not.toContain('connection: close');
    // Node adds a second to the keep-alive timeout (0.5 s); not the idle timeout (4 s).
    expect(afterAnswerMs).toBeLessThan(3000);
  });

  it('answers or closes a truncated workbook import within the upload timeout', async () => {
    const socket = await connect(port);
    const boundary = 'truncated-boundary';
    socket.write(
      `POST /ske-api/v1_0/sku/import HTTP/1.1\r\nHost: 127.0.0.1\r\ntoken: ${token}\r\n` +
        `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: 100000\r\n\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="sku.xlsx"\r\n` +
        'Content-Type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet\r\n\r\nPK\u0003\u0004',
    );
    const { ms } = await closedBy(socket, 9000);
    // The upload timeout (3 s) or the idle timeout (4 s), whichever Node's sweep sees first.
    expect(ms).toBeLessThan(5500);
  });

  it('gives an upload part the longer upload timeout: a part sent slower than the request timeout is stored', async () => {
    const created = await post(
      t.app,
      '/ske-api/v1_0/file-upload/upload',
      { path: '/', uploadDetailDTOS: [{ fileName: 'slow.bin', fileSize: 600, path: '' }] },
      { token },
    );
    const id = resultOf(endpoints.createUploads, created.body)[0]?.id as number;
    await post(t.app, '/ske-api/v1_0/file-upload/multipart/start', { id }, { token });
    const signed = await post(
      t.app,
      '/ske-api/v1_0/file-upload/multipart/sign',
      { id, partNumbers: [1] },
      { token },
    );
    const url = resultOf(endpoints.signParts, signed.body).parts[0]?.url as string;

    const socket = await connect(port);
    const outcome = closedBy(socket, 8000);
    socket.write(
      `PUT ${url} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/octet-stream\r\n` +
        'Content-Length: 600\r\nConnection: close\r\n\r\n',
    );
    // Six 100-byte pieces 300 ms apart: 1.5 s in all, beyond the 1 s request timeout, never idle
    // for the 4 s idle timeout, within the 3 s upload timeout.
    for (let piece = 0; piece < 6; piece += 1) {
      socket.write(Buffer.alloc(100, 65 + piece));
      if (piece < 5) await new Promise((resolve) => setTimeout(resolve, 300));
    }
    const { received } = await outcome;
    expect(received).toMatch(/^HTTP\/1\.1 200 /);
  });
});

describe('a request answered before its body was read', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    // Default (long) timeouts: only closing on the early answer can end this connection quickly.
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as net.AddressInfo).port;
  });
  afterAll(() => t.close());

  it('closes the socket of a refused upload part instead of waiting for the rest of its body', async () => {
    const socket = await connect(port);
    const outcome = closedBy(socket, 5000);
    socket.write(
      'PUT /ske-api/v1_0/file-upload/part?token=not-a-valid-part-token HTTP/1.1\r\nHost: 127.0.0.1\r\n' +
        `Content-Type: application/octet-stream\r\nContent-Length: ${8 * 1024 * 1024}\r\n\r\n`,
    );
    socket.write(Buffer.alloc(64 * 1024, 1));
    const { received } = await outcome;
    expect(received).toMatch(/^HTTP\/1\.1 400 /);
    expect(received.toLowerCase()).toContain('connection: close');
    expect(received).toContain('SE_400');
  });

  it('closes the socket of a refused workbook import (not signed in) without reading the workbook', async () => {
    const socket = await connect(port);
    const outcome = closedBy(socket, 5000);
    socket.write(
      'POST /ske-api/v1_0/sku/import HTTP/1.1\r\nHost: 127.0.0.1\r\n' +
        'Content-Type: multipart/form-data; boundary=b\r\nContent-Length: 1000000\r\n\r\n--b\r\n',
    );
    const { received } = await outcome;
    expect(received.toLowerCase()).toContain('connection: close');
  });
});
