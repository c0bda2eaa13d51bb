import { describe, expect, it } from 'vitest';
import { RateLimitedError } from './errors';
import { RequestLimiter, Semaphore, TokenBucket } from './limits';
import { fakeClock } from './testing';

describe('Semaphore', () => {
  it('admits up to max holders and hands slots over first come, first served', async () => {
    const semaphore = new Semaphore(2);
    const order: string[] = [];
    const a = await semaphore.acquire();
    const b = await semaphore.acquire();
    const c = semaphore.acquire().then((release) => {
      order.push('c');
      return release;
    });
    const d = semaphore.acquire().then((release) => {
      order.push('d');
      return release;
    });
    expect(semaphore.inUse).toBe(2);

    a();
    a(); // a second release of the same slot changes nothing
    (await c)();
    b();
    (await d)();

    expect(order).toEqual(['c', 'd']);
    expect(semaphore.inUse).toBe(0);
  });

  it('drops a waiter whose signal aborts, without leaking its slot', async () => {
    const semaphore = new Semaphore(1);
    const held = await semaphore.acquire();
    const controller = new AbortController();
    const waiting = semaphore.acquire(controller.signal);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });

    held();
    expect(semaphore.inUse).toBe(0);
    (await semaphore.acquire())();
  });

  it('rejects a limit that is not a positive integer', () => {
    expect(() => new Semaphore(0)).toThrow(RangeError);
  });
});

describe('TokenBucket', () => {
  it('lets a burst through, then one token per interval / requests', async () => {
    const clock = fakeClock();
    const bucket = new TokenBucket({ requests: 4, intervalMs: 1000, burst: 2 }, clock);
    const start = clock.now();
    const times: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      await bucket.take();
      times.push(clock.now() - start);
    }
    expect(times).toEqual([0, 0, 250, 500, 750]);
  });

  it('refills while idle, up to the burst', async () => {
    const clock = fakeClock();
    const bucket = new TokenBucket({ requests: 1, intervalMs: 100 }, clock);
    await bucket.take();
    clock.advance(10_000);
    await bucket.take();
    expect(clock.sleeps).toEqual([]);
    await bucket.take();
    expect(clock.sleeps).toEqual([100]);
  });
});

describe('RequestLimiter', () => {
  it('holds requests through a pause and refuses a pause longer than the caller will wait', async () => {
    const clock = fakeClock();
    const limiter = new RequestLimiter({}, clock);
    limiter.pauseUntil(clock.now() + 2000);
    (await limiter.acquire(undefined, 60_000))();
    expect(clock.sleeps).toEqual([2000]);

    limiter.pauseUntil(clock.now() + 120_000);
    const failure = await limiter.acquire(undefined, 60_000).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RateLimitedError);
    expect((failure as RateLimitedError).retryAfterMs).toBe(120_000);
    expect(limiter.inFlight).toBe(0);
  });
});
