import ipaddr from 'ipaddr.js';

/**
 * The client a per-address limit counts: an IPv4 address as it is (an IPv4-mapped IPv6 address
 * `::ffff:a.b.c.d` as its IPv4 address), an IPv6 address by its /64 prefix, since one subscriber
 * or host commonly holds a whole /64 and could otherwise take a fresh address for every guess.
 * Anything unparsable (or no address at all) is kept as given, `-` when missing.
 */
export function clientKeyOf(ip: string | null | undefined): string {
  if (!ip) return '-';
  // A zone index (`fe80::1%eth0`) names the interface, not the client.
  const bare = ip.split('%')[0] ?? ip;
  if (!ipaddr.isValid(bare)) return ip;
  const address = ipaddr.parse(bare);
  if (address.kind() === 'ipv4') return address.toString();
  const v6 = address as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  const prefix = v6.parts.slice(0, 4).map((part) => part.toString(16));
  return `${prefix.join(':')}::/64`;
}
