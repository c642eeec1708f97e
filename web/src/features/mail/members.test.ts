import { describe, expect, it } from 'vitest';
import {
  addressProblem,
  normaliseAddresses,
  type PickedMember,
  toggleMembers,
  unnamedCount,
} from './members';

const member = (userId: number): PickedMember => ({
  userId,
  name: `User ${userId}`,
  email: `u${userId}@example.com`,
  deptName: null,
});

describe('mail-group members', () => {
  it('adds ticked users once, in order, and removes unticked ones', () => {
    const start = [member(1), member(2)];
    expect(
      toggleMembers(start, [member(2), member(3), member(3), member(4)], true).map((m) => m.userId),
    ).toEqual([1, 2, 3, 4]);
    expect(toggleMembers(start, [member(1), member(9)], false).map((m) => m.userId)).toEqual([2]);
  });

  it('splits pasted addresses and drops repeats and case differences', () => {
    expect(
      normaliseAddresses(['A@Example.com, b@example.com；c@example.com', ' a@example.com ', '']),
    ).toEqual(['a@example.com', 'b@example.com', 'c@example.com']);
  });

  it('names the first invalid address, and the limit', () => {
    expect(addressProblem(['a@example.com'])).toBeNull();
    expect(addressProblem(['a@example.com', 'not-an-address@', 'x'])).toEqual({
      kind: 'invalid',
      address: 'not-an-address@',
    });
    const many = Array.from({ length: 101 }, (_, i) => `p${i}@example.com`);
    expect(addressProblem(many)).toEqual({ kind: 'tooMany', max: 100 });
  });

  it('counts the members a preview leaves unnamed', () => {
    expect(unnamedCount(['a', 'b'], 5)).toBe(3);
    expect(unnamedCount(['a', 'b'], 2)).toBe(0);
  });
});
