import { describe, expect, it } from 'vitest';
import { CorruptFileError, FileTooLargeError } from './errors';
import { snappyDecompress } from './iwa';
import { PRE_BNC_WARNING, parseNumbers } from './numbers';
import { parseContext, makeNumbers } from './testing';
import { checkArchive } from './zip';
import { DEFAULT_PARSE_LIMITS } from './limits';

function parse(bytes: Uint8Array) {
  const context = { ...parseContext(bytes), zipEntries: checkArchive(bytes, DEFAULT_PARSE_LIMITS) };
  return { result: parseNumbers(context), warnings: context.warnings };
}

describe('snappyDecompress', () => {
  it('expands literals and overlapping back-references', () => {
    // 12 bytes: literal "abc", then a 1-byte-offset copy of 9 bytes from 3 back
    const compressed = Uint8Array.from([12, 2 << 2, 0x61, 0x62, 0x63, (5 << 2) | 1, 3]);
    expect(new TextDecoder().decode(snappyDecompress(compressed, 100))).toBe('abcabcabcabc');
    // a 2-byte-offset copy
    const two = Uint8Array.from([6, 2 << 2, 0x78, 0x79, 0x7a, ((3 - 1) << 2) | 2, 3, 0]);
    expect(new TextDecoder().decode(snappyDecompress(two, 100))).toBe('xyzxyz');
  });

  it('refuses output larger than the budget before allocating it', () => {
    expect(() => snappyDecompress(Uint8Array.from([0xff, 0xff, 0xff, 0xff, 0x0f]), 1024)).toThrow(
      FileTooLargeError,
    );
  });

  it('refuses references outside what was written and lengths that do not add up', () => {
    expect(() => snappyDecompress(Uint8Array.from([8, (5 << 2) | 1, 3]), 100)).toThrow(CorruptFileError);
    expect(() => snappyDecompress(Uint8Array.from([9, 2 << 2, 0x61, 0x62, 0x63]), 100)).toThrow(
      CorruptFileError,
    );
  });
});

describe('parseNumbers', () => {
  it('reads text, numbers, dates and booleans by row and column', () => {
    const bytes = makeNumbers('Projects', 'Launches', [
      ['Project', 'Budget', 'Launch', 'Done'],
      ['Search', [-25n, 1], new Date(Date.UTC(2027, 2, 14)), true],
      ['Answers', [15n, -2], new Date(Date.UTC(2027, 5, 1, 9, 30)), false],
    ]);
    const { result, warnings } = parse(bytes);
    expect(warnings).toEqual([]);
    expect(result.text).toBe(
      '## Sheet: Projects\n\n### Launches\n\nProject\tBudget\tLaunch\tDone\n\n' +
        'Project: Search\nBudget: -250\nLaunch: 2027-03-14\nDone: TRUE\n\n' +
        'Project: Answers\nBudget: 0.15\nLaunch: 2027-06-01 09:30:00\nDone: FALSE\n\n\n',
    );
  });

  it('reports tables saved by Numbers 9 or earlier instead of guessing at them', () => {
    const { result, warnings } = parse(makeNumbers('Old', 'Table', [['a']], { savedBeforeNumbers10: true }));
    expect(result.text).toBe('## Sheet: Old\n\n');
    expect(warnings).toEqual([PRE_BNC_WARNING]);
  });
});
