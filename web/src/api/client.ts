import {
  type Endpoint,
  type EndpointBody,
  type EndpointParams,
  type EndpointQuery,
  type EndpointResult,
  type EndpointRoute,
  type Envelope,
  type ErrorCode,
  endpointPath,
  FIRST_ANSWERS_ELEMENT_ID,
  type FirstCall,
  firstCallKey,
  type JsonEndpoint,
  LANG_HEADER,
  LIMITS,
  type QueryValues,
  SECURITY_API_PREFIX,
  TOKEN_HEADER,
  urlWithQuery,
} from '@dam/contract';
import { clearToken, getToken, onSessionChange, signedInWithSso } from '../auth/token';
import i18n, { currentLanguage } from '../i18n';
import { endpoints as endpointRoutes } from './endpoints';
import { notifyError } from './notify';

export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly code: ErrorCode | 'NETWORK' | 'TIMEOUT',
    readonly desc: string,
    readonly status: number,
    /** A 429's Retry-After in milliseconds, when the answer carried one. */
    readonly retryAfterMs?: number,
  ) {
    super(desc);
  }
}

/** Retry-After in milliseconds: whole seconds or an HTTP date (RFC 9110 §10.2.3). */
export function retryAfterMsOf(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

export interface RequestOptions {
  /** Query parameters; a list is sent as the same name repeated (`tagIdList=1&tagIdList=2`). */
  query?: QueryValues;
  body?: unknown;
  /** Do not show the error to the user (the caller shows it its own way). */
  silent?: boolean;
  signal?: AbortSignal;
  /** Extra request headers (a share link's visitor token, say). */
  headers?: Record<string, string>;
}

/**
 * Where a browser whose session expired goes (SPEC §8 SE_501, after 3 s): the company single
 * sign-on's logout page when the session came from it and the provider has one, else /login.
 */
async function leaveExpiredSession(viaSso: boolean): Promise<void> {
  if (viaSso) {
    try {
      const status = await call(endpointRoutes.ssoStatus, { silent: true });
      if (status.logoutUrl) {
        window.location.assign(status.logoutUrl);
        return;
      }
    } catch {
      // The server cannot say: /login it is.
    }
  }
  window.location.assign('/login');
}

let onSessionExpired: (viaSso: boolean) => void = (viaSso) => {
  window.setTimeout(() => void leaveExpiredSession(viaSso), LIMITS.loginExpiredRedirectMs);
};

/** Tests and the router may replace what happens after SE_501 (default: leaveExpiredSession after 3 s). */
export function setSessionExpiredHandler(handler: (viaSso: boolean) => void): void {
  onSessionExpired = handler;
}

/** What every call sends: the interface language and, when signed in, the session token. */
function callHeaders(extra?: Record<string, string>): Record<string, string> {
  const headers: Record<string, string> = { ...extra, [LANG_HEADER]: currentLanguage() };
  const token = getToken();
  if (token) headers[TOKEN_HEADER] = token;
  return headers;
}

const timeoutOf = (path: string) =>
  path.startsWith(SECURITY_API_PREFIX) ? LIMITS.securityRequestTimeoutMs : LIMITS.mainRequestTimeoutMs;

/** How long an answer asked for early waits to be taken before it is dropped. */
const EARLY_ANSWER_MS = 30_000;

interface EarlyAnswer {
  response: Promise<Response>;
  /** Ends the call: its time-out, a drop, or the abort of the call that took it. */
  stop: AbortController;
}
const earlyAnswers = new Map<string, EarlyAnswer>();
// The token is part of the key: a sign-in in another tab changes the cookie without telling this one.
const earlyKey = (method: string, url: string) => `${method} ${url} ${getToken() ?? ''}`;

function dropEarly(key: string, answer: EarlyAnswer): void {
  if (earlyAnswers.get(key) !== answer) return;
  earlyAnswers.delete(key);
  // Cancels the request if it is still waiting and its body if not: neither may hold one of the
  // browser's few connections to the server.
  answer.stop.abort();
}

/**
 * The answers the server put in the page for its first calls (server/src/http/app-page.ts), by
 * `METHOD address`; each taken once, by the first askEarly of its call.
 */
const embeddedAnswers = new Map<string, unknown>();

function takeEmbeddedAnswer(call: FirstCall): unknown {
  const element = document.getElementById(FIRST_ANSWERS_ELEMENT_ID);
  if (element) {
    try {
      const answers = JSON.parse(element.textContent ?? '') as Record<string, unknown>;
      for (const [key, answer] of Object.entries(answers)) embeddedAnswers.set(key, answer);
    } catch {
      // Not readable: the page makes its calls itself.
    }
    // Read once: nothing else reads it.
    element.remove();
  }
  const key = firstCallKey(call);
  const answer = embeddedAnswers.get(key);
  embeddedAnswers.delete(key);
  return answer;
}

/**
 * Makes a call without a body now, before the page that needs it has loaded: the router does this
 * for the first page's calls as soon as the app starts, so the page's code and its data arrive side
 * by side instead of one after the other (issue 12 goal 4); when the server answered the call in
 * the page itself, that answer is taken instead. The page's own call of the same endpoint with the
 * same input takes the answer, once. One not taken within EARLY_ANSWER_MS, or when the session
 * changes, is dropped.
 */
export function askEarly(call: FirstCall): void {
  const { method, url } = call;
  const key = earlyKey(method, url);
  if (earlyAnswers.has(key)) return;
  const stop = new AbortController();
  const embedded = takeEmbeddedAnswer(call);
  const timer = setTimeout(() => stop.abort(new DOMException('timeout', 'TimeoutError')), timeoutOf(url));
  const response =
    embedded === undefined
      ? fetch(url, { method, headers: callHeaders(), signal: stop.signal })
      : Promise.resolve(
          new Response(JSON.stringify(embedded), { headers: { 'content-type': 'application/json' } }),
        );
  // Whoever takes the answer sees a failure; one never taken must not be reported as unhandled.
  response.then(
    () => clearTimeout(timer),
    () => clearTimeout(timer),
  );
  const answer = { response, stop };
  earlyAnswers.set(key, answer);
  setTimeout(() => dropEarly(key, answer), EARLY_ANSWER_MS);
}

// An answer asked for in one session is not the next one's.
onSessionChange(() => {
  embeddedAnswers.clear();
  for (const [key, answer] of earlyAnswers) dropEarly(key, answer);
});

function takeEarly(method: string, url: string): EarlyAnswer | undefined {
  const key = earlyKey(method, url);
  const answer = earlyAnswers.get(key);
  earlyAnswers.delete(key);
  return answer;
}

/**
 * Sends one request with the call headers, ended after the time-out of its API; no answer at all
 * (a lost network, the time-out) becomes an ApiError in the user's language, shown unless silent.
 * An answer asked for early (askEarly) stands in for the request.
 */
async function send(
  method: string,
  path: string,
  url: string,
  options: RequestOptions,
  early?: EarlyAnswer,
): Promise<Response> {
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new DOMException('timeout', 'TimeoutError')),
    timeoutOf(path),
  );
  options.signal?.addEventListener('abort', () => controller.abort(options.signal?.reason));
  const headers = callHeaders(options.headers);
  // A FormData body (a file upload) sets its own multipart content type.
  const isForm = options.body instanceof FormData;
  if (options.body !== undefined && !isForm) headers['content-type'] = 'application/json';
  try {
    return await (early?.response ??
      fetch(url, {
        method,
        headers,
        body:
          options.body === undefined
            ? undefined
            : isForm
              ? (options.body as FormData)
              : JSON.stringify(options.body),
        signal: controller.signal,
      }));
  } catch (error) {
    const timedOut =
      [controller.signal, early?.stop.signal].some(
        (signal) => signal?.reason instanceof DOMException && signal.reason.name === 'TimeoutError',
      ) || (error as Error).name === 'TimeoutError';
    const failure = timedOut
      ? new ApiError('TIMEOUT', i18n.t('errors.timeout'), 0)
      : new ApiError('NETWORK', i18n.t('errors.network'), 0);
    if ((error as Error).name === 'AbortError' && !timedOut) throw error;
    if (!options.silent) notifyError(failure.desc);
    throw failure;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The ApiError of an answer that is not a success, already shown to the user unless silent; an
 * expired session (SE_501) is always shown and leaves the page (onSessionExpired).
 */
function refusal(response: Response, envelope: Envelope<unknown> | null, silent?: boolean): ApiError {
  let failure: ApiError;
  if (envelope?.errorCode) {
    // The server words every refusal in the caller's language (LANG_HEADER); the error table is
    // not shipped to the browser for the rare answer without words (it would double the sign-in
    // page's client code).
    failure = new ApiError(
      envelope.errorCode,
      envelope.errorDesc ?? i18n.t('errors.system'),
      response.status,
      retryAfterMsOf(response.headers.get('retry-after')),
    );
  } else if (response.status === 504) {
    failure = new ApiError('TIMEOUT', i18n.t('errors.timeout'), 504);
  } else {
    // A proxy's 429 without our envelope still carries when to come back.
    failure = new ApiError(
      'SE_500',
      i18n.t('errors.system'),
      response.status,
      retryAfterMsOf(response.headers.get('retry-after')),
    );
  }
  if (failure.code === 'SE_501') {
    const viaSso = signedInWithSso();
    clearToken();
    notifyError(failure.desc);
    onSessionExpired(viaSso);
  } else if (!silent) {
    notifyError(failure.desc);
  }
  return failure;
}

/**
 * Calls the API with the token and language headers, unwraps the envelope of SPEC §8 and turns
 * every failure into an ApiError whose text is already in the user's language.
 */
export async function apiRequest<T>(
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  options: RequestOptions = {},
): Promise<T> {
  const url = urlWithQuery(path, options.query);
  const early = options.body === undefined && !options.headers ? takeEarly(method, url) : undefined;
  if (early) options.signal?.addEventListener('abort', () => early.stop.abort(options.signal?.reason));
  const response = await send(method, path, url, options, early);
  let envelope: Envelope<T> | null = null;
  try {
    envelope = (await response.json()) as Envelope<T>;
  } catch {
    envelope = null;
  }
  if (envelope?.success) return envelope.result as T;
  throw refusal(response, envelope, options.silent);
}

/** One part of a call's input: required when the table gives it fields that must be sent. */
type InputPart<K extends string, T> = [T] extends [undefined]
  ? // Calls without a body schema take raw bytes or a multipart form (imports, the local part PUT).
    { [P in K]?: K extends 'body' ? FormData | Blob : never }
  : Record<string, never> extends NonNullable<T>
    ? { [P in K]?: T }
    : { [P in K]: T };

/** What a call of `E` sends (path parameters, query, body, typed from the endpoint table) and how. */
export type CallInput<E extends Endpoint> = InputPart<'params', EndpointParams<E>> &
  InputPart<'query', EndpointQuery<E>> &
  InputPart<'body', EndpointBody<E>> &
  Omit<RequestOptions, 'query' | 'body'>;

type CallArgs<E extends Endpoint> =
  Record<string, never> extends CallInput<E> ? [input?: CallInput<E>] : [input: CallInput<E>];

function split(input: unknown): {
  params: Record<string, string | number> | undefined;
  query: RequestOptions['query'];
  options: RequestOptions;
} {
  const { params, query, ...options } = (input ?? {}) as RequestOptions & {
    params?: Record<string, string | number>;
  };
  return { params, query, options };
}

/**
 * Calls one endpoint of the contract's table: its method and path come from the table, what is
 * sent and what comes back are typed from its schemas. `call(endpoints.fileDetail, { query: { id } })`
 * with `endpoints` of ./endpoints (method and path only at run time).
 */
export function call<E extends JsonEndpoint>(
  endpoint: EndpointRoute<E>,
  ...[input]: CallArgs<E>
): Promise<EndpointResult<E>> {
  const { params, query, options } = split(input);
  return apiRequest<EndpointResult<E>>(endpoint.method, endpointPath(endpoint, params), {
    ...options,
    query,
  });
}

/**
 * Saves the file an endpoint answers with (a workbook, a report) under the name the server gives,
 * sent like every other call: the session and language headers, the time-out of its API, an
 * expired session leaving the page, a refusal shown in the user's language (unless silent) and
 * thrown as an ApiError. `saveFile(endpoints.importTemplate, { query: { kind } })`.
 */
export async function saveFile<E extends Endpoint>(
  endpoint: EndpointRoute<E>,
  ...[input]: CallArgs<E>
): Promise<void> {
  const { params, query, options } = split(input);
  const path = endpointPath(endpoint, params);
  const response = await send(endpoint.method, path, urlWithQuery(path, query), options);
  if (!response.ok || response.headers.get('content-type')?.includes('application/json')) {
    const envelope = (await response.json().catch(() => null)) as Envelope<unknown> | null;
    throw refusal(response, envelope, options.silent);
  }
  const disposition = response.headers.get('content-disposition') ?? '';
  const encoded = /filename\*=UTF-8''([^;]+)/.exec(disposition)?.[1];
  const link = document.createElement('a');
  link.href = URL.createObjectURL(await response.blob());
  link.download = encoded ? decodeURIComponent(encoded) : (path.split('/').pop() ?? 'download');
  link.click();
  URL.revokeObjectURL(link.href);
}

/** The address of an endpoint with its parameters filled in: for links, downloads and saved files. */
export function endpointUrl<E extends Endpoint>(
  endpoint: EndpointRoute<E>,
  input: { params?: EndpointParams<E>; query?: EndpointQuery<E> } = {},
): string {
  return urlWithQuery(
    endpointPath(endpoint, input.params as Record<string, string | number> | undefined),
    input.query as RequestOptions['query'],
  );
}
