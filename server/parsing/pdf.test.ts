import { describe, expect, it } from 'vitest';
import { pageText, type TextItem } from './pdf';

const item = (str: string, x: number, y: number, hasEOL = false): TextItem => ({
  str,
  hasEOL,
  transform: [12, 0, 0, 12, x, y],
  width: str.length * 6,
  height: 12,
});

describe('pageText', () => {
  it('follows the line ends PDF.js reports', () => {
    expect(pageText([item('One', 40, 500, true), item('Two', 40, 480)])).toBe('One\nTwo');
  });

  it('starts a new line when the baseline moves and no line end was reported', () => {
    expect(pageText([item('Heading', 40, 500), item('Body text', 40, 470)])).toBe('Heading\nBody text');
  });

  it('puts a space between strings drawn apart on one baseline, and none between adjoining ones', () => {
    expect(pageText([item('Plan', 40, 500), item('Cost', 200, 500)])).toBe('Plan Cost');
    expect(pageText([item('Hyph', 40, 500), item('enated', 64, 500)])).toBe('Hyphenated');
    expect(pageText([item('Sub', 40, 500), item('script', 58, 497)])).toBe('Subscript');
  });

  it('drops trailing spaces before line ends and skips marked-content items without text', () => {
    const marked = { type: 'beginMarkedContent' } as unknown as TextItem;
    expect(pageText([item('End  ', 40, 500, true), marked, item('Next', 40, 480)])).toBe('End\nNext');
  });
});
