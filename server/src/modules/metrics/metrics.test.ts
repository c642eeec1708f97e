import { endpoints, MAIN_API_PREFIX } from '@dam/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadFiles } from '../../../test/factories';
import { makeJpeg } from '../../../test/fixtures';
import { ADMIN, createTestApp, s3Env, signIn, startS3Server, type TestApp } from '../../../test/harness';
import { labelSets, promtoolCheck, sampleValue } from '../../../test/prometheus';
import { MEDIA_QUEUE, OBJECT_DELETION_QUEUE } from '../../jobs/queue';

const TOKEN = 'metrics-test-token-0123456789';

async function scrape(t: TestApp, authorization?: string) {
  const response = await t.app.inject({
    method: 'GET',
    url: '/metrics',
    headers: authorization ? { authorization } : {},
  });
  return { status: response.statusCode, headers: response.headers, text: response.body };
}

describe('GET /metrics with METRICS_TOKEN set', () => {
  let t: TestApp;
  let s3: Awaited<ReturnType<typeof startS3Server>>;
  let token: string;
  let jpeg: Buffer;
  let uploadId: number;

  beforeAll(async () => {
    s3 = await startS3Server();
    t = await createTestApp({ METRICS_TOKEN: TOKEN, ...s3Env(s3) }, { jobs: true });
    token = await signIn(t.app, ADMIN.email, ADMIN.password);
    jpeg = await makeJpeg(320, 240);
    [uploadId] = (await uploadFiles(t, token, [{ fileName: 'metrics.jpg', bytes: jpeg }])) as [number];
    await t.jobs?.mediaDone(uploadId);
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  it('refuses a scrape without the token, with another token or with another scheme', async () => {
    for (const authorization of [undefined, `Bearer ${TOKEN}x`, 'Bearer wrong', `Basic ${TOKEN}`, TOKEN]) {
      const refused = await scrape(t, authorization);
      expect(refused.status, String(authorization)).toBe(401);
      expect(refused.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(refused.text).not.toContain('dam_');
    }
  });

  it('times requests by route pattern, method and status, never by raw URL', async () => {
    await t.app.inject({ method: 'GET', url: `${MAIN_API_PREFIX}/v1_0/user/share/random/nosuchcode7` });
    await t.app.inject({ method: 'GET', url: `${MAIN_API_PREFIX}/v1_0/no-such-call-here` });
    const { status, headers, text } = await scrape(t, `Bearer ${TOKEN}`);
    expect(status).toBe(200);
    expect(headers['content-type']).toContain('text/plain; version=0.0.4');

    const count = (method: string, route: string, statusCode: number) =>
      sampleValue(text, 'dam_http_request_duration_seconds_count', {
        method,
        route,
        status_code: String(statusCode),
      });
    expect(count('POST', endpoints.login.path, 200)).toBe(1);
    expect(count('POST', endpoints.createUploads.path, 200)).toBe(1);
    expect(count('POST', endpoints.partDone.path, 200)).toBe(1);
    const share = labelSets(text, 'dam_http_request_duration_seconds_count').find(
      (labels) => labels.route === endpoints.visitShare.path,
    );
    expect(share?.method).toBe('GET');
    expect(count('GET', '(unmatched)', 404)).toBe(1);
    // A histogram: buckets up to +Inf, whose count is the request count.
    expect(
      sampleValue(text, 'dam_http_request_duration_seconds_bucket', {
        method: 'POST',
        route: endpoints.login.path,
        status_code: '200',
        le: '+Inf',
      }),
    ).toBe(1);
    // Bounded labels: what was in the addresses never becomes a label.
    expect(text).not.toContain('nosuchcode7');
    expect(text).not.toContain('no-such-call-here');
  });

  it('counts the upload bytes, the jobs worked here and every queue of the job queue', async () => {
    const { text } = await scrape(t, `Bearer ${TOKEN}`);
    // Parts PUT straight to the object store, as the browser reported them.
    expect(sampleValue(text, 'dam_upload_part_bytes_total', { storage: 's3' })).toBe(jpeg.length);
    expect(
      sampleValue(text, 'dam_job_duration_seconds_count', { queue: MEDIA_QUEUE, outcome: 'completed' }),
    ).toBe(1);

    expect(sampleValue(text, 'dam_job_queue_counted')).toBe(1);
    const queues = new Set(labelSets(text, 'dam_job_queue_jobs').map((labels) => String(labels.queue)));
    expect(queues).toContain(MEDIA_QUEUE);
    expect(queues).toContain(OBJECT_DELETION_QUEUE);
    for (const queue of queues)
      for (const state of ['waiting', 'deferred', 'active', 'failed'])
        expect(
          sampleValue(text, 'dam_job_queue_jobs', { queue, state }),
          `${queue} ${state}`,
        ).toBeGreaterThanOrEqual(0);
    // The upload's media job is done: nothing of it waits, runs or failed.
    for (const state of ['waiting', 'active', 'failed'])
      expect(sampleValue(text, 'dam_job_queue_jobs', { queue: MEDIA_QUEUE, state })).toBe(0);
  });

  it('reports the database, its pool on PostgreSQL, and the process', async () => {
    const { text } = await scrape(t, `Bearer ${TOKEN}`);
    expect(sampleValue(text, 'dam_database_info', { kind: t.database.kind })).toBe(1);
    if (t.database.kind === 'postgres') {
      // The pool the test database was opened with (DATABASE_POOL_SIZE in a real start).
      expect(sampleValue(text, 'dam_db_pool_max_connections')).toBe(t.database.pool?.options.max);
      expect(sampleValue(text, 'dam_db_pool_connections')).toBeGreaterThanOrEqual(1);
      expect(sampleValue(text, 'dam_db_pool_idle_connections')).toBeGreaterThanOrEqual(0);
      expect(sampleValue(text, 'dam_db_pool_waiting_clients')).toBe(0);
    } else {
      // The embedded database has no pool: no pool figures rather than made-up ones.
      expect(text).not.toContain('dam_db_pool_');
    }
    expect(sampleValue(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(sampleValue(text, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
  });

  it('passes promtool check metrics without a complaint', async () => {
    const { text } = await scrape(t, `Bearer ${TOKEN}`);
    expect(promtoolCheck(text)).toEqual({ status: 0, output: '' });
  });
});

describe('GET /metrics on the local storage driver', () => {
  let t: TestApp;

  beforeAll(async () => {
    // No media workers in this process: the upload's media job stays in its queue, waiting.
    t = await createTestApp({ METRICS_TOKEN: TOKEN, MEDIA_WORKERS: '0' }, { jobs: true });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('counts the bytes of parts received, by the part route pattern, and the job waiting', async () => {
    const token = await signIn(t.app, ADMIN.email, ADMIN.password);
    const bytes = await makeJpeg(200, 100);
    await uploadFiles(t, token, [{ fileName: 'waiting.jpg', bytes }]);
    const { text } = await scrape(t, `Bearer ${TOKEN}`);
    expect(sampleValue(text, 'dam_upload_part_bytes_total', { storage: 'local' })).toBe(bytes.length);
    // The browser's report of a local part adds nothing: the bytes were counted as received.
    expect(sampleValue(text, 'dam_upload_part_bytes_total', { storage: 's3' })).toBeUndefined();
    expect(
      sampleValue(text, 'dam_http_request_duration_seconds_count', {
        method: 'PUT',
        route: endpoints.putLocalPart.path,
        status_code: '200',
      }),
    ).toBe(1);
    expect(text).not.toContain('token=');
    expect(sampleValue(text, 'dam_job_queue_jobs', { queue: MEDIA_QUEUE, state: 'waiting' })).toBe(1);
    expect(promtoolCheck(text)).toEqual({ status: 0, output: '' });
  });
});

describe('GET /metrics without METRICS_TOKEN', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('does not exist: 404 like any unknown path, whatever the caller sends', async () => {
    expect(t.app.hasRoute({ method: 'GET', url: '/metrics' })).toBe(false);
    for (const authorization of [undefined, `Bearer ${TOKEN}`]) {
      const response = await scrape(t, authorization);
      expect(response.status).toBe(404);
      expect(response.text).not.toContain('dam_');
    }
  });
});
