/**
 * The 64-bit hash of a fingerprint as text, bits, bands and a `bigint` column's value, and the
 * distance of two hashes (issue 17). No imports: the upload dialog's worker loads it too.
 */

/**
 * 64 bits to 16 lower-case hex digits, bit 0 first: bit i is bit (63 − i) of the 64-bit number,
 * so the hex reads in coefficient order (DC first) and a prefix of it is the lowest frequencies.
 */
export function bitsToHex(bits: boolean[]): string {
  let hex = '';
  for (let nibble = 0; nibble < 16; nibble++) {
    let value = 0;
    for (let k = 0; k < 4; k++) value = (value << 1) | (bits[nibble * 4 + k] ? 1 : 0);
    hex += value.toString(16);
  }
  return hex;
}

/** The inverse of `bitsToHex`. */
export function hexToBits(hex: string): boolean[] {
  const bits: boolean[] = [];
  for (const digit of hex) {
    const value = Number.parseInt(digit, 16);
    for (let k = 3; k >= 0; k--) bits.push(((value >> k) & 1) === 1);
  }
  return bits;
}

/** Bits that differ between two hashes (0–64). Two 32-bit halves: no BigInt on the hot path. */
export function hammingHex(a: string, b: string): number {
  return (
    popcount32(Number.parseInt(a.slice(0, 8), 16) ^ Number.parseInt(b.slice(0, 8), 16)) +
    popcount32(Number.parseInt(a.slice(8, 16), 16) ^ Number.parseInt(b.slice(8, 16), 16))
  );
}

function popcount32(value: number): number {
  let v = value >>> 0;
  let count = 0;
  while (v) {
    v &= v - 1;
    count++;
  }
  return count;
}

/**
 * The four 16-bit bands of a hash as the database's generated columns hold them:
 * band i = ((hash >> 16i) & 65535) − 32768, a signed smallint. Band 0 is the last 4 hex digits.
 */
export function bandsOf(hex: string): [number, number, number, number] {
  const band = (i: number) => Number.parseInt(hex.slice(12 - 4 * i, 16 - 4 * i), 16) - 32768;
  return [band(0), band(1), band(2), band(3)];
}

/**
 * The 137 band values (1 + 16 + 120) within 2 bits of a band, as signed smallints. By pigeonhole,
 * a hash within 11 bits of another differs in at most 2 bits in one of the 4 bands, so probing
 * these finds every hash within 11 (plan §3.2).
 */
export function probes(band: number): number[] {
  const unsigned = band + 32768;
  const values = [unsigned];
  for (let i = 0; i < 16; i++) {
    values.push(unsigned ^ (1 << i));
    for (let j = i + 1; j < 16; j++) values.push(unsigned ^ (1 << i) ^ (1 << j));
  }
  return values.map((value) => value - 32768);
}

/** 16 hex digits → the signed 64-bit value, in decimal, for a `bigint` column. */
export function hashToSigned(hex: string): string {
  return BigInt.asIntN(64, BigInt(`0x${hex}`)).toString();
}

/** A `bigint` column's value (decimal string or bigint) → 16 lower-case hex digits. */
export function signedToHash(value: string | bigint): string {
  return BigInt.asUintN(64, BigInt(value)).toString(16).padStart(16, '0');
}
