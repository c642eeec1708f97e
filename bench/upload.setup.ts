// What bench/upload.ts's phases share: the server's API as the bench calls it (each call timed for
// BENCH_TRACE), how a phase starts the server, and the rows of the printed table.
import { type BenchFile, callApi, uploadFiles } from '../server/test/over-http';
import type { GoalRow } from './goals';
import { BENCH_ADMIN, type BenchServer } from './server';

/** A row of the printed table: measure, result, target, status. */
export type UploadRow = [string, string, string, string];
export const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');

/** What a phase adds to the printed table and to issue 12's goals. */
export interface PhaseResult {
  rows: UploadRow[];
  goals: GoalRow[];
}

export interface UploadClient {
  call<T>(method: 'GET' | 'POST', url: string, body?: unknown): Promise<T>;
  /** Signs the administrator in (again: each server start is a new session). */
  signIn(): Promise<void>;
  /** Uploads like the browser (server/test/over-http.ts), timing each call for BENCH_TRACE. */
  upload(files: BenchFile[]): Promise<number[]>;
  /** Seconds spent per call, printed with BENCH_TRACE=1 to see where an upload's time goes. */
  spent: Map<string, number>;
}

export function uploadClient(base: string): UploadClient {
  let token = '';
  const spent = new Map<string, number>();
  function count(name: string, since: number) {
    spent.set(name, (spent.get(name) ?? 0) + (performance.now() - since) / 1000);
  }
  async function call<T>(method: 'GET' | 'POST', url: string, body?: unknown): Promise<T> {
    const since = performance.now();
    try {
      return await callApi<T>(base, token, method, url, body);
    } finally {
      count(url.split('?')[0] as string, since);
    }
  }
  async function signIn(): Promise<void> {
    token = '';
    token = (
      await call<{ token: string }>('POST', '/security-api/login', {
        userName: BENCH_ADMIN.email,
        password: BENCH_ADMIN.password,
      })
    ).token;
  }
  const upload = (files: BenchFile[]) => uploadFiles(base, token, files, { onCall: count });
  return { call, signIn, upload, spent };
}

/** What the phases need of the bench's set-up. */
export interface UploadSetup extends UploadClient {
  /** The scratch data directory the server runs in. */
  dataDir: string;
  /** PGlite or PostgreSQL, as the rows name it. */
  databaseName: string;
  /** The compiled server on the bench's port with `mediaWorkers`, resolved once it answers. */
  startServer(mediaWorkers: number, env?: Record<string, string>): Promise<BenchServer>;
}
