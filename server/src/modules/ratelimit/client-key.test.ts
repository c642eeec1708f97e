import { describe, expect, it } from 'vitest';
import { clientKeyOf } from './client-key';

describe('clientKeyOf: the client a per-address limit counts', () => {
  it('keeps an IPv4 address', () => {
    expect(clientKeyOf('203.0.113.7')).toBe('203.0.113.7');
  });

  it('counts an IPv4-mapped IPv6 address as its IPv4 address', () => {
    expect(clientKeyOf('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientKeyOf('::FFFF:cb00:7107')).toBe('203.0.113.7');
  });

  it('counts an IPv6 address by its /64, however it is written', () => {
    const key = clientKeyOf('2001:db8:9:1::5');
    expect(key).toBe('2001:db8:9:1::/64');
    expect(clientKeyOf('2001:0DB8:0009:0001:abcd:ef01:2345:6789')).toBe(key);
    expect(clientKeyOf('2001:db8:9:1:0:0:0:1')).toBe(key);
    expect(clientKeyOf('2001:db8:9:2::5')).not.toBe(key);
    expect(clientKeyOf('::1')).toBe('0:0:0:0::/64');
    expect(clientKeyOf('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });

  it('keeps what it cannot parse, and names a missing address', () => {
    expect(clientKeyOf('unknown')).toBe('unknown');
    expect(clientKeyOf(null)).toBe('-');
    expect(clientKeyOf(undefined)).toBe('-');
    expect(clientKeyOf('')).toBe('-');
  });
});
