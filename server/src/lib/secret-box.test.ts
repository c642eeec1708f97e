import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SecretBox } from './secret-box';

describe('SecretBox', () => {
  const box = SecretBox.fromKey(randomBytes(32));

  it('opens what it sealed, for the same context only', () => {
    const sealed = box.seal('dsk_secret', 'api_access:dak_1');
    expect(sealed).not.toContain('dsk_secret');
    expect(box.open(sealed, 'api_access:dak_1')).toBe('dsk_secret');
    expect(box.open(sealed, 'api_access:dak_2')).toBeNull();
  });

  it('refuses a tampered value and another key', () => {
    const sealed = box.seal('dsk_secret', 'c');
    const [v, iv, body, tag] = sealed.split('.') as [string, string, string, string];
    const flipped = Buffer.from(body, 'base64url');
    flipped[0] = (flipped[0] ?? 0) ^ 1;
    expect(box.open([v, iv, flipped.toString('base64url'), tag].join('.'), 'c')).toBeNull();
    expect(SecretBox.fromKey(randomBytes(32)).open(sealed, 'c')).toBeNull();
    expect(box.open('not sealed', 'c')).toBeNull();
    // A tag cut short (GCM would take 4 bytes) is refused.
    const shortTag = Buffer.from(tag, 'base64url').subarray(0, 4).toString('base64url');
    expect(box.open([v, iv, body, shortTag].join('.'), 'c')).toBeNull();
  });

  it('generates its key once into the data directory and reads it back', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'secret-box-'));
    const first = SecretBox.load(undefined, dir);
    const sealed = first.seal('x', 'c');
    expect(SecretBox.load(undefined, dir).open(sealed, 'c')).toBe('x');
    expect(fs.statSync(path.join(dir, 'open-api.key')).mode & 0o777).toBe(0o600);
    const configured = randomBytes(32).toString('base64');
    expect(SecretBox.load(configured, dir).open(sealed, 'c')).toBeNull();
    fs.rmSync(dir, { recursive: true });
  });
});
