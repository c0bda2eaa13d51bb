import { REDIRECT_PARAM } from '../config';

/**
 * Where a signed-out visitor is sent (spec shell-and-account §2.1): /login, carrying the path and query
 * they asked for, except for the root where there is nothing worth coming back to.
 */
export function loginPathFor(pathname: string, search: string): string {
  if (pathname === '/') return '/login';
  const params = new URLSearchParams({ [REDIRECT_PARAM]: `${pathname}${search}` });
  return `/login?${params.toString()}`;
}

/**
 * The in-app path a redirect parameter names, or null when it would leave our origin. Anything that is
 * not a plain path is refused, so /login?redirect=https://elsewhere cannot become an open redirect.
 */
export function safeRedirectTarget(redirect: string | null, origin: string): string | null {
  if (!redirect || !redirect.startsWith('/') || redirect.startsWith('//') || redirect.startsWith('/\\'))
    return null;
  let url: URL;
  try {
    url = new URL(redirect, origin);
  } catch {
    return null;
  }
  // Dot segments resolve '/x/..//host' to '//host', which the browser would read as another host.
  if (url.origin !== origin || url.pathname.startsWith('//')) return null;
  const target = `${url.pathname}${url.search}${url.hash}`;
  // Bouncing back to the auth screens would loop.
  if (url.pathname === '/login' || url.pathname === '/signup') return null;
  return target;
}
