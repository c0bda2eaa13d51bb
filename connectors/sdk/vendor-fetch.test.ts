import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidCredentialsError, RateLimitedError } from './errors';
import { startFakeServer, type FakeServer } from './fake-server';
import { createHttpClient } from './http';
import { fakeClock } from './testing';
import { connectorErrorIn, fetchThrough } from './vendor-fetch';

let fake: FakeServer;

beforeEach(async () => {
  fake = await startFakeServer({ bearerToken: 'token-1' });
  fake.route('POST', '/echo', (request) => ({
    json: { method: request.method, query: request.query.get('q'), body: request.json() },
    headers: { 'x-vendor': 'yes' },
  }));
  fake.route('DELETE', '/thing', () => ({ status: 204 }));
});

afterEach(async () => {
  await fake.close();
});

const clientFor = (token: string) =>
  createHttpClient({ clock: fakeClock(), random: () => 0 }).with({
    baseUrl: fake.url,
    headers: { authorization: `Bearer ${token}` },
  });

describe('fetchThrough', () => {
  it('sends what the SDK asked, with the client’s credentials, and hands back status, headers and body', async () => {
    const fetch = fetchThrough(clientFor('token-1'));
    const response = await fetch(`${fake.url}/echo?q=drive`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ a: 1 }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-vendor')).toBe('yes');
    expect(await response.json()).toEqual({ method: 'POST', query: 'drive', body: { a: 1 } });
    expect((await fetch(new URL(`${fake.url}/thing`), { method: 'DELETE' })).status).toBe(204);
  });

  it('retries through the client, and throws its typed errors, which connectorErrorIn finds when wrapped', async () => {
    fake.failNext(1, { kind: 'rateLimit', retryAfter: 0 });
    const fetch = fetchThrough(clientFor('token-1'));
    expect((await fetch(`${fake.url}/echo`, { method: 'POST', body: '{}' })).status).toBe(200);
    expect(fake.requests.map((request) => request.outcome)).toEqual(['rateLimit', 'route']);

    fake.failNext(5, { kind: 'rateLimit', retryAfter: 0 });
    await expect(fetch(`${fake.url}/echo`, { method: 'POST', body: '{}' })).rejects.toBeInstanceOf(
      RateLimitedError,
    );
    const refused = await fetchThrough(clientFor('stale'))(`${fake.url}/echo`, { method: 'POST' }).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(InvalidCredentialsError);
    const wrapped = new Error('request failed', { cause: new Error('fetch failed', { cause: refused }) });
    expect(connectorErrorIn(wrapped)).toBe(refused);
    const plain = new Error('nothing of ours');
    expect(connectorErrorIn(plain)).toBe(plain);
  });
});
