import { describe, expect, it } from 'vitest';
import {
  expandQuery,
  FEEDBACK_ORIGINAL_WEIGHT,
  FEEDBACK_TERMS,
  idf,
  rankDocuments,
  recencyFactor,
  scoreChunk,
  type CandidateChunk,
  type FeedbackPassage,
  type QueryTerm,
} from './ranking';
import { parseTsvector } from './search';
import {
  chooseSnippet,
  HIGHLIGHT_START,
  HIGHLIGHT_STOP,
  likelyLexemes,
  readHighlights,
  SNIPPET_CHARS,
} from './snippets';

const stats = { chunkCount: 1000, totalLength: 100_000 };
const term = (lexeme: string, weight = 1, docFreq = 10): QueryTerm => ({
  lexeme,
  weight,
  idf: idf(docFreq, stats),
  original: true,
});
const chunk = (overrides: Partial<CandidateChunk>): CandidateChunk => ({
  chunkId: 'c',
  documentId: 'd',
  length: 100,
  termFreqs: {},
  titleTerms: [],
  modifiedTime: null,
  ...overrides,
});

describe('BM25 scoring', () => {
  it('uses Lucene’s idf: rarer terms weigh more, and no term weighs less than nothing', () => {
    expect(idf(1, stats)).toBeGreaterThan(idf(100, stats));
    expect(idf(1000, stats)).toBeGreaterThan(0);
    expect(idf(5, stats)).toBeCloseTo(Math.log(1 + (1000 - 5 + 0.5) / 5.5), 12);
  });

  it('saturates term frequency and normalises length', () => {
    const q = [term('budget')];
    const one = scoreChunk(chunk({ termFreqs: { budget: 1 } }), q, 100);
    const two = scoreChunk(chunk({ termFreqs: { budget: 2 } }), q, 100);
    const twenty = scoreChunk(chunk({ termFreqs: { budget: 20 } }), q, 100);
    expect(two).toBeGreaterThan(one);
    expect(twenty - two).toBeLessThan((two - one) * 18);
    expect(scoreChunk(chunk({ termFreqs: { budget: 1 }, length: 400 }), q, 100)).toBeLessThan(one);
    expect(scoreChunk(chunk({ termFreqs: {} }), q, 100)).toBe(0);
  });

  it('adds a title bonus for original query terms only', () => {
    const plain = chunk({ termFreqs: { budget: 1 } });
    const titled = chunk({ termFreqs: { budget: 1 }, titleTerms: ['budget'] });
    expect(scoreChunk(titled, [term('budget')], 100)).toBeGreaterThan(
      scoreChunk(plain, [term('budget')], 100),
    );
    const expansion = { ...term('budget'), original: false };
    expect(scoreChunk(titled, [expansion], 100)).toBe(scoreChunk(plain, [expansion], 100));
  });

  it('gives recency a mild, decaying boost', () => {
    const now = new Date('2025-06-01T00:00:00Z');
    expect(recencyFactor(null, now)).toBe(1);
    expect(recencyFactor(now, now)).toBeCloseTo(1.1, 12);
    expect(recencyFactor(new Date('2024-12-03T00:00:00Z'), now)).toBeCloseTo(1.05, 12);
    expect(recencyFactor(new Date('2030-01-01T00:00:00Z'), now)).toBeCloseTo(1.1, 12);
  });

  it('collapses chunks to their document’s best, ordering ties by id', () => {
    const q = [term('budget')];
    const ranked = rankDocuments(
      [
        chunk({ chunkId: 'c1', documentId: 'b', termFreqs: { budget: 1 } }),
        chunk({ chunkId: 'c2', documentId: 'b', termFreqs: { budget: 3 } }),
        chunk({ chunkId: 'c3', documentId: 'a', termFreqs: { budget: 3 } }),
      ],
      q,
      stats,
      new Date(),
    );
    expect(ranked.map((doc) => doc.documentId)).toEqual(['a', 'b']);
    expect(ranked[1]!.chunks.map((c) => c.chunkId)).toEqual(['c2', 'c1']);
  });
});

