import type { TrustProxy } from '../config';

/**
 * Fastify's `trustProxy` for TRUST_PROXY. A hop count becomes a function trusting the socket and
 * the next `hops - 1` X-Forwarded-For entries from the right (proxy-addr's `trust(addr, i)`), so
 * the client is the entry our outermost proxy added; Fastify itself treats a bare number as "trust
 * nothing" and `true` as "trust every hop" (the leftmost entry, which the client writes).
 */
export function fastifyTrustProxy(
  value: TrustProxy,
): false | string[] | ((address: string, hop: number) => boolean) {
  if (value === false) return false;
  if (typeof value === 'number') {
    const hops = value;
    return (_address, hop) => hop < hops;
  }
  return value;
}
