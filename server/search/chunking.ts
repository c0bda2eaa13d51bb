/**
 * Splitting a document into retrieval chunks (DESIGN §4).
 *
 * A chunk is a contiguous slice `body.slice(start, end)` of the document body: sentence and line boundaries are
 * preferred, a heading always starts a new chunk (unless the chunk so far is too small to stand alone), and the
 * indexed text is the document title and the section path (the headings above the slice) followed by the slice.
 * Keeping exact offsets lets a reference quote and highlight the original text.
 */

/** Bumped whenever chunking output changes, so unchanged documents are re-chunked once by the indexer. */
export const CHUNKER_VERSION = 1;

export const DEFAULT_MAX_CHUNK_TOKENS = 512;

/** A chunk smaller than this is merged into the next section rather than standing alone. */
const MIN_STANDALONE_FRACTION = 0.25;
const SECTION_SEPARATOR = ' > ';

export interface ChunkInput {
  title: string;
  body: string;
}

export interface Chunk {
  ord: number;
  /** Headings above the slice, outermost first; empty outside any section. */
  sectionPath: string[];
  /** The indexed text: title, section path, blank line, slice. */
  text: string;
  start: number;
  end: number;
  tokenCount: number;
}

export interface ChunkOptions {
  maxTokens?: number;
}

/**
 * A cheap token estimate: about four characters a token for alphabetic scripts, one a character for CJK and
 * other wide scripts (where BPE tokenisers spend roughly a token per character).
 */
export function estimateTokens(text: string): number {
  let cost = 0;
  for (let i = 0; i < text.length; i++) cost += charCost(text.charCodeAt(i));
  return Math.ceil(cost);
}

function charCost(code: number): number {
  // surrogate halves count half each, so an astral character costs one token
  if (code >= 0xd800 && code <= 0xdfff) return 0.5;
  return code >= 0x2e80 ? 1 : 0.25;
}

export function formatSectionPath(path: readonly string[]): string {
  return path.join(SECTION_SEPARATOR);
}

/**
 * The prefix the index sees before a slice: title and section path (DESIGN §4). It never takes more than half
 * a chunk: the title is cut to a quarter of it, and a section path that does not fit is left out.
 */
function chunkPrefix(
  title: string,
  sectionPath: string[],
  maxTokens: number,
): { text: string; sectionPath: string[] } {
  const shortTitle = cutToTokens(title.trim(), Math.floor(maxTokens / 4));
  const withPath = joinPrefix([shortTitle, formatSectionPath(sectionPath)]);
  return estimateTokens(withPath) <= Math.floor(maxTokens / 2)
    ? { text: withPath, sectionPath }
    : { text: joinPrefix([shortTitle]), sectionPath: [] };
}

function joinPrefix(parts: string[]): string {
  const head = parts.filter(Boolean);
  return head.length > 0 ? `${head.join('\n')}\n\n` : '';
}

function cutToTokens(text: string, tokens: number): string {
  let cost = 0;
  for (let i = 0; i < text.length; i++) {
    cost += charCost(text.charCodeAt(i));
    if (Math.ceil(cost) > tokens) return text.slice(0, isHighSurrogate(text.charCodeAt(i - 1)) ? i - 1 : i);
  }
  return text;
}

interface Section {
  path: string[];
  start: number;
  end: number;
}

interface Span {
  start: number;
  end: number;
}

