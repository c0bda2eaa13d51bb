import { describe, expect, it } from 'vitest';
import { titleWithCount, withBadge } from './tab-badge';

describe('the unread count in the tab', () => {
  it("puts '(N) ' before the title, 9+ at most, and nothing at zero, replacing an earlier count", () => {
    expect(titleWithCount('Scout', 1)).toBe('(1) Scout');
    expect(titleWithCount('(1) Scout', 9)).toBe('(9) Scout');
    expect(titleWithCount('(9) Scout', 10)).toBe('(9+) Scout');
    expect(titleWithCount('(9+) Scout', 0)).toBe('Scout');
    expect(titleWithCount('(draft) notes', 0)).toBe('(draft) notes');
  });

  it("draws the badge on the favicon's own SVG, in its top right corner", () => {
    const icon =
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 32"><rect width="64" height="32"/></svg>';
    const badged = withBadge(icon);
    expect(badged.startsWith('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 32"><rect')).toBe(true);
    expect(badged).toMatch(/<circle cx="56.96" cy="7.04" r="7.04"[^>]*\/><\/svg>$/);
    expect(withBadge('not an svg')).toBe('not an svg');
  });
});
