/**
 * Search over an org's chunks (DESIGN §4): ACL, org and filters inside every query, BM25 ranking from either
 * engine (engines.ts) scored by one function (ranking.ts), one hit per document with its matching chunks, and
 * facet counts under the same conditions. Everything a `_search` call needs, in one read transaction.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Store, Tx } from '../db/store';
import { nearestChunks, prepareVectorQuery, withVectorSignal, type VectorQuery } from './embeddings';
import { lexemesOfWords } from './lexemes';
import { rankingStatistics, type RankingStatistics } from './statistics';
import {
  bm25TopChunks,
  ensureSearchIndexes,
  lexemeTsquery,
  proposeCandidates,
  selectiveText,
  type Candidates,
  type SearchEngine,
} from './engines';
import {
  averageLength,
  expandQuery,
  FEEDBACK_DOCS,
  feedbackVocabulary,
  idf,
  rankDocuments,
  type CandidateChunk,
  type CollectionStats,
  type QueryTerm,
  type RankedDocument,
} from './ranking';
import {
  chooseSnippet,
  HIGHLIGHT_START,
  HIGHLIGHT_STOP,
  likelyLexemes,
  readHighlights,
  SNIPPET_CHARS,
  wordsOf,
  type Snippet,
  type Span,
} from './snippets';

export const SEARCH_SORTS = [
  'relevance',
  'modified_newest',
  'modified_oldest',
  'created_newest',
  'created_oldest',
] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];

/** Conditions on documents; an absent or empty list does not restrict. */
export interface SearchFilters {
  sources?: readonly string[];
  connectionIds?: readonly string[];
  documentIds?: readonly string[];
  /** The "person" filter: authors' emails. */
  authorEmails?: readonly string[];
  fileTypes?: readonly string[];
  objectTypes?: readonly string[];
  /** Inclusive lower bound on the modified time (the spec's day/week/month/year ranges). */
  modifiedAfter?: Date | null;
  /** Exclusive upper bound on the modified time. */
  modifiedBefore?: Date | null;
}

export interface SearchRequest {
  orgId: string;
  /** The viewer's principals (`principalsFor`); none means nothing is readable. */
  principals: readonly string[];
  q: string;
  filters?: SearchFilters;
  /** Documents per page (default 10, at most MAX_LIMIT). */
  limit?: number;
  offset?: number;
  /** Default relevance; relevance with an empty query lists the newest documents. */
  sort?: SearchSort;
  /** Default: pg_textsearch where the store has it, else SQL. Tests and benchmarks force one. */
  engine?: SearchEngine;
  /** Pseudo-relevance feedback on relevance-sorted queries (default on). */
  feedback?: boolean;
  /** Count matching documents for `total` (default on; capped at TOTAL_CAP). */
  count?: boolean;
  /** Compute snippets and highlights (default on). */
  snippets?: boolean;
  /** The clock for the recency prior (tests). */
  now?: Date;
  /**
   * Facet fields to count under the request's own filters from the same ranked pass as the page (see
   * `facetCounts`): done where that pass is pg_textsearch's top-k of a relevance search, so one scan serves both;
   * otherwise `facets` is absent from the results and the caller counts them apart.
   */
  facets?: readonly FacetField[];
}

export interface SearchHitChunk {
  chunkId: string;
  score: number;
  start: number;
  end: number;
  sectionPath: string | null;
}

export interface SearchHit {
  documentId: string;
  /** The best chunk: the one the snippet comes from. */
  chunkId: string;
  score: number;
  title: string;
  url: string | null;
  source: string;
  connectionId: string | null;
  externalId: string;
  objectType: string | null;
  fileType: string | null;
  author: string | null;
  authorEmail: string | null;
  createdTime: Date | null;
  modifiedTime: Date | null;
  sectionPath: string | null;
  snippet: string;
  /** The snippet's place in the document body (UTF-16 offsets: `body.slice(start, end) === snippet`). */
  offsets: Span;
  /** Query words inside the snippet, as body offsets. */
  highlights: Span[];
  /** Every matching chunk of the document, best first (the first is `chunkId`). */
  chunks: SearchHitChunk[];
  /** Query words the document does not contain. */
  missingTerms: string[];
}

export interface SearchResults {
  hits: SearchHit[];
  /** Matching readable documents (at most TOTAL_CAP; -1 when not counted). */
  total: number;
  totalExact: boolean;
  hasMore: boolean;
  engine: SearchEngine;
  /** The query's lexemes (English stems, stop words removed). */
  terms: string[];
  /** Those of `terms` found in at least one chunk the search looked at: every one of them is readable. */
  matchedTerms: string[];
  /** Counts of the requested `facets`, when they came from the search's own pass. */
  facets?: Partial<Record<FacetField, FacetCount[]>>;
}

