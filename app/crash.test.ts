import { describe, expect, it } from 'vitest';
import { crashCountOf, isRepeatCrash, newTraceId, retryUrl } from './crash';

describe('crash helpers', () => {
  it('counts crashes from the query string', () => {
    expect(crashCountOf('')).toBe(0);
    expect(crashCountOf('?crashCount=abc')).toBe(0);
    expect(crashCountOf('?crashCount=-3')).toBe(0);
    expect(crashCountOf('?x=1&crashCount=2')).toBe(2);
  });

  it('treats the second crash as a repeat', () => {
    expect(isRepeatCrash('?x=1')).toBe(false);
    expect(isRepeatCrash('?crashCount=1')).toBe(true);
  });

  it('increments crashCount and keeps the rest of the address', () => {
    expect(retryUrl('https://scout.test/chat?x=1#a')).toBe('https://scout.test/chat?x=1&crashCount=1#a');
    expect(retryUrl('https://scout.test/chat?crashCount=1')).toBe('https://scout.test/chat?crashCount=2');
  });

  it('makes 32-hex-digit trace ids that differ', () => {
    const a = newTraceId();
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(newTraceId()).not.toBe(a);
  });
});
