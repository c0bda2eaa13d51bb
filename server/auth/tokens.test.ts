import { randomBytes } from 'node:crypto';
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
});
