import { describe, expect, it } from 'vitest';
import { afterLoginTarget, decideLayoutAccess, decideNavigation, isServerPage } from './guard';

const at = (url: string) => {
  const parsed = new URL(url, 'http://x');
  return { pathname: parsed.pathname, search: parsed.search };
};

describe('navigation guard (SPEC §2)', () => {
  it('always allows the login and reset-password screens', () => {
    expect(decideNavigation(at('/login'), false)).toEqual({ allow: true });
    expect(decideNavigation(at('/login/reset-password'), false)).toEqual({ allow: true });
  });

  it('lets a visitor without a token reach the share page and any URL carrying a code', () => {
    expect(decideNavigation(at('/visitfile?x=1'), false)).toEqual({ allow: true });
    expect(decideNavigation(at('/oauth?code=abc'), false)).toEqual({ allow: true });
  });

  it('sends everyone else without a token to the login screen, remembering where they were going', () => {
    expect(decideNavigation(at('/allfiles/12?view=1'), false)).toEqual({
      allow: false,
      redirectTo: '/login?redirect=%2Fallfiles%2F12%3Fview%3D1',
    });
    expect(decideNavigation(at('/'), false)).toEqual({ allow: false, redirectTo: '/login' });
    expect(decideNavigation(at('/allfiles/12'), true)).toEqual({ allow: true });
  });

  it('returns after sign-in only to our own pages', () => {
    expect(afterLoginTarget('?redirect=%2Fallfiles%2F12')).toBe('/allfiles/12');
    expect(afterLoginTarget('?redirect=https%3A%2F%2Fevil.example')).toBe('/');
    expect(afterLoginTarget('?redirect=%2F%2Fevil.example')).toBe('/');
    expect(afterLoginTarget('')).toBe('/');
  });

  it('sends a layout page with a code but no token to sign in instead of an endless spinner', () => {
    expect(decideLayoutAccess(at('/myCollect?code=abc'), false)).toEqual({
      allow: false,
      redirectTo: '/login?redirect=%2FmyCollect%3Fcode%3Dabc',
    });
    expect(decideLayoutAccess(at('/?code=abc'), false)).toEqual({
      allow: false,
      redirectTo: '/login?redirect=%2F%3Fcode%3Dabc',
    });
    expect(decideLayoutAccess(at('/myCollect?code=abc'), true)).toEqual({ allow: true });
  });
});

describe('isServerPage', () => {
  it('knows the pages the server renders, so sign-in reaches them by a full load', () => {
    expect(isServerPage('/open/docs')).toBe(true);
    expect(isServerPage('/open/docs/static/index.html')).toBe(true);
    expect(isServerPage('/open/documents')).toBe(false);
    expect(isServerPage('/manage/api')).toBe(false);
  });
});
