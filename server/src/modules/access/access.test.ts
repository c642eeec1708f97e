import { describe, expect, it } from 'vitest';
import { AppError } from '../../http/app-error';
import { type AuthContext, canOnDepartment, fileScopeFilter, requireAnyCode, widestScope } from './access';

const caller = (overrides: Partial<AuthContext> = {}): AuthContext => ({
  userId: 7,
  sessionId: 1,
  deptId: 4,
  deptPath: '/1/4/',
  functionCodes: new Set([4]),
  fileScopes: { view: 'dept', upload: 'dept', download: 'all', share: 'none' },
  passwordExpired: false,
  ...overrides,
});

describe('file resource permission scopes', () => {
  it('lets "self and below" reach the own department and departments beneath it only', () => {
    const auth = caller();
    expect(canOnDepartment(auth, 'view', '/1/4/')).toBe(true);
    expect(canOnDepartment(auth, 'view', '/1/4/9/12/')).toBe(true);
    expect(canOnDepartment(auth, 'view', '/1/')).toBe(false);
    expect(canOnDepartment(auth, 'view', '/1/5/')).toBe(false);
    // A sibling whose id merely starts with the same digits is not beneath it.
    expect(canOnDepartment(auth, 'view', '/1/45/')).toBe(false);
    expect(canOnDepartment(auth, 'view', null)).toBe(false);
  });

  it('lets "all" reach everything and a missing permission reach nothing', () => {
    const auth = caller();
    expect(canOnDepartment(auth, 'download', '/1/5/')).toBe(true);
    expect(canOnDepartment(auth, 'download', null)).toBe(true);
    expect(canOnDepartment(auth, 'share', '/1/4/')).toBe(false);
  });

  it('gives list queries a subtree prefix, and nothing to a user without a department', () => {
    expect(fileScopeFilter(caller(), 'view')).toEqual({ kind: 'subtree', pathPrefix: '/1/4/' });
    expect(fileScopeFilter(caller({ deptPath: null }), 'view')).toEqual({ kind: 'none' });
    expect(fileScopeFilter(caller(), 'download')).toEqual({ kind: 'all' });
  });

  it('combines roles to the widest scope', () => {
    expect(widestScope(['none', 'dept'])).toBe('dept');
    expect(widestScope(['dept', 'all', 'none'])).toBe('all');
    expect(widestScope([])).toBe('none');
  });
});

describe('function codes', () => {
  it('passes with any one of the codes and refuses with SE_502 otherwise', () => {
    expect(() => requireAnyCode(caller(), 2, 4)).not.toThrow();
    const refused = (() => {
      try {
        requireAnyCode(caller(), 2, 3);
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ code: 'SE_502', status: 403 });
  });
});
