import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { systemClock } from './clock';
import {
  FatalSourceError,
  HttpStatusError,
  InvalidCredentialsError,
  NotFoundError,
  PermissionMismatchError,
  RateLimitedError,
  ResponseTooLargeError,
  TransientError,
} from './errors';
import { startFakeServer, type FakeServer } from './fake-server';
import { createHttpClient, type HttpClientOptions } from './http';
import { fakeClock, recordingLogger, type FakeClock } from './testing';

const okSchema = z.object({ ok: z.literal(true) });

let fake: FakeServer;
let clock: FakeClock;

beforeEach(async () => {
  fake = await startFakeServer();
  fake.route('GET', '/ok', () => ({ json: { ok: true } }));
  clock = fakeClock();
});

afterEach(async () => {
  await fake.close();
});

function client(options: HttpClientOptions = {}) {
  return createHttpClient({ baseUrl: fake.url, clock, random: () => 0.5, ...options });
}

describe('retries', () => {
  it('retries a 500 with exponential back-off and full jitter, then succeeds', async () => {
    fake.failNext(2, { kind: 'status', status: 500 });
    const http = client({ retry: { baseDelayMs: 100 } });

    await expect(http.json('/ok', okSchema)).resolves.toEqual({ ok: true });

    expect(fake.requests.map((request) => request.outcome)).toEqual(['status', 'status', 'route']);
    // Half of each cap (random 0.5): caps 100 then 200.
    expect(clock.sleeps).toEqual([50, 100]);
  });

  it('never waits past maxDelayMs', async () => {
    fake.failNext(4, { kind: 'status', status: 503 });
    const http = client({ random: () => 0.999, retry: { baseDelayMs: 1000, maxDelayMs: 1500 } });

    await http.json('/ok', okSchema);

    expect(clock.sleeps).toHaveLength(4);
    for (const sleep of clock.sleeps) expect(sleep).toBeLessThan(1500);
    expect(clock.sleeps[0]).toBeLessThan(1000);
  });

  it('gives up after maxAttempts with a TransientError', async () => {
    fake.failNext(10, { kind: 'status', status: 502 });
    const http = client({ retry: { maxAttempts: 3 } });

    const failure = await http.json('/ok', okSchema).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(TransientError);
    expect(failure).not.toBeInstanceOf(RateLimitedError);
    expect((failure as Error).message).toBe('GET /ok answered 502 after 3 attempts');
    expect(fake.requests).toHaveLength(3);
  });

  it('does not retry a request marked retry: false', async () => {
    fake.failNext(1, { kind: 'status', status: 500 });
    await expect(client().request('/ok', { retry: false })).rejects.toBeInstanceOf(TransientError);
    expect(fake.requests).toHaveLength(1);
  });

  it('recovers from a dropped connection', async () => {
    fake.failNext(1, { kind: 'drop' });
    await expect(client().json('/ok', okSchema)).resolves.toEqual({ ok: true });
    expect(fake.requests.map((request) => request.outcome)).toEqual(['drop', 'route']);
  });

  it('reports a connection that keeps dropping as transient, naming the network error', async () => {
    fake.failNext(5, { kind: 'drop' });
    const failure = await client({ retry: { maxAttempts: 2 } })
      .request('/ok')
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TransientError);
    expect((failure as Error).message).toMatch(/^GET \/ok failed \(.+\) after 2 attempts$/);
  });
});

describe('timeouts and aborts', () => {
  it('abandons a hanging request after timeoutMs and retries it', async () => {
    fake.failNext(1, { kind: 'hang' });
    const http = createHttpClient({ baseUrl: fake.url, random: () => 0 });

    await expect(http.json('/ok', okSchema, { timeoutMs: 200 })).resolves.toEqual({ ok: true });
    expect(fake.requests.map((request) => request.outcome)).toEqual(['hang', 'route']);
  });

  it('fails with TransientError when every try times out', async () => {
    fake.failNext(5, { kind: 'hang' });
    const http = createHttpClient({
      baseUrl: fake.url,
      random: () => 0,
      timeoutMs: 100,
      retry: { maxAttempts: 2 },
    });
    await expect(http.request('/ok')).rejects.toThrow('GET /ok timed out after 100 ms after 2 attempts');
  });

  it('stops at once, without retrying, when the connection signal aborts', async () => {
    fake.failNext(5, { kind: 'hang' });
    const controller = new AbortController();
    const http = createHttpClient({ baseUrl: fake.url, signal: controller.signal });
    const pending = http.request('/ok');
    setTimeout(() => controller.abort(), 50);

    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(fake.requests).toHaveLength(1);
  });
});

