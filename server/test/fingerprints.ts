import { randomBytes } from 'node:crypto';

/** Hashes for near-duplicate tests (issue 17), as 16 hex digits. */

/** A random hash, so tests sharing a database never match each other's files. */
export const randomHash = () => randomBytes(8).toString('hex');

/** `hex` with the given bits (0 = least significant) flipped: a hash exactly that far away. */
export function flip(hex: string, bits: number[]): string {
  let value = BigInt(`0x${hex}`);
  for (const bit of bits) value ^= 1n << BigInt(bit);
  return value.toString(16).padStart(16, '0');
}
