import { describe, expect, it } from 'vitest';
import { CitationRenumberer, stripCitations } from './citations';
import { parseSuggestions, relatedFromPassages, titleFromQuestion } from './related';
import type { Passage } from './passages';

function run(pieces: string[], sources = 5) {
  const renumberer = new CitationRenumberer(sources);
  const text = pieces.map((piece) => renumberer.push(piece)).join('') + renumberer.flush();
  return { text, cited: renumberer.cited() };
}

describe('CitationRenumberer', () => {
  it('numbers sources in the order they are first cited', () => {
    expect(run(['Alpha [3], beta [1] and again [3].'])).toEqual({
      text: 'Alpha [1], beta [2] and again [1].',
      cited: [3, 1],
    });
  });

  it('handles markers split across streamed pieces', () => {
    expect(run(['Alpha [', '4', '] and [2', ', 4', ']. Done'])).toEqual({
      text: 'Alpha [1] and [2][1]. Done',
      cited: [4, 2],
    });
  });

  it('drops markers naming no source, and leaves other brackets alone', () => {
    expect(run(['See [9] and [0], a [link](https://x.test) and [note].'], 2)).toEqual({
      text: 'See and, a [link](https://x.test) and [note].',
      cited: [],
    });
  });

  it('flushes an unfinished bracket at the end as text', () => {
    expect(run(['Ends with [1'])).toEqual({ text: 'Ends with [1', cited: [] });
  });

  it('strips citations from history', () => {
    expect(stripCitations('A [1][2] b [3, 4].')).toBe('A b.');
  });
});

describe('suggestions', () => {
  it('reads the title and related searches leniently', () => {
    expect(
      parseSuggestions(
        'Title: "Leave policy"\nRelated searches:\n1. Paternity leave\n* Leave form\n- Paternity leave',
      ),
    ).toEqual({
      title: 'Leave policy',
      related: ['Paternity leave', 'Leave form'],
    });
    expect(parseSuggestions('I cannot help')).toEqual({ title: null, related: [] });
  });

  it('falls back to the question for a title and to document titles for related searches', () => {
    expect(titleFromQuestion('how do I   reset my password?')).toBe('How do I reset my password?');
    const long = titleFromQuestion(
      'what is the process for requesting a new laptop when the old one is broken beyond repair',
    );
    expect(long.length).toBeLessThanOrEqual(61);
    expect(long.endsWith('…')).toBe(true);
    const passage = (title: string) => ({ title }) as Passage;
    expect(
      relatedFromPassages('VPN', [
        passage('VPN'),
        passage('VPN guide'),
        passage('vpn guide'),
        passage('Wi-Fi'),
      ]),
    ).toEqual(['VPN guide', 'Wi-Fi']);
  });
});
