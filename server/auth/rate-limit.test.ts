import { describe, expect, it } from 'vitest';
import { RateLimiter } from './rate-limit';

describe('RateLimiter', () => {
  const rule = (key: string) => ({ key, max: 2, windowMs: 60_000 });

  it('allows up to the limit in a window, then answers the wait until it opens again', () => {
    const limiter = new RateLimiter();
    expect(limiter.take([rule('a')], 0)).toBeNull();
    expect(limiter.take([rule('a')], 10_000)).toBeNull();
    expect(limiter.take([rule('a')], 20_000)).toBe(40_000);
    expect(limiter.take([rule('a')], 60_000)).toBeNull();
  });

  it('counts nothing when any key is refused', () => {
    const limiter = new RateLimiter();
    limiter.take([rule('full')], 0);
    limiter.take([rule('full')], 0);
    expect(limiter.take([rule('other'), rule('full')], 0)).not.toBeNull();
    expect(limiter.take([rule('other')], 0)).toBeNull();
    expect(limiter.take([rule('other')], 0)).toBeNull();
    expect(limiter.take([rule('other')], 0)).not.toBeNull();
  });
});
