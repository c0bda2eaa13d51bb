import { describe, expect, it } from 'vitest';
import { chunkDocument, DEFAULT_MAX_CHUNK_TOKENS, estimateTokens, type Chunk } from './chunking';
import { seededRandom } from '../testing/random';

const WORDS = 'alpha beta gamma delta budget review launch plan quarterly design customer refund'.split(' ');

function sentence(random: () => number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(WORDS[Math.floor(random() * WORDS.length)]!);
  const text = out.join(' ');
  return `${text[0]!.toUpperCase()}${text.slice(1)}.`;
}

function expectSlicesExact(body: string, chunks: Chunk[]) {
  for (const chunk of chunks) {
    expect(chunk.start).toBeGreaterThanOrEqual(0);
    expect(chunk.end).toBeLessThanOrEqual(body.length);
    expect(chunk.start).toBeLessThanOrEqual(chunk.end);
    // the indexed text ends with exactly the slice the offsets name
    expect(chunk.text.endsWith(body.slice(chunk.start, chunk.end))).toBe(true);
  }
  for (let i = 1; i < chunks.length; i++) expect(chunks[i]!.start).toBeGreaterThanOrEqual(chunks[i - 1]!.end);
}

/** Every non-blank character of the body is in some chunk (nothing is lost between chunks). */
function expectCoverage(body: string, chunks: Chunk[]) {
  const covered = new Array<boolean>(body.length).fill(false);
  for (const chunk of chunks) for (let i = chunk.start; i < chunk.end; i++) covered[i] = true;
  for (let i = 0; i < body.length; i++) if (!covered[i]) expect(body[i]).toMatch(/\s/);
}

describe('estimateTokens', () => {
  it('counts about four characters a token, and a token per CJK character', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('abcd')).toBe(1);
    expect(estimateTokens('abcde')).toBe(2);
    expect(estimateTokens('検索エンジン')).toBe(6);
  });
});

describe('chunkDocument', () => {
  it('makes one chunk of a tiny document, with the title prepended', () => {
    const chunks = chunkDocument({ title: 'Expense policy', body: 'Meals are refunded up to 40 EUR.' });
    expect(chunks).toHaveLength(1);
    expect(chunks[0]).toMatchObject({ ord: 0, start: 0, end: 32, sectionPath: [] });
    expect(chunks[0]!.text).toBe('Expense policy\n\nMeals are refunded up to 40 EUR.');
  });

  it('makes one title-only chunk of an empty body', () => {
    const chunks = chunkDocument({ title: 'Empty page', body: '' });
    expect(chunks).toEqual([
      { ord: 0, sectionPath: [], text: 'Empty page\n\n', start: 0, end: 0, tokenCount: 3 },
    ]);
  });

  it('turns markdown headings into section paths and starts a chunk at each heading', () => {
    const random = seededRandom(1);
    const para = () => Array.from({ length: 14 }, () => sentence(random, 12)).join(' ');
    const body = [
      '# Handbook',
      para(),
      '## Travel',
      para(),
      '### Flights',
      para(),
      '## Expenses',
      para(),
      '```',
      '# not a heading inside a code fence',
      '```',
      'Hiring\n======',
      para(),
    ].join('\n\n');
    const chunks = chunkDocument({ title: 'Company handbook', body });
    expectSlicesExact(body, chunks);
    expectCoverage(body, chunks);
    const paths = chunks.map((chunk) => chunk.sectionPath.join(' > '));
    expect(paths).toEqual([
      'Handbook',
      'Handbook > Travel',
      'Handbook > Travel > Flights',
      'Handbook > Expenses',
      'Hiring',
    ]);
    expect(chunks[2]!.text.startsWith('Company handbook\nHandbook > Travel > Flights\n\n### Flights')).toBe(
      true,
    );
  });

  it('merges a section too small to stand alone into the next, under their common path', () => {
    const random = seededRandom(2);
    const body = ['# Guide', '## Short', 'One line.', '## Long', sentence(random, 300)].join('\n\n');
    const chunks = chunkDocument({ title: 'T', body });
    expect(chunks[0]!.sectionPath).toEqual(['Guide']);
    expect(chunks[0]!.start).toBe(0);
    expectSlicesExact(body, chunks);
  });

  it('keeps every chunk under the limit and the offsets exact, on random documents', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const random = seededRandom(seed);
      const maxTokens = [DEFAULT_MAX_CHUNK_TOKENS, 64, 128][seed % 3]!;
      const parts: string[] = [];
      const count = 1 + Math.floor(random() * 60);
      for (let i = 0; i < count; i++) {
        const roll = random();
        if (roll < 0.1) parts.push(`${'#'.repeat(1 + Math.floor(random() * 4))} ${sentence(random, 3)}`);
        else if (roll < 0.15)
          parts.push('x'.repeat(Math.floor(random() * 5000))); // one enormous word
        else if (roll < 0.2) parts.push('検索'.repeat(Math.floor(random() * 400)));
        else if (roll < 0.25) parts.push(`- ${sentence(random, 6)}\n- ${sentence(random, 6)}`);
        else
          parts.push(
            Array.from({ length: 1 + Math.floor(random() * 20) }, () =>
              sentence(random, 1 + Math.floor(random() * 40)),
            ).join(' '),
          );
      }
      const body = parts.join(random() < 0.5 ? '\n\n' : '\r\n');
      const title = random() < 0.2 ? sentence(random, 400) : sentence(random, 5);
      const chunks = chunkDocument({ title, body }, { maxTokens });
      expect(chunks.length).toBeGreaterThan(0);
      chunks.forEach((chunk, i) => {
        expect(chunk.ord).toBe(i);
        expect(chunk.tokenCount).toBe(estimateTokens(chunk.text));
        expect(chunk.tokenCount).toBeLessThanOrEqual(maxTokens);
      });
      expectSlicesExact(body, chunks);
      expectCoverage(body, chunks);
    }
  });

  it('fills chunks to about the limit rather than cutting at every sentence', () => {
    const random = seededRandom(3);
    const body = Array.from({ length: 400 }, () => sentence(random, 10)).join(' ');
    const chunks = chunkDocument({ title: 'Long', body });
    expect(chunks.length).toBeGreaterThan(3);
    for (const chunk of chunks.slice(0, -1))
      expect(chunk.tokenCount).toBeGreaterThan(DEFAULT_MAX_CHUNK_TOKENS * 0.8);
    // sentence-aware: every chunk but a split sentence's ends at a full stop
    for (const chunk of chunks) expect(body.slice(chunk.start, chunk.end)).toMatch(/\.$/);
  });
});