export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 1000;
export const MAX_OFFSET = 10_000;
export const TOTAL_CAP = 10_000;
/** Matching readable chunks that facet counts look at, at most (see `facetCounts`). */
export const FACET_DEPTH = 1_000;
/** Nearest chunks whose documents facet counts add when the vector signal is on (a first page's fusion depth). */
const VECTOR_FACET_DEPTH = 100;
/** Candidate chunks per result wanted, so one document's chunks cannot starve the page (min 100). */
const POOL_PER_RESULT = 5;
const MIN_POOL = 200;
const MAX_POOL = 20_000;

type Row = Record<string, unknown>;

const toDate = (value: unknown): Date | null => (value == null ? null : new Date(value as string | Date));
const toText = (value: unknown): string | null => (value == null ? null : String(value));
const clamp = (value: number, min: number, max: number) => Math.min(Math.max(Math.floor(value), min), max);

/**
 * Runs `work` in one read transaction (one snapshot for counts, ranking and hits). On a server without JIT (it
 * cost ~300 ms a query, DESIGN §3). Random reads priced as what they are on an in-memory PGlite or an SSD: at
 * the default 4.0 the planner filtered every readable chunk's tsvector (de-TOASTing each) rather than use the
 * GIN index, 86 ms instead of 19 ms for a one-word count on 27k chunks, measured.
 */
async function readTransaction<T>(store: Store, work: (tx: Tx) => Promise<T>): Promise<T> {
  return store.db.transaction(async (tx) => {
    if (store.kind === 'server') await tx.execute(sql`SET LOCAL jit = off`);
    await tx.execute(sql`SET LOCAL random_page_cost = 1.1`);
    return work(tx);
  });
}

async function chooseEngine(store: Store, wanted: SearchEngine | undefined): Promise<SearchEngine> {
  const bm25 = await ensureSearchIndexes(store);
  if (wanted === 'pg_textsearch' && !bm25)
    throw new Error('the pg_textsearch engine is not available on this store');
  return wanted ?? (bm25 ? 'pg_textsearch' : 'sql');
}

/** Org, ACL and filters as conditions on `c` (document_chunks). The ACL test uses the GIN index on `acl`. */
function chunkConditions(request: Pick<SearchRequest, 'orgId' | 'principals' | 'filters'>): SQL {
  const f = request.filters ?? {};
  const list = (values: readonly string[] | undefined) => (values && values.length > 0 ? [...values] : null);
  const parts: SQL[] = [
    sql`c.org_id = ${request.orgId}::uuid`,
    sql`c.acl && ${sql.param([...request.principals])}::text[]`,
  ];
  const sources = list(f.sources);
  if (sources) parts.push(sql`c.source = ANY(${sql.param(sources)}::text[])`);
  const objectTypes = list(f.objectTypes);
  if (objectTypes) parts.push(sql`c.object_type = ANY(${sql.param(objectTypes)}::text[])`);
  const fileTypes = list(f.fileTypes);
  if (fileTypes) parts.push(sql`c.file_type = ANY(${sql.param(fileTypes)}::text[])`);
  const authors = list(f.authorEmails?.map((email) => email.trim().toLowerCase()));
  if (authors) parts.push(sql`c.author_email = ANY(${sql.param(authors)}::text[])`);
  if (f.modifiedAfter) parts.push(sql`c.modified_time >= ${f.modifiedAfter.toISOString()}::timestamptz`);
  if (f.modifiedBefore) parts.push(sql`c.modified_time < ${f.modifiedBefore.toISOString()}::timestamptz`);
  const documentIds = list(f.documentIds);
  if (documentIds) parts.push(sql`c.document_id = ANY(${sql.param(documentIds)}::uuid[])`);
  const connectionIds = list(f.connectionIds);
  if (connectionIds) {
    parts.push(sql`c.document_id IN (SELECT d.id FROM documents d
      WHERE d.org_id = ${request.orgId}::uuid AND d.connection_id = ANY(${sql.param(connectionIds)}::uuid[]))`);
  }
  return sql.join(parts, sql` AND `);
}

// ---------------------------------------------------------------------------------------------
// Query analysis and statistics
// ---------------------------------------------------------------------------------------------

interface AnalysedQuery {
  /** Lexemes with their count in the query and the query's words that give them, in order of first appearance. */
  terms: { lexeme: string; count: number; words: string[] }[];
  /** The query's words (lower-cased, de-duplicated, in order). */
  words: string[];
}

