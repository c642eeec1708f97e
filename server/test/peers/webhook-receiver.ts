import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the receiver got: the raw body as sent (signatures are over these bytes). */
export interface ReceivedWebhook {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/**
 * How the receiver answers: the statuses in order (the last one repeats), `hang` (reads the
 * request and never answers), or `redirect` (302 to `location`).
 */
export type ReceiverMode =
  | { kind: 'statuses'; statuses: number[] }
  | { kind: 'hang' }
  | { kind: 'redirect'; location: string };

export interface TestWebhookReceiver {
  /** http://127.0.0.1:<port> */
  url: string;
  requests: ReceivedWebhook[];
  /** The requests to `path` (e.g. `/hook-3`), in arrival order. */
  to(path: string): ReceivedWebhook[];
  /** How requests to `path` are answered from now on (200 unless said otherwise). */
  script(path: string, mode: ReceiverMode): void;
  close(): Promise<void>;
}

/**
 * A real HTTP server standing in for another system's webhook endpoint, on 127.0.0.1 and a free
 * port. Each path has its own script, so tests sharing one receiver do not disturb each other.
 */
export async function startWebhookReceiver(): Promise<TestWebhookReceiver> {
  const requests: ReceivedWebhook[] = [];
  const scripts = new Map<string, ReceiverMode>();
  const answered = new Map<string, number>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = request.url ?? '';
      const path = url.split('?')[0] ?? '';
      requests.push({
        method: request.method ?? '',
        url,
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const mode = scripts.get(path) ?? { kind: 'statuses', statuses: [200] };
      if (mode.kind === 'hang') return;
      if (mode.kind === 'redirect') {
        response.writeHead(302, { location: mode.location }).end();
        return;
      }
      const count = answered.get(path) ?? 0;
      answered.set(path, count + 1);
      const status = mode.statuses[Math.min(count, mode.statuses.length - 1)] ?? 200;
      response.writeHead(status, { 'content-type': 'text/plain' }).end(`answer ${count + 1}: ${status}`);
    });
  });
  server.on('clientError', (_err, socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    to: (path) => requests.filter((r) => (r.url.split('?')[0] ?? '') === path),
    script(path, mode) {
      scripts.set(path, mode);
      answered.delete(path);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
