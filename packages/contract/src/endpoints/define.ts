import type { z } from 'zod';
import { MAIN_API_PREFIX, SECURITY_API_PREFIX } from '../constants';
import { OPEN_API_PREFIX, type OpenCall } from '../open-api-values';

export type HttpMethod = 'GET' | 'POST' | 'PUT';

/** Where a call's path starts: the API prefixes of SPEC §7, and the unprefixed health check. */
export const ENDPOINT_PREFIXES = [MAIN_API_PREFIX, SECURITY_API_PREFIX, OPEN_API_PREFIX, '/health'] as const;

interface EndpointBase {
  readonly method: HttpMethod;
  /** The full path, prefix included; `:name` segments are path parameters (see `params`). */
  readonly path: string;
  readonly params?: z.ZodType;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  /**
   * An open call (OPEN_API_PREFIX): the code an enterprise must be allowed to use it, or `any`
   * for what every valid key may call (the OpenAPI document). Absent on every other call.
   */
  readonly openCall?: OpenCall | 'any';
  /** How the OpenAPI document describes an open call. */
  readonly doc?: { readonly tag: string; readonly summary: string; readonly description?: string };
}

/** A call answered with the envelope of SPEC §8 whose `result` is `result`. */
export interface JsonEndpoint extends EndpointBase {
  readonly reply: 'json';
  readonly result: z.ZodType;
}

/**
 * A call answered with bytes (a file, a zip, a workbook) on success; its errors are envelopes.
 * Kept in the table so that its path and request cannot drift either.
 */
export interface BinaryEndpoint extends EndpointBase {
  readonly reply: 'binary';
}

export type Endpoint = JsonEndpoint | BinaryEndpoint;

/**
 * Keeps the literal method, path and schema types, so request and result types derive from them.
 * Marked free of side effects so that a bundle that does not use the schema table drops it.
 */
/* @__NO_SIDE_EFFECTS__ */
export function defineEndpoint<const E extends Endpoint>(endpoint: E): E {
  return endpoint;
}

type InputOf<S> = S extends z.ZodType ? z.input<S> : undefined;
type OutputOf<S> = S extends z.ZodType ? z.output<S> : undefined;

/** What a client sends as the body / query string / path parameters. */
export type EndpointBody<E extends Endpoint> = InputOf<E['body']>;
export type EndpointQuery<E extends Endpoint> = InputOf<E['query']>;
export type EndpointParams<E extends Endpoint> = InputOf<E['params']>;
/** What the server's handler receives once the schema has parsed it. */
export type ParsedEndpointBody<E extends Endpoint> = OutputOf<E['body']>;
export type ParsedEndpointQuery<E extends Endpoint> = OutputOf<E['query']>;
/** The envelope's `result` of a JSON call. */
export type EndpointResult<E extends Endpoint> = E extends JsonEndpoint ? z.output<E['result']> : never;

/**
 * One call as the web app holds it at run time: method and path only, no schemas (`endpointRoutes`).
 * `schemas` exists only in the type, so that what is sent and what comes back are still typed from
 * the schema table: `call(endpointRoutes.fileDetail, …)` infers `E` from it.
 */
export interface EndpointRoute<E extends Endpoint = Endpoint> {
  readonly method: E['method'];
  readonly path: E['path'];
  readonly schemas?: E;
}

/** The path with its `:name` segments filled in (URL-encoded). */
export function endpointPath(
  endpoint: Pick<EndpointRoute, 'path'>,
  params: Record<string, string | number> = {},
): string {
  return endpoint.path.replace(/:([A-Za-z0-9_]+)/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`endpointPath: ${endpoint.path} needs :${name}`);
    return encodeURIComponent(String(value));
  });
}