async function analyseQuery(tx: Tx, q: string): Promise<AnalysedQuery> {
  const words = [...new Set(wordsOf(q).map((word) => word.word.toLowerCase()))];
  const result = await tx.execute(sql`
    WITH w AS MATERIALIZED (
      SELECT w.word, tsvector_to_array(to_tsvector('english', w.word)) AS lexemes
      FROM unnest(${sql.param(words)}::text[]) AS w(word)
    )
    SELECT t.lexeme, cardinality(t.positions) AS count, t.positions[1] AS first,
      ARRAY(SELECT w.word FROM w WHERE t.lexeme = ANY(w.lexemes)) AS words
    FROM unnest(to_tsvector('english', ${q}::text)) AS t
    ORDER BY first, lexeme`);
  return {
    terms: result.rows.map((row) => ({
      lexeme: String(row.lexeme),
      count: Number(row.count),
      words: (row.words as string[] | null) ?? [],
    })),
    words,
  };
}

/** The query's terms for ranking: each lexeme weighted by its count in the query, with its idf in the org. */
function queryTerms(
  analysed: AnalysedQuery,
  docFreqs: ReadonlyMap<string, number>,
  stats: CollectionStats,
): QueryTerm[] {
  return analysed.terms.map((term) => ({
    lexeme: term.lexeme,
    weight: term.count,
    idf: idf(docFreqs.get(term.lexeme) ?? 0, stats),
    original: true,
  }));
}

/** The pg_textsearch scan text of a long query's most informative words (see `selectiveText`). */
function selectiveQueryText(analysed: AnalysedQuery, terms: readonly QueryTerm[]): string | null {
  return selectiveText(
    terms.map((term, i) => ({
      lexeme: term.lexeme,
      weight: term.weight * term.idf,
      words: analysed.terms[i]!.words,
    })),
  );
}

/**
 * Replaces each snippet's guessed highlights by PostgreSQL's: ts_headline runs the index's parser and stemmer
 * over the snippet text and marks every token that matches the query.
 */
async function highlightExactly(
  tx: Tx,
  snippets: Map<string, Snippet>,
  lexemes: readonly string[],
): Promise<void> {
  const entries = [...snippets.values()].filter((snippet) => snippet.text.length > 0);
  if (entries.length === 0) return;
  const result = await tx.execute(sql`
    SELECT t.ord, ts_headline('english', t.text, ${lexemeTsquery(lexemes, '|')}::tsquery,
      ${`HighlightAll=true, StartSel=${HIGHLIGHT_START}, StopSel=${HIGHLIGHT_STOP}`}) AS marked
    FROM unnest(${sql.param(entries.map((snippet) => snippet.text))}::text[]) WITH ORDINALITY AS t(text, ord)`);
  for (const row of result.rows) {
    const snippet = entries[Number(row.ord) - 1]!;
    const spans = readHighlights(snippet.text, String(row.marked ?? ''));
    snippet.highlights = (spans ?? []).map((span) => ({
      start: snippet.start + span.start,
      end: snippet.start + span.end,
    }));
  }
}

// ---------------------------------------------------------------------------------------------
// Candidates
// ---------------------------------------------------------------------------------------------

const [QUOTE, BACKSLASH, COLON, COMMA, DIGIT_0, WEIGHT_A] = ["'", '\\', ':', ',', '0', 'A'].map((ch) =>
  ch.charCodeAt(0),
) as [number, number, number, number, number, number];

/**
 * Parses PostgreSQL's text form of a tsvector (`'lexeme':1A,5 'other':3`) into lexeme → positions. In that form
 * a quote inside a lexeme is doubled and a backslash escaped; weights follow positions as a letter. Read by
 * character codes and slices: it runs for every candidate of every search (twice as fast as reading it
 * character by character into strings, measured).
 */
export function parseTsvector(text: string): Map<string, number[]> {
  const out = new Map<string, number[]>();
  const end = text.length;
  let at = text.indexOf("'");
  while (at >= 0) {
    let lexeme = '';
    let from = at + 1;
    let i = from;
    while (i < end) {
      const code = text.charCodeAt(i);
      if (code === BACKSLASH) {
        lexeme += text.slice(from, i) + text.charAt(i + 1);
        from = i += 2;
      } else if (code === QUOTE && text.charCodeAt(i + 1) === QUOTE) {
        lexeme += text.slice(from, i) + "'";
        from = i += 2;
      } else if (code === QUOTE) {
        break;
      } else {
        i++;
      }
    }
    lexeme += text.slice(from, i);
    i++;
    const positions: number[] = [];
    if (text.charCodeAt(i) === COLON) {
      let value = -1;
      for (i++; i < end; i++) {
        const code = text.charCodeAt(i);
        if (code >= DIGIT_0 && code <= DIGIT_0 + 9) value = Math.max(value, 0) * 10 + (code - DIGIT_0);
        else if (code === COMMA) {
          if (value >= 0) positions.push(value);
          value = -1;
        } else if (code < WEIGHT_A || code > WEIGHT_A + 3) break;
      }
      if (value >= 0) positions.push(value);
    }
    out.set(lexeme, positions);
    at = text.indexOf("'", i);
  }
  return out;
}

