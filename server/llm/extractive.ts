/**
 * The extractive answerer (DESIGN §6): with no model configured Scout still answers, from the best passages. A short
 * lead sentence, then for each source (best first, one slot per document) its title and the few whole sentences,
 * list items or table rows of it that answer the question, quoted as clean Markdown and cited [n] (n is the first
 * passage of that document, 1-based, as citations.ts expects), then a plain statement that no AI model is configured.
 *
 * A sentence is scored against the question with the search's own BM25 (ranking.ts), over the quoted sentences as
 * the collection: the question's content words, stemmed alike on both sides, weighted by how rare they are among
 * the sentences; the heading a sentence sits under, and its document's title, count as the title does in search.
 * Words of the question that stay together in the sentence earn a phrase bonus, and a question asking for an
 * amount, a duration or a date prefers the sentences that state one.
 */
import { scopeNotices } from '../../common/strings';
import { asksForQuantity, mentionsQuantity, NUMBER } from '../chat/answer-kind';
import type { Passage } from '../chat/passages';
import { averageLength, idf, scoreChunk, type CollectionStats, type QueryTerm } from '../search/ranking';
import { wordsOf } from '../search/snippets';

export const NO_MODEL_NOTICE =
  'No AI model is configured on this Scout server, so this answer quotes the most relevant passages.';
export const NO_MODEL_NOTHING_FOUND =
  'No AI model is configured on this Scout server, so answers quote the most relevant passages, and none matched.';
export const NO_MODEL_AI_ONLY = scopeNotices.NO_MODEL_FOR_AI_ONLY;

/** Sources quoted: at least MIN when there are that many, at most MAX, the rest only while close to the best. */
const MIN_QUOTED = 3;
const MAX_QUOTED = 5;
const CLOSE_TO_BEST = 0.3;
/** Sentences quoted per source: its best, and the next best while at least this share of the answer's best. */
const UNITS_PER_SOURCE = 3;
const UNIT_FLOOR = 0.3;
/** List items a quoted sentence ending in ':' brings along: the list it introduces is its answer. */
const LIST_ITEMS = 3;
/** When nothing matches the question's words, the first sentences of the top sources (retrieval matched them). */
const LEADING_UNITS = 2;
/** Two question words at most this many words apart, in the question's order, count as a phrase. */
const PHRASE_WINDOW = 3;
const PHRASE_WEIGHT = 0.5;
/**
 * A question asking for an amount, duration or date: a sentence stating one scores this many times more, and more
 * still when the number is of what was asked ("16 weeks" for "how many weeks"); one that states none can only
 * restate the question.
 */
const QUANTITY_FACTOR = 4;
const ASKED_QUANTITY_FACTOR = 6;
/** The sentence after a matching one often completes it ("… needs approval. Ask your manager."): it shares this. */
const NEXT_SENTENCE_SHARE = 0.3;
/** A sentence that is itself a question (an FAQ's) repeats what was asked rather than answering it. */
const QUESTION_FACTOR = 0.5;
/**
 * A passage at least this long may have been cut to a budget, so its last sentence is quoted only if it visibly
 * ends; a shorter one is a whole document or chunk, whose last line is whole even without a full stop.
 */
const LONG_PASSAGE_CHARS = 2000;
/** How retrieval joins the chunks of one passage. */
const CHUNK_JOINER = /\n…\n/;

export type ExtractivePassage = Pick<Passage, 'id' | 'title' | 'snippet' | 'text'>;

/**
 * Each word's lexemes as the index stems it (lower-cased word → lexemes, none for a stop word): built by the caller
 * with `lexemesOfWords` over `wordsToStem`, so the answer matches the question's words exactly as the search did.
 */
export type Lexicon = ReadonlyMap<string, readonly string[]>;

/** The distinct words of the question and the passages, lower-cased: what the lexicon must hold. */
export function wordsToStem(question: string, passages: readonly ExtractivePassage[]): string[] {
  const words = new Set<string>();
  for (const text of [question, ...passages.map((passage) => passage.text)])
    for (const { word } of wordsOf(text)) words.add(word.toLowerCase());
  return [...words];
}

/** Whether two lexemes are one word: equal, or one a long enough prefix of the other ("approv" of "approval"). */
function sameWord(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  return short.length >= 5 && long.startsWith(short);
}

type UnitKind = 'sentence' | 'item' | 'row' | 'code';

