import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { bearerMatches, REFUSED } from './bearer';
import type { Metrics } from './metrics';
import { METRICS_PATH } from './routes';

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/**
 * The worker's metrics (`npm run worker` has no HTTP server of its own): GET /metrics on
 * METRICS_PORT with the same bearer token rule as the app's; every other path is 404.
 */
export async function startMetricsServer(options: {
  metrics: Metrics;
  token: string;
  port: number;
  host: string;
}): Promise<MetricsServer> {
  const server = http.createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== METRICS_PATH || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found\n');
      return;
    }
    if (!bearerMatches(request.headers.authorization, options.token)) {
      response.writeHead(REFUSED.status, REFUSED.headers).end(REFUSED.body);
      return;
    }
    options.metrics.render().then(
      ({ contentType, body }) => {
        response.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' });
        response.end(request.method === 'HEAD' ? undefined : body);
      },
      () => {
        response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('Metrics failed\n');
      },
    );
  });
  // A scrape is one short request: nothing to keep alive for long.
  server.keepAliveTimeout = 5_000;
  server.requestTimeout = 30_000;
  server.listen(options.port, options.host);
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
    },
  };
}