/**
 * Every lexeme's frequency and the title matches of these chunks, re-checked against `where`. The whole tsvector
 * is read once: the same candidates are ranked for the query and again for its feedback expansion, whose terms
 * are only known after the first ranking (its text form ships faster than a filtered copy, measured).
 */
async function loadCandidates(tx: Tx, where: SQL, chunkIds: readonly string[]): Promise<CandidateChunk[]> {
  if (chunkIds.length === 0) return [];
  const result = await tx.execute(sql`
    SELECT c.id, c.document_id, c.search_length, c.prefix_positions, c.modified_time, c.search::text AS vector
    FROM document_chunks c
    WHERE ${where} AND c.id = ANY(${sql.param([...chunkIds])}::uuid[])`);
  return result.rows.map((row) => {
    const prefixPositions = Number(row.prefix_positions);
    const termFreqs: Record<string, number> = {};
    const titleTerms: string[] = [];
    for (const [lexeme, positions] of parseTsvector(String(row.vector ?? ''))) {
      termFreqs[lexeme] = positions.length;
      if (positions[0] !== undefined && positions[0] <= prefixPositions) titleTerms.push(lexeme);
    }
    return {
      chunkId: String(row.id),
      documentId: String(row.document_id),
      length: Number(row.search_length),
      termFreqs,
      titleTerms,
      modifiedTime: toDate(row.modified_time),
    };
  });
}

/** RM3 over the best passages of the top documents; returns the candidates re-ranked, or null when unchanged. */
async function withFeedback(
  candidates: readonly CandidateChunk[],
  ranked: RankedDocument[],
  terms: QueryTerm[],
  statistics: RankingStatistics,
  now: Date,
): Promise<RankedDocument[] | null> {
  const stats = statistics.collection;
  const byId = new Map(candidates.map((candidate) => [candidate.chunkId, candidate]));
  const passages = ranked.slice(0, FEEDBACK_DOCS).flatMap((doc) => {
    const best = byId.get(doc.chunks[0]!.chunkId);
    return best ? [{ score: doc.score, length: best.length, termFreqs: best.termFreqs }] : [];
  });
  // only the model's strongest terms can be chosen: their document frequencies are all that is needed
  const docFreqs = await statistics.docFreqs(feedbackVocabulary(passages));
  const expanded = expandQuery(terms, passages, (lexeme) => docFreqs.get(lexeme) ?? 0, stats);
  if (expanded.length === terms.length) return null;
  return rankDocuments(candidates, expanded, stats, now);
}

// ---------------------------------------------------------------------------------------------
// Hits
// ---------------------------------------------------------------------------------------------

interface PageEntry {
  documentId: string;
  score: number;
  chunks: { chunkId: string; score: number }[];
}

