/**
 * The ranking function, shared by both retrieval engines (DESIGN §4). An engine only proposes candidate chunks
 * (pg_textsearch's top-k, or BM25 computed in SQL); every candidate is then scored here from its term
 * frequencies and the org's statistics, so the two engines rank identically whenever they propose the same pool.
 *
 * score(chunk) = Σ_t w_t · idf_t · tf·(k1+1) / (tf + k1·(1 − b + b·len/avglen))        BM25 over title + body
 *              + TITLE_WEIGHT · Σ_{t ∈ query ∩ title} w_t · idf_t     title (and headings) above body
 * score(doc)   = max over its chunks · (1 + RECENCY_BOOST · ½^(age / RECENCY_HALF_LIFE))  mild recency prior
 *
 * Then one round of pseudo-relevance feedback (RM3) re-ranks the pool: the best passages of the top documents
 * vote for expansion terms, which take 0.3 of the query's weight.
 *
 * Every constant below is a textbook default or was chosen once for all collections; none is tuned per corpus.
 */

/** Lucene's and pg_textsearch's defaults; pg_textsearch bakes them into the index (engines.ts). */
export const BM25_K1 = 1.2;
export const BM25_B = 0.75;
/** A query term in the title adds this share of its idf on top of its BM25 body contribution. */
export const TITLE_WEIGHT = 0.2;
/** At most +10% for a document modified just now, +5% at half-life age. */
export const RECENCY_BOOST = 0.1;
export const RECENCY_HALF_LIFE_DAYS = 180;
/**
 * RM3 with Anserini's 10 feedback documents and 10 terms, but the original query keeps 0.7 of the weight (Anserini:
 * 0.5): at 0.5 the expansion drifted off topic where a query has few relevant documents (TIME magazine, 0.718 vs
 * 0.741 without feedback); 0.7 beat both 0.5 and no feedback on cranfield and cisi too (docs/benchmarks.md).
 */
export const FEEDBACK_DOCS = 10;
export const FEEDBACK_TERMS = 10;
export const FEEDBACK_ORIGINAL_WEIGHT = 0.7;
/** Expansion terms must occur in at least this many shared chunks of the org (no hapax noise). */
export const FEEDBACK_MIN_DOC_FREQ = 2;

const DAY_MS = 86_400_000;

export interface CollectionStats {
  /** Chunks in the org (N). */
  chunkCount: number;
  /** Sum of chunk lengths (lexeme occurrences). */
  totalLength: number;
}

/** BM25 idf as Lucene and pg_textsearch compute it: never negative. */
export function idf(docFreq: number, stats: CollectionStats): number {
  const n = Math.max(stats.chunkCount, docFreq);
  return Math.log(1 + (n - docFreq + 0.5) / (docFreq + 0.5));
}

export function averageLength(stats: CollectionStats): number {
  return stats.chunkCount > 0 ? Math.max(stats.totalLength / stats.chunkCount, 1) : 1;
}

/** A weighted query term: `weight` is the query-side weight (term count, or RM3 mixture), `idf` its idf. */
export interface QueryTerm {
  lexeme: string;
  weight: number;
  idf: number;
  /** From the user's query (not an expansion): these earn the title bonus and decide what "matches". */
  original: boolean;
}

/** What the store returns about a candidate chunk. */
export interface CandidateChunk {
  chunkId: string;
  documentId: string;
  /** Lexeme occurrences (BM25 length). */
  length: number;
  /** Term frequencies of the query's lexemes in the chunk (absent = 0). */
  termFreqs: Record<string, number>;
  /** The query's lexemes that occur in the chunk's title or section path (its indexed prefix). */
  titleTerms: readonly string[];
  modifiedTime: Date | null;
}

export function scoreChunk(chunk: CandidateChunk, terms: readonly QueryTerm[], avgLength: number): number {
  const norm = BM25_K1 * (1 - BM25_B + (BM25_B * chunk.length) / avgLength);
  let score = 0;
  for (const term of terms) {
    const tf = chunk.termFreqs[term.lexeme] ?? 0;
    if (tf > 0) score += (term.weight * term.idf * tf * (BM25_K1 + 1)) / (tf + norm);
  }
  for (const lexeme of chunk.titleTerms) {
    const term = terms.find((candidate) => candidate.lexeme === lexeme && candidate.original);
    if (term) score += TITLE_WEIGHT * term.weight * term.idf;
  }
  return score;
}

export function recencyFactor(modifiedTime: Date | null, now: Date): number {
  if (!modifiedTime) return 1;
  const ageDays = Math.max(0, (now.getTime() - modifiedTime.getTime()) / DAY_MS);
  return 1 + RECENCY_BOOST * 0.5 ** (ageDays / RECENCY_HALF_LIFE_DAYS);
}

