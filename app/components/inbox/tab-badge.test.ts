import { describe, expect, it } from 'vitest';
import { faviconHref, titleWithCount } from './tab-badge';

describe('the unread count in the tab', () => {
  it("puts '(N) ' before the title, 9+ at most, and nothing at zero, replacing an earlier count", () => {
    expect(titleWithCount('Scout', 1)).toBe('(1) Scout');
    expect(titleWithCount('(1) Scout', 9)).toBe('(9) Scout');
    expect(titleWithCount('(9) Scout', 10)).toBe('(9+) Scout');
    expect(titleWithCount('(9+) Scout', 0)).toBe('Scout');
    expect(titleWithCount('(draft) notes', 0)).toBe('(draft) notes');
  });

  it('badges the favicon only while something is unread', () => {
    expect(decodeURIComponent(faviconHref(true))).toContain('<circle');
    expect(decodeURIComponent(faviconHref(false))).not.toContain('<circle');
    expect(faviconHref(false)).toMatch(/^data:image\/svg\+xml,/);
  });
});