async function presentHits(
  tx: Tx,
  orgId: string,
  page: readonly PageEntry[],
  options: {
    /** Per chunk, the query lexemes it holds (for missing terms). */
    termsOf?: Map<string, Record<string, number>>;
    lexemes: readonly string[];
    words: readonly string[];
    snippets: boolean;
  },
): Promise<SearchHit[]> {
  if (page.length === 0) return [];
  const best = page.map((entry) => entry.chunks[0]!.chunkId);
  const all = page.flatMap((entry) => entry.chunks.map((chunk) => chunk.chunkId));
  const result = await tx.execute(sql`
    SELECT c.id AS chunk_id, c.start_offset, c.end_offset, c.section_path,
      CASE WHEN c.id = ANY(${sql.param(best)}::uuid[]) THEN c.body END AS text,
      d.id, d.title, d.url, d.source, d.connection_id, d.external_id, d.object_type, d.file_type, d.author,
      d.author_email, d.created_time, d.modified_time
    FROM document_chunks c JOIN documents d ON d.id = c.document_id
    WHERE c.org_id = ${orgId}::uuid AND d.org_id = ${orgId}::uuid AND c.id = ANY(${sql.param(all)}::uuid[])`);
  const rows = new Map<string, Row>(result.rows.map((row) => [String(row.chunk_id), row]));

  const passages = new Map<string, { passage: string; start: number }>();
  for (const chunkId of best) {
    const row = rows.get(chunkId);
    if (!row) continue;
    const start = Number(row.start_offset ?? 0);
    const length = Number(row.end_offset ?? 0) - start;
    const text = String(row.text ?? '');
    // the indexed text ends with the exact body slice (chunking.ts): no need to read the document body
    passages.set(chunkId, { passage: length > 0 ? text.slice(text.length - length) : '', start });
  }
  const wanted = new Set(options.lexemes);
  const wordLexemes = await lexemesOfWords(tx, options.words);
  const snippets = new Map<string, Snippet>();
  for (const [chunkId, { passage }] of passages) {
    snippets.set(
      chunkId,
      options.snippets
        ? chooseSnippet(passage, (word) => likelyLexemes(word, wanted))
        : {
            text: passage.slice(0, SNIPPET_CHARS),
            start: 0,
            end: Math.min(passage.length, SNIPPET_CHARS),
            highlights: [],
          },
    );
  }
  if (options.snippets && wanted.size > 0) await highlightExactly(tx, snippets, options.lexemes);

  const hits: SearchHit[] = [];
  for (const entry of page) {
    const bestId = entry.chunks[0]!.chunkId;
    const row = rows.get(bestId);
    const passage = passages.get(bestId);
    const snippet = snippets.get(bestId);
    if (!row || !passage || !snippet) continue;
    const held = new Set<string>();
    for (const chunk of entry.chunks) {
      for (const [lexeme, tf] of Object.entries(options.termsOf?.get(chunk.chunkId) ?? {}))
        if (tf > 0) held.add(lexeme);
    }
    hits.push({
      documentId: String(row.id),
      chunkId: bestId,
      score: entry.score,
      title: String(row.title ?? ''),
      url: toText(row.url),
      source: String(row.source),
      connectionId: toText(row.connection_id),
      externalId: String(row.external_id),
      objectType: toText(row.object_type),
      fileType: toText(row.file_type),
      author: toText(row.author),
      authorEmail: toText(row.author_email),
      createdTime: toDate(row.created_time),
      modifiedTime: toDate(row.modified_time),
      sectionPath: toText(row.section_path),
      snippet: snippet.text,
      offsets: { start: passage.start + snippet.start, end: passage.start + snippet.end },
      highlights: snippet.highlights.map((span) => ({
        start: passage.start + span.start,
        end: passage.start + span.end,
      })),
      chunks: entry.chunks.map((chunk) => {
        const chunkRow = rows.get(chunk.chunkId);
        return {
          chunkId: chunk.chunkId,
          score: chunk.score,
          start: Number(chunkRow?.start_offset ?? 0),
          end: Number(chunkRow?.end_offset ?? 0),
          sectionPath: toText(chunkRow?.section_path),
        };
      }),
      missingTerms: options.termsOf
        ? options.words.filter((word) => {
            const lexemes = (wordLexemes.get(word) ?? []).filter((lexeme) => wanted.has(lexeme));
            return lexemes.length > 0 && !lexemes.some((lexeme) => held.has(lexeme));
          })
        : [],
    });
  }
  return hits;
}

// ---------------------------------------------------------------------------------------------
// Counting and listing documents
// ---------------------------------------------------------------------------------------------

async function countDocuments(tx: Tx, where: SQL): Promise<{ total: number; exact: boolean }> {
  const result = await tx.execute(sql`
    SELECT count(*)::int AS n FROM (
      SELECT DISTINCT c.document_id FROM document_chunks c WHERE ${where} LIMIT ${TOTAL_CAP + 1}
    ) AS matching`);
  const n = Number(result.rows[0]?.n ?? 0);
  return { total: Math.min(n, TOTAL_CAP), exact: n <= TOTAL_CAP };
}

const ORDER_BY: Record<Exclude<SearchSort, 'relevance'>, SQL> = {
  modified_newest: sql`d.modified_time DESC NULLS LAST, d.id`,
  modified_oldest: sql`d.modified_time ASC NULLS LAST, d.id`,
  created_newest: sql`d.created_time DESC NULLS LAST, d.id`,
  created_oldest: sql`d.created_time ASC NULLS LAST, d.id`,
};

/** A page of matching documents in date order (no ranking involved). */
async function listDocuments(
  tx: Tx,
  orgId: string,
  where: SQL,
  sort: Exclude<SearchSort, 'relevance'>,
  offset: number,
  limit: number,
): Promise<string[]> {
  const result = await tx.execute(sql`
    SELECT d.id FROM documents d
    WHERE d.org_id = ${orgId}::uuid
      AND EXISTS (SELECT 1 FROM document_chunks c WHERE c.document_id = d.id AND ${where})
    ORDER BY ${ORDER_BY[sort]}
    LIMIT ${limit} OFFSET ${offset}`);
  return result.rows.map((row) => String(row.id));
}

// ---------------------------------------------------------------------------------------------
// The entry points
// ---------------------------------------------------------------------------------------------

