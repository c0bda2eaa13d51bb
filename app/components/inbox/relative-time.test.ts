import { describe, expect, it } from 'vitest';
import { relativeTime } from './relative-time';

const NOW = new Date('2026-06-15T12:00:00Z');
const ago = (seconds: number) => new Date(NOW.getTime() - seconds * 1000);

describe('relativeTime', () => {
  it('says the spec table: just now under a minute, then minutes, hours, days, weeks, 30-day months, years', () => {
    expect(relativeTime(ago(0), NOW)).toBe('just now');
    expect(relativeTime(ago(59), NOW)).toBe('just now');
    expect(relativeTime(ago(60), NOW)).toBe('1 minute ago');
    expect(relativeTime(ago(59 * 60 + 59), NOW)).toBe('59 minutes ago');
    expect(relativeTime(ago(3600), NOW)).toBe('1 hour ago');
    expect(relativeTime(ago(23 * 3600), NOW)).toBe('23 hours ago');
    expect(relativeTime(ago(86_400), NOW)).toBe('1 day ago');
    expect(relativeTime(ago(6 * 86_400), NOW)).toBe('6 days ago');
    expect(relativeTime(ago(7 * 86_400), NOW)).toBe('1 week ago');
    expect(relativeTime(ago(29 * 86_400), NOW)).toBe('4 weeks ago');
    expect(relativeTime(ago(30 * 86_400), NOW)).toBe('1 month ago');
    expect(relativeTime(ago(364 * 86_400), NOW)).toBe('12 months ago');
    expect(relativeTime(ago(365 * 86_400), NOW)).toBe('1 year ago');
    expect(relativeTime(ago(3 * 365 * 86_400), NOW)).toBe('3 years ago');
  });

  it('reads ISO strings, and calls a time ahead of this clock just now', () => {
    expect(relativeTime('2026-06-15T11:58:00.000Z', NOW)).toBe('2 minutes ago');
    expect(relativeTime(new Date(NOW.getTime() + 5_000), NOW)).toBe('just now');
    expect(relativeTime('not a date', NOW)).toBe('just now');
  });
});
