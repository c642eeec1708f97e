import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { DatabaseHandle } from '../../db/database';
import { queueCounter } from './queue-counts';

/** Where an upload part's bytes went: through this process to DATA_DIR, or straight to the object store. */
export type PartStorage = 'local' | 's3';

/**
 * The Prometheus metrics of one process (docs/metrics.md): a registry of its own, not prom-client's
 * global one, so several apps in one process (tests) never share or clash.
 */
export interface Metrics {
  readonly registry: Registry;
  /** One answered request: `route` is the route's pattern (never the raw URL), undefined when none matched. */
  observeRequest(method: string, route: string | undefined, status: number, seconds: number): void;
  /** One job worked in this process, from its handler's start to its end. */
  observeJob(queue: string, outcome: 'completed' | 'failed', seconds: number): void;
  /** An upload part stored (docs/metrics.md `dam_upload_part_bytes_total`). */
  countUploadBytes(storage: PartStorage, bytes: number): void;
  /** The text exposition, collected now. */
  render(): Promise<{ contentType: string; body: string }>;
}

/** Requests: from a cached answer (milliseconds) to an 8 MiB part on a slow line (minutes). */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];
/** Jobs: a mail or a deletion (tens of ms) to a video preview or a 100 000-row import (an hour). */
const JOB_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600];
/** The label of requests no route matched (unknown paths, the web app's pages). */
export const UNMATCHED_ROUTE = '(unmatched)';

export function createMetrics(options: {
  database: DatabaseHandle;
  /** Count the job queues' jobs on every scrape (processes with a job queue). */
  queues: boolean;
}): Metrics {
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry });
  // Gauges named like counters, which promtool's lint refuses; nodejs_active_handles{type} (and
  // _requests, _resources) give the same totals by type.
  for (const name of [
    'nodejs_active_handles_total',
    'nodejs_active_requests_total',
    'nodejs_active_resources_total',
  ])
    registry.removeSingleMetric(name);

  const requests = new Histogram({
    name: 'dam_http_request_duration_seconds',
    help: 'Time from a request received to its answer sent, by method, route pattern and status code.',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: REQUEST_BUCKETS,
    registers,
  });
  const jobs = new Histogram({
    name: 'dam_job_duration_seconds',
    help: 'Time a job worked in this process took, by queue and outcome (completed or failed).',
    labelNames: ['queue', 'outcome'] as const,
    buckets: JOB_BUCKETS,
    registers,
  });
  const uploadBytes = new Counter({
    name: 'dam_upload_part_bytes_total',
    help: 'Bytes of upload parts stored: received by this process (storage="local") or reported stored in the object store by the browser (storage="s3").',
    labelNames: ['storage'] as const,
    registers,
  });

  const { database } = options;
  new Gauge({
    name: 'dam_database_info',
    help: 'The database this process uses: kind="postgres" (a connection pool) or "pglite" (embedded, one connection in the process).',
    labelNames: ['kind'] as const,
    registers,
    collect() {
      this.set({ kind: database.kind }, 1);
    },
  });
  const pool = database.pool;
  if (pool) {
    const poolGauge = (name: string, help: string, read: () => number) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(read());
        },
      });
    poolGauge(
      'dam_db_pool_connections',
      'Connections the PostgreSQL pool holds open (busy and idle).',
      () => pool.totalCount,
    );
    poolGauge(
      'dam_db_pool_idle_connections',
      'Open connections of the pool not in use.',
      () => pool.idleCount,
    );
    poolGauge(
      'dam_db_pool_waiting_clients',
      'Queries waiting for a connection of the pool.',
      () => pool.waitingCount,
    );
    poolGauge(
      'dam_db_pool_max_connections',
      'The most connections the pool opens (DATABASE_POOL_SIZE).',
      () => pool.options.max ?? 10,
    );
  }

  if (options.queues) {
    const counts = queueCounter(database);
    new Gauge({
      name: 'dam_job_queue_jobs',
      help: 'Jobs of each queue by state (waiting: due now; deferred: due later; active; failed: kept after their last attempt), counted at the scrape; the same in every process sharing the database.',
      labelNames: ['queue', 'state'] as const,
      registers,
      async collect() {
        this.reset();
        const rows = await counts();
        for (const row of rows ?? []) {
          for (const state of ['waiting', 'deferred', 'active', 'failed'] as const)
            this.set({ queue: row.queue, state }, row[state]);
        }
      },
    });
    new Gauge({
      name: 'dam_job_queue_counted',
      help: 'Whether the job queues could be counted at this scrape (1), or the count failed or took too long (0, and dam_job_queue_jobs is left out).',
      registers,
      async collect() {
        this.set((await counts()) ? 1 : 0);
      },
    });
  }

  return {
    registry,
    observeRequest(method, route, status, seconds) {
      requests.observe({ method, route: route ?? UNMATCHED_ROUTE, status_code: String(status) }, seconds);
    },
    observeJob(queue, outcome, seconds) {
      jobs.observe({ queue, outcome }, seconds);
    },
    countUploadBytes(storage, bytes) {
      uploadBytes.inc({ storage }, bytes);
    },
    async render() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}
