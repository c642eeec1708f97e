import { invalidField } from '../../../http/app-error';

/**
 * A place in the change journal: after the entry (txid, id). `txid` is the writing transaction's
 * id (xid8, as decimal text), `id` the entry's; (txid, 0) is "after everything of transactions
 * before txid". Sent as the opaque base64url of `txid:id`.
 */
export interface JournalPosition {
  txid: string;
  id: string;
}

export const JOURNAL_START: JournalPosition = { txid: '0', id: '0' };

const TXID = /^(0|[1-9]\d{0,19})$/;
const ID = /^(0|[1-9]\d{0,18})$/;

export function encodeChangeCursor(position: JournalPosition): string {
  return Buffer.from(`${position.txid}:${position.id}`, 'utf8').toString('base64url');
}

/** The position a cursor names; SE_400 (`cursor`) when it is not one this server made. */
export function decodeChangeCursor(sent: string): JournalPosition {
  const bad = invalidField('cursor', 'invalidValue');
  if (!/^[A-Za-z0-9_-]+$/.test(sent)) throw bad;
  const text = Buffer.from(sent, 'base64url').toString('utf8');
  // A canonical encoding only: other strings that decode to the same bytes are refused too.
  if (Buffer.from(text, 'utf8').toString('base64url') !== sent) throw bad;
  const [txid = '', id = '', ...rest] = text.split(':');
  if (rest.length > 0 || !TXID.test(txid) || !ID.test(id)) throw bad;
  // xid8 is unsigned 64-bit, the entry id a signed bigint.
  if (BigInt(txid) > 18446744073709551615n || BigInt(id) > 9223372036854775807n) throw bad;
  return { txid, id };
}

/** a < b in journal order. */
export function positionBefore(a: JournalPosition, b: JournalPosition): boolean {
  const [at, bt] = [BigInt(a.txid), BigInt(b.txid)];
  return at < bt || (at === bt && BigInt(a.id) < BigInt(b.id));
}
