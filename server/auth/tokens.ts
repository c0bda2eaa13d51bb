import { createHmac, randomUUID } from 'node:crypto';
import { SignJWT, decodeJwt, jwtVerify, errors as joseErrors } from 'jose';

/** Id tokens are short-lived; the client refreshes when under 20 minutes remain (spec §4.4). */
export const ID_TOKEN_TTL_SECONDS = 60 * 60;
const ISSUER = 'scout';
/** Instances behind a load balancer may disagree on the time by a few seconds. */
const CLOCK_TOLERANCE_SECONDS = 30;
const AUDIENCE = 'scout-api';

export type IdTokenClaims = { userId: string; orgId: string; email: string; sessionId: string };

/** The id-token signing key is derived from the master secret, so rotating one purpose never exposes another. */
export function deriveTokenKey(masterKey: Buffer): Uint8Array {
  return new Uint8Array(createHmac('sha256', masterKey).update('scout:id-token:v1').digest());
}

export async function signIdToken(
  key: Uint8Array,
  claims: IdTokenClaims,
  now: Date = new Date(),
): Promise<{ token: string; expiresAt: number }> {
  const issuedAt = Math.floor(now.getTime() / 1000);
  const expiresAt = issuedAt + ID_TOKEN_TTL_SECONDS;
  const token = await new SignJWT({ org: claims.orgId, email: claims.email, sid: claims.sessionId })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(claims.userId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(issuedAt)
    // A fresh id per token: two tokens issued in the same second for one session must still differ.
    .setJti(randomUUID())
    .setExpirationTime(expiresAt)
    .sign(key);
  return { token, expiresAt: expiresAt * 1000 };
}

/** Answers the claims of a valid, unexpired token, or null for anything else (never throws on bad input). */
export async function verifyIdToken(key: Uint8Array, token: string): Promise<IdTokenClaims | null> {
  try {
    const { payload } = await jwtVerify(token, key, {
      issuer: ISSUER,
      audience: AUDIENCE,
      algorithms: ['HS256'],
      // Every token we sign has both; one without could be valid forever. maxTokenAge also refuses an iat in the
      // future, and nbf is checked whenever present.
      requiredClaims: ['exp', 'iat'],
      maxTokenAge: ID_TOKEN_TTL_SECONDS,
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
    });
    const { sub, org, email, sid, iat, exp } = payload;
    if (
      exp === undefined ||
      iat === undefined ||
      exp - iat > ID_TOKEN_TTL_SECONDS ||
      typeof sub !== 'string' ||
      typeof org !== 'string' ||
      typeof email !== 'string' ||
      typeof sid !== 'string'
    ) {
      return null;
    }
    return { userId: sub, orgId: org, email, sessionId: sid };
  } catch (error) {
    if (error instanceof joseErrors.JOSEError || error instanceof TypeError) return null;
    throw error;
  }
}

/** When a token verifyIdToken accepted runs out (ms since the epoch): a socket authenticated by it closes then. */
export function idTokenExpiresAt(token: string): number | null {
  try {
    const { exp } = decodeJwt(token);
    return typeof exp === 'number' ? exp * 1000 : null;
  } catch {
    return null;
  }
}
