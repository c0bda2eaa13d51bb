/**
 * The cookie that ties an OAuth callback to the browser that started the flow (app connects and sign-ins alike).
 */

/** A Set-Cookie value for the callbacks under `path`, out of scripts' reach. */
export function redirectCookie(
  name: string,
  path: string,
  value: string,
  maxAgeSeconds: number,
  secure: boolean,
): string {
  return [
    `${name}=${value}`,
    `Path=${path}`,
    `Max-Age=${maxAgeSeconds}`,
    'HttpOnly',
    // Lax: sent on the provider's top-level redirect back to us, never on cross-site subrequests.
    'SameSite=Lax',
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}

/** The named cookie's raw value in a Cookie header, or null when it is absent. */
export function cookieValue(cookieHeader: string | undefined, name: string): string | null {
  return (
    cookieHeader
      ?.split(';')
      .map((part) => part.trim())
      .find((part) => part.startsWith(`${name}=`))
      ?.slice(name.length + 1) ?? null
  );
}
