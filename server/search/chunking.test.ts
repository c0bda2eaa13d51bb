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

/** The body slice a chunk names. */
const sliceOf = (body: string, chunk: Chunk) => body.slice(chunk.start, chunk.end);

/** Words wrapped into lines of about `width` characters, as hard-wrapped Markdown and PDF text are. */
function wrap(text: string, width: number): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + word.length + 1 > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.join('\n');
}

describe('chunkDocument on structured documents', () => {
  it('repeats a Markdown table header row in every chunk the table is split across', () => {
    const header = '| Trip category | Spend limit | Approver |\n| --- | ---: | --- |';
    const rows = Array.from(
      { length: 60 },
      (_, i) => `| Category ${i} trip for teammates | $${1000 + i * 25} | Manager of team ${i} |`,
    );
    const body = ['# Travel', 'Budgets per trip:', header, ...rows, '', 'Budgets renew every February.'].join(
      '\n',
    );
    const chunks = chunkDocument({ title: 'Travel', body }, { maxTokens: 160 });
    expectSlicesExact(body, chunks);
    expectCoverage(body, chunks);
    const withRows = chunks.filter((chunk) => rows.some((row) => sliceOf(body, chunk).includes(row)));
    expect(withRows.length).toBeGreaterThan(3);
    for (const chunk of withRows) {
      expect(chunk.tokenCount).toBeLessThanOrEqual(160);
      expect(chunk.sectionPath).toEqual(['Travel']);
      // the header either opens the slice's table or comes right before a slice that starts on a row
      if (!sliceOf(body, chunk).includes(header)) {
        expect(chunk.text).toBe(`Travel\nTravel\n\n${header}\n${sliceOf(body, chunk)}`);
        expect(rows.some((row) => sliceOf(body, chunk).startsWith(row))).toBe(true);
      }
    }
    // every row whole in exactly one chunk
    for (const row of rows)
      expect(chunks.filter((chunk) => sliceOf(body, chunk).includes(row))).toHaveLength(1);
  });

  it('repeats the header of a tab-separated table (the parsers’ Word and HTML tables), not a first data row', () => {
    const rows = Array.from({ length: 40 }, (_, i) => `Plan ${i} for the whole family\t$${10 + i}\tMonthly`);
    const withHeader = ['Plan\tCost\tBilled', ...rows].join('\n');
    const chunks = chunkDocument({ title: 'Plans', body: withHeader }, { maxTokens: 96 });
    expect(chunks.length).toBeGreaterThan(2);
    for (const chunk of chunks.slice(1))
      expect(chunk.text).toBe(`Plans\n\nPlan\tCost\tBilled\n${sliceOf(withHeader, chunk)}`);

    // a table whose first row holds values has no header to repeat
    const headerless = ['2027-01-01\t$10\t3', ...rows].join('\n');
    const plain = chunkDocument({ title: 'Plans', body: headerless }, { maxTokens: 96 });
    for (const chunk of plain) expect(chunk.text).toBe(`Plans\n\n${sliceOf(headerless, chunk)}`);
  });

  it('carries the title and heading path in every chunk under the heading', () => {
    const random = seededRandom(5);
    const para = () => Array.from({ length: 8 }, () => sentence(random, 12)).join(' ');
    const body = [
      '# Handbook',
      '## Leave',
      '### Parental leave',
      para(),
      para(),
      para(),
      para(),
      '## Pay',
      para(),
    ].join('\n\n');
    const chunks = chunkDocument({ title: 'People handbook', body }, { maxTokens: 200 });
    expectSlicesExact(body, chunks);
    const underParental = chunks.filter((chunk) => chunk.start < body.indexOf('## Pay'));
    expect(underParental.length).toBeGreaterThan(2);
    for (const chunk of underParental) {
      expect(chunk.sectionPath).toEqual(['Handbook', 'Leave', 'Parental leave']);
      expect(chunk.text.startsWith('People handbook\nHandbook > Leave > Parental leave\n\n')).toBe(true);
    }
    expect(chunks[chunks.length - 1]!.sectionPath).toEqual(['Handbook', 'Pay']);
  });

  it('never ends a chunk mid-sentence when a sentence boundary fits, across wrapped lines and abbreviations', () => {
    const random = seededRandom(6);
    const paragraphs = Array.from({ length: 12 }, () =>
      wrap(
        Array.from({ length: 6 }, (_, i) =>
          i % 3 === 0 ? `${sentence(random, 9).slice(0, -1)}, e.g. the review plan.` : sentence(random, 14),
        ).join(' '),
        60,
      ),
    );
    const body = paragraphs.join('\n\n');
    const chunks = chunkDocument({ title: 'Notes', body }, { maxTokens: 128 });
    expect(chunks.length).toBeGreaterThan(4);
    expectCoverage(body, chunks);
    for (const chunk of chunks) {
      const slice = sliceOf(body, chunk);
      expect(slice).toMatch(/\.$/);
      expect(slice).not.toMatch(/e\.g\.$/);
      // and starts where a sentence starts
      expect(slice).toMatch(/^[A-Z]/);
    }
  });

  it('keeps a list item and a line ending in a colon with what follows when the chunk is already full enough', () => {
    const random = seededRandom(7);
    // at 200 tokens a chunk: the intro fills most of one, and two items do, but three items do not fit
    const intro = Array.from({ length: 8 }, () => sentence(random, 12)).join(' ');
    const items = Array.from(
      { length: 6 },
      () => `- ${sentence(random, 16)} ${sentence(random, 16)} ${sentence(random, 16)}`,
    );
    const body = [intro, 'Our perks include:', ...items].join('\n');
    const chunks = chunkDocument({ title: 'Perks', body }, { maxTokens: 200 });
    expect(chunks.length).toBeGreaterThan(3);
    expectCoverage(body, chunks);
    for (const chunk of chunks) {
      const slice = sliceOf(body, chunk);
      expect(slice.endsWith('include:')).toBe(false);
      // each item whole: a chunk starts at an item's marker or at the document's start
      expect(chunk.start === 0 || slice.startsWith('- ') || slice.startsWith('Our perks')).toBe(true);
    }
  });

  it('keeps a bold line, a heading in all but markup, with the paragraph it introduces', () => {
    const random = seededRandom(10);
    const para = (sentences: number) =>
      Array.from({ length: sentences }, () => sentence(random, 12)).join(' ');
    const body = [para(8), '**Submitting receipts**', para(5)].join('\n\n');
    const chunks = chunkDocument({ title: 'Expenses', body }, { maxTokens: 200 });
    expect(chunks).toHaveLength(2);
    expect(sliceOf(body, chunks[1]!).startsWith('**Submitting receipts**')).toBe(true);
  });

  it('keeps a code block under the limit whole, and splits one over it between lines', () => {
    const random = seededRandom(8);
    const code = [
      '```ts',
      ...Array.from({ length: 14 }, (_, i) => `const value${i} = compute(${i}, 'x');`),
      '```',
    ].join('\n');
    const lead = Array.from({ length: 10 }, () => sentence(random, 10)).join(' ');
    const body = [lead, code, sentence(random, 10)].join('\n\n');
    const chunks = chunkDocument({ title: 'Code', body }, { maxTokens: 256 });
    expect(chunks.filter((chunk) => sliceOf(body, chunk).includes(code))).toHaveLength(1);

    const long = [
      '```',
      ...Array.from({ length: 200 }, (_, i) => `line ${i} of the generated file;`),
      '```',
    ].join('\n');
    const split = chunkDocument({ title: 'Code', body: long }, { maxTokens: 128 });
    expect(split.length).toBeGreaterThan(3);
    for (const chunk of split) {
      expect(chunk.tokenCount).toBeLessThanOrEqual(128);
      expect(sliceOf(long, chunk)).toMatch(/(;|```)$/);
    }
  });

  it('merges a near-duplicate chunk of a document into the earlier one, but keeps a copy that adds a word', () => {
    const random = seededRandom(9);
    // each paragraph fills most of a chunk, so each is one chunk
    const policy = Array.from({ length: 18 }, () => sentence(random, 14)).join(' ');
    const other = Array.from({ length: 18 }, () => sentence(random, 14)).join(' ');
    // the copy differs in case, punctuation and spacing, and lacks a word
    const copy = policy.toUpperCase().replace(/\./g, ';').replace(' ', '  ').replace(/ \S+/, '');
    const body = [policy, other, copy].join('\n\n');
    const chunks = chunkDocument({ title: 'Policy', body });
    expect(chunks.map((chunk) => sliceOf(body, chunk))).toEqual([policy, other]);
    expect(chunks.map((chunk) => chunk.ord)).toEqual([0, 1]);

    const amended = `${policy} Sixteen weeks.`;
    const kept = chunkDocument({ title: 'Policy', body: [policy, other, amended].join('\n\n') });
    expect(kept).toHaveLength(3);
  });
});
