import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';

/**
 * TRUST_PROXY: where client addresses come from (docs/decisions.md "Client address behind a
 * proxy"). `false`: the socket's address. A number of reverse proxies in front (`true` = 1): the
 * X-Forwarded-For entry that many hops from the right, the rest being written by the client
 * itself. Or the proxies' addresses and CIDR ranges (and proxy-addr's `loopback`, `linklocal`,
 * `uniquelocal`): X-Forwarded-For is believed only as far as it passes through them.
 */
export type TrustProxy = false | number | string[];
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);
const MAX_PROXY_HOPS = 20;

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry) || isIP(entry) !== 0) return true;
  const slash = entry.lastIndexOf('/');
  return slash > 0 && isIP(entry.slice(0, slash)) !== 0 && ipaddr.isValidCIDR(entry);
}

export const trustProxyFromEnv = z.string().transform((raw, ctx): TrustProxy => {
  const value = raw.trim().toLowerCase();
  if (value === 'false' || value === 'no' || value === '0') return false;
  if (value === 'true' || value === 'yes') return 1;
  if (/^\d+$/.test(value) && Number(value) <= MAX_PROXY_HOPS) return Number(value);
  const entries = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  const wrong = entries.filter((entry) => !isProxyAddress(entry));
  if (entries.length === 0 || wrong.length > 0 || /^\d+$/.test(value)) {
    ctx.addIssue({
      code: 'custom',
      message:
        `must be false, a number of reverse proxies in front (1-${MAX_PROXY_HOPS}; true = 1), or a ` +
        `comma-separated list of the proxies' addresses or CIDR ranges such as "10.0.0.0/8, loopback"` +
        (wrong.length > 0 ? ` (not an address or range: ${wrong.join(', ')})` : ''),
    });
    return z.NEVER;
  }
  return entries;
});