/** A quotable piece of a document: a whole sentence, a list item's sentence, a table row, or a line of code. */
type Unit = {
  kind: UnitKind;
  /** Clean inline Markdown (a row: its cells joined, for scoring). */
  text: string;
  /** A row's cells, and its table's header cells (null when the table has none). */
  cells: string[];
  header: string[] | null;
  /** The heading it sits under ('' for none) and every heading above it, for scoring. */
  heading: string;
  context: string;
  /** Its paragraph, list item or table, and its place in the answer's passages. */
  block: string;
  order: number;
  /** The first sentence of its list item (rendered with the bullet). */
  opensItem: boolean;
};

/** An HTML tag, with any attributes ("<br>", "</details>", '<a href="…">', "<unlink>"); code spans are never cleaned. */
const HTML_TAG = /<\/?[a-z][a-z0-9-]*(?:\s+[a-z-]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'<>]+))?)*\s*\/?>/gi;

/** Page Markdown of one line as clean inline text: no link targets, emphasis, HTML or alert markers. */
function cleanProse(text: string): string {
  return (
    text
      .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/\[([^\]]+)\]\((?:[^()]|\([^)]*\))*\)/g, '$1')
      .replace(/\[([^\]]+)\]\[[^\]]*\]/g, '$1')
      .replace(/<((?:https?|mailto):[^<>\s]+)>/g, '$1')
      .replace(/<!--.*?-->/g, ' ')
      .replace(/<br\s*\/?>/gi, ' ')
      .replace(HTML_TAG, '')
      .replace(/\[!(?:NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]/gi, '')
      .replace(/\*\*|__|~~|(?<![\p{L}\p{N}])[*_]+|[*_]+(?![\p{L}\p{N}])/gu, '')
      // a bracketed number in a quote would read as one of the answer's citations
      .replace(/\[(\s*\d{1,3}\s*(?:,\s*\d{1,3}\s*)*)\]/g, '($1)')
  );
}

function cleanInline(text: string): string {
  return text
    .split(/(`[^`\n]*`)/)
    .map((part, i) => (i % 2 === 1 ? part : cleanProse(part)))
    .join('')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A quoted line must not read as a block of its own (a list, heading or quote) where it is a sentence. */
function escapeLineStart(text: string): string {
  return text.replace(/^([-+*>#]|\d+[.)])(?=\s|$)/, '\\$1');
}

const ABBREVIATIONS = new Set(
  'e.g i.e etc vs cf approx incl esp dept fig mr mrs ms dr st jr sr inc ltd co corp jan feb mar apr jun jul aug sep sept oct nov dec'.split(
    ' ',
  ),
);
/** The end of a sentence: its mark, closing quotes or brackets, then space and what a sentence starts with. */
const SENTENCE_BREAK = /([.!?…])(["'’”)\]]*)\s+(?=["“'‘([$`\p{Lu}\p{N}])/gu;

function splitSentences(text: string): string[] {
  const sentences: string[] = [];
  let from = 0;
  for (const match of text.matchAll(SENTENCE_BREAK)) {
    const end = match.index + match[1]!.length + match[2]!.length;
    if (match[1] === '.') {
      const word = /([\p{L}.]+)$/u.exec(text.slice(from, match.index))?.[1]?.toLowerCase() ?? '';
      // "e.g. The", "U.S. Army", "J. Smith": not an end
      if (ABBREVIATIONS.has(word) || /^(?:\p{L}\.)*\p{L}$/u.test(word)) continue;
    }
    sentences.push(text.slice(from, end).trim());
    from = match.index + match[0].length;
  }
  sentences.push(text.slice(from).trim());
  return sentences.filter(Boolean);
}

