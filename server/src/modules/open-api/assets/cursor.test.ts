import { describe, expect, it } from 'vitest';
import { AppError } from '../../../http/app-error';
import { decodeCursor, encodeCursor } from './cursor';

/** The open API's paging cursors: opaque base64url, of one list only, SE_400 when not ours. */
describe('asset list cursors', () => {
  it('come back as they were made', () => {
    expect(decodeCursor(encodeCursor({ kind: 't', id: 42 }), 't')).toEqual({ kind: 't', id: 42 });
    const child = { kind: 'c', createdKey: '2026-01-05T09:00:00.123456', id: 7 } as const;
    expect(decodeCursor(encodeCursor(child), 'c')).toEqual(child);
    const below = { kind: 'r', relativePath: '12/345/' } as const;
    expect(decodeCursor(encodeCursor(below), 'r')).toEqual(below);
    expect(encodeCursor(below)).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it.each([
    ['another list', encodeCursor({ kind: 't', id: 42 }), 'c'],
    ['not base64url', 'dDo0Mg==', 't'],
    ['not canonical', `${encodeCursor({ kind: 't', id: 42 })}A`, 't'],
    ['no id', Buffer.from('t:').toString('base64url'), 't'],
    ['a zero id', Buffer.from('t:0').toString('base64url'), 't'],
    ['an unsafe id', Buffer.from('t:99999999999999999').toString('base64url'), 't'],
    ['a bad time', Buffer.from('c:2026-13-45T99:00:00.000000,1').toString('base64url'), 'c'],
    ['a day the month lacks', Buffer.from('c:2024-02-31T00:00:00.000000,1').toString('base64url'), 'c'],
    ['the hour 24', Buffer.from('c:2024-01-01T24:00:00.000000,1').toString('base64url'), 'c'],
    ['the year 0', Buffer.from('c:0000-01-01T00:00:00.000000,1').toString('base64url'), 'c'],
    ['a path leaving the folder', Buffer.from('r:../1/').toString('base64url'), 'r'],
    ['an absolute path', Buffer.from('r:/1/2/').toString('base64url'), 'r'],
  ] as const)('refuse %s with SE_400', (_case, cursor, kind) => {
    let error: unknown;
    try {
      decodeCursor(cursor, kind);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('SE_400');
  });
});