describe('rate limits', () => {
  it('waits as long as Retry-After says, in seconds', async () => {
    fake.failNext(1, { kind: 'rateLimit', retryAfter: 2 });
    await expect(client().json('/ok', okSchema)).resolves.toEqual({ ok: true });
    expect(clock.sleeps).toEqual([2000]);
  });

  it('waits until the HTTP date Retry-After gives', async () => {
    fake.failNext(1, { kind: 'rateLimit', retryAfter: new Date(clock.now() + 5000).toUTCString() });
    await client().json('/ok', okSchema);
    expect(clock.sleeps).toEqual([5000]);
  });

  it('really waits a one-second Retry-After on the system clock', async () => {
    fake.failNext(1, { kind: 'rateLimit', retryAfter: 1 });
    await createHttpClient({ baseUrl: fake.url, clock: systemClock }).json('/ok', okSchema);

    const [limited, retried] = fake.requests;
    expect(retried!.receivedAt - limited!.receivedAt).toBeGreaterThanOrEqual(990);
  });

  it('honours Retry-After on a 503 too', async () => {
    fake.failNext(1, { kind: 'status', status: 503, headers: { 'retry-after': '3' } });
    await client().json('/ok', okSchema);
    expect(clock.sleeps).toEqual([3000]);
  });

  it('reads a reset header in epoch seconds when Retry-After is absent', async () => {
    const reset = Math.floor(clock.now() / 1000) + 30;
    fake.failNext(1, { kind: 'rateLimit', headers: { 'x-ratelimit-reset': String(reset) } });
    await client().json('/ok', okSchema);
    expect(clock.sleeps).toEqual([30_000]);
  });

  it("treats GitHub's 403 with an exhausted allowance as a rate limit, not a permission problem", async () => {
    const reset = Math.floor(clock.now() / 1000) + 10;
    fake.failNext(1, {
      kind: 'status',
      status: 403,
      headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) },
    });
    await expect(client().json('/ok', okSchema)).resolves.toEqual({ ok: true });
    expect(clock.sleeps).toEqual([10_000]);
  });

  it('waits out a 403 the classifier calls a throttle, as Google words its rateLimitExceeded', async () => {
    const throttled = { error: { code: 403, errors: [{ reason: 'rateLimitExceeded' }] } };
    fake.failNext(2, { kind: 'status', status: 403, json: throttled });
    const http = client({
      retry: { baseDelayMs: 100 },
      classifyAuthFailure: (failure) =>
        failure.body.includes('rateLimitExceeded')
          ? { kind: 'rateLimited' }
          : { kind: 'permissionMismatch', message: 'no' },
    });
    await expect(http.json('/ok', okSchema)).resolves.toEqual({ ok: true });
    expect(clock.sleeps).toEqual([50, 100]);
    fake.failNext(5, { kind: 'status', status: 403, json: throttled });
    await expect(http.json('/ok', okSchema)).rejects.toBeInstanceOf(RateLimitedError);
  });

  it('pauses before the next request when a success says the allowance is spent', async () => {
    const reset = Math.floor(clock.now() / 1000) + 30;
    fake.route('GET', '/last', () => ({
      json: { ok: true },
      headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) },
    }));
    const http = client();
    await http.json('/last', okSchema);
    expect(clock.sleeps).toEqual([]);
    await http.json('/ok', okSchema);
    expect(clock.sleeps).toEqual([30_000]);
  });

  it('hands back RateLimitedError rather than wait longer than maxWaitMs', async () => {
    fake.failNext(1, { kind: 'rateLimit', retryAfter: 3600 });
    const failure = await client()
      .request('/ok')
      .catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(RateLimitedError);
    expect((failure as RateLimitedError).retryAfterMs).toBe(3_600_000);
    expect(fake.requests).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });

  it('keeps the whole connection away for a long lock-out, without sending anything', async () => {
    fake.failNext(1, { kind: 'rateLimit', retryAfter: 600 });
    const http = client();
    await expect(http.request('/ok')).rejects.toBeInstanceOf(RateLimitedError);
    const failure = await http
      .with({ headers: { authorization: 'Bearer other' } })
      .request('/ok')
      .catch((error: unknown) => error);
    expect((failure as RateLimitedError).retryAfterMs).toBe(600_000);
    expect(fake.requests).toHaveLength(1);
  });

  it('hands back RateLimitedError when 429s outlast the attempts', async () => {
    fake.failNext(5, { kind: 'rateLimit', retryAfter: 1 });
    const failure = await client({ retry: { maxAttempts: 2 } })
      .request('/ok')
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RateLimitedError);
    expect((failure as RateLimitedError).retryAfterMs).toBe(1000);
    expect(fake.requests).toHaveLength(2);
  });

  it('pauses every request of the connection, not only the one that got the 429', async () => {
    fake.failNext(1, { kind: 'rateLimit', retryAfter: 4 });
    const arrivals: number[] = [];
    fake.route('GET', '/clocked', () => {
      arrivals.push(clock.now());
      return { json: { ok: true } };
    });
    const http = client();
    const start = clock.now();
    await http.json('/ok', okSchema);
    await http.json('/clocked', okSchema);
    expect(arrivals[0]! - start).toBeGreaterThanOrEqual(4000);
  });
});

