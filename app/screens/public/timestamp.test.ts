import { describe, expect, it } from 'vitest';
import { formatTopicTimestamp } from './timestamp';

// Local times, so the expectations hold in any time zone the tests run in.
const local = (...parts: [number, number, number, number, number]) => new Date(...parts).toISOString();

describe("formatTopicTimestamp ('MMM D, h:mm a')", () => {
  it('writes the short month, the day, a 12-hour clock and am/pm', () => {
    expect(formatTopicTimestamp(local(2024, 0, 5, 9, 7))).toBe('Jan 5, 9:07 am');
    expect(formatTopicTimestamp(local(2024, 11, 31, 23, 59))).toBe('Dec 31, 11:59 pm');
  });

  it('calls midnight 12 am and noon 12 pm', () => {
    expect(formatTopicTimestamp(local(2025, 6, 4, 0, 0))).toBe('Jul 4, 12:00 am');
    expect(formatTopicTimestamp(local(2025, 6, 4, 12, 30))).toBe('Jul 4, 12:30 pm');
  });

  it('gives nothing for a date it cannot read', () => {
    expect(formatTopicTimestamp('yesterday')).toBe('');
  });
});
