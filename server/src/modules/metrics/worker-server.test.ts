import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, type ServerProcess, spawnServerProcess } from '../../../test/cluster';
import { createPostgresDatabase, createTestDatabase } from '../../../test/harness';
import { labelSets, promtoolCheck, sampleValue } from '../../../test/prometheus';
import type { DatabaseHandle } from '../../db/database';
import { createMetrics } from './metrics';
import { type MetricsServer, startMetricsServer } from './worker-server';

const TOKEN = 'worker-metrics-token-9876543210';

/** The token rule every metrics endpoint keeps: refused without the bearer token, 404 off /metrics. */
async function expectTokenRule(base: string) {
  for (const headers of [
    {},
    { authorization: 'Bearer not-the-token-at-all' },
    { authorization: `Basic ${TOKEN}` },
  ]) {
    const refused = await fetch(`${base}/metrics`, { headers });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
    expect(await refused.text()).not.toContain('dam_');
  }
  for (const [url, method] of [
    [`${base}/`, 'GET'],
    [`${base}/metricsx`, 'GET'],
    [`${base}/metrics`, 'POST'],
  ] as const) {
    const response = await fetch(url, { method, headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.status, `${method} ${url}`).toBe(404);
  }
  const answered = await fetch(`${base}/metrics?x=1`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(answered.status).toBe(200);
  expect(answered.headers.get('content-type')).toContain('text/plain; version=0.0.4');
  return answered.text();
}

describe("the worker's metrics server", () => {
  let database: DatabaseHandle;
  let server: MetricsServer;

  beforeAll(async () => {
    database = await createTestDatabase();
    const metrics = createMetrics({ database, queues: false });
    metrics.observeJob('media', 'completed', 0.2);
    server = await startMetricsServer({ metrics, token: TOKEN, port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await server?.close();
    await database?.close();
  });

  it('answers GET /metrics with the bearer token only, as the app does', async () => {
    const text = await expectTokenRule(`http://127.0.0.1:${server.port}`);
    expect(
      sampleValue(text, 'dam_job_duration_seconds_count', { queue: 'media', outcome: 'completed' }),
    ).toBe(1);
    expect(promtoolCheck(text)).toEqual({ status: 0, output: '' });
  });
});

// `npm run worker` runs on PostgreSQL only (the embedded database belongs to one process).
describe.skipIf(process.env.TEST_DB !== 'postgres')(
  'npm run worker with METRICS_PORT (PostgreSQL only)',
  () => {
    let worker: ServerProcess;
    let drop: () => Promise<void>;
    let dataDir: string;
    let port: number;

    beforeAll(async () => {
      const created = await createPostgresDatabase(process.env.TEST_DATABASE_URL as string, 'dam_metrics');
      drop = created.drop;
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dam-metrics-worker-'));
      port = await freePort();
      worker = await spawnServerProcess({
        entry: 'worker',
        env: {
          DATABASE_URL: created.url,
          DATA_DIR: dataDir,
          LOG_LEVEL: 'info',
          HOST: '127.0.0.1',
          METRICS_TOKEN: TOKEN,
          METRICS_PORT: String(port),
        },
      });
    }, 120_000);
    afterAll(async () => {
      await worker?.stop();
      await drop?.();
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    });

    it('serves its own metrics on METRICS_PORT under the same token rule: queues, pool, process', async () => {
      const text = await expectTokenRule(`http://127.0.0.1:${port}`);
      expect(sampleValue(text, 'dam_job_queue_counted')).toBe(1);
      expect(labelSets(text, 'dam_job_queue_jobs').map((labels) => labels.queue)).toContain('media');
      expect(sampleValue(text, 'dam_database_info', { kind: 'postgres' })).toBe(1);
      expect(sampleValue(text, 'dam_db_pool_max_connections')).toBe(10);
      expect(sampleValue(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
      // No HTTP API in the worker: no request durations.
      expect(text).not.toContain('dam_http_request_duration_seconds_count');
      expect(promtoolCheck(text)).toEqual({ status: 0, output: '' });
    });
  },
);
