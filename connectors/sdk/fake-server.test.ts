import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeServer, type FakeServer } from './fake-server';

let fake: FakeServer;

beforeEach(async () => {
  fake = await startFakeServer({
    routes: [
      { method: 'GET', path: '/users/:id', handler: (request) => ({ json: { id: request.params.id } }) },
    ],
  });
});

afterEach(async () => {
  await fake.close();
});

describe('fake server', () => {
  it('listens on 127.0.0.1, matches route parameters and logs each request', async () => {
    expect(fake.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const response = await fetch(`${fake.url}/users/a%20b?x=1`);
    expect(await response.json()).toEqual({ id: 'a b' });
    expect((await fetch(`${fake.url}/nope`)).status).toBe(404);
    expect(fake.requests.map((request) => [request.path, request.search, request.outcome])).toEqual([
      ['/users/a%20b', '?x=1', 'route'],
      ['/nope', '', 'no-route'],
    ]);
  });

  it('requires the bearer token when told to', async () => {
    fake.requireBearer('t0k');
    expect((await fetch(`${fake.url}/users/1`)).status).toBe(401);
    expect((await fetch(`${fake.url}/users/1`, { headers: { authorization: 'Bearer t0k' } })).status).toBe(
      200,
    );
  });

  it('injects failures only where and as often as asked', async () => {
    fake.failNext(2, { kind: 'status', status: 503 }, { method: 'GET', path: '/users/:id' });
    fake.failNext(1, { kind: 'rateLimit', retryAfter: 7 }, { method: 'POST' });
    expect((await fetch(`${fake.url}/nope`)).status).toBe(404);
    expect((await fetch(`${fake.url}/users/1`)).status).toBe(503);
    const limited = await fetch(`${fake.url}/users/1`, { method: 'POST' });
    expect([limited.status, limited.headers.get('retry-after')]).toEqual([429, '7']);
    expect((await fetch(`${fake.url}/users/1`)).status).toBe(503);
    expect((await fetch(`${fake.url}/users/1`)).status).toBe(200);
  });

  it('closes even with a request left hanging', async () => {
    fake.failNext(1, { kind: 'hang' });
    const hanging = fetch(`${fake.url}/users/1`).catch((error: unknown) => error);
    await expect.poll(() => fake.requests.length).toBe(1);
    await fake.close();
    expect(await hanging).toBeInstanceOf(TypeError);
    fake = await startFakeServer();
  });

  it('records a throwing handler as a handler error and answers 500', async () => {
    fake.route('GET', '/boom', () => {
      throw new Error('broken fixture');
    });
    expect((await fetch(`${fake.url}/boom`)).status).toBe(500);
    expect(fake.handlerErrors).toHaveLength(1);
  });
});
