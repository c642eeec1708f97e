import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/*
 * Outgoing HTTP to addresses other people chose (webhooks, issue 15): the URL must be http(s)
 * without credentials, and every address it reaches must be public unicast, unless it lies in a
 * network the operator allowed (WEBHOOK_ALLOWED_NETWORKS). The check is made when a URL is saved
 * and again on every request: the request's own DNS lookup is the checked one, so the socket
 * connects to the very address that passed (no window for DNS rebinding). Redirects are never
 * followed and at most a few KB of the answer are read.
 */

/** A URL or address the rules refuse; `detail` says why (shown to the administrator). */
export class UrlRefused extends Error {
  override name = 'UrlRefused';
  constructor(readonly detail: string) {
    super(detail);
  }
}

/** Networks allowed although not public (parsed CIDRs). */
export type AllowedNetworks = ReadonlyArray<[ipaddr.IPv4 | ipaddr.IPv6, number]>;

export function parseNetworks(cidrs: readonly string[]): AllowedNetworks {
  return cidrs.map((cidr) => ipaddr.parseCIDR(cidr));
}

type Lookup = (hostname: string) => Promise<{ address: string; family: number }[]>;
const systemLookup: Lookup = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

/**
 * The IPv4 address an IPv4-compatible IPv6 address carries (the first 96 bits zero, RFC 4291
 * 2.5.5.1, deprecated; not :: or ::1), or null. ipaddr.js calls `::7f00:1` plain unicast, and the
 * URL parser writes `[::127.0.0.1]` as `[::7f00:1]`.
 */
function ipv4CompatibleOf(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  const [a, b, c, d, e, f, high = 0, low = 0] = address.parts;
  if (a || b || c || d || e || f || (high === 0 && low <= 1)) return null;
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

/**
 * Why an address may not be reached, or null when it may. IPv4 in any notation ipaddr.js reads
 * (decimal, octal, hex) is judged as its dotted form, IPv4-mapped IPv6 as IPv4; IPv4-compatible
 * IPv6 is refused whatever it embeds; NAT64 (64:ff9b::/96, 64:ff9b:1::/48), SIIT, 6to4 and Teredo
 * addresses are not public unicast ranges and are refused unless a network allows them.
 */
export function addressProblem(address: string, allowed: AllowedNetworks): string | null {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    const embedded = ipv4CompatibleOf(v6);
    if (embedded) return `${address} is an IPv4-compatible address (of ${embedded.toString()})`;
    if (v6.isIPv4MappedAddress()) parsed = v6.toIPv4Address();
  }
  for (const [network, bits] of allowed)
    if (network.kind() === parsed.kind() && parsed.match(network, bits)) return null;
  const range = parsed.range();
  return range === 'unicast' ? null : `${address} is a ${range} address`;
}

/** The URL's own rules (no address check): http(s), no user name or password, a host. */
export function parseTargetUrl(raw: string): URL {
  if (!URL.canParse(raw)) throw new UrlRefused('not a valid URL');
  const url = new URL(raw);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UrlRefused(`only http and https are allowed, not ${url.protocol.replace(/:$/, '')}`);
  if (url.username !== '' || url.password !== '')
    throw new UrlRefused('a user name or password in the URL is not allowed');
  if (hostOf(url) === '') throw new UrlRefused('the URL has no host');
  return url;
}

/** The host as an address or name (IPv6 literals without their brackets). */
function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/**
 * The whole check of a URL: its rules, then its address (an IP literal) or every address its
 * name resolves to. Throws UrlRefused.
 */
