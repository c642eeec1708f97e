import { type Endpoint, endpoints, MAIN_API_PREFIX } from '@dam/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPEN_DOCS_PATH } from '../src/modules/open-api/docs/routes';
import { createTestApp, type TestApp } from './harness';

/** `METHOD path` of every route Fastify serves, read from its route tree (HEAD is implied by GET). */
function servedRoutes(tree: string): string[] {
  const stack: string[] = [];
  const served: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^((?:│ {3}| {4})*)(?:├── |└── )(\S+)(?: \(([^)]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = (match[1] ?? '').length / 4;
    const path = (stack[depth - 1] ?? '') + match[2];
    stack[depth] = path;
    for (const method of (match[3] ?? '').split(', ').filter(Boolean)) {
      if (method !== 'HEAD') served.push(`${method} ${path}`);
    }
  }
  return served;
}

describe('routes come from the endpoint table', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('serves every call of the table at its method and path', () => {
    const missing = Object.entries(endpoints as Record<string, Endpoint>)
      .filter(([, endpoint]) => !t.app.hasRoute({ method: endpoint.method, url: endpoint.path }))
      .map(([name, endpoint]) => `${name}: ${endpoint.method} ${endpoint.path}`);
    expect(missing).toEqual([]);
  });

  it('serves no API route outside the table but the media bytes', () => {
    const table = new Set(
      Object.values(endpoints as Record<string, Endpoint>).map((e) => `${e.method} ${e.path}`),
    );
    const served = servedRoutes(t.app.printRoutes({ commonPrefix: false }));
    expect(served.length).toBeGreaterThan(90);
    const outside = served.filter(
      (route) =>
        !table.has(route) &&
        !route.startsWith(`GET ${MAIN_API_PREFIX}/v1_0/media`) &&
        // The open API's docs page (modules/open-api/docs): Swagger UI's page, files and the document
        // it shows, for people signed in; not a call (the document itself is GET /open/v1/openapi.json).
        !route.startsWith(`GET ${OPEN_DOCS_PATH}`),
    );
    expect(outside).toEqual([]);
  });
});