export async function searchChunks(store: Store, request: SearchRequest): Promise<SearchResults> {
  const engine = await chooseEngine(store, request.engine);
  const limit = clamp(request.limit ?? DEFAULT_LIMIT, 1, MAX_LIMIT);
  const offset = clamp(request.offset ?? 0, 0, MAX_OFFSET);
  const now = request.now ?? new Date();
  const snippets = request.snippets !== false;
  const empty: SearchResults = {
    hits: [],
    total: 0,
    totalExact: true,
    hasMore: false,
    engine,
    terms: [],
    matchedTerms: [],
  };
  if (request.principals.length === 0) return empty;
  // before the transaction: the provider's round trip must not hold the store's connection
  const vectorQuery = await prepareVectorQuery(store.db, request);

  return readTransaction(store, async (tx) => {
    const { orgId } = request;
    const where = chunkConditions(request);
    const analysed = await analyseQuery(tx, request.q);
    const lexemes = analysed.terms.map((term) => term.lexeme);
    const blank = request.q.trim() === '';
    // a query of stop words only ("to be or not") matches nothing
    if (!blank && lexemes.length === 0) return empty;

    const matching = blank ? where : sql`${where} AND c.search @@ ${lexemeTsquery(lexemes, '|')}::tsquery`;
    const counted = request.count === false ? null : await countDocuments(tx, matching);
    const sort: SearchSort = request.sort ?? 'relevance';
    const matched = new Set<string>();
    const noteMatches = (seen: readonly CandidateChunk[]) => {
      for (const candidate of seen)
        for (const lexeme of lexemes) if ((candidate.termFreqs[lexeme] ?? 0) > 0) matched.add(lexeme);
    };
    let facets: SearchResults['facets'];
    const finish = (hits: SearchHit[], more: boolean): SearchResults => ({
      hits,
      total: counted?.total ?? -1,
      totalExact: counted?.exact ?? false,
      hasMore: counted
        ? offset + hits.length < counted.total || (!counted.exact && hits.length === limit)
        : more,
      engine,
      terms: lexemes,
      matchedTerms: [...matched],
      ...(facets ? { facets } : {}),
    });

    if (blank || sort !== 'relevance') {
      const order = sort === 'relevance' ? 'modified_newest' : sort;
      const ids = await listDocuments(tx, orgId, matching, order, offset, limit + 1);
      const pageIds = ids.slice(0, limit);
      let page: PageEntry[];
      let termsOf: Map<string, Record<string, number>> | undefined;
      if (blank) {
        const first = await tx.execute(sql`
          SELECT c.id, c.document_id FROM document_chunks c
          WHERE ${where} AND c.ord = 0 AND c.document_id = ANY(${sql.param(pageIds)}::uuid[])`);
        const chunkOf = new Map(first.rows.map((row) => [String(row.document_id), String(row.id)]));
        page = pageIds.map((id) => ({
          documentId: id,
          score: 0,
          chunks: [{ chunkId: chunkOf.get(id)!, score: 0 }],
        }));
      } else {
        // the snippet comes from each document's best matching chunk
        const { collection: stats, docFreqs: docFreqsOf } = await rankingStatistics(
          tx,
          orgId,
          request.principals,
        );
        const terms = queryTerms(analysed, await docFreqsOf(lexemes), stats);
        const chunkRows = await tx.execute(sql`
          SELECT c.id FROM document_chunks c
          WHERE ${matching} AND c.document_id = ANY(${sql.param(pageIds)}::uuid[])`);
        const candidates = await loadCandidates(
          tx,
          where,
          chunkRows.rows.map((row) => String(row.id)),
        );
        termsOf = new Map(candidates.map((candidate) => [candidate.chunkId, candidate.termFreqs]));
        noteMatches(candidates);
        const ranked = new Map(
          rankDocuments(candidates, terms, stats, now).map((doc) => [doc.documentId, doc]),
        );
        page = pageIds.flatMap((id) => {
          const doc = ranked.get(id);
          return doc ? [doc] : [];
        });
      }
      const hits = await presentHits(
        tx,
        orgId,
        page.filter((entry) => entry.chunks[0]?.chunkId),
        {
          termsOf,
          lexemes,
          words: analysed.words,
          snippets,
        },
      );
      return finish(hits, ids.length > limit);
    }

    const statistics = await rankingStatistics(tx, orgId, request.principals);
    const stats = statistics.collection;
    const terms = queryTerms(analysed, await statistics.docFreqs(lexemes), stats);
    let depth = clamp(POOL_PER_RESULT * (offset + limit), MIN_POOL, MAX_POOL);
    let pool: string[];
    let exhausted: boolean;
    let candidates: CandidateChunk[];
    let ranked: RankedDocument[];
    // the facets' top-k scan ranks the same chunks under the same conditions: its head is the pool
    let shared: Candidates | null = null;
    const selectiveQ = engine === 'pg_textsearch' ? selectiveQueryText(analysed, terms) : null;
    if (engine === 'pg_textsearch' && request.facets && request.facets.length > 0) {
      const rows = await bm25FacetRows(
        tx,
        { where, q: request.q, selectiveQ },
        request.facets,
        Math.max(depth, FACET_DEPTH),
      );
      const counted = [
        ...rows.slice(0, FACET_DEPTH),
        ...(vectorQuery ? await vectorFacetRows(tx, vectorQuery, where, request.facets) : []),
      ];
      facets = Object.fromEntries(request.facets.map((field) => [field, documentsPerValue(counted, field)]));
      const chunkIds = rows.slice(0, depth).map((row) => String(row.id));
      shared = { chunkIds, exhausted: chunkIds.length < depth };
    }
    for (;;) {
      const proposal =
        shared ??
        (await proposeCandidates(tx, engine, {
          q: request.q,
          selectiveQ,
          terms: terms.map((term) => ({ lexeme: term.lexeme, weight: term.weight * term.idf })),
          where,
          avgLength: averageLength(stats),
          depth,
        }));
      shared = null;
      pool = proposal.chunkIds;
      exhausted = proposal.exhausted;
      candidates = await loadCandidates(tx, where, pool);
      ranked = rankDocuments(candidates, terms, stats, now);
      if (ranked.length >= offset + limit || exhausted || depth >= MAX_POOL) break;
      depth = Math.min(depth * 4, MAX_POOL);
    }
    // a document's score is its best chunk's: make sure the leading documents have all their matching chunks
    // scored, not only those that made the pool, so their scores do not depend on where the pool was cut
    const leading = ranked
      .slice(0, Math.max(2 * (offset + limit), FEEDBACK_DOCS))
      .map((doc) => doc.documentId);
    const missing = await tx.execute(sql`
      SELECT c.id FROM document_chunks c
      WHERE ${matching} AND c.document_id = ANY(${sql.param(leading)}::uuid[])
        AND NOT (c.id = ANY(${sql.param(pool)}::uuid[]))`);
    if (missing.rows.length > 0) {
      const extra = missing.rows.map((row) => String(row.id));
      candidates = [...candidates, ...(await loadCandidates(tx, where, extra))];
      pool = [...pool, ...extra];
      ranked = rankDocuments(candidates, terms, stats, now);
    }
    if (request.feedback !== false && ranked.length > 1) {
      ranked = (await withFeedback(candidates, ranked, terms, statistics, now)) ?? ranked;
    }
    if (vectorQuery) {
      const fused = await withVectorSignal(tx, vectorQuery, {
        where,
        matching,
        ranked,
        wanted: offset + limit,
        now,
      });
      ranked = fused.ranked;
      if (counted) counted.total = Math.min(counted.total + fused.vectorOnly, TOTAL_CAP);
    }
    noteMatches(candidates);
    const hits = await presentHits(tx, orgId, ranked.slice(offset, offset + limit), {
      termsOf: new Map(candidates.map((candidate) => [candidate.chunkId, candidate.termFreqs])),
      lexemes,
      words: analysed.words,
      snippets,
    });
    return finish(hits, ranked.length > offset + limit || !exhausted);
  });
}