const ATX_HEADING = /^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/;
const SETEXT_UNDERLINE = /^\s{0,3}(?:=+|-+)\s*$/;
const RULE = /^\s{0,3}(?:[-*_]\s*){3,}$/;
const FENCE = /^\s*(`{3,}|~{3,})/;
const LIST_ITEM = /^\s*(?:[-*+]|\d{1,3}[.)])\s+(.*)$/;
const TABLE_DELIMITER = /^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$/;
const BOLD_LINE = /^\s*(?:\*\*|__)([^*_]+)(?:\*\*|__)\s*:?\s*$/;
const TERMINAL = /[.!?…:;)"'’”]$/;
const LABEL_LINE = /^\p{Lu}[\p{L}\p{N} ]{0,30}:\s/u;

function cellsOf(line: string): string[] {
  return line
    .trim()
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '')
    .split(/(?<!\\)\|/)
    .map(cleanInline);
}

type Block = {
  kind: 'paragraph' | 'item' | 'table' | 'code';
  lines: string[];
  heading: string;
  context: string;
  header: string[] | null;
  /** First in its chunk, before any heading: it may continue a sentence of the chunk before. */
  opensChunk: boolean;
};

/** The blocks of one chunk of a passage, whose first lines may be the chunker's title and section path. */
function blocksOfChunk(title: string, chunk: string): Block[] {
  let lines = chunk.split('\n');
  let path: string[] = [];
  const prefixEnd = lines.findIndex((line) => line.trim() === '');
  if (title.trim() && lines[0]?.trim() === title.trim() && prefixEnd > 0) {
    path = lines
      .slice(1, prefixEnd)
      .join(' ')
      .split(' > ')
      .map((part) => cleanInline(part.replace(/^#+\s*/, '')).replace(/:$/, ''))
      .filter(Boolean);
    lines = lines.slice(prefixEnd + 1);
  }
  let heading = path.at(-1) ?? '';
  const context = () => [title, ...path, heading].join(' ');
  const blocks: Block[] = [];
  let current: Block | null = null;
  let fence: string | null = null;
  let sawHeading = false;
  const open = (kind: Block['kind'], line: string, header: string[] | null = null) => {
    current = { kind, lines: [line], heading, context: context(), header, opensChunk: !sawHeading };
    blocks.push(current);
  };
  const setHeading = (text: string) => {
    heading = cleanInline(text).replace(/:$/, '');
    sawHeading = true;
    current = null;
  };
  lines.forEach((rawLine) => {
    const line = rawLine.replace(/^\s{0,3}(?:>\s?)+/, '');
    const fenceMatch = FENCE.exec(line);
    if (fence !== null) {
      if (fenceMatch && fenceMatch[1]!.startsWith(fence)) fence = null;
      else if (line.trim()) open('code', line.trim());
      return;
    }
    if (fenceMatch) {
      fence = fenceMatch[1]!;
      current = null;
      return;
    }
    if (!line.trim()) {
      current = null;
      return;
    }
    const atx = ATX_HEADING.exec(line);
    if (atx) return setHeading(atx[1]!);
    const block = current as Block | null;
    if (SETEXT_UNDERLINE.test(line) && block?.kind === 'paragraph' && block.lines.length === 1) {
      blocks.pop();
      return setHeading(block.lines[0]!);
    }
    if (RULE.test(line)) {
      current = null;
      return;
    }
    const bold = BOLD_LINE.exec(line);
    if (bold && !block) return setHeading(bold[1]!);
    if (line.trim().startsWith('|')) {
      if (TABLE_DELIMITER.test(line)) {
        // the row above was the header
        if (block?.kind === 'table' && block.header === null && block.lines.length === 1) {
          block.header = cellsOf(block.lines[0]!);
          block.lines = [];
        }
        return;
      }
      if (block?.kind === 'table') block.lines.push(line);
      else open('table', line, null);
      return;
    }
    const item = LIST_ITEM.exec(line);
    if (item && !TABLE_DELIMITER.test(line)) {
      open('item', item[1]!);
      return;
    }
    const continues = block && (block.kind === 'paragraph' || block.kind === 'item');
    // "Label: value" lines are fields of their own, not a paragraph wrapped over lines
    const field = LABEL_LINE.test(line.trim()) && !TERMINAL.test(block?.lines.at(-1) ?? '.');
    if (block && continues && !field) block.lines.push(line.trim());
    else open('paragraph', line.trim());
  });
  return blocks;
}

/** The quotable units of a passage, in order; sentences cut at a chunk's edges are left out. */
function unitsOf(passage: ExtractivePassage, passageIndex: number): Unit[] {
  const source = passage.text || passage.snippet;
  const chunks = source.split(CHUNK_JOINER);
  const units: Unit[] = [];
  chunks.forEach((chunk, c) => {
    const blocks = blocksOfChunk(passage.title, chunk);
    const chunkUnits: Unit[] = [];
    blocks.forEach((b, index) => {
      const block = `${passageIndex}.${c}.${index}`;
      const base = { heading: b.heading, context: b.context, block, header: b.header };
      if (b.kind === 'table') {
        for (const line of b.lines) {
          const cells = cellsOf(line);
          if (cells.every((cell) => !cell)) continue;
          chunkUnits.push({ ...base, kind: 'row', text: cells.join(' '), cells, order: 0, opensItem: false });
        }
        return;
      }
      if (b.kind === 'code') {
        const text = b.lines.join(' ').replaceAll('`', '');
        chunkUnits.push({ ...base, kind: 'code', text, cells: [], order: 0, opensItem: false });
        return;
      }
      const sentences = splitSentences(cleanInline(b.lines.join(' ')));
      // a chunk starting mid-sentence: its first words belong to the chunk before
      if (index === 0 && b.opensChunk && b.kind === 'paragraph' && /^\p{Ll}/u.test(sentences[0] ?? ''))
        sentences.shift();
      sentences.forEach((text, s) => {
        const kind = b.kind === 'item' ? 'item' : 'sentence';
        chunkUnits.push({ ...base, kind, text, cells: [], order: 0, opensItem: kind === 'item' && s === 0 });
      });
    });
    const last = chunkUnits.at(-1);
    const lastChunk = c === chunks.length - 1;
    const mayBeCut = !lastChunk || source.length >= LONG_PASSAGE_CHARS;
    if (last && mayBeCut && !endsWhole(last, lastChunk ? chunk : null)) chunkUnits.pop();
    units.push(...chunkUnits);
  });
  return units.filter((unit) => unit.text && unit.text.toLowerCase() !== passage.title.trim().toLowerCase());
}

