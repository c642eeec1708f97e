import http from 'node:http';
import https from 'node:https';

/**
 * One JSON call to a running server, as the web app makes it (token header, envelope); throws
 * with the server's errorDesc when the envelope says it failed. Shared by the benchmarks and the
 * tests of started processes (for typed calls, `call` of ./call.ts takes an address too).
 */
export async function callApi<T>(
  base: string,
  token: string,
  method: 'GET' | 'POST',
  url: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: { token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const envelope = (await response.json()) as { success: boolean; result: T; errorDesc: string };
  if (!envelope.success) throw new Error(`${url}: ${envelope.errorDesc}`);
  return envelope.result;
}

// Parts are sent by node:http(s), not fetch: undici's fetch spent ~1.8 s of CPU per GiB of part
// bodies here (node:http 0.1 s), and on two cores shared with the server that slowed the server
// it measures. Idle keep-alive sockets are unref'd by the agents: they keep no process alive.
const partAgents = {
  'http:': new http.Agent({ keepAlive: true }),
  'https:': new https.Agent({ keepAlive: true }),
};
/** A part's PUT that has had no answer in this long fails (a stuck server must not hang a bench). */
const PART_TIMEOUT_MS = 120_000;

/** One PUT of a part's bytes; answers the status and the ETag the receiver gave. */
export function putBytes(url: URL, body: Buffer): Promise<{ status: number; etag: string | null }> {
  const secure = url.protocol === 'https:';
  return new Promise((resolve, reject) => {
    const request = (secure ? https : http).request(
      url,
      {
        method: 'PUT',
        agent: partAgents[secure ? 'https:' : 'http:'],
        headers: { 'content-length': String(body.length) },
      },
      (response) => {
        response.resume();
        response.once('error', reject);
        response.once('end', () =>
          resolve({ status: response.statusCode ?? 0, etag: response.headers.etag ?? null }),
        );
      },
    );
    request.setTimeout(PART_TIMEOUT_MS, () =>
      request.destroy(new Error(`PUT ${url.pathname}: no answer in ${PART_TIMEOUT_MS / 1000} s`)),
    );
    request.once('error', reject);
    request.end(body);
  });
}

/** A file to upload: its name, size, and the bytes of part `n` (1-based) of `size` bytes. */
export interface BenchFile {
  fileName: string;
  size: number;
  /** The article number the uploader gives the file (the upload dialog's field). */
  artNum?: string;
  part: (n: number, size: number) => Buffer;
}

/** Part addresses asked for in one multipart/sign call, as the browser asks for them. */
const SIGN_BATCH = 20;

/** A part's signed address, as multipart/sign answers it (no `reportDone` from an older server: reported). */
type SignedPart = { partNumber: number; url: string; reportDone?: boolean };

/**
 * Uploads like the browser: batch, multipart start, sign (20 at a time), PUT parts (3 in
 * flight), part-done for parts sent to a store, callback. `onCall(name, since)` is told when each call ends.
 */
export async function uploadFiles(
  base: string,
  token: string,
  files: BenchFile[],
  options: { targetFolderId?: string | number; onCall?: (name: string, since: number) => void } = {},
): Promise<number[]> {
  const onCall = options.onCall ?? (() => {});
  const call = async <T>(method: 'GET' | 'POST', url: string, body?: unknown): Promise<T> => {
    const since = performance.now();
    try {
      return await callApi<T>(base, token, method, url, body);
    } finally {
      onCall(url.split('?')[0] as string, since);
    }
  };
  const created = await call<Array<{ id: number }>>('POST', '/ske-api/v1_0/file-upload/upload', {
    targetFolderId: options.targetFolderId ?? 'all',
    uploadDetailDTOS: files.map((f) => ({
      fileName: f.fileName,
      fileSize: f.size,
      path: '',
      ...(f.artNum ? { artNum: f.artNum } : {}),
    })),
  });
  for (const [index, record] of created.entries()) {
    const file = files[index] as BenchFile;
    const { partSize, partCount } = await call<{ partSize: number; partCount: number }>(
      'POST',
      '/ske-api/v1_0/file-upload/multipart/start',
      { id: record.id },
    );
    // As the browser (web/src/features/upload/engine/transfer.ts): part addresses signed SIGN_BATCH at
    // a time, the next batch asked for while the parts of the one before are sent (not all before the
    // first).
    const urls = new Map<number, SignedPart>();
    const batches = new Map<number, Promise<void>>();
    const signBatch = (batch: number): Promise<void> => {
      const first = batch * SIGN_BATCH + 1;
      if (first > partCount) return Promise.resolve();
      let signing = batches.get(batch);
      if (!signing) {
        const partNumbers = Array.from(
          { length: Math.min(SIGN_BATCH, partCount - first + 1) },
          (_, i) => first + i,
        );
        signing = call<{ parts: SignedPart[] }>('POST', '/ske-api/v1_0/file-upload/multipart/sign', {
          id: record.id,
          partNumbers,
        }).then((signed) => {
          for (const part of signed.parts) urls.set(part.partNumber, part);
        });
        batches.set(batch, signing);
      }
      return signing;
    };
    const queue = Array.from({ length: partCount }, (_, i) => i + 1);
    const worker = async () => {
      for (let n = queue.shift(); n !== undefined; n = queue.shift()) {
        const batch = Math.floor((n - 1) / SIGN_BATCH);
        await signBatch(batch);
        // Asked for now, awaited by the worker that reaches it (which then sees a failure).
        signBatch(batch + 1).catch(() => {});
        const size = Math.min(partSize, file.size - (n - 1) * partSize);
        const body = file.part(n, size);
        const since = performance.now();
        // Local parts go to the server (a path); S3 parts to the presigned address of the store.
        const target = urls.get(n) as SignedPart;
        const put = await putBytes(new URL(target.url, base), body);
        onCall('PUT part', since);
        if (put.status < 200 || put.status > 299) throw new Error(`part ${n}: HTTP ${put.status}`);
        // The server's own part address recorded the part; a store's is reported, as the browser does.
        if (target.reportDone === false) continue;
        await call('POST', '/ske-api/v1_0/file-upload/multipart/part-done', {
          id: record.id,
          partNumber: n,
          etag: put.etag,
          size,
        });
      }
    };
    await Promise.all([worker(), worker(), worker()]);
    await call('GET', `/ske-api/v1_0/file-upload/callback?id=${record.id}&status=2&uploadSchedule=100`);
  }
  return created.map((r) => r.id);
}

/**
 * Runs each lane's work round after round, all lanes at once, until `durationMs` has passed; a
 * round that throws is counted, not fatal. Returns the failures' reasons (a load test wants none).
 */
export async function runLanes(
  durationMs: number,
  lanes: ReadonlyArray<(round: number) => Promise<void>>,
): Promise<string[]> {
  const failures: string[] = [];
  const until = Date.now() + durationMs;
  await Promise.all(
    lanes.map(async (work) => {
      for (let round = 0; Date.now() < until; round += 1) {
        try {
          await work(round);
        } catch (error) {
          failures.push(String(error));
        }
      }
    }),
  );
  return failures;
}
