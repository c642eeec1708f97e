import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Secrets the server must be able to read back (an open API key's secret: checking a signature
 * needs it) are kept encrypted with AES-256-GCM under a key that is not in the database, so a
 * dump of the database alone reveals none of them. `context` is bound in as associated data
 * (`api_access:<keyId>`), so a ciphertext copied onto another row does not decrypt.
 * Format: `v1.<iv>.<ciphertext>.<tag>`, each part base64url.
 */
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class SecretBox {
  private constructor(private readonly key: Buffer) {}

  static fromKey(key: Buffer): SecretBox {
    if (key.length !== 32) throw new Error('SecretBox: the key must be 32 bytes');
    return new SecretBox(key);
  }

  /**
   * The configured key (OPEN_API_SECRET_KEY, base64), else one generated once into
   * `<dataDir>/open-api.key` (mode 0600) and read from there afterwards.
   */
  static load(configured: string | undefined, dataDir: string): SecretBox {
    if (configured) return SecretBox.fromKey(Buffer.from(configured, 'base64'));
    const file = path.join(dataDir, 'open-api.key');
    fs.mkdirSync(dataDir, { recursive: true });
    if (!fs.existsSync(file)) {
      // Written whole under another name, then linked into place: a process starting at the same
      // time sees either no key file or the whole key, and the first link wins.
      const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
      fs.writeFileSync(draft, randomBytes(32).toString('base64'), { flag: 'wx', mode: 0o600 });
      try {
        fs.linkSync(draft, file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      } finally {
        fs.rmSync(draft, { force: true });
      }
    }
    const key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
    if (key.length !== 32) throw new Error(`${file} does not hold 32 bytes in base64`);
    return SecretBox.fromKey(key);
  }

  seal(plain: string, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv, body, cipher.getAuthTag()]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  /** The plain text, or null when the value was not sealed by this key for this context. */
  open(sealed: string, context: string): string | null {
    const [version, iv, body, tag, extra] = sealed.split('.');
    if (version !== 'v1' || !iv || body === undefined || !tag || extra !== undefined) return null;
    const ivBytes = Buffer.from(iv, 'base64url');
    const tagBytes = Buffer.from(tag, 'base64url');
    // GCM would accept a shortened tag; only the full 16 bytes are ours.
    if (ivBytes.length !== IV_BYTES || tagBytes.length !== TAG_BYTES) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, ivBytes, { authTagLength: TAG_BYTES });
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(tagBytes);
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
        'utf8',
      );
    } catch {
      return null;
    }
  }
}
