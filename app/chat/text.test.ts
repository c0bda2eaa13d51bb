import { describe, expect, it } from 'vitest';
import { isBlank, sendsOnEnter, truncate } from './text';

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