export type FacetField = 'source' | 'objectType' | 'fileType';

export interface FacetCount {
  /** Null for documents without a value (e.g. no object type). */
  value: string | null;
  count: number;
}

const FACET_COLUMNS: Record<FacetField, SQL> = {
  source: sql`c.source`,
  objectType: sql`c.object_type`,
  fileType: sql`c.file_type`,
};

/** The select list of these facet fields, each named as its field. */
const facetColumns = (fields: readonly FacetField[]) =>
  sql.join(
    fields.map((field) => sql`${FACET_COLUMNS[field]} AS ${sql.identifier(field)}`),
    sql`, `,
  );

type FacetRequest = Pick<SearchRequest, 'orgId' | 'principals' | 'q' | 'engine'>;

/**
 * Matching readable documents per value of each field, each under the request's ACL and the filters given for it
 * (a caller that wants the counts of every app while one app is selected passes that field's filters without
 * that one); fields with equal filters are counted in one pass. Exact while at most FACET_DEPTH readable chunks
 * match; beyond that the counts describe the FACET_DEPTH best-ranked of them (pg_textsearch's ordered top-k
 * scan, the ACL a filter inside it; the SQL engine takes them as the GIN index finds them): a long question
 * matches most of an org, and counting all of it would cost a scan of every readable chunk. An empty query
 * counts every readable document exactly. With the vector signal on, the documents of the nearest chunks (those a
 * first page fuses) count too, as they are hits.
 */
