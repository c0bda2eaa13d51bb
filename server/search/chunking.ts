/**
 * Splitting a document into retrieval chunks (DESIGN §4).
 *
 * A chunk is a contiguous slice `body.slice(start, end)` of the document body, cut along the document's own
 * structure. A heading starts a new chunk (unless the chunk so far is too small to stand alone). Within a section
 * the body is read as blocks (paragraphs, list items, tables, code blocks): a chunk already well filled ends
 * before a block that does not fit, a heading, a bold line or a line ending in ':' stays with what it introduces,
 * and a block is otherwise cut between its sentences, table rows or code lines; a sentence or a code block is cut
 * only when it alone exceeds a chunk. The indexed text is the document title and the section path (the headings
 * above the slice), then the header of a table the slice starts inside, then the slice. Keeping exact offsets
 * lets a reference quote and highlight the original text. A chunk that nearly repeats an earlier one of its
 * document is left out (SeenChunks).
 */
import { isHeaderRow } from '../parsing/rows';

/** Bumped whenever chunking output changes, so unchanged documents are re-chunked once by the indexer. */
export const CHUNKER_VERSION = 2;

export const DEFAULT_MAX_CHUNK_TOKENS = 512;

/** A chunk smaller than this is merged into the next section rather than standing alone. */
const MIN_STANDALONE_FRACTION = 0.25;
/** A chunk at least this full ends before a block that does not fit, rather than taking part of it. */
const BLOCK_FILL_FRACTION = 0.75;
/** A table header costing more than this share of a chunk is not repeated: the rows would hardly fit beside it. */
const MAX_HEADER_FRACTION = 0.25;
const SECTION_SEPARATOR = ' > ';

export interface ChunkInput {
  title: string;
  body: string;
}

