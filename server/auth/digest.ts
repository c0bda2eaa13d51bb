import { createHmac, randomBytes } from 'node:crypto';

/**
 * Keys for one purpose each, derived from the id-token key (itself derived from the master secret), so a leak of
 * one never helps with another and nothing new has to be configured or stored.
 */
export function deriveKey(tokenKey: Uint8Array, purpose: string): Buffer {
  return createHmac('sha256', tokenKey).update(`scout:${purpose}:v1`).digest();
}

/** What a stored digest was made for; the kind is part of the digest, so a grant never works as a refresh token. */
export type SecretKind = 'refresh' | 'grant' | 'login-code';

/**
 * The stored form of a secret we hand out (refresh tokens, sign-in grants, login codes): a keyed digest, so a copy
 * of the database alone gives no usable token, and a login code cannot be brute-forced from its row.
 */
export function digestSecret(tokenKey: Uint8Array, kind: SecretKind, value: string): string {
  return createHmac('sha256', deriveKey(tokenKey, 'secret-digest'))
    .update(`${kind}:${value}`)
    .digest('base64url');
}

/** 32 random bytes, base64url: refresh tokens and grants. */
export function randomSecret(): string {
  return randomBytes(32).toString('base64url');
}
