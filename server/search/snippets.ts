/**
 * Snippets: the part of a hit's passage to show, and where the query's words are in it. Offsets are UTF-16 code
 * unit offsets into the document body (what `String.prototype.slice` takes), so the app can quote and highlight
 * the stored text exactly.
 *
 * The window is chosen in JavaScript with a cheap stem-prefix test; the highlights inside it come from
 * PostgreSQL's own parser and stemmer (`ts_headline`, see search.ts), so they match exactly what the index
 * matched.
 */

export const SNIPPET_CHARS = 280;
/** Context kept before the first highlighted word. */
const LEAD_CHARS = 60;

const WORD = /[\p{L}\p{N}_]+(?:['’.\-@][\p{L}\p{N}_]+)*/gu;

export interface Span {
  start: number;
  end: number;
}

export interface WordSpan extends Span {
  word: string;
}

export function wordsOf(text: string): WordSpan[] {
  return [...text.matchAll(WORD)].map((match) => ({
    word: match[0],
    start: match.index,
    end: match.index + match[0].length,
  }));
}

export interface Snippet {
  text: string;
  /** In passage coordinates. */
  start: number;
  end: number;
  highlights: Span[];
}

/**
 * The query lexemes a word probably stems to, without asking the database: English stems are mostly prefixes
 * of their words ("receipt" of "receipts"), or the word less its last letter is a prefix of the stem
 * ("polici" of "policy"). Good enough to place a snippet window; never used for the highlights themselves.
 */
export function likelyLexemes(word: string, wanted: ReadonlySet<string>): string[] {
  const lower = word.toLowerCase();
  const stem = lower.length >= 4 ? lower.slice(0, -1) : null;
  return [...wanted].filter(
    (lexeme) => lower.startsWith(lexeme) || (stem !== null && lexeme.startsWith(stem)),
  );
}

/** Markers ts_headline is asked to put around matches: control characters that text never contains. */
export const HIGHLIGHT_START = '\u0001';
export const HIGHLIGHT_STOP = '\u0002';

/**
 * Reads ts_headline's output (the text with every match wrapped in the markers) back into spans of the
 * original text; null when the output is not the original text plus markers (then nothing is highlighted).
 */
export function readHighlights(original: string, marked: string): Span[] | null {
  const spans: Span[] = [];
  let text = '';
  let open = -1;
  for (const ch of marked) {
    if (ch === HIGHLIGHT_START) open = text.length;
    else if (ch === HIGHLIGHT_STOP) {
      if (open >= 0 && text.length > open) spans.push({ start: open, end: text.length });
      open = -1;
    } else text += ch;
  }
  return text === original ? spans : null;
}

/**
 * The window of at most SNIPPET_CHARS characters that shows the most distinct query lexemes (then the most
 * matches, then the earliest), cut at word boundaries. `lexemesOf` maps a word to the query lexemes it matches.
 * The highlights returned are those `lexemesOf` found.
 */
export function chooseSnippet(passage: string, lexemesOf: (word: string) => readonly string[]): Snippet {
  const matches = wordsOf(passage)
    .map((word) => ({ ...word, lexemes: lexemesOf(word.word) }))
    .filter((word) => word.lexemes.length > 0);

  let start = 0;
  if (passage.length > SNIPPET_CHARS && matches.length > 0) {
    let best = { start: 0, distinct: -1, count: -1 };
    for (const anchor of matches) {
      const from = Math.max(0, Math.min(anchor.start - LEAD_CHARS, passage.length - SNIPPET_CHARS));
      const inside = matches.filter((match) => match.start >= from && match.end <= from + SNIPPET_CHARS);
      const distinct = new Set(inside.flatMap((match) => match.lexemes)).size;
      if (distinct > best.distinct || (distinct === best.distinct && inside.length > best.count)) {
        best = { start: from, distinct, count: inside.length };
      }
    }
    start = best.start;
  }
  let end = Math.min(passage.length, start + SNIPPET_CHARS);
  // whole words only: move the start past a word cut in half, the end back before one
  if (start > 0 && /[\p{L}\p{N}]/u.test(passage[start - 1] ?? '')) {
    const next = passage.slice(start).search(/[^\p{L}\p{N}]/u);
    if (next > 0 && next < end - start) start += next;
  }
  if (end < passage.length && /[\p{L}\p{N}]/u.test(passage[end] ?? '')) {
    const cut = passage.slice(start, end).search(/[^\p{L}\p{N}][\p{L}\p{N}]*$/u);
    if (cut > 0) end = start + cut;
  }
  while (start < end && /\s/.test(passage[start]!)) start++;
  while (end > start && /\s/.test(passage[end - 1]!)) end--;
  return {
    text: passage.slice(start, end),
    start,
    end,
    highlights: matches
      .filter((match) => match.start >= start && match.end <= end)
      .map((match) => ({ start: match.start, end: match.end })),
  };
}
