import type { IncomingMessage, Server } from 'node:http';
import { Socket } from 'node:net';
import type { FastifyHttpOptions, FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route streams a large body (an upload part, a workbook import): it may take
     * HTTP_UPLOAD_TIMEOUT_MS to arrive instead of HTTP_REQUEST_TIMEOUT_MS.
     */
    longBody?: boolean;
  }
}

type TimeoutConfig = Pick<
  Config,
  | 'HTTP_HEADERS_TIMEOUT_MS'
  | 'HTTP_REQUEST_TIMEOUT_MS'
  | 'HTTP_UPLOAD_TIMEOUT_MS'
  | 'HTTP_IDLE_TIMEOUT_MS'
  | 'HTTP_KEEP_ALIVE_TIMEOUT_MS'
>;

/**
 * Fastify's (and Node's) time limits of the HTTP server (docs/decisions.md "Connection time
 * limits"). Node's request timeout is server-wide, so it is the longest one (upload parts and
 * workbook imports); `registerConnectionLimits` holds every other route to the shorter one.
 */
export function serverTimeoutOptions(config: TimeoutConfig): FastifyHttpOptions<Server> {
  return {
    // A connection silent both ways this long is destroyed (a stalled upload, a reader that stopped).
    connectionTimeout: config.HTTP_IDLE_TIMEOUT_MS,
    keepAliveTimeout: config.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    requestTimeout: config.HTTP_UPLOAD_TIMEOUT_MS,
    http: {
      headersTimeout: config.HTTP_HEADERS_TIMEOUT_MS,
      // Node enforces the headers and request timeouts when it sweeps its connections (every 30 s
      // by default); sweep often enough that a limit holds to within half the headers timeout.
      connectionsCheckingInterval: Math.min(
        5_000,
        Math.max(100, Math.floor(config.HTTP_HEADERS_TIMEOUT_MS / 2)),
      ),
    },
    // On close, idle kept-alive connections go at once; main.ts cuts running requests after a deadline.
    forceCloseConnections: 'idle',
  };
}

/** Whether the request announced a body that has not arrived (or been read) to its end. */
function bodyUnread(raw: IncomingMessage): boolean {
  if (raw.complete || raw.readableEnded) return false;
  const length = raw.headers['content-length'];
  return raw.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * How long, and for how many bytes, a connection answered before its request body was read keeps
 * reading (and dropping) what the client still sends after the answer went out.
 */
export const LINGER_MAX_MS = 5_000;
export const LINGER_MAX_BYTES = 64 * 1024 * 1024;

/**
 * Closes in stages (RFC 9112 §9.6) instead of at once: Node ends a `connection: close` answer with
 * `socket.destroySoon()`, which closes the socket as soon as the answer is written; bytes of the
 * body the client is still sending then meet a closed socket, the kernel answers them with a reset,
 * and a client that had not read the answer yet loses it (ECONNRESET, EPIPE while sending). Here the
 * answer goes out followed by a FIN (half-close), the rest of the body is read and dropped, and the
 * socket is closed once the client closes its side, or LINGER_MAX_MS or LINGER_MAX_BYTES are passed.
 */
function closeInStages(request: FastifyRequest, socket: Socket): void {
  socket.destroySoon = () => {
    const raw = request.raw;
    let bytes = 0;
    const close = (reason: string) => {
      if (socket.destroyed) return;
      request.log.info({ url: request.url.split('?')[0], bytes }, `unread request body: ${reason}`);
      socket.destroy();
    };
    const timer = setTimeout(() => close('still sending, connection closed'), LINGER_MAX_MS);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
    // Whatever still reads the body (a multipart parser) stops; the bytes are counted and go
    // nowhere, as in Node's own dump of an unread body. (A listener on the socket itself would take
    // it from Node's HTTP parser, and nothing would read it any more.)
    raw.unpipe();
    raw.removeAllListeners('data');
    raw.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > LINGER_MAX_BYTES) close('too long, connection closed');
    });
    raw.resume();
    // The client's FIN: both sides are done once the answer is written.
    socket.once('end', () => {
      if (socket.writableFinished) socket.destroy();
      else socket.once('finish', () => socket.destroy());
    });
    socket.end();
  };
}

const REQUEST_TIMEOUT_RESPONSE =
  'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n';

/**
 * Per-route time limits and early closing:
 * - a request whose body has not fully arrived HTTP_REQUEST_TIMEOUT_MS after its headers is
 *   answered 408 and its connection closed (routes marked `longBody` are left to Node's
 *   server-wide request timeout, HTTP_UPLOAD_TIMEOUT_MS);
 * - an answer sent before the request body was read (a refused part, an import by someone who
 *   may not import, a part the disk could not take) closes the connection, so the client's
 *   remaining bytes are not awaited and cannot hold the socket (or a shutdown) for long: after the
 *   answer, in stages (closeInStages), so that the client reads the answer instead of a reset.
 */
export function registerConnectionLimits(app: FastifyInstance, config: TimeoutConfig): void {
  app.addHook('onRequest', (request, reply, done) => {
    const raw = request.raw;
    if (request.routeOptions.config.longBody || !bodyUnread(raw)) return done();
    const timer = setTimeout(() => {
      // (app.inject requests have no real socket to close.)
      if (raw.complete || !(raw.socket instanceof Socket) || raw.socket.destroyed) return;
      request.log.info({ url: request.url.split('?')[0] }, 'request body too slow: connection closed');
      if (!reply.raw.headersSent) raw.socket.write(REQUEST_TIMEOUT_RESPONSE);
      raw.socket.destroy();
    }, config.HTTP_REQUEST_TIMEOUT_MS);
    timer.unref();
    reply.raw.once('close', () => clearTimeout(timer));
    done();
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (!bodyUnread(request.raw)) return payload;
    reply.header('connection', 'close');
    // (app.inject requests have no real socket.)
    const socket = request.raw.socket;
    if (socket instanceof Socket) closeInStages(request, socket);
    return payload;
  });
}