/** Whether the last unit of a chunk visibly ends (a cut chunk ends mid-sentence, or mid-word). */
function endsWhole(unit: Unit, chunk: string | null): boolean {
  if (unit.kind === 'row') return chunk === null || /\|\s*$/.test(chunk);
  if (unit.kind !== 'sentence') return chunk === null || TERMINAL.test(unit.text);
  return TERMINAL.test(unit.text);
}

type Question = { terms: string[]; quantity: boolean; lexicon: Lexicon };

function questionOf(question: string, lexicon: Lexicon): Question {
  const terms: string[] = [];
  for (const { word } of wordsOf(question))
    for (const lexeme of lexicon.get(word.toLowerCase()) ?? [])
      if (!terms.includes(lexeme)) terms.push(lexeme);
  return { terms, quantity: asksForQuantity(question), lexicon };
}

/** Positions of each question term among a text's words. */
function positionsOf(text: string, question: Question): Map<string, number[]> {
  const positions = new Map<string, number[]>();
  wordsOf(text).forEach(({ word }, position) => {
    const lexemes = question.lexicon.get(word.toLowerCase()) ?? [];
    for (const term of question.terms) {
      if (lexemes.some((lexeme) => sameWord(lexeme, term)))
        positions.set(term, [...(positions.get(term) ?? []), position]);
    }
  });
  return positions;
}

type Placed = Unit & { documentId: string };
type Scored = Placed & { score: number };

/** Scores every unit against the question, with the units themselves as the collection. */
function scoreUnits(question: Question, units: readonly Placed[]): Scored[] {
  const found = units.map((unit) => {
    const words = wordsOf(unit.text);
    return {
      body: positionsOf(unit.text, question),
      context: positionsOf(unit.header ? `${unit.context} ${unit.header.join(' ')}` : unit.context, question),
      numbers: words.flatMap(({ word }, position) => (NUMBER.test(word) ? [position] : [])),
      length: words.length,
    };
  });
  const stats: CollectionStats = {
    chunkCount: units.length,
    totalLength: found.reduce((sum, f) => sum + f.length, 0),
  };
  const terms: QueryTerm[] = question.terms.map((lexeme) => ({
    lexeme,
    weight: 1,
    original: true,
    idf: idf(found.filter((f) => f.body.has(lexeme)).length, stats),
  }));
  const idfOf = new Map(terms.map((term) => [term.lexeme, term.idf]));
  const avgLength = averageLength(stats);
  const scored = units.map((unit, i): Scored => {
    const { body, context, numbers, length } = found[i]!;
    let score = scoreChunk(
      {
        chunkId: String(unit.order),
        documentId: unit.documentId,
        length,
        termFreqs: Object.fromEntries([...body].map(([term, at]) => [term, at.length])),
        titleTerms: [...context.keys()],
        modifiedTime: null,
      },
      terms,
      avgLength,
    );
    for (let t = 1; t < question.terms.length; t++) {
      const [a, b] = [question.terms[t - 1]!, question.terms[t]!];
      const near = body.get(a)?.some((p) => body.get(b)?.some((q) => q > p && q - p <= PHRASE_WINDOW));
      if (near) score += PHRASE_WEIGHT * Math.min(idfOf.get(a)!, idfOf.get(b)!);
    }
    if (question.quantity && mentionsQuantity(unit.text)) {
      const asked = [...body.values()].some((at) =>
        at.some((p) => numbers.some((n) => p - n >= 1 && p - n <= 2)),
      );
      score *= asked ? ASKED_QUANTITY_FACTOR : QUANTITY_FACTOR;
    }
    if (unit.text.endsWith('?')) score *= QUESTION_FACTOR;
    return { ...unit, score };
  });
  return scored.map((unit, i) => {
    const previous = scored[i - 1];
    const continues = previous?.block === unit.block && (unit.kind === 'sentence' || unit.kind === 'item');
    return continues ? { ...unit, score: unit.score + NEXT_SENTENCE_SHARE * previous.score } : unit;
  });
}