export interface Chunk {
  ord: number;
  /** Headings above the slice, outermost first; empty outside any section. */
  sectionPath: string[];
  /** The indexed text: title, section path, blank line, the header of a table the slice starts inside, slice. */
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

interface Span {
  start: number;
  end: number;
}

interface Line {
  start: number;
  /** End of the line's text, before its line break. */
  end: number;
  text: string;
}

interface Section {
  path: string[];
  start: number;
  end: number;
  /** The section's lines, `[firstLine, endLine)` of the body's lines. */
  firstLine: number;
  endLine: number;
  /** How many of its first lines are its heading: 0, 1 (`## Title`) or 2 (a setext heading). */
  headingLines: number;
}

const ATX_HEADING = /^ {0,3}(#{1,6})[ \t]+(.*?)[ \t]*#*[ \t]*$/;
const SETEXT_UNDERLINE = /^ {0,3}(=+|-+)[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const LIST_ITEM = /^[ \t]*(?:[-*+•]|\d{1,9}[.)])[ \t]+\S/;
const PIPE_DELIMITER = /^ {0,3}\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;
/** A line that introduces what follows it ("The perks include:"), emphasis markers aside. */
const LEADS_IN = /:[*_]*$/;
/** A paragraph that is one bold line ("**Submitting receipts**") is a heading in all but markup. */
const BOLD_LINE = /^[ \t]*(\*\*|__)\S.*\1[ \t]*$/;

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
function parseSections(body: string, lines: readonly Line[]): Section[] {
  const sections: Section[] = [];
  const stack: { level: number; text: string }[] = [];
  let current: Section = { path: [], start: 0, end: body.length, firstLine: 0, endLine: 0, headingLines: 0 };
  let fence: string | null = null;

  const open = (level: number, text: string, lineIndex: number, headingLines: number) => {
    while (stack.length > 0 && stack[stack.length - 1]!.level >= level) stack.pop();
    stack.push({ level, text });
    const start = lines[lineIndex]!.start;
    current.end = start;
    current.endLine = lineIndex;
    if (current.end > current.start) sections.push(current);
    current = {
      path: stack.map((entry) => entry.text),
      start,
      end: body.length,
      firstLine: lineIndex,
      endLine: lines.length,
      headingLines,
    };
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
      open(atx[1]!.length, atx[2]!.trim(), i, 1);
      continue;
    }
    const next = lines[i + 1];
    const previous = lines[i - 1];
    const startsParagraph = !previous || previous.text.trim() === '';
    if (next && startsParagraph && line.text.trim() && SETEXT_UNDERLINE.test(next.text)) {
      open(next.text.trim().startsWith('=') ? 1 : 2, line.text.trim(), i, 2);
      i++;
    }
  }
  current.end = body.length;
  current.endLine = lines.length;
  sections.push(current);
  return sections;
}

type BlockKind = 'heading' | 'paragraph' | 'item' | 'code' | 'table';

interface Block extends Span {
  kind: BlockKind;
  /** Its lines, `[firstLine, endLine)` of the body's lines. */
  firstLine: number;
  endLine: number;
  /** The end of the run this block introduces: a heading, a bold line or one ending in ':' goes with the next. */
  groupEnd: number;
  /** A table's header row (a Markdown table's with its delimiter row), repeated above rows in later chunks. */
  header?: Span;
}

const isBlank = (line: Line) => line.text.trim() === '';
const tabCells = (line: Line) => line.text.split('\t').map((cell) => cell.trim());

/**
 * The blocks of a section: its heading, then paragraphs, list items (with their continuation lines), fenced code
 * blocks, Markdown pipe tables and tab-separated tables (the form the parsers give HTML and Word tables).
 */
function parseBlocks(lines: readonly Line[], section: Section): Block[] {
  const blocks: Block[] = [];
  const { endLine } = section;
  const add = (kind: BlockKind, first: number, end: number, header?: Span) => {
    blocks.push({
      kind,
      start: lines[first]!.start,
      end: lines[end - 1]!.end,
      firstLine: first,
      endLine: end,
      groupEnd: lines[end - 1]!.end,
      ...(header ? { header } : {}),
    });
  };
  const pipeTableAt = (i: number) =>
    i + 1 < endLine &&
    lines[i]!.text.includes('|') &&
    lines[i + 1]!.text.includes('|') &&
    PIPE_DELIMITER.test(lines[i + 1]!.text);
  const tabTableAt = (i: number) =>
    i + 1 < endLine && lines[i]!.text.includes('\t') && lines[i + 1]!.text.includes('\t');
  const startsBlock = (i: number) =>
    FENCE.test(lines[i]!.text) || LIST_ITEM.test(lines[i]!.text) || pipeTableAt(i) || tabTableAt(i);

  let i = section.firstLine;
  if (section.headingLines > 0) {
    add('heading', i, i + section.headingLines);
    i += section.headingLines;
  }
  while (i < endLine) {
    const first = i;
    const line = lines[i]!;
    if (isBlank(line)) {
      i++;
      continue;
    }
    const fence = FENCE.exec(line.text);
    if (fence) {
      i++;
      while (i < endLine && !FENCE.exec(lines[i]!.text)?.[1]!.startsWith(fence[1]!)) i++;
      i = Math.min(i + 1, endLine);
      add('code', first, i);
    } else if (pipeTableAt(i)) {
      i += 2;
      while (i < endLine && !isBlank(lines[i]!) && lines[i]!.text.includes('|')) i++;
      add('table', first, i, { start: line.start, end: lines[first + 1]!.end });
    } else if (tabTableAt(i)) {
      i++;
      while (i < endLine && lines[i]!.text.includes('\t')) i++;
      add('table', first, i, isHeaderRow(tabCells(line)) ? { start: line.start, end: line.end } : undefined);
    } else {
      const kind = LIST_ITEM.test(line.text) ? 'item' : 'paragraph';
      i++;
      while (i < endLine && !isBlank(lines[i]!) && !startsBlock(i)) i++;
      add(kind, first, i);
    }
  }
  for (let b = blocks.length - 2; b >= 0; b--) {
    const block = blocks[b]!;
    const last = lines[block.endLine - 1]!.text.trimEnd();
    const leadsIn =
      block.kind === 'heading' ||
      ((block.kind === 'paragraph' || block.kind === 'item') && LEADS_IN.test(last)) ||
      (block.kind === 'paragraph' && block.endLine - block.firstLine === 1 && BOLD_LINE.test(last));
    if (leadsIn) block.groupEnd = blocks[b + 1]!.groupEnd;
  }
  return blocks;
}

const SENTENCE_END = /[.!?…][)"'’”\]*_]*(?=\s)|[。！？][)"'’”\]」』]*/g;
/** Words whose full stop does not end a sentence. */
const ABBREVIATIONS = new Set('mr mrs ms dr prof sr jr st vs etc cf al fig approx'.split(' '));

/** Whether the full stop at `dot` ends an abbreviation ("e.g.", "U.S.", "Dr.", an initial) rather than a sentence. */
function isAbbreviation(text: string, dot: number): boolean {
  // an ellipsis ("wait...") ends a sentence as a full stop does
  if (text[dot - 1] === '.') return false;
  let from = dot;
  while (from > 0 && /[\p{L}.]/u.test(text[from - 1]!)) from--;
  const word = text.slice(from, dot);
  if (word === '') return false;
  return (
    word.includes('.') || (word.length === 1 && /\p{L}/u.test(word)) || ABBREVIATIONS.has(word.toLowerCase())
  );
}

function trimmedSpan(body: string, from: number, to: number): Span | null {
  while (from < to && /\s/.test(body[from]!)) from++;
  while (to > from && /\s/.test(body[to - 1]!)) to--;
  return to > from ? { start: from, end: to } : null;
}

/** The sentences of `body[start, end)`, across its line breaks, trimmed. */
function sentences(body: string, start: number, end: number): Span[] {
  const text = body.slice(start, end);
  const spans: Span[] = [];
  let from = 0;
  SENTENCE_END.lastIndex = 0;
  for (let match = SENTENCE_END.exec(text); match; match = SENTENCE_END.exec(text)) {
    if (match[0][0] === '.' && isAbbreviation(text, match.index)) continue;
    const to = match.index + match[0].length;
    const span = trimmedSpan(body, start + from, start + to);
    if (span) spans.push(span);
    from = to;
  }
  const rest = trimmedSpan(body, start + from, end);
  if (rest) spans.push(rest);
  return spans;
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

/** The words and word trigrams of a chunk, hashed and sorted, to find a later chunk that repeats it. */
interface Fingerprint {
  words: Int32Array;
  shingles: Int32Array;
}

const WORD = /[\p{L}\p{N}]+/gu;
/** Chunks of fewer words are never merged: too little text to call a repeat, and cheap to keep. */
const MIN_DUPLICATE_WORDS = 12;
/** Share of word trigrams two chunks must have in common (Jaccard) to be near-duplicates. */
const DUPLICATE_SIMILARITY = 0.8;
/** Seeds of the min-hashes that propose an earlier chunk to compare with. */
const MIN_HASH_SEEDS = [0x2545f491, 0x9e3779b9, 0x85ebca6b, 0xc2b2ae35];
/** Earlier chunks remembered per document, so a huge document costs bounded memory. */
const MAX_REMEMBERED_CHUNKS = 1000;

function hashWord(word: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) hash = Math.imul(hash ^ word.charCodeAt(i), 0x01000193);
  return hash | 0;
}

function sortedUnique(values: number[]): Int32Array {
  const sorted = Int32Array.from(values).sort();
  let size = 0;
  for (let i = 0; i < sorted.length; i++)
    if (i === 0 || sorted[i] !== sorted[size - 1]) sorted[size++] = sorted[i]!;
  return sorted.slice(0, size);
}

function fingerprintOf(text: string): Fingerprint | null {
  const words = (text.toLowerCase().match(WORD) ?? []).map(hashWord);
  if (words.length < MIN_DUPLICATE_WORDS) return null;
  const shingles: number[] = [];
  for (let i = 0; i + 2 < words.length; i++) {
    shingles.push(
      Math.imul(Math.imul(words[i]! ^ 0x811c9dc5, 0x01000193) ^ words[i + 1]!, 0x01000193) ^ words[i + 2]!,
    );
  }
  return { words: sortedUnique(words), shingles: sortedUnique(shingles) };
}

function sharedCount(a: Int32Array, b: Int32Array): number {
  let shared = 0;
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    if (a[i] === b[j]) {
      shared++;
      i++;
      j++;
    } else if (a[i]! < b[j]!) i++;
    else j++;
  }
  return shared;
}

