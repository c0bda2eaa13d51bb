import { describe, expect, it } from 'vitest';
import { seeAllTile } from './references';

const refs = (...sources: string[]) => sources.map((source) => ({ source }));

describe('the See-all tile', () => {
  it('shows up to three distinct sources, one on narrow screens', () => {
    const hidden = refs('slack', 'slack', 'notion', 'gdrive', 'jira');
    expect(seeAllTile(hidden, false).sources).toEqual(['slack', 'notion', 'gdrive']);
    expect(seeAllTile(hidden, true).sources).toEqual(['slack']);
  });

  it('counts the hidden references, capped at 9', () => {
    expect(seeAllTile(refs('slack', 'notion'), false).count).toBe('2+');
    expect(seeAllTile(refs(...Array.from({ length: 14 }, () => 'slack')), false).count).toBe('9+');
  });
});
