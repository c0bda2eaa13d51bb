import { describe, expect, it } from 'vitest';
import { formatCell } from './xlsx-cells';

describe('formatCell', () => {
  it('shows Excel serial numbers as dates, times or both', () => {
    expect(formatCell('45000', 'date', false)).toBe('2023-03-15');
    expect(formatCell('0.75', 'time', false)).toBe('18:00');
    expect(formatCell('45000.5000115741', 'datetime', false)).toBe('2023-03-15 12:00:01');
  });

  it('counts from 1904 in workbooks that say so', () => {
    expect(formatCell('0', 'date', true)).toBe('1904-01-01');
  });

  it('shows booleans as TRUE and FALSE', () => {
    expect(formatCell('1', 'boolean', false)).toBe('TRUE');
    expect(formatCell('0', 'boolean', false)).toBe('FALSE');
  });

  it('leaves anything that is not a number as it is', () => {
    expect(formatCell('n/a', 'date', false)).toBe('n/a');
    expect(formatCell('', 'date', false)).toBe('');
  });
});
