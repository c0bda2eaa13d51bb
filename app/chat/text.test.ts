import { describe, expect, it } from 'vitest';
import {
  abbreviateCount,
  isBlank,
  placeholderWordDelay,
  sendsOnEnter,
  truncate,
  typedPlaceholder,
} from './text';

const key = { key: 'Enter', ctrlKey: false, metaKey: false, shiftKey: false, altKey: false };

describe('sendsOnEnter', () => {
  it('sends on a plain Enter only', () => {
    expect(sendsOnEnter(key)).toBe(true);
    expect(sendsOnEnter({ ...key, key: 'a' })).toBe(false);
    for (const modifier of ['ctrlKey', 'metaKey', 'shiftKey', 'altKey'] as const) {
      expect(sendsOnEnter({ ...key, [modifier]: true })).toBe(false);
    }
  });

  it('does not send while composing text', () => {
    expect(sendsOnEnter({ ...key, isComposing: true })).toBe(false);
    expect(sendsOnEnter({ ...key, keyCode: 229 })).toBe(false);
  });
});

describe('text rules', () => {
  it('cuts titles with an ellipsis', () => {
    expect(truncate('Parental leave policy for all', 20)).toBe('Parental leave polic...');
    expect(truncate('Short', 20)).toBe('Short');
  });

  it('treats whitespace as blank', () => {
    expect(isBlank(' \n\t')).toBe(true);
    expect(isBlank(' a ')).toBe(false);
  });
});

describe('the typed placeholder', () => {
  it('starts at 90 ms and drops 10 ms per word, never below 10 ms', () => {
    expect([0, 1, 2, 7, 8, 9, 20].map(placeholderWordDelay)).toEqual([90, 80, 70, 20, 10, 10, 10]);
  });

  it('shows the words typed so far', () => {
    expect(typedPlaceholder('Ask anything about work', 0)).toBe('');
    expect(typedPlaceholder('Ask anything about work', 2)).toBe('Ask anything');
    expect(typedPlaceholder('Ask anything about work', 9)).toBe('Ask anything about work');
  });
});

describe('abbreviateCount', () => {
  it('writes k above 999 and m above a million', () => {
    expect(abbreviateCount(0)).toBe('0');
    expect(abbreviateCount(999)).toBe('999');
    expect(abbreviateCount(1000)).toBe('1k');
    expect(abbreviateCount(1250)).toBe('1.3k');
    expect(abbreviateCount(48_700)).toBe('49k');
    expect(abbreviateCount(1_000_000)).toBe('1000k');
    expect(abbreviateCount(2_400_000)).toBe('2.4m');
  });
});
