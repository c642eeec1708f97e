import type { FastifyInstance } from 'fastify';
import { bearerMatches, REFUSED } from './bearer';
import type { Metrics } from './metrics';

export const METRICS_PATH = '/metrics';

/**
 * Times every answer of the app by route pattern: added to the root instance before any route
 * plugin, so it applies to all of them and to the not-found handler.
 */
export function timeRequests(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', async (request, reply) => {
    metrics.observeRequest(
      request.method,
      request.routeOptions.url,
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
  });
}

/**
 * GET /metrics (Prometheus text format) for a caller with the bearer token; not a call of the JSON
 * API (not in the contract's endpoint table), and not registered at all when METRICS_TOKEN is unset.
 */
export async function metricsRoute(
  app: FastifyInstance,
  { metrics, token }: { metrics: Metrics; token: string },
) {
  app.get(METRICS_PATH, async (request, reply) => {
    if (!bearerMatches(request.headers.authorization, token))
      return reply.code(REFUSED.status).headers(REFUSED.headers).send(REFUSED.body);
    const { contentType, body } = await metrics.render();
    return reply.header('content-type', contentType).header('cache-control', 'no-store').send(body);
  });
}