type DocumentUnits = { title: string; cite: number; rank: number; units: Unit[] };
type Source = Omit<DocumentUnits, 'units'> & { units: Scored[]; best: number };

/** One slot per document: its passages' units together, cited as its first passage. */
function sourcesOf(question: Question, passages: readonly ExtractivePassage[]): Source[] {
  const byDocument = new Map<string, DocumentUnits>();
  let order = 0;
  passages.forEach((passage, index) => {
    const entry: DocumentUnits = byDocument.get(passage.id) ?? {
      title: passage.title,
      cite: index + 1,
      rank: byDocument.size,
      units: [],
    };
    byDocument.set(passage.id, entry);
    // passages of one document may overlap
    const fresh = unitsOf(passage, index).filter(
      (unit) => !entry.units.some((seen) => seen.text === unit.text),
    );
    entry.units.push(...fresh.map((unit) => ({ ...unit, order: order++ })));
  });
  const all = [...byDocument].flatMap(([documentId, entry]) =>
    entry.units.map((unit) => ({ ...unit, documentId })),
  );
  const scored = scoreUnits(question, all);
  return [...byDocument].map(([id, entry]) => {
    const units = scored.filter((unit) => unit.documentId === id);
    return {
      title: entry.title,
      cite: entry.cite,
      rank: entry.rank,
      units,
      best: Math.max(0, ...units.map((unit) => unit.score)),
    };
  });
}

/** The units of a source to quote, in document order: its best, and the next best above the answer's floor. */
function chosenUnits(source: Source, floor: number): Scored[] {
  const best = source.units
    .filter((unit) => unit.score > 0)
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .filter((unit, i) => i === 0 || unit.score >= floor)
    .slice(0, UNITS_PER_SOURCE);
  const chosen = new Set(best);
  // a sentence ending in ':' (or "as follows", with no stop at all) introduces the list after it
  const introduces = (unit: Scored) =>
    unit.text.endsWith(':') || (unit.kind === 'sentence' && !TERMINAL.test(unit.text));
  for (const intro of best.filter(introduces)) {
    const after = source.units.filter((next) => next.order > intro.order);
    const end = after.findIndex((next) => next.kind !== 'item');
    const list = end < 0 ? after : after.slice(0, end);
    for (const item of list.filter((next) => next.opensItem).slice(0, LIST_ITEMS)) chosen.add(item);
  }
  return [...chosen].sort((a, b) => a.order - b.order);
}

function headingLine(heading: string): string {
  return `**${heading}**`;
}

function tableOf(rows: readonly Scored[], marker: string): string[] {
  const header = rows[0]!.header!;
  const width = Math.max(header.length, ...rows.map((row) => row.cells.length));
  const line = (cells: readonly string[]) =>
    `| ${Array.from({ length: width }, (_, i) => (cells[i] ?? '').replace(/\|/g, '\\|')).join(' | ')} |`;
  return [
    line(header),
    `| ${Array.from({ length: width }, () => '---').join(' | ')} |`,
    ...rows.map((row) =>
      line(row.cells.map((cell, i) => (i === row.cells.length - 1 ? `${cell} ${marker}` : cell))),
    ),
  ];
}

/**
 * A source's quote: runs of neighbouring units of one paragraph or list item read as one, each unit cited; a
 * heading above a run becomes its bold lead-in (never heading markup); table rows are quoted under their header.
 */
