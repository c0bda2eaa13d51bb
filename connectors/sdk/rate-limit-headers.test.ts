import { describe, expect, it } from 'vitest';
import {
  allowanceExhausted,
  isRateLimitResponse,
  parseReset,
  parseRetryAfter,
  waitFromHeaders,
} from './rate-limit-headers';

const now = Date.parse('2025-06-01T12:00:00Z');

describe('Retry-After', () => {
  it('reads delay-seconds, including fractions some vendors send', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('0', now)).toBe(0);
    expect(parseRetryAfter('1.5', now)).toBe(1500);
  });

  it('reads an HTTP date as the time left until it, never negative', () => {
    expect(parseRetryAfter('Sun, 01 Jun 2025 12:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Sun, 01 Jun 2025 11:00:00 GMT', now)).toBe(0);
  });

  it('ignores what it cannot read', () => {
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('', now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });
});

describe('reset headers', () => {
  it('tells delay seconds, epoch seconds and epoch milliseconds apart by size', () => {
    expect(parseReset('45', now)).toBe(45_000);
    expect(parseReset(String(now / 1000 + 60), now)).toBe(60_000);
    expect(parseReset(String(now + 2500), now)).toBe(2500);
    expect(parseReset(String(now / 1000 - 60), now)).toBe(0);
  });

  it('prefers Retry-After, then the vendors’ reset headers, then the IETF structured field', () => {
    expect(waitFromHeaders(new Headers({ 'retry-after': '3', 'x-ratelimit-reset': '90' }), now)).toBe(3000);
    expect(waitFromHeaders(new Headers({ 'x-ratelimit-reset-after': '0.25' }), now)).toBe(250);
    expect(waitFromHeaders(new Headers({ 'ratelimit-reset': '7' }), now)).toBe(7000);
    expect(waitFromHeaders(new Headers({ ratelimit: '"default";r=0;t=12' }), now)).toBe(12_000);
    expect(waitFromHeaders(new Headers(), now)).toBeUndefined();
  });
});

describe('rate-limit responses', () => {
  it('knows a spent allowance from the remaining headers', () => {
    expect(allowanceExhausted(new Headers({ 'x-ratelimit-remaining': '0' }))).toBe(true);
    expect(allowanceExhausted(new Headers({ 'x-ratelimit-remaining': '10' }))).toBe(false);
    expect(allowanceExhausted(new Headers({ ratelimit: '"default";r=0;t=5' }))).toBe(true);
    expect(allowanceExhausted(new Headers({ ratelimit: '"default";r=10;t=5' }))).toBe(false);
  });

  it('counts 429 and throttling 403s, not plain 403s', () => {
    expect(isRateLimitResponse(429, new Headers())).toBe(true);
    expect(isRateLimitResponse(403, new Headers({ 'retry-after': '60' }))).toBe(true);
    expect(isRateLimitResponse(403, new Headers({ 'x-ratelimit-remaining': '0' }))).toBe(true);
    expect(isRateLimitResponse(403, new Headers({ 'x-ratelimit-remaining': '4999' }))).toBe(false);
    expect(isRateLimitResponse(503, new Headers({ 'retry-after': '60' }))).toBe(false);
  });
});
