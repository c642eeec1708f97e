/** Routes reachable without signing in (SPEC §2 navigation guard). */
// The e-mail confirmation link is opened from a mailbox, maybe on another device: no session needed.
const ALWAYS_ALLOWED = ['/login', '/login/reset-password', '/login/confirm-email'];

export type GuardDecision = { allow: true } | { allow: false; redirectTo: string };

/**
 * SPEC §2: /login and /login/reset-password are always allowed; other routes need a token;
 * without one, the share-link visitor page or any URL with a `code` parameter is allowed.
 */
export function decideNavigation(
  location: { pathname: string; search: string },
  hasToken: boolean,
): GuardDecision {
  if (ALWAYS_ALLOWED.includes(location.pathname.replace(/\/+$/, '') || '/')) return { allow: true };
  if (hasToken) return { allow: true };
  if (location.pathname.startsWith('/visitfile')) return { allow: true };
  if (new URLSearchParams(location.search).has('code')) return { allow: true };
  return loginRedirect(location);
}

/**
 * The signed-in layout (every page under `/`) with the SPEC §2 guard applied. A `code` parameter
 * lets a visitor reach pages that serve one (the share page reads it); the layout has nothing to
 * show without a session — its first call would answer 401 and leave a spinner — so there a
 * missing token always goes to the login screen, remembering the page.
 */
export function decideLayoutAccess(
  location: { pathname: string; search: string },
  hasToken: boolean,
): GuardDecision {
  return hasToken ? { allow: true } : loginRedirect(location);
}

const loginRedirect = (location: { pathname: string; search: string }): GuardDecision => {
  const back = `${location.pathname}${location.search}`;
  return {
    allow: false,
    redirectTo: back === '/' ? '/login' : `/login?redirect=${encodeURIComponent(back)}`,
  };
};

/** Where to go after signing in: the page the user asked for, if it is one of ours. */
export function afterLoginTarget(search: string): string {
  const redirect = new URLSearchParams(search).get('redirect');
  return redirect?.startsWith('/') && !redirect.startsWith('//') ? redirect : '/';
}

/**
 * Pages the server renders itself (the open API's documentation, /open/docs): reached after
 * sign-in by a full page load, since the web app's router does not know them.
 */
export function isServerPage(target: string): boolean {
  return target === '/open/docs' || target.startsWith('/open/docs/');
}

/** True when the user holds one of `codes` (or, with `every`, all of them) (SPEC §6). */
export function holdsCodes(held: number[], codes: number[], every = false): boolean {
  return every ? codes.every((c) => held.includes(c)) : codes.some((c) => held.includes(c));
}
