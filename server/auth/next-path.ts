const AUTH_PATHS = new Set(['/login', '/signup']);

/**
 * Where the SPA goes after signing in, from the `origin` it sent (a full address or a path): its path when it is on
 * our public address, else '/'. Only a path is ever answered, so this can never send anyone to another site. From
 * the login or sign-up page itself the page's own `redirect` parameter is followed (once), since going back to
 * the login page would loop.
 */
export function nextPathAfterSignIn(
  origin: string | undefined,
  publicUrl: string,
  followRedirect = true,
): string {
  if (!origin) return '/';
  let url: URL;
  try {
    url = new URL(origin, publicUrl);
  } catch {
    return '/';
  }
  // A path starting '//' (from a doubled slash, a backslash or dot segments) is read by a browser as another host.
  if (url.origin !== new URL(publicUrl).origin || url.pathname.startsWith('//')) return '/';
  if (AUTH_PATHS.has(url.pathname)) {
    const redirect = url.searchParams.get('redirect');
    return followRedirect && redirect ? nextPathAfterSignIn(redirect, publicUrl, false) : '/';
  }
  return `${url.pathname}${url.search}${url.hash}`;
}
