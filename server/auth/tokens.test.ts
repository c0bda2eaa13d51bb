import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { deriveTokenKey, signIdToken, verifyIdToken } from './tokens.js';

const claims = { userId: 'u1', orgId: 'o1', email: 'ada@acme.test', sessionId: 's1' };

describe('id tokens', () => {
  it('issues a distinct token each time, even within one second', async () => {
    const key = deriveTokenKey(randomBytes(32));
    const now = new Date();
    const first = await signIdToken(key, claims, now);
    const second = await signIdToken(key, claims, now);
    expect(second.token).not.toBe(first.token);
    expect(await verifyIdToken(key, second.token)).toEqual(claims);
  });

  it('refuses a token signed with another key', async () => {
    const { token } = await signIdToken(deriveTokenKey(randomBytes(32)), claims);
    expect(await verifyIdToken(deriveTokenKey(randomBytes(32)), token)).toBeNull();
  });

  it.each([
    ['no exp', { iat: 0 }],
    ['no iat', { exp: 3600 }],
    ['iat in the future', { iat: 600, exp: 3600 }],
    ['nbf in the future', { iat: 0, nbf: 600, exp: 3600 }],
    ['a lifetime longer than ours', { iat: 0, exp: 2 * 24 * 3600 }],
  ])('refuses a token signed with our key that has %s', async (_what, times) => {
    const key = deriveTokenKey(randomBytes(32));
    const now = Math.floor(Date.now() / 1000);
    const jwt = new SignJWT({ org: claims.orgId, email: claims.email, sid: claims.sessionId })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(claims.userId)
      .setIssuer('scout')
      .setAudience('scout-api');
    if ('iat' in times) jwt.setIssuedAt(now + times.iat);
    if ('exp' in times) jwt.setExpirationTime(now + times.exp);
    if ('nbf' in times) jwt.setNotBefore(now + times.nbf);
    expect(await verifyIdToken(key, await jwt.sign(key))).toBeNull();
  });
});