export interface RankedChunk {
  chunkId: string;
  score: number;
}

export interface RankedDocument {
  documentId: string;
  score: number;
  /** Its candidate chunks, best first: the first is the hit's passage. */
  chunks: RankedChunk[];
}

/**
 * Scores every candidate and collapses them to one entry per document (its best chunk, with the others as its
 * hit list), best first; ties go to the smaller document id so both engines order them the same way.
 */
export function rankDocuments(
  candidates: readonly CandidateChunk[],
  terms: readonly QueryTerm[],
  stats: CollectionStats,
  now: Date,
): RankedDocument[] {
  const avgLength = averageLength(stats);
  const byDocument = new Map<string, { chunks: RankedChunk[]; modifiedTime: Date | null }>();
  for (const chunk of candidates) {
    const entry = byDocument.get(chunk.documentId) ?? { chunks: [], modifiedTime: chunk.modifiedTime };
    entry.chunks.push({ chunkId: chunk.chunkId, score: scoreChunk(chunk, terms, avgLength) });
    byDocument.set(chunk.documentId, entry);
  }
  const ranked: RankedDocument[] = [];
  for (const [documentId, { chunks, modifiedTime }] of byDocument) {
    chunks.sort((a, b) => b.score - a.score || compareIds(a.chunkId, b.chunkId));
    ranked.push({ documentId, score: chunks[0]!.score * recencyFactor(modifiedTime, now), chunks });
  }
  return ranked.sort((a, b) => b.score - a.score || compareIds(a.documentId, b.documentId));
}

function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A feedback passage: the best chunk of a top document, with all its term frequencies. */
export interface FeedbackPassage {
  score: number;
  length: number;
  termFreqs: Record<string, number>;
}

function relevanceModel(passages: readonly FeedbackPassage[]): Map<string, number> {
  const model = new Map<string, number>();
  for (const passage of passages) {
    const length = Math.max(passage.length, 1);
    for (const [lexeme, tf] of Object.entries(passage.termFreqs)) {
      model.set(lexeme, (model.get(lexeme) ?? 0) + (passage.score * tf) / length);
    }
  }
  return model;
}

/** How many of the model's strongest terms to look up: enough for FEEDBACK_TERMS once rare ones are dropped. */
const FEEDBACK_VOCABULARY = 5 * FEEDBACK_TERMS;

/** The lexemes `expandQuery` may pick from: the relevance model's strongest. */
export function feedbackVocabulary(passages: readonly FeedbackPassage[]): string[] {
  return [...relevanceModel(passages).entries()]
    .sort((a, b) => b[1] - a[1] || compareIds(a[0], b[0]))
    .slice(0, FEEDBACK_VOCABULARY)
    .map(([lexeme]) => lexeme);
}

/**
 * RM3: the relevance model P(t|R) ∝ Σ_d score_d · tf(t,d)/len_d over the feedback passages, cut to its best
 * `FEEDBACK_TERMS` terms that are frequent enough to trust, and mixed with the query's own term distribution.
 * Returns the new weighted query (original terms keep `original: true`).
 */
export function expandQuery(
  terms: readonly QueryTerm[],
  passages: readonly FeedbackPassage[],
  docFreq: (lexeme: string) => number,
  stats: CollectionStats,
): QueryTerm[] {
  const chosen = [...relevanceModel(passages).entries()]
    .sort((a, b) => b[1] - a[1] || compareIds(a[0], b[0]))
    .slice(0, FEEDBACK_VOCABULARY)
    .filter(([lexeme, weight]) => weight > 0 && docFreq(lexeme) >= FEEDBACK_MIN_DOC_FREQ)
    .slice(0, FEEDBACK_TERMS);
  const modelTotal = chosen.reduce((sum, [, weight]) => sum + weight, 0);
  const queryTotal = terms.reduce((sum, term) => sum + term.weight, 0);
  if (modelTotal <= 0 || queryTotal <= 0) return [...terms];

  const expanded = new Map<string, QueryTerm>();
  for (const term of terms) {
    expanded.set(term.lexeme, { ...term, weight: (FEEDBACK_ORIGINAL_WEIGHT * term.weight) / queryTotal });
  }
  for (const [lexeme, weight] of chosen) {
    const share = ((1 - FEEDBACK_ORIGINAL_WEIGHT) * weight) / modelTotal;
    const existing = expanded.get(lexeme);
    if (existing) existing.weight += share;
    else expanded.set(lexeme, { lexeme, weight: share, idf: idf(docFreq(lexeme), stats), original: false });
  }
  return [...expanded.values()];
}
