import { invalidField } from '../../../http/app-error';

/**
 * The opaque cursors of the open API's paged asset lists: base64url of `<kind>:<keyset>`, where
 * the keyset is where the last page ended. A cursor of another list, or one that does not parse,
 * is SE_400 (`cursor`). Cursors hold no ids of what the caller may not see (only the last asset
 * it was given) and do not expire: keyset paging has no state on the server.
 */
export type AssetCursor =
  /** By tag: the last item id. */
  | { kind: 't'; id: number }
  /** A folder's own files, newest first: the last one's creation time (UTC, microseconds) and id. */
  | { kind: 'c'; createdKey: string; id: number }
  /** Everything below a folder: the last one's id path relative to the folder's (`42/99/`). */
  | { kind: 'r'; relativePath: string };

const ID = /^[1-9]\d{0,18}$/;
const CREATED_KEY = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/;
const RELATIVE_PATH = /^(\d+\/)+$/;

export function encodeCursor(cursor: AssetCursor): string {
  const text =
    cursor.kind === 't'
      ? `t:${cursor.id}`
      : cursor.kind === 'c'
        ? `c:${cursor.createdKey},${cursor.id}`
        : `r:${cursor.relativePath}`;
  return Buffer.from(text, 'utf8').toString('base64url');
}

/** The cursor sent, if it is one of `kind`; SE_400 otherwise. */
export function decodeCursor<K extends AssetCursor['kind']>(
  sent: string,
  kind: K,
): Extract<AssetCursor, { kind: K }> {
  const bad = invalidField('cursor', 'invalidValue');
  if (!/^[A-Za-z0-9_-]+$/.test(sent)) throw bad;
  const text = Buffer.from(sent, 'base64url').toString('utf8');
  // A canonical encoding only: other strings that decode to the same bytes are refused too.
  if (Buffer.from(text, 'utf8').toString('base64url') !== sent) throw bad;
  const [prefix, rest] = [text.slice(0, 2), text.slice(2)];
  if (prefix !== `${kind}:`) throw bad;
  if (kind === 't') {
    if (!ID.test(rest) || !Number.isSafeInteger(Number(rest))) throw bad;
    return { kind, id: Number(rest) } as Extract<AssetCursor, { kind: K }>;
  }
  if (kind === 'c') {
    const [createdKey = '', id = ''] = rest.split(',');
    if (!CREATED_KEY.test(createdKey) || !ID.test(id) || !Number.isSafeInteger(Number(id))) throw bad;
    // A real instant only: V8 rolls 2024-02-31 over to March, which PostgreSQL would refuse (500).
    const millis = createdKey.slice(0, 23);
    const instant = new Date(`${millis}Z`);
    if (
      Number.isNaN(instant.getTime()) ||
      instant.getUTCFullYear() < 1 ||
      instant.toISOString().slice(0, 23) !== millis
    )
      throw bad;
    return { kind, createdKey, id: Number(id) } as Extract<AssetCursor, { kind: K }>;
  }
  if (!RELATIVE_PATH.test(rest)) throw bad;
  return { kind, relativePath: rest } as Extract<AssetCursor, { kind: K }>;
}
