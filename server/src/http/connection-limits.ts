import type { IncomingMessage, Server } from 'node:http';
import { Socket } from 'node:net';
import type { FastifyHttpOptions, FastifyInstance } from 'fastify';
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

const REQUEST_TIMEOUT_RESPONSE =
  'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n';

/**
 * Per-route time limits and early closing:
 * - a request whose body has not fully arrived HTTP_REQUEST_TIMEOUT_MS after its headers is
 *   answered 408 and its connection closed (routes marked `longBody` are left to Node's
 *   server-wide request timeout, HTTP_UPLOAD_TIMEOUT_MS);
 * - an answer sent before the request body was read (a refused part, an import by someone who
 *   may not import, a part the disk could not take) closes the connection, so the client's
 *   remaining bytes are not awaited and cannot hold the socket (or a shutdown).
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
    if (bodyUnread(request.raw)) reply.header('connection', 'close');
    return payload;
  });
}