function minHash(values: Int32Array, seed: number): number {
  let min = Infinity;
  for (const value of values) {
    let mixed = Math.imul(value ^ seed, 0x9e3779b1);
    mixed ^= mixed >>> 15;
    if (mixed < min) min = mixed;
  }
  return min;
}

/**
 * The chunks of one document seen so far. A chunk is a near-duplicate of an earlier one when they share most of
 * their word trigrams and it holds no word the earlier one lacks: dropping it loses no search term, so a repeated
 * disclaimer, a quoted e-mail or a copied section is found, cited and sent to a model once. Candidates come from
 * min-hashes of the trigrams (equal for similar sets with high probability); each is then checked exactly.
 */
class SeenChunks {
  readonly #remembered: Fingerprint[] = [];
  readonly #byMinHash = MIN_HASH_SEEDS.map(() => new Map<number, number>());

  /** True when `text` nearly repeats a chunk seen before; otherwise it is remembered. */
  repeats(text: string): boolean {
    const fingerprint = fingerprintOf(text);
    if (!fingerprint || fingerprint.shingles.length === 0) return false;
    const hashes = MIN_HASH_SEEDS.map((seed) => minHash(fingerprint.shingles, seed));
    for (let k = 0; k < hashes.length; k++) {
      const earlier = this.#byMinHash[k]!.get(hashes[k]!);
      if (earlier !== undefined && this.#nearlyRepeats(fingerprint, this.#remembered[earlier]!)) return true;
    }
    if (this.#remembered.length < MAX_REMEMBERED_CHUNKS) {
      const index = this.#remembered.push(fingerprint) - 1;
      hashes.forEach((hash, k) => {
        if (!this.#byMinHash[k]!.has(hash)) this.#byMinHash[k]!.set(hash, index);
      });
    }
    return false;
  }

  #nearlyRepeats(later: Fingerprint, earlier: Fingerprint): boolean {
    const shared = sharedCount(later.shingles, earlier.shingles);
    const union = later.shingles.length + earlier.shingles.length - shared;
    return (
      shared / union >= DUPLICATE_SIMILARITY && sharedCount(later.words, earlier.words) === later.words.length
    );
  }
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
  const blockFill = Math.floor(maxTokens * BLOCK_FILL_FRACTION);
  const seen = new SeenChunks();
  let ord = 0;
  // the chunk being built: its slice (start -1 when empty), section path, and the table header it repeats
  let pendingStart = -1;
  let pendingEnd = -1;
  let pendingPath: string[] = [];
  let pendingHeader: Span | null = null;
  let pendingHeadingsOnly = false;

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
  // prefix sums of the per-character cost (multiples of 1/4, so exact): any slice's estimate in O(1)
  const costUpTo = new Float64Array(body.length + 1);
  for (let i = 0; i < body.length; i++) costUpTo[i + 1] = costUpTo[i]! + charCost(body.charCodeAt(i));
  const sliceTokens = (start: number, end: number) => Math.ceil(costUpTo[end]! - costUpTo[start]!);
  // the header line(s) and the line break after them
  const headerTokens = (header: Span) => sliceTokens(header.start, header.end) + 1;
  const pendingBudget = () => budgetFor(pendingPath) - (pendingHeader ? headerTokens(pendingHeader) : 0);
  const pendingTokens = (end: number) => (pendingStart < 0 ? 0 : sliceTokens(pendingStart, end));

  const flush = (): Chunk | null => {
    if (pendingStart < 0) return null;
    const prefix = chunkPrefix(title, pendingPath, maxTokens);
    const header = pendingHeader ? `${body.slice(pendingHeader.start, pendingHeader.end)}\n` : '';
    const slice = body.slice(pendingStart, pendingEnd);
    const chunk = { start: pendingStart, end: pendingEnd, sectionPath: prefix.sectionPath };
    pendingStart = -1;
    pendingHeader = null;
    // the title is every chunk's, so only the path, header and slice tell two chunks apart
    if (seen.repeats(`${formatSectionPath(chunk.sectionPath)}\n${header}${slice}`)) return null;
    const text = prefix.text + header + slice;
    return { ord: ord++, ...chunk, text, tokenCount: estimateTokens(text) };
  };

  const lines = splitLines(body);
  for (const section of parseSections(body, lines)) {
    if (pendingStart >= 0) {
      if (pendingTokens(pendingEnd) >= minStandalone) {
        const chunk = flush();
        if (chunk) yield chunk;
      } else {
        // headings alone have no text of their own: the chunk is about the section they lead to
        pendingPath = pendingHeadingsOnly ? section.path : commonPrefix(pendingPath, section.path);
      }
    }
    for (const block of parseBlocks(lines, section)) {
      const header =
        block.header && headerTokens(block.header) <= budgetFor(section.path) * MAX_HEADER_FRACTION
          ? block.header
          : null;
      // a piece must fit alone under either path it may end up with, beside the header a table row brings
      const pathBudget = Math.min(budgetFor(pendingPath), budgetFor(section.path));
      const rowBudget = pathBudget - (header ? headerTokens(header) : 0);
      const units = unitsOf(body, lines, block, pathBudget);
      const leadsIn = block.groupEnd > block.end;
      for (const [u, unit] of units.entries()) {
        // a full enough chunk ends before a block, or before the line that introduces the next one, that does
        // not fit; a code block that fits a chunk alone always starts one
        if (pendingStart >= 0 && (u === 0 || (leadsIn && u === units.length - 1))) {
          if (pendingTokens(block.groupEnd) > pendingBudget()) {
            const codeFitsAlone = block.kind === 'code' && units.length === 1;
            if (codeFitsAlone || pendingTokens(pendingEnd) >= blockFill) {
              const chunk = flush();
              if (chunk) yield chunk;
            }
          }
        }
        const isRow = header !== null && unit.start >= header.end;
        const budget = isRow ? rowBudget : pathBudget;
        const pieces = sliceTokens(unit.start, unit.end) > budget ? splitUnit(body, unit, budget) : [unit];
        for (const piece of pieces) {
          if (pendingStart >= 0 && pendingTokens(piece.end) > pendingBudget()) {
            const chunk = flush();
            if (chunk) yield chunk;
          }
          if (pendingStart < 0) {
            pendingStart = piece.start;
            pendingPath = section.path;
            pendingHeader = isRow ? header : null;
            pendingHeadingsOnly = true;
          }
          if (block.kind !== 'heading') pendingHeadingsOnly = false;
          pendingEnd = piece.end;
        }
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

/**
 * The units a block may be cut between: a heading whole; a paragraph's or list item's sentences; a table's
 * header and rows; a code block whole when it fits a chunk, else its lines.
 */
function unitsOf(body: string, lines: readonly Line[], block: Block, budget: number): Span[] {
  switch (block.kind) {
    case 'paragraph':
    case 'item':
      return sentences(body, block.start, block.end);
    case 'code':
      if (estimateTokens(body.slice(block.start, block.end)) <= budget) return [block];
      return lineSpans(body, lines, block.firstLine, block.endLine);
    case 'table': {
      const headerEnd = block.header?.end ?? block.start;
      const rows = lineSpans(body, lines, block.firstLine, block.endLine).filter(
        (row) => row.start >= headerEnd,
      );
      return block.header ? [block.header, ...rows] : rows;
    }
    case 'heading': {
      const span = trimmedSpan(body, block.start, block.end);
      return span ? [span] : [];
    }
  }
}

function lineSpans(body: string, lines: readonly Line[], first: number, end: number): Span[] {
  const spans: Span[] = [];
  for (let i = first; i < end; i++) {
    const span = trimmedSpan(body, lines[i]!.start, lines[i]!.end);
    if (span) spans.push(span);
  }
  return spans;
}

/** A unit longer than a chunk: cut at its line breaks, and a line still too long at whitespace. */
function splitUnit(body: string, unit: Span, budget: number): Span[] {
  const pieces: Span[] = [];
  let lineStart = unit.start;
  while (lineStart < unit.end) {
    const newline = body.indexOf('\n', lineStart);
    const lineEnd = newline === -1 || newline >= unit.end ? unit.end : newline;
    const line = trimmedSpan(body, lineStart, lineEnd);
    if (line) pieces.push(...splitLongSpan(body, line, budget));
    lineStart = lineEnd + 1;
  }
  return pieces;
}
