import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NotFoundError, RateLimitedError } from './errors';
import { startFakeServer, type FakeServer } from './fake-server';
import { createHttpClient } from './http';
import { fakeClock } from './testing';
import { callVendor, unwrapConnectorError, vendorFetch } from './vendor-fetch';

let fake: FakeServer;

beforeEach(async () => {
  fake = await startFakeServer({ bearerToken: 'vendor-token' });
  fake.route('POST', '/v1/echo', (request) => ({
    json: { body: request.json(), tag: request.headers['x-sdk-tag'] },
  }));
  fake.route('DELETE', '/v1/items/:id', () => ({ status: 204 }));
});

afterEach(async () => {
  await fake.close();
});

function http() {
  return createHttpClient({ clock: fakeClock(), random: () => 0 }).with({
    baseUrl: fake.url,
    headers: { authorization: 'Bearer vendor-token' },
  });
}

describe('vendorFetch', () => {
  it('sends an SDK’s request through the HttpClient, with its auth, method, headers and body', async () => {
    const fetch = vendorFetch(http());
    const response = await fetch(`${fake.url}/v1/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-sdk-tag': 'sdk/1.0' },
      body: JSON.stringify({ q: 'hello' }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ body: { q: 'hello' }, tag: 'sdk/1.0' });
    expect(fake.requests[0]?.headers.authorization).toBe('Bearer vendor-token');
  });

  it('answers an empty 204', async () => {
    const response = await vendorFetch(http())(new URL(`${fake.url}/v1/items/a`), { method: 'DELETE' });
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
  });

  it('throws the HttpClient’s typed error, and callVendor digs it out of the SDK’s own wrapper', async () => {
    const fetch = vendorFetch(http());
    const sdkCall = async () => {
      try {
        return await fetch(`${fake.url}/v1/missing`);
      } catch (error) {
        throw new Error('Request failed', { cause: new Error('fetch adapter failed', { cause: error }) });
      }
    };
    await expect(callVendor(sdkCall)).rejects.toBeInstanceOf(NotFoundError);
    const plain = new Error('not ours');
    expect(unwrapConnectorError(plain)).toBe(plain);
  });

  it('refuses to send credentials to another origin', async () => {
    await expect(vendorFetch(http())('https://elsewhere.example/v1/echo')).rejects.toThrow(/another origin/);
    expect(fake.requests).toHaveLength(0);
  });
  it('retries a rate limit through the client, and gives up with its typed error', async () => {
    fake.failNext(1, { kind: 'rateLimit', retryAfter: 0 });
    const fetch = vendorFetch(http());
    expect((await fetch(`${fake.url}/v1/echo`, { method: 'POST', body: '{}' })).status).toBe(200);
    expect(fake.requests.map((request) => request.outcome)).toEqual(['rateLimit', 'route']);
    fake.failNext(5, { kind: 'rateLimit', retryAfter: 0 });
    await expect(fetch(`${fake.url}/v1/echo`, { method: 'POST', body: '{}' })).rejects.toBeInstanceOf(
      RateLimitedError,
    );
  });
});
