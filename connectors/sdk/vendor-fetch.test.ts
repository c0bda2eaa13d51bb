import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidCredentialsError, RateLimitedError } from './errors';
import { startFakeServer, type FakeServer } from './fake-server';
import { createHttpClient } from './http';
import { fakeClock, type FakeClock } from './testing';
import { vendorFetch } from './vendor-fetch';

let fake: FakeServer;
let clock: FakeClock;

beforeEach(async () => {
  fake = await startFakeServer({ bearerToken: 'secret-token' });
  fake.route('POST', '/v1/echo', (request) => ({
    json: { method: request.method, body: request.json(), version: request.headers['notion-version'] },
    headers: { 'x-request-id': 'r-1' },
  }));
  fake.route('DELETE', '/v1/thing', () => ({ status: 204 }));
  clock = fakeClock();
});

afterEach(async () => {
  await fake.close();
});

const fetchOver = () => vendorFetch(createHttpClient({ baseUrl: fake.url, clock, random: () => 0 }));
const auth = { authorization: 'Bearer secret-token' };

describe('vendorFetch', () => {
  it('sends the SDK’s method, headers and JSON body, and answers a standard Response', async () => {
    const response = await fetchOver()(`${fake.url}/v1/echo`, {
      method: 'POST',
      headers: { ...auth, 'Notion-Version': '2025-09-03', 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'roadmap' }),
    });
    expect(response).toBeInstanceOf(Response);
    expect(response.ok).toBe(true);
    expect(response.headers.get('x-request-id')).toBe('r-1');
    expect(await response.json()).toEqual({
      method: 'POST',
      body: { query: 'roadmap' },
      version: '2025-09-03',
    });
  });

  it('answers a 204 with an empty body', async () => {
    const response = await fetchOver()(`${fake.url}/v1/thing`, { method: 'DELETE', headers: auth });
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
  });

  it('rides out a 429 with Retry-After through the HttpClient, once for the whole connection', async () => {
    fake.failNext(2, { kind: 'rateLimit', retryAfter: 2 });
    const response = await fetchOver()(`${fake.url}/v1/echo`, { method: 'POST', headers: auth, body: '{}' });
    expect(response.status).toBe(200);
    expect(clock.sleeps.reduce((sum, ms) => sum + ms, 0)).toBeGreaterThanOrEqual(4000);
    expect(fake.requests.map((request) => request.outcome)).toEqual(['rateLimit', 'rateLimit', 'route']);
  });

  it('raises the HttpClient’s typed errors, not a response the SDK would misread', async () => {
    await expect(fetchOver()(`${fake.url}/v1/echo`, { method: 'POST', body: '{}' })).rejects.toBeInstanceOf(
      InvalidCredentialsError,
    );
    fake.failNext(10, { kind: 'rateLimit', retryAfter: 3600 });
    await expect(
      fetchOver()(`${fake.url}/v1/echo`, { method: 'POST', headers: auth, body: '{}' }),
    ).rejects.toBeInstanceOf(RateLimitedError);
  });

  it('refuses bodies it cannot send as they are', async () => {
    await expect(
      fetchOver()(`${fake.url}/v1/echo`, { method: 'POST', headers: auth, body: new FormData() }),
    ).rejects.toThrow(/string bodies only/);
    expect(fake.requests).toEqual([]);
  });
});
