import { randomInt } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

// OWASP's argon2id baseline (19 MiB, 2 passes); about 100 ms here.
const OPTIONS = {
  algorithm: 2 /* Algorithm.Argon2id: a const enum, unusable under isolatedModules */,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
};

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(hashed: string, password: string): Promise<boolean> {
  try {
    return await verify(hashed, password);
  } catch {
    return false;
  }
}

/**
 * A hash of nothing anyone knows: verifying against it when an account does not exist costs the
 * same time as a real check, so response timing does not tell which accounts exist.
 */
let decoyHash: Promise<string> | null = null;
export function decoyPasswordHash(): Promise<string> {
  decoyHash ??= hashPassword(`decoy-${randomInt(1e9)}`);
  return decoyHash;
}

const LETTERS = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ';
const DIGITS = '23456789';
const SPECIALS = '#%+=@!';

/** A random 16-character password meeting the rules of SPEC §5 (letter, digit, special). */
export function generatePassword(): string {
  const all = LETTERS + DIGITS + SPECIALS;
  const pick = (set: string) => set[randomInt(set.length)] as string;
  const chars = [pick(LETTERS), pick(DIGITS), pick(SPECIALS)];
  while (chars.length < 16) chars.push(pick(all));
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j] as string, chars[i] as string];
  }
  return chars.join('');
}