export async function checkTargetUrl(
  raw: string,
  allowed: AllowedNetworks,
  lookup: Lookup = systemLookup,
): Promise<URL> {
  const url = parseTargetUrl(raw);
  const host = hostOf(url);
  if (isIP(host) !== 0) {
    const problem = addressProblem(host, allowed);
    if (problem) throw new UrlRefused(problem);
    return url;
  }
  let addresses: { address: string }[];
  try {
    addresses = await lookup(host);
  } catch {
    throw new UrlRefused(`${host} could not be resolved`);
  }
  if (addresses.length === 0) throw new UrlRefused(`${host} could not be resolved`);
  for (const { address } of addresses) {
    const problem = addressProblem(address, allowed);
    if (problem) throw new UrlRefused(`${host} resolves to ${problem.replace(/^\S+ is /, `${address}, `)}`);
  }
  return url;
}

/**
 * A `lookup` for http(s).request that resolves like the system does and fails when any address
 * is refused; it honours `options.all` (Node's happy-eyeballs connect asks for every address).
 */
export function safeLookup(allowed: AllowedNetworks, lookup: Lookup = systemLookup): LookupFunction {
  return ((hostname: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) => {
    lookup(hostname).then(
      (addresses) => {
        const family = typeof options.family === 'number' ? options.family : 0;
        const usable = family === 0 ? addresses : addresses.filter((a) => a.family === family);
        for (const { address } of addresses) {
          const problem = addressProblem(address, allowed);
          if (problem) {
            callback(
              new UrlRefused(`${hostname} resolves to ${problem.replace(/^\S+ is /, `${address}, `)}`),
            );
            return;
          }
        }
        const first = usable[0];
        if (!first) {
          callback(Object.assign(new Error(`${hostname} could not be resolved`), { code: 'ENOTFOUND' }));
          return;
        }
        if (options.all) callback(null, usable);
        else callback(null, first.address, first.family);
      },
      (error: unknown) => callback(error),
    );
  }) as LookupFunction;
}

export interface SafePostOptions {
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  allowed: AllowedNetworks;
  /** How much of the answer is read (4 KB by default). */
  maxAnswerBytes?: number;
  lookup?: Lookup;
}

/** An answer: its status and the first bytes of its body (as text). */
export interface SafeAnswer {
  status: number;
  body: string;
}

const DEFAULT_MAX_ANSWER_BYTES = 4096;

/**
 * POSTs `body` to `raw` under the rules above: the URL checked (UrlRefused), the connection made
 * only to a checked address, given up after `timeoutMs` (the whole exchange), no redirect
 * followed. Resolves with any status; rejects when no answer came.
 */
export async function safePost(raw: string, options: SafePostOptions): Promise<SafeAnswer> {
  const url = parseTargetUrl(raw);
  const host = hostOf(url);
  if (isIP(host) !== 0) {
    const problem = addressProblem(host, options.allowed);
    if (problem) throw new UrlRefused(problem);
  }
  const maxBytes = options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES;
  const signal = AbortSignal.timeout(options.timeoutMs);
  const send = url.protocol === 'https:' ? https.request : http.request;
  const timedOut = () => new Error(`no answer within ${options.timeoutMs} ms`);
  return new Promise<SafeAnswer>((resolve, reject) => {
    let settled = false;
    const finish = (error: unknown, answer?: SafeAnswer) => {
      if (settled) return;
      settled = true;
      if (error) reject(error);
      else resolve(answer as SafeAnswer);
    };
    const request = send(
      url,
      {
        method: 'POST',
        headers: { ...options.headers, 'content-length': String(Buffer.byteLength(options.body)) },
        lookup: safeLookup(options.allowed, options.lookup),
        signal,
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () => {
          finish(null, {
            status: response.statusCode ?? 0,
            body: Buffer.concat(chunks).subarray(0, maxBytes).toString('utf8'),
          });
          response.destroy();
        };
        response.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          if (size >= maxBytes) done();
        });
        response.on('end', done);
        response.on('error', (error) => finish(signal.aborted ? timedOut() : error));
        response.on('aborted', () =>
          finish(signal.aborted ? timedOut() : new Error('the answer was cut off')),
        );
      },
    );
    request.on('error', (error) => finish(signal.aborted ? timedOut() : error));
    request.end(options.body);
  });
}
