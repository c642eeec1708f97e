import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the gateway received. */
export interface GatewayRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface TestSmsGateway {
  /** http://127.0.0.1:<port> */
  url: string;
  port: number;
  requests: GatewayRequest[];
  /** The status the gateway answers with (200 by default) and the body. */
  answer(status: number, body?: string): void;
  /** The six-digit code of the last message sent to `mobile`, found in the request's URL or body. */
  lastCodeTo(mobile: string): string | undefined;
  close(): Promise<void>;
}

/**
 * A real HTTP server standing in for an SMS gateway: it keeps every request, answers what the test
 * says, and finds the code sent to a number (tests read codes from here, as a phone would).
 */
export async function startSmsGateway(port = 0): Promise<TestSmsGateway> {
  const requests: GatewayRequest[] = [];
  let status = 200;
  let reply = '{"code":"OK"}';
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      requests.push({
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      response.writeHead(status, { 'content-type': 'application/json' }).end(reply);
    });
  });
  server.on('clientError', (_err, socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const actualPort = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actualPort}`,
    port: actualPort,
    requests,
    answer(newStatus, body = '{"code":"OK"}') {
      status = newStatus;
      reply = body;
    },
    lastCodeTo(mobile) {
      for (let i = requests.length - 1; i >= 0; i--) {
        const request = requests[i];
        if (!request) continue;
        const text = `${decodeURIComponent(request.url)} ${request.body}`;
        if (!text.includes(mobile)) continue;
        return /(?<!\d)(\d{6})(?!\d)/.exec(text.replaceAll(mobile, ''))?.[1];
      }
      return undefined;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