const ATX_HEADING = /^ {0,3}(#{1,6})[ \t]+(.*?)[ \t]*#*[ \t]*$/;
const SETEXT_UNDERLINE = /^ {0,3}(=+|-+)[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

interface Line {
  start: number;
  /** End of the line's text, before its line break. */
  end: number;
  text: string;
}

function splitLines(body: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  while (start <= body.length) {
    const newline = body.indexOf('\n', start);
    const end = newline === -1 ? body.length : newline;
    const textEnd = end > start && body[end - 1] === '\r' ? end - 1 : end;
    lines.push({ start, end: textEnd, text: body.slice(start, textEnd) });
    if (newline === -1) break;
    start = newline + 1;
  }
  return lines;
}

/**
 * Markdown-style sections: ATX headings (`## Title`) and setext headings (a line underlined with `===` or `---`),
 * ignoring anything inside code fences. A section starts at its heading line, so every byte of the body belongs
 * to exactly one section.
 */
function parseSections(body: string): Section[] {
  const lines = splitLines(body);
  const sections: Section[] = [];
  const stack: { level: number; text: string }[] = [];
  let current: Section = { path: [], start: 0, end: body.length };
  let fence: string | null = null;

  const open = (level: number, text: string, start: number) => {
    while (stack.length > 0 && stack[stack.length - 1]!.level >= level) stack.pop();
    stack.push({ level, text });
    current.end = start;
    if (current.end > current.start) sections.push(current);
    current = { path: stack.map((entry) => entry.text), start, end: body.length };
  };

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const fenceMatch = FENCE.exec(line.text);
    if (fence !== null) {
      if (fenceMatch && fenceMatch[1]!.startsWith(fence)) fence = null;
      continue;
    }
    if (fenceMatch) {
      fence = fenceMatch[1]!;
      continue;
    }
    const atx = ATX_HEADING.exec(line.text);
    if (atx && atx[2]!.trim()) {
      open(atx[1]!.length, atx[2]!.trim(), line.start);
      continue;
    }
    const next = lines[i + 1];
    const previous = lines[i - 1];
    const startsParagraph = !previous || previous.text.trim() === '';
    if (next && startsParagraph && line.text.trim() && SETEXT_UNDERLINE.test(next.text)) {
      open(next.text.trim().startsWith('=') ? 1 : 2, line.text.trim(), line.start);
      i++;
    }
  }
  current.end = body.length;
  sections.push(current);
  return sections;
}

const SENTENCE_END = /[.!?…。！？][)"'’”\]]*(?=\s)/g;

/**
 * Sentences and lines of `body[start, end)`, trimmed of surrounding whitespace; blank ones dropped. Produced one
 * line at a time, so a section of megabytes is never held as one list of spans.
 */
function* splitUnits(body: string, start: number, end: number): Generator<Span> {
  const trimmed = (from: number, to: number): Span | null => {
    while (from < to && /\s/.test(body[from]!)) from++;
    while (to > from && /\s/.test(body[to - 1]!)) to--;
    return to > from ? { start: from, end: to } : null;
  };
  let lineStart = start;
  while (lineStart < end) {
    const newline = body.indexOf('\n', lineStart);
    const lineEnd = newline === -1 || newline >= end ? end : newline;
    const line = body.slice(lineStart, lineEnd);
    const units: Span[] = [];
    let from = 0;
    // the line's sentences are all found before the generator can pause, so the shared pattern's state is safe
    SENTENCE_END.lastIndex = 0;
    for (let match = SENTENCE_END.exec(line); match; match = SENTENCE_END.exec(line)) {
      const to = match.index + match[0].length;
      const unit = trimmed(lineStart + from, lineStart + to);
      if (unit) units.push(unit);
      from = to;
    }
    const rest = trimmed(lineStart + from, lineEnd);
    if (rest) units.push(rest);
    yield* units;
    lineStart = lineEnd + 1;
  }
}

/** Cuts a span too long for one chunk into pieces of at most `budget` tokens, at whitespace where possible. */
function splitLongSpan(body: string, span: Span, budget: number): Span[] {
  const pieces: Span[] = [];
  let start = span.start;
  while (start < span.end) {
    let cost = 0;
    let end = start;
    let lastSpace = -1;
    while (end < span.end) {
      const next = cost + charCost(body.charCodeAt(end));
      if (Math.ceil(next) > budget) break;
      cost = next;
      if (/\s/.test(body[end]!)) lastSpace = end;
      end++;
    }
    if (end < span.end && lastSpace > start) end = lastSpace;
    // never split a surrogate pair
    if (end < span.end && end > start && isHighSurrogate(body.charCodeAt(end - 1))) end--;
    if (end <= start) end = Math.min(span.end, start + 1);
    let pieceEnd = end;
    while (pieceEnd > start && /\s/.test(body[pieceEnd - 1]!)) pieceEnd--;
    if (pieceEnd > start) pieces.push({ start, end: pieceEnd });
    start = end;
    while (start < span.end && /\s/.test(body[start]!)) start++;
  }
  return pieces;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function commonPrefix(a: readonly string[], b: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < Math.min(a.length, b.length) && a[i] === b[i]; i++) out.push(a[i]!);
  return out;
}

/**
 * Chunks of about `maxTokens` (512) estimated tokens, none above it. A document with little text makes one
 * chunk; an empty body still makes one (title only), so every document is findable by its title.
 */
export function chunkDocument(input: ChunkInput, options: ChunkOptions = {}): Chunk[] {
  return [...chunksOf(input, options)];
}

/**
 * chunkDocument one chunk at a time: a caller indexing a huge text takes a few chunks, writes them, and lets
 * the event loop run before it asks for more, instead of splitting megabytes in one synchronous step.
 */
export function* chunksOf(input: ChunkInput, options: ChunkOptions = {}): Generator<Chunk> {
  const maxTokens = options.maxTokens ?? DEFAULT_MAX_CHUNK_TOKENS;
  const { title, body } = input;
  const minStandalone = Math.floor(maxTokens * MIN_STANDALONE_FRACTION);
  let ord = 0;
  // the unit list of the chunk being built, and the section path it belongs to
  let pending: Span[] = [];
  let pendingPath: string[] = [];

  // asked for every unit of the body; a document has few distinct section paths
  const budgets = new Map<string, number>();
  const budgetFor = (path: string[]) => {
    const key = formatSectionPath(path);
    let budget = budgets.get(key);
    if (budget === undefined) {
      budget = maxTokens - estimateTokens(chunkPrefix(title, path, maxTokens).text);
      budgets.set(key, budget);
    }
    return budget;
  };

  const flush = (): Chunk | null => {
    if (pending.length === 0) return null;
    const start = pending[0]!.start;
    const end = pending[pending.length - 1]!.end;
    const prefix = chunkPrefix(title, pendingPath, maxTokens);
    const text = prefix.text + body.slice(start, end);
    pending = [];
    return {
      ord: ord++,
      sectionPath: prefix.sectionPath,
      text,
      start,
      end,
      tokenCount: estimateTokens(text),
    };
  };
  // prefix sums of the per-character cost (multiples of 1/4, so exact): any slice's estimate in O(1)
  const costUpTo = new Float64Array(body.length + 1);
  for (let i = 0; i < body.length; i++) costUpTo[i + 1] = costUpTo[i]! + charCost(body.charCodeAt(i));
  const sliceTokens = (start: number, end: number) => Math.ceil(costUpTo[end]! - costUpTo[start]!);
  const pendingTokens = (extraEnd: number) =>
    pending.length === 0 ? 0 : sliceTokens(pending[0]!.start, extraEnd);

  for (const section of parseSections(body)) {
    if (pending.length > 0) {
      if (pendingTokens(pending[pending.length - 1]!.end) >= minStandalone) yield flush()!;
      else pendingPath = commonPrefix(pendingPath, section.path);
    }
    if (pending.length === 0) pendingPath = section.path;
    for (const unit of splitUnits(body, section.start, section.end)) {
      // a piece must fit alone under either path it may end up with
      const pieceBudget = Math.min(budgetFor(pendingPath), budgetFor(section.path));
      const pieces =
        sliceTokens(unit.start, unit.end) > pieceBudget ? splitLongSpan(body, unit, pieceBudget) : [unit];
      for (const piece of pieces) {
        if (pending.length > 0 && pendingTokens(piece.end) > budgetFor(pendingPath)) {
          yield flush()!;
          pendingPath = section.path;
        }
        if (pending.length === 0) pendingPath = section.path;
        pending.push(piece);
      }
    }
  }
  const last = flush();
  if (last) yield last;
  if (ord === 0) {
    const text = chunkPrefix(title, [], maxTokens).text;
    yield { ord: 0, sectionPath: [], text, start: 0, end: 0, tokenCount: estimateTokens(text) };
  }
}
