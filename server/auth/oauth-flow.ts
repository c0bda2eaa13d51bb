/**
 * The state of a Google or SSO sign-in between the authorization address and the callback, kept in the browser as
 * an encrypted, HttpOnly cookie rather than on the server: any instance can finish a sign-in another started, and
 * the callback only works in the browser that started it (the state in the address must match the cookie's), which
 * stops an attacker from signing a victim into the attacker's account with a forged callback.
 */
import { z } from 'zod';
import { decryptWithKey, encryptWithKey } from '../db/secrets';
import { deriveKey } from './digest';
import { cookieValue, redirectCookie } from './redirect-cookie';

const COOKIE_NAME = 'scout_oauth';
/** Both callbacks live under here (the API's /api/v1 prefix plus auth/). */
const COOKIE_PATH = '/api/v1/auth';
const FLOW_TTL_MS = 10 * 60_000;
const PURPOSE = 'oauth-flow';

const flowFields = {
  state: z.string(),
  nonce: z.string(),
  verifier: z.string(),
  /** Where the SPA goes after signing in. */
  next: z.string(),
  expiresAt: z.number(),
};
const flowSchema = z.discriminatedUnion('provider', [
  z.object({ provider: z.literal('google'), ...flowFields }),
  /** orgId: the org whose identity provider this is. */
  z.object({ provider: z.literal('sso'), orgId: z.string(), ...flowFields }),
]);
export type OAuthFlow = z.infer<typeof flowSchema>;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

function cookie(value: string, maxAgeSeconds: number, secure: boolean): string {
  return redirectCookie(COOKIE_NAME, COOKIE_PATH, value, maxAgeSeconds, secure);
}

/** A Set-Cookie value holding the flow, sealed with AES-256-GCM under a key of its own. */
export function flowCookie(
  tokenKey: Uint8Array,
  flow: DistributiveOmit<OAuthFlow, 'expiresAt'>,
  secure: boolean,
  now = Date.now(),
): string {
  const sealed = encryptWithKey(
    deriveKey(tokenKey, PURPOSE),
    JSON.stringify({ ...flow, expiresAt: now + FLOW_TTL_MS }),
    PURPOSE,
  );
  return cookie(encodeURIComponent(sealed), FLOW_TTL_MS / 1000, secure);
}

export function clearedFlowCookie(secure: boolean): string {
  return cookie('', 0, secure);
}

/** The flow from a Cookie header, or null when absent, tampered with, or expired. */
export function readFlowCookie(
  tokenKey: Uint8Array,
  cookieHeader: string | undefined,
  now = Date.now(),
): OAuthFlow | null {
  const raw = cookieValue(cookieHeader, COOKIE_NAME);
  if (!raw) return null;
  try {
    const flow = flowSchema.parse(
      JSON.parse(decryptWithKey(deriveKey(tokenKey, PURPOSE), decodeURIComponent(raw), PURPOSE)),
    );
    return flow.expiresAt > now ? flow : null;
  } catch {
    return null;
  }
}
