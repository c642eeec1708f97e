import {
  type BinaryEndpoint,
  type Endpoint,
  type EndpointBody,
  type EndpointParams,
  type EndpointQuery,
  type EndpointResult,
  endpointPath,
  type JsonEndpoint,
} from '@dam/contract';
import type { FastifyInstance } from 'fastify';

/**
 * Calls of the contract's endpoint table from tests: the path, method and request come from the
 * table, and a JSON result is parsed with the table's result schema, so a test reads what the web
 * app would read and an answer that drifts from the contract fails the test.
 */

export interface CallOptions<E extends Endpoint> {
  /** The session token (header `token`). */
  token?: string;
  /** A share visitor's token (header `share-token`). */
  shareToken?: string;
  lang?: 'zh' | 'en';
  headers?: Record<string, string>;
  body?: EndpointBody<E>;
  /** Arrays travel comma-joined, as the web app sends them. */
  query?: EndpointQuery<E>;
  params?: EndpointParams<E>;
}

/** Options of a call expected to be refused: any body or query, to send what a client must not. */
export interface RefusedCallOptions<E extends Endpoint> extends Omit<CallOptions<E>, 'body' | 'query'> {
  body?: unknown;
  query?: Record<string, unknown>;
}

function queryString(query: Record<string, unknown> | undefined): string {
  if (!query) return '';
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    search.set(name, Array.isArray(value) ? value.join(',') : String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/**
 * Where calls go: the app inside the test process (through Fastify's inject), or the address of
 * a running server or proxy (over real HTTP), for tests of processes the test started.
 */
export type CallTarget = FastifyInstance | string;

/** An answer as the tests read it, whichever way the call went. */
export interface Answer {
  statusCode: number;
  headers: Record<string, unknown>;
  body: string;
  rawPayload: Buffer;
  json(): unknown;
}

async function send(
  target: CallTarget,
  endpoint: Endpoint,
  options: RefusedCallOptions<Endpoint>,
): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.token = options.token;
  if (options.shareToken) headers['share-token'] = options.shareToken;
  if (options.lang) headers.lang = options.lang;
  const url = `${endpointPath(endpoint, (options.params ?? {}) as Record<string, string | number>)}${queryString(options.query)}`;
  if (typeof target !== 'string') {
    return target.inject({
      method: endpoint.method,
      url,
      headers,
      ...(options.body === undefined ? {} : { payload: options.body as object }),
    });
  }
  const response = await fetch(new URL(url, target), {
    method: endpoint.method,
    headers: options.body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const rawPayload = Buffer.from(await response.arrayBuffer());
  const body = rawPayload.toString('utf8');
  return {
    statusCode: response.status,
    headers: Object.fromEntries(response.headers),
    body,
    rawPayload,
    json: () => JSON.parse(body),
  };
}

interface Envelope {
  success: boolean;
  result: unknown;
  errorCode: string | null;
  errorDesc: string | null;
}

/**
 * Calls `endpoint` and returns its result, parsed with the contract's schema. Anything but a
 * successful envelope throws, naming the call and the answer.
 */
export async function call<E extends JsonEndpoint>(
  app: CallTarget,
  endpoint: E,
  options: CallOptions<E> = {},
): Promise<EndpointResult<E>> {
  const response = await send(app, endpoint, options as RefusedCallOptions<Endpoint>);
  const envelope = response.json() as Envelope;
  if (response.statusCode !== 200 || !envelope.success) {
    throw new Error(
      `${endpoint.method} ${endpoint.path} answered ${response.statusCode}: ${response.body.slice(0, 500)}`,
    );
  }
  return endpoint.result.parse(envelope.result) as EndpointResult<E>;
}

/** What a call answered: its status and envelope, the result parsed when it succeeded. */
export interface Attempt<E extends JsonEndpoint> {
  status: number;
  success: boolean;
  errorCode: string | null;
  errorDesc: string | null;
  result: EndpointResult<E> | null;
  headers: Record<string, unknown>;
}

/** Calls `endpoint` and returns status and error code for the tests of refusals (and of successes). */
export async function attempt<E extends JsonEndpoint>(
  app: CallTarget,
  endpoint: E,
  options: RefusedCallOptions<E> = {},
): Promise<Attempt<E>> {
  const response = await send(app, endpoint, options as RefusedCallOptions<Endpoint>);
  const envelope = response.json() as Envelope;
  const succeeded = response.statusCode === 200 && envelope.success;
  return {
    status: response.statusCode,
    success: envelope.success,
    errorCode: envelope.errorCode,
    errorDesc: envelope.errorDesc,
    result: succeeded ? (endpoint.result.parse(envelope.result) as EndpointResult<E>) : null,
    headers: response.headers,
  };
}

/** Calls an endpoint that answers with bytes (a file, a zip, a workbook); errors stay envelopes. */
export function fetchBytes<E extends BinaryEndpoint>(
  app: CallTarget,
  endpoint: E,
  options: RefusedCallOptions<E> = {},
) {
  return send(app, endpoint, options as RefusedCallOptions<Endpoint>);
}

/**
 * The result of an envelope `body` that `endpoint` answered, parsed with the contract's schema:
 * for tests that check the status or headers of the same answer. Null when the call failed.
 */
export function resultOf<E extends JsonEndpoint>(
  endpoint: E,
  body: { success: boolean; result: unknown },
): EndpointResult<E> {
  return (body.success ? endpoint.result.parse(body.result) : null) as EndpointResult<E>;
}