export async function facetCounts(
  store: Store,
  request: FacetRequest,
  filtersOf: Partial<Record<FacetField, SearchFilters>>,
): Promise<Partial<Record<FacetField, FacetCount[]>>> {
  const out: Partial<Record<FacetField, FacetCount[]>> = {};
  const fields = Object.keys(filtersOf) as FacetField[];
  for (const field of fields) out[field] = [];
  if (request.principals.length === 0 || fields.length === 0) return out;
  const engine = await chooseEngine(store, request.engine);
  // before the transaction: the provider's round trip must not hold the store's connection
  const vectorQuery = await prepareVectorQuery(store.db, request);
  return readTransaction(store, async (tx) => {
    const blank = request.q.trim() === '';
    const analysed = blank ? { terms: [], words: [] } : await analyseQuery(tx, request.q);
    const { terms } = analysed;
    if (!blank && terms.length === 0) return out;
    // the same scan text as searchChunks, so shared and separate counts agree
    let selectiveQ: string | null = null;
    if (engine === 'pg_textsearch' && terms.length > 0) {
      const statistics = await rankingStatistics(tx, request.orgId, request.principals);
      const docFreqs = await statistics.docFreqs(terms.map((term) => term.lexeme));
      selectiveQ = selectiveQueryText(analysed, queryTerms(analysed, docFreqs, statistics.collection));
    }
    const tsquery = lexemeTsquery(
      terms.map((term) => term.lexeme),
      '|',
    );
    // fields whose counting conditions are the same share one pass
    const passes = new Map<string, { filters: SearchFilters; fields: FacetField[] }>();
    for (const field of fields) {
      const filters = filtersOf[field] ?? {};
      const key = JSON.stringify(filters);
      const pass = passes.get(key) ?? { filters, fields: [] };
      pass.fields.push(field);
      passes.set(key, pass);
    }
    for (const { filters, fields: passFields } of passes.values()) {
      const where = chunkConditions({ ...request, filters });
      const columns = facetColumns(passFields);
      let rows: Row[];
      if (blank) {
        rows = (
          await tx.execute(
            sql`SELECT DISTINCT c.document_id, ${columns} FROM document_chunks c WHERE ${where}`,
          )
        ).rows;
      } else if (engine === 'pg_textsearch') {
        rows = await bm25FacetRows(tx, { where, q: request.q, selectiveQ }, passFields, FACET_DEPTH);
      } else {
        rows = (
          await tx.execute(sql`
            SELECT c.document_id, ${columns} FROM document_chunks c
            WHERE ${where} AND c.search @@ ${tsquery}::tsquery LIMIT ${FACET_DEPTH}`)
        ).rows;
      }
      if (vectorQuery) rows = [...rows, ...(await vectorFacetRows(tx, vectorQuery, where, passFields))];
      for (const field of passFields) out[field] = documentsPerValue(rows, field);
    }
    return out;
  });
}

/**
 * The documents the vector signal finds (the nearest chunks a first page fuses), with these facet fields: a
 * document found only by its meaning is a hit, so it is counted too.
 */
async function vectorFacetRows(
  tx: Tx,
  vectorQuery: VectorQuery,
  where: SQL,
  fields: readonly FacetField[],
): Promise<Row[]> {
  const hits = await nearestChunks(tx, vectorQuery, where, VECTOR_FACET_DEPTH);
  if (hits.length === 0) return [];
  const result = await tx.execute(sql`
    SELECT DISTINCT ON (c.document_id) c.document_id, ${facetColumns(fields)} FROM document_chunks c
    WHERE ${where} AND c.id = ANY(${sql.param(hits.map((hit) => hit.chunkId))}::uuid[])
    ORDER BY c.document_id`);
  return result.rows;
}

/** The `depth` best matching chunks in pg_textsearch's order, with their document and these facet fields. */
function bm25FacetRows(
  tx: Tx,
  query: { where: SQL; q: string; selectiveQ: string | null },
  fields: readonly FacetField[],
  depth: number,
): Promise<Row[]> {
  return bm25TopChunks(tx, query, depth, facetColumns(fields));
}

/** Distinct documents per value, most first (ties by value, no value last). */
function documentsPerValue(rows: readonly Row[], field: FacetField): FacetCount[] {
  const documentsOf = new Map<string | null, Set<string>>();
  for (const row of rows) {
    const value = toText(row[field]);
    const seen = documentsOf.get(value) ?? new Set<string>();
    seen.add(String(row.document_id));
    documentsOf.set(value, seen);
  }
  return [...documentsOf]
    .map(([value, seen]) => ({ value, count: seen.size }))
    .sort(
      (a, b) =>
        b.count - a.count ||
        (a.value === b.value ? 0 : a.value === null ? 1 : b.value === null ? -1 : a.value < b.value ? -1 : 1),
    );
}

/** `facetCounts` of one field, under the request's filters. */
export async function countBy(
  store: Store,
  request: FacetRequest & Pick<SearchRequest, 'filters'>,
  field: FacetField,
): Promise<FacetCount[]> {
  return (await facetCounts(store, request, { [field]: request.filters ?? {} }))[field] ?? [];
}

export const countBySource = (
  store: Store,
  request: Pick<SearchRequest, 'orgId' | 'principals' | 'q' | 'filters'>,
) => countBy(store, request, 'source');

export const countByObjectType = (
  store: Store,
  request: Pick<SearchRequest, 'orgId' | 'principals' | 'q' | 'filters'>,
) => countBy(store, request, 'objectType');
