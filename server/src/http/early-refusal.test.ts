import http from 'node:http';
import net from 'node:net';
import { endpoints } from '@dam/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';

/** Several MiB of a multipart body, sent 64 KiB at a time as the socket takes them. */
const BODY_BYTES = 4 * 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 0x61);
const ROUNDS = 100;
const REQUEST_HEAD = [
  `POST ${endpoints.uploadTemplateAsset.path} HTTP/1.1`,
  'Host: 127.0.0.1',
  'Content-Type: multipart/form-data; boundary=x',
  `Content-Length: ${BODY_BYTES}`,
  '',
  '',
].join('\r\n');

/** What the client saw: the bytes it read, the error its socket met, whether the server closed its side. */
interface Seen {
  answer: string;
  error: string | null;
  ended: boolean;
}

/** Writes the body into the socket as fast as it takes it, until done or the socket is gone. */
function sendBody(socket: net.Socket): void {
  let sent = 0;
  const more = () => {
    while (sent < BODY_BYTES && socket.writable) {
      sent += CHUNK.length;
      if (!socket.write(CHUNK)) return void socket.once('drain', more);
    }
  };
  more();
}

/** The whole answer has arrived: its head and as many bytes as its content-length says. */
function answered(received: Buffer[]): boolean {
  const text = Buffer.concat(received).toString('latin1');
  const head = text.indexOf('\r\n\r\n');
  const length = /content-length: (\d+)/i.exec(text)?.[1];
  return head >= 0 && length !== undefined && text.length >= head + 4 + Number(length);
}

/**
 * A multipart upload without a token over a raw socket: its head, then its body either at once
 * (as a client does) or only once the whole refusal has arrived (so the server has answered, and
 * on the old code closed, before a byte of the body comes); read until the socket closes.
 */
function uploadWithoutToken(port: number, bodyAfterAnswer: boolean): Promise<Seen> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    const seen: Seen = { answer: '', error: null, ended: false };
    let sending = !bodyAfterAnswer;
    socket.on('data', (data) => {
      received.push(data);
      if (!sending && answered(received)) {
        sending = true;
        sendBody(socket);
      }
    });
    socket.on('end', () => {
      seen.ended = true;
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      seen.error = error.code ?? error.message;
    });
    socket.on('close', () => {
      seen.answer = Buffer.concat(received).toString('utf8');
      resolve(seen);
    });
    socket.write(REQUEST_HEAD);
    if (sending) sendBody(socket);
  });
}

/** The same upload with Node's HTTP client, which reports the answer or the error it met first. */
function uploadWithHttpClient(port: number): Promise<Seen> {
  return new Promise((resolve) => {
    const request = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: endpoints.uploadTemplateAsset.path,
      headers: { 'content-type': 'multipart/form-data; boundary=x', 'content-length': BODY_BYTES },
      agent: false,
    });
    request.on('response', (response) => {
      const parts: Buffer[] = [];
      response.on('data', (part: Buffer) => parts.push(part));
      response.on('end', () => {
        const head = `HTTP/1.1 ${response.statusCode} \r\n\r\n`;
        resolve({ answer: head + Buffer.concat(parts).toString('utf8'), error: null, ended: true });
      });
      response.on('error', (error: NodeJS.ErrnoException) =>
        resolve({ answer: '', error: error.code ?? error.message, ended: false }),
      );
    });
    request.on('error', (error: NodeJS.ErrnoException) =>
      resolve({ answer: '', error: error.code ?? error.message, ended: false }),
    );
    let sent = 0;
    const more = () => {
      while (sent < BODY_BYTES && !request.destroyed) {
        sent += CHUNK.length;
        if (!request.write(CHUNK)) return void request.once('drain', more);
      }
      if (!request.destroyed) request.end();
    };
    more();
  });
}

const REFUSAL = /^HTTP\/1\.1 401 [\s\S]*\r\n\r\n\{"success":false,"result":null,"errorCode":"SE_501",.*\}$/;

/** The rounds whose client did not get the whole refusal, met an error, or saw no orderly close. */
async function failedRounds(round: () => Promise<Seen>): Promise<string[]> {
  const failed: string[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const seen = await round();
    if (!REFUSAL.test(seen.answer) || seen.error !== null || !seen.ended)
      failed.push(`round ${i}: ${seen.error ?? 'no error'}, ${JSON.stringify(seen.answer.slice(0, 40))}`);
  }
  return failed;
}

/**
 * Issue 38 item 7: a refusal sent before the request body is read (here: no token on a multipart
 * upload, refused by the sign-in hook) reaches the client whole, over real HTTP, and the connection
 * then closes in order (the server's FIN, no reset while the client is still sending).
 */
describe('a refusal sent before the request body is read', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as net.AddressInfo).port;
  });
  afterAll(() => t.close());

  it('reaches a client that sends its body at once, then closes without a reset', async () => {
    expect(await failedRounds(() => uploadWithoutToken(port, false))).toEqual([]);
  });

  it('reaches a client that sends its body only once the refusal has arrived, then closes without a reset', async () => {
    expect(await failedRounds(() => uploadWithoutToken(port, true))).toEqual([]);
  });

  it("reaches Node's HTTP client", async () => {
    expect(await failedRounds(() => uploadWithHttpClient(port))).toEqual([]);
  });
});
