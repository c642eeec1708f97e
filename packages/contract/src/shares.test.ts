import { describe, expect, it } from 'vitest';
import { createShareRequestSchema, SHARE_VALIDITIES, shareCodeSchema, shareUrlOf } from './shares';

describe('share link requests', () => {
  it('defaults to a password link valid 7 days (SPEC §9)', () => {
    expect(createShareRequestSchema.parse({ folderIds: '3' })).toEqual({
      needPassword: 1,
      expireTime: '7d',
      folderIds: [3],
    });
  });

  it('takes validity presets by key or by hours, and nothing else', () => {
    expect(SHARE_VALIDITIES).toEqual(['2h', '1d', '7d', '30d', 'none']);
    const validity = (expireTime: unknown) =>
      createShareRequestSchema.safeParse({ folderIds: [1], expireTime }).data?.expireTime;
    expect([2, '24', 168, 720, 0, ' 30d ', 'none'].map(validity)).toEqual([
      '2h',
      '1d',
      '7d',
      '30d',
      'none',
      '30d',
      'none',
    ]);
    expect([5, 'forever', -1, null, '7 days'].map(validity)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('reads ids comma-joined or as an array, and needs at least one', () => {
    const ids = (folderIds: unknown) => createShareRequestSchema.safeParse({ folderIds }).data?.folderIds;
    expect(ids(' 1, 2 ,3')).toEqual([1, 2, 3]);
    expect(ids([4, '5'])).toEqual([4, 5]);
    expect(ids(6)).toEqual([6]);
    for (const bad of ['', ',', [], undefined, '1,x', [0]])
      expect(ids(bad), JSON.stringify(bad)).toBeUndefined();
    expect(
      createShareRequestSchema.safeParse({ folderIds: '1', needPassword: false }).data?.needPassword,
    ).toBe(0);
    expect(createShareRequestSchema.safeParse({ folderIds: '1', needPassword: 2 }).success).toBe(false);
  });

  it('knows a well-formed code and the visitor URL', () => {
    expect(shareCodeSchema.safeParse('AbCdEfGhIjKlMnOpQrStUv-_').success).toBe(true);
    expect(shareCodeSchema.safeParse('AbCdEfGhIjKlMnOpQrStUv-').success).toBe(false);
    expect(shareCodeSchema.safeParse('AbCdEfGhIjKlMnOpQrStUv-$').success).toBe(false);
    expect(shareUrlOf('abc')).toBe('/visitfile?code=abc');
  });
});