describe('pseudo-relevance feedback', () => {
  it('keeps FEEDBACK_ORIGINAL_WEIGHT for the query and gives the rest to the passages’ strongest frequent terms', () => {
    const query = [term('budget', 2), term('review', 1)];
    const passages: FeedbackPassage[] = [
      { score: 2, length: 10, termFreqs: { budget: 2, forecast: 3, hapax: 5, revenue: 1 } },
      { score: 1, length: 10, termFreqs: { budget: 1, forecast: 1, revenue: 2 } },
    ];
    const docFreq = (lexeme: string) => (lexeme === 'hapax' ? 1 : 50);
    const expanded = expandQuery(query, passages, docFreq, stats);
    const byLexeme = new Map(expanded.map((t) => [t.lexeme, t]));
    expect(byLexeme.has('hapax')).toBe(false); // too rare to trust
    expect(byLexeme.get('forecast')).toMatchObject({ original: false });
    expect(byLexeme.get('budget')!.original).toBe(true);
    const total = expanded.reduce((sum, t) => sum + t.weight, 0);
    expect(total).toBeCloseTo(1, 12);
    const originalShare = FEEDBACK_ORIGINAL_WEIGHT * (1 / 3); // review: 1 of the query's 3
    expect(byLexeme.get('review')!.weight).toBeCloseTo(originalShare, 12);
    expect(expanded.filter((t) => !t.original).length).toBeLessThanOrEqual(FEEDBACK_TERMS);
    // new terms share what the query does not keep, so they never outweigh what the user asked (at half and
    // half the expansion drifted off topic on TIME)
    const added = expanded.filter((t) => !t.original).reduce((sum, t) => sum + t.weight, 0);
    expect(added).toBeGreaterThan(0);
    expect(added).toBeLessThanOrEqual(1 - FEEDBACK_ORIGINAL_WEIGHT + 1e-12);
  });
});

describe('parseTsvector', () => {
  it('reads PostgreSQL’s text form, quotes, escapes and weights included', () => {
    const parsed = parseTsvector(`'budget':1A,5 'it''s':3B 'back\\\\slash':7 'bare'`);
    expect([...parsed]).toEqual([
      ['budget', [1, 5]],
      ["it's", [3]],
      ['back\\slash', [7]],
      ['bare', []],
    ]);
    expect([...parseTsvector(`'a:1,2':16383D 'x''':2,3C 'q\\'':4`)]).toEqual([
      ['a:1,2', [16383]],
      ["x'", [2, 3]],
      ["q'", [4]],
    ]);
    expect(parseTsvector('').size).toBe(0);
  });
});

describe('snippets', () => {
  const wanted = new Set(['receipt', 'budget', 'forecast', 'polici']);
  const lexemesOf = (word: string) => likelyLexemes(word, wanted);

  it('guesses which words stem to a query lexeme, for placing the window', () => {
    expect(likelyLexemes('Receipts', wanted)).toEqual(['receipt']);
    expect(likelyLexemes('policy', wanted)).toEqual(['polici']);
    expect(likelyLexemes('rec', wanted)).toEqual([]);
  });

  it('shows the whole of a short passage', () => {
    const snippet = chooseSnippet('Receipts go to finance.', lexemesOf);
    expect(snippet).toEqual({
      text: 'Receipts go to finance.',
      start: 0,
      end: 23,
      highlights: [{ start: 0, end: 8 }],
    });
  });

  it('picks the window with the most distinct query words in a long passage, cut at word boundaries', () => {
    const filler = 'lorem ipsum dolor sit amet '.repeat(30);
    const passage = `${filler}budget once. ${filler}budget and forecast together here. ${filler}`;
    const snippet = chooseSnippet(passage, lexemesOf);
    expect(snippet.text.length).toBeLessThanOrEqual(SNIPPET_CHARS);
    expect(snippet.text).toContain('budget and forecast together');
    expect(passage.slice(snippet.start, snippet.end)).toBe(snippet.text);
    expect(snippet.text).toMatch(/^\w/);
    expect(snippet.text).toMatch(/\w\.?$/);
    expect(snippet.highlights.map((span) => passage.slice(span.start, span.end))).toEqual([
      'budget',
      'forecast',
    ]);
  });

  it('reads ts_headline’s markers back into spans of the original text', () => {
    const marked = `${HIGHLIGHT_START}Receipts${HIGHLIGHT_STOP} for the ${HIGHLIGHT_START}budget${HIGHLIGHT_STOP}.`;
    expect(readHighlights('Receipts for the budget.', marked)).toEqual([
      { start: 0, end: 8 },
      { start: 17, end: 23 },
    ]);
    expect(readHighlights('Receipts for the budget.', 'Receipts  for the budget.')).toBeNull();
  });
});