describe('status mapping', () => {
  it('maps 401 to InvalidCredentialsError with the connector’s credential name', async () => {
    fake.requireBearer('right');
    const failure = await client({
      headers: { authorization: 'Bearer wrong' },
      credentialName: 'access token',
    })
      .request('/ok')
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(InvalidCredentialsError);
    expect((failure as Error).message).toBe('Incorrect access token. Please try again.');
    expect(fake.requests).toHaveLength(1);
  });

  it('reports a credential that cannot be a header value as invalid, without quoting it', async () => {
    const failure = await client({ headers: { authorization: 'Bearer sk-pasted\nkey' } })
      .request('/ok')
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(InvalidCredentialsError);
    expect(JSON.stringify(failure) + String(failure)).not.toContain('sk-pasted');
    expect(fake.requests).toHaveLength(0);
  });

  it('maps 403 to PermissionMismatchError by default, and to HttpStatusError when the classifier says so', async () => {
    fake.route('GET', '/forbidden', () => ({ status: 403, json: { error: 'not_in_channel' } }));
    await expect(client().request('/forbidden')).rejects.toBeInstanceOf(PermissionMismatchError);

    const http = client({
      classifyAuthFailure: (failure) =>
        failure.body.includes('not_in_channel') ? { kind: 'httpError' } : { kind: 'invalidCredentials' },
    });
    const failure = await http.request('/forbidden').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(HttpStatusError);
    expect(failure).toMatchObject({ status: 403, bodyExcerpt: '{"error":"not_in_channel"}' });
  });

  it('backs off and retries a 403 the classifier calls a rate limit, then gives up with RateLimitedError', async () => {
    const quota = { error: { code: 403, errors: [{ reason: 'rateLimitExceeded' }] } };
    fake.failNext(2, { kind: 'status', status: 403, json: quota });
    const http = client({
      retry: { baseDelayMs: 100, maxAttempts: 3 },
      classifyAuthFailure: (failure) =>
        failure.body.includes('rateLimitExceeded') ? { kind: 'rateLimited' } : { kind: 'invalidCredentials' },
    });
    await expect(http.json('/ok', okSchema)).resolves.toEqual({ ok: true });
    expect(fake.requests.map((request) => request.outcome)).toEqual(['status', 'status', 'route']);
    // Backed off as for a 429 without Retry-After: half of each cap (random 0.5).
    expect(clock.sleeps).toEqual([50, 100]);

    fake.failNext(3, { kind: 'status', status: 403, json: quota });
    await expect(http.request('/ok')).rejects.toBeInstanceOf(RateLimitedError);
  });

  it('passes 404 through as NotFoundError and does not retry other 4xx', async () => {
    await expect(client().request('/missing')).rejects.toBeInstanceOf(NotFoundError);
    fake.route('GET', '/bad', () => ({ status: 422, json: { error: 'bad' } }));
    const failure = await client()
      .request('/bad')
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(HttpStatusError);
    expect(failure).not.toBeInstanceOf(NotFoundError);
    expect(fake.requests.filter((request) => request.path === '/bad')).toHaveLength(1);
  });

  it('rejects an answer that does not fit the schema, naming the field but not its value', async () => {
    fake.route('GET', '/shape', () => ({ json: { ok: 'secret-value' } }));
    const failure = await client()
      .json('/shape', okSchema)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(FatalSourceError);
    expect((failure as Error).message).toMatch(/^GET \/shape answered an unexpected shape: ok: /);
    expect((failure as Error).message).not.toContain('secret-value');

    fake.route('GET', '/html', () => ({ body: '<html>maintenance</html>' }));
    await expect(client().json('/html', okSchema)).rejects.toThrow('GET /html did not answer JSON');
  });
});