function quoteOf(source: Source, units: readonly Scored[]): string {
  const marker = `[${source.cite}]`;
  const runs: Scored[][] = [];
  for (const unit of units) {
    const run = runs.at(-1);
    const previous = run?.at(-1);
    const continues =
      previous &&
      previous.block === unit.block &&
      (unit.kind === 'row' ? previous.kind === 'row' : unit.order === previous.order + 1);
    if (run && continues) run.push(unit);
    else runs.push([unit]);
  }
  const paragraphs: string[][] = [];
  let shownHeading = '';
  let previousListed = false;
  const title = source.title.trim().toLowerCase();
  for (const run of runs) {
    const first = run[0]!;
    const heading = first.heading && first.heading.toLowerCase() !== title ? first.heading : '';
    const lead = heading && heading !== shownHeading ? heading : '';
    shownHeading = heading || shownHeading;
    const listed = first.opensItem;
    if (first.kind === 'row' && first.header) {
      if (lead) paragraphs.push([headingLine(lead)]);
      paragraphs.push(tableOf(run, marker));
    } else {
      const quoted = (unit: Scored) =>
        unit.kind === 'row'
          ? unit.cells.filter(Boolean).join('; ')
          : unit.kind === 'code'
            ? `\`${unit.text}\``
            : unit.text;
      const text = run.map((unit) => `${quoted(unit)} ${marker}`).join(' ');
      if (listed) {
        if (lead) paragraphs.push([headingLine(lead)]);
        const item = `- ${text}`;
        // neighbouring items of one list stay one list
        if (previousListed && !lead) paragraphs.at(-1)!.push(item);
        else paragraphs.push([item]);
      } else {
        const leadIn = lead ? `${headingLine(/[?!.]$/.test(lead) ? lead : `${lead}:`)} ` : '';
        paragraphs.push([`${leadIn}${leadIn ? text : escapeLineStart(text)}`]);
      }
    }
    previousListed = listed;
  }
  return paragraphs.map((lines) => lines.map((line) => `> ${line}`).join('\n')).join('\n>\n');
}

/** The sources to quote, best first, each with its units. */
function selection(
  question: string,
  passages: readonly ExtractivePassage[],
  lexicon: Lexicon,
): [Source, Scored[]][] {
  const sources = sourcesOf(questionOf(question, lexicon), passages);
  const matching = sources
    .filter((source) => source.best > 0)
    .sort((a, b) => b.best - a.best || a.rank - b.rank);
  if (matching.length > 0) {
    const top = matching[0]!.best;
    return matching
      .filter((source, i) => i < MIN_QUOTED || source.best >= top * CLOSE_TO_BEST)
      .slice(0, MAX_QUOTED)
      .map((source): [Source, Scored[]] => [source, chosenUnits(source, top * UNIT_FLOOR)])
      .filter(([, units]) => units.length > 0);
  }
  // no sentence holds a word of the question, yet the search matched these (a title, a heading path, a near word)
  return sources
    .slice(0, MIN_QUOTED)
    .map((source): [Source, Scored[]] => [source, source.units.slice(0, LEADING_UNITS)])
    .filter(([, units]) => units.length > 0);
}

/**
 * The answer's text in the pieces it is streamed in. Passage i (0-based) is cited as [i + 1]; `kind` says whether
 * there were sources to look in at all.
 */
export function extractiveAnswer(
  question: string,
  passages: readonly ExtractivePassage[],
  kind: 'sources' | 'ai-only',
  lexicon: Lexicon,
): string[] {
  if (kind === 'ai-only') return [NO_MODEL_AI_ONLY];
  const shown = question.length > 120 ? `${question.slice(0, 117)}…` : question;
  const quoted = passages.length > 0 ? selection(question, passages, lexicon) : [];
  if (quoted.length === 0) {
    return [
      `I couldn't find anything about “${shown}” in the sources you can read.\n\n`,
      NO_MODEL_NOTHING_FOUND,
    ];
  }
  const pieces = [
    quoted.length === 1
      ? `Here is the most relevant passage I found for “${shown}”:\n\n`
      : `Here are the ${quoted.length} most relevant passages I found for “${shown}”:\n\n`,
  ];
  for (const [source, units] of quoted) {
    pieces.push(`**${cleanInline(source.title) || 'Untitled'}**\n`);
    pieces.push(`${quoteOf(source, units)}\n\n`);
  }
  pieces.push(NO_MODEL_NOTICE);
  return pieces;
}