describe('requests', () => {
  it('joins paths under the base URL, adds the query and sends JSON bodies', async () => {
    fake.route('POST', '/v2/items', (request) => ({
      json: {
        ok: true,
        query: request.query.getAll('tag'),
        body: request.json(),
        type: request.headers['content-type'],
      },
    }));
    const http = createHttpClient({ baseUrl: `${fake.url}/v2/` });
    const answer = await http.json(
      '/items',
      z.object({ query: z.array(z.string()), body: z.unknown(), type: z.string() }),
      {
        method: 'post',
        query: { tag: ['a', 'b'], skipped: undefined },
        json: { name: 'x' },
      },
    );
    expect(answer).toEqual({ query: ['a', 'b'], body: { name: 'x' }, type: 'application/json' });
  });

  it('refuses to send its credentials to another origin', async () => {
    const http = client({ headers: { authorization: 'Bearer t' } });
    await expect(http.request('http://127.0.0.2:9/steal')).rejects.toBeInstanceOf(FatalSourceError);
    expect(fake.requests).toHaveLength(0);
  });

  it('hands back a redirect as it came when asked to, and follows it otherwise', async () => {
    fake.route('GET', '/moved', () => ({ status: 301, headers: { location: '/ok' } }));
    const manual = await client().request('/moved', { redirect: 'manual' });
    expect([manual.status, manual.headers.get('location')]).toEqual([301, '/ok']);
    expect((await client().request('/moved')).text()).toBe('{"ok":true}');
    expect(fake.requests.map((request) => request.path)).toEqual(['/moved', '/moved', '/ok']);
  });

  it('stops reading a body past maxBodyBytes, declared or streamed, without retrying', async () => {
    const big = 'x'.repeat(5000);
    fake.route('GET', '/big', () => ({ body: big }));
    fake.route('GET', '/streamed', () => ({ body: big, headers: { 'transfer-encoding': 'chunked' } }));
    for (const path of ['/big', '/streamed']) {
      await expect(client().request(path, { maxBodyBytes: 1000 }), path).rejects.toBeInstanceOf(
        ResponseTooLargeError,
      );
    }
    expect((await client().request('/big', { maxBodyBytes: 5000 })).text()).toBe(big);
    expect(fake.requests.map((request) => request.path)).toEqual(['/big', '/streamed', '/big']);
  });

  it('connects through the dispatcher it is given', async () => {
    let dispatched = 0;
    const dispatcher = {
      dispatch() {
        dispatched += 1;
        throw new Error('refused by the dispatcher');
      },
    };
    const error: unknown = await client({ dispatcher })
      .request('/ok', { retry: false })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TransientError);
    expect(dispatched).toBe(1);
    expect(fake.requests).toHaveLength(0);
  });

  it('derived clients share the connection’s limiter', async () => {
    fake.route('GET', '/slow', () => ({ json: { ok: true }, delayMs: 30 }));
    const root = createHttpClient({ limits: { concurrency: 1 } });
    const a = root.with({ baseUrl: fake.url });
    const b = root.with({ baseUrl: fake.url, headers: { authorization: 'Bearer b' } });
    await Promise.all([a.request('/slow'), b.request('/slow'), a.request('/slow')]);
    expect(fake.maxInFlight).toBe(1);
    expect(fake.requests.map((request) => request.headers.authorization)).toEqual([
      undefined,
      'Bearer b',
      undefined,
    ]);
  });
});

describe('pacing', () => {
  it('never has more requests in flight than the concurrency limit', async () => {
    fake.route('GET', '/slow', () => ({ json: { ok: true }, delayMs: 100 }));
    const http = createHttpClient({ baseUrl: fake.url, limits: { concurrency: 3 } });

    await Promise.all(Array.from({ length: 12 }, () => http.request('/slow')));

    expect(fake.requests).toHaveLength(12);
    expect(fake.maxInFlight).toBe(3);
    expect(Math.max(...fake.requests.map((request) => request.inFlight))).toBe(3);
  });

  it('spaces requests by the rate limit (fake clock)', async () => {
    const arrivals: number[] = [];
    fake.route('GET', '/clocked', () => {
      arrivals.push(clock.now());
      return { json: { ok: true } };
    });
    const http = client({ limits: { rate: { requests: 2, intervalMs: 1000, burst: 1 } } });
    const start = clock.now();

    // One after another: with a fake clock, parallel waiters would all fast-forward before any request lands.
    for (let i = 0; i < 5; i += 1) await http.request('/clocked');

    expect(arrivals.map((at) => at - start)).toEqual([0, 500, 1000, 1500, 2000]);
  });

  it('spaces requests by the rate limit (real clock)', async () => {
    const start = Date.now();
    const http = createHttpClient({
      baseUrl: fake.url,
      limits: { rate: { requests: 10, intervalMs: 1000, burst: 1 } },
    });

    await Promise.all(Array.from({ length: 4 }, () => http.request('/ok')));

    // The limiter releases the i-th request no earlier than i × 100 ms after it was made; a request can only arrive
    // later than it left, so the bound holds at arrival whatever the network's jitter (the gap between two arrivals
    // does not: a late one shortens the next gap). 2 ms: Date.now's whole milliseconds on both ends.
    const sinceStart = fake.requests.map((request) => request.receivedAt - start).sort((a, b) => a - b);
    expect(sinceStart).toHaveLength(4);
    sinceStart.forEach((at, i) => expect(at).toBeGreaterThanOrEqual(i * 100 - 2));
  });
});

describe('secrets', () => {
  it('never logs the Authorization header or a key in the query, whatever happens', async () => {
    const secret = 'sk-live-7f3e9a1b2c';
    fake.requireBearer(secret);
    fake.failNext(1, { kind: 'status', status: 500 });
    fake.failNext(1, { kind: 'rateLimit', retryAfter: 1 });
    fake.failNext(1, { kind: 'drop' });
    const logger = recordingLogger();
    const http = client({ headers: { authorization: `Bearer ${secret}` }, logger });

    await http.request('/ok', { query: { api_key: secret } });
    const errors = [
      await client({ headers: { authorization: `Bearer ${secret}x` }, logger })
        .request('/ok', { query: { api_key: secret } })
        .catch((error: unknown) => error),
      await http.request('/missing', { query: { api_key: secret } }).catch((error: unknown) => error),
    ];

    expect(logger.entries.filter((entry) => entry.level === 'warn')).toHaveLength(3);
    expect(logger.text()).not.toContain(secret);
    expect(logger.text().toLowerCase()).not.toContain('authorization');
    for (const error of errors) {
      expect(error).toBeInstanceOf(Error);
      expect(JSON.stringify({ ...(error as object), message: (error as Error).message })).not.toContain(
        secret,
      );
    }
    expect(JSON.stringify(http)).not.toContain(secret);
  });
});
