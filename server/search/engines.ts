/**
 * The two retrieval engines behind search (DESIGN §4). Each proposes the top `depth` chunks for a query under the
 * same SQL conditions (org, ACL, filters: always inside the query, never applied afterwards); ranking.ts scores
 * the proposals identically whichever engine made them.
 *
 * - `pg_textsearch`: the extension's `bm25` index and its top-k `<@>` operator (always in embedded PGlite; on
 *   servers where the extension is installed).
 * - `sql`: BM25 computed in SQL over the generated tsvector (GIN) with the org's statistics, for PostgreSQL
 *   15/16 servers: chunks holding all query terms first, any term when those are too few (for long queries,
 *   the most informative terms; for any-term, only the heaviest when they provably fill the pool).
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Store, Tx } from '../db/store';
import { BM25_B, BM25_K1 } from './ranking';

export type SearchEngine = 'pg_textsearch' | 'sql';

export const BM25_INDEX_NAME = 'document_chunks_bm25_idx';

const ready = new WeakMap<Store, Promise<boolean>>();

/**
 * Creates the pg_textsearch index where the extension exists; idempotent, and memoised per store. Resolves to
 * whether the `pg_textsearch` engine can be used. Call once at start (`initSearch`); search calls it too.
 */
export function ensureSearchIndexes(store: Store): Promise<boolean> {
  let promise = ready.get(store);
  if (!promise) {
    promise = (async () => {
      if (!store.hasExtension('pg_textsearch')) return false;
      await store.db.execute(
        sql.raw(
          `CREATE INDEX IF NOT EXISTS ${BM25_INDEX_NAME} ON document_chunks USING bm25 (body) ` +
            `WITH (text_config = 'english', k1 = ${BM25_K1}, b = ${BM25_B})`,
        ),
      );
      return true;
    })();
    // a failure (e.g. no privilege on a server) is retried on the next call rather than cached
    promise.catch(() => ready.delete(store));
    ready.set(store, promise);
  }
  return promise;
}

export interface CandidateQuery {
  /** The user's query text (pg_textsearch tokenises it with the index's own configuration). */
  q: string;
  /** A long query's most informative words (`selectiveText`), scanned first by pg_textsearch; null: scan `q`. */
  selectiveQ: string | null;
  /** Query lexemes with their query-side weights (term count × idf), for the SQL engine. */
  terms: readonly { lexeme: string; weight: number }[];
  /** Conditions on `c` (document_chunks): org, ACL and filters. */
  where: SQL;
  avgLength: number;
  depth: number;
}

export interface Candidates {
  chunkIds: string[];
  /** True when fewer than `depth` chunks matched: asking deeper would find nothing more. */
  exhausted: boolean;
}

export async function proposeCandidates(
  tx: Tx,
  engine: SearchEngine,
  query: CandidateQuery,
): Promise<Candidates> {
  return engine === 'pg_textsearch' ? proposeWithBm25Index(tx, query) : proposeWithSql(tx, query);
}

/**
 * Long queries (a pasted question, a chat turn) propose candidates from their most informative terms only, in
 * both engines: a chunk holding none of them cannot score high, and matching every chunk that has a common word
 * would mean scoring most of the org. Every term still counts in the score. 32, not 8: a 500-word case
 * description found its relevant judgments through more than its 8 rarest words (aila-cases nDCG@10 0.084 →
 * 0.110; the other collections and the handbook unchanged; docs/benchmarks.md).
 */
export const MAX_CANDIDATE_TERMS = 32;

async function proposeWithBm25Index(tx: Tx, query: CandidateQuery): Promise<Candidates> {
  const rows = await bm25TopChunks(tx, query, query.depth);
  const chunkIds = rows.map((row) => String(row.id));
  return { chunkIds, exhausted: chunkIds.length < query.depth };
}

/**
 * The `depth` best matching chunks in pg_textsearch's order (`id`, `document_id` and any `columns`). A long query
 * scans its most informative words first: pg_textsearch's top-k costs grow with the number of terms (at 1M chunks,
 * a 15-term question's top 1,000 took 72 ms, its 8 rarest words' 41 ms; the full question's best 10 were 99% among
 * them, measured). When those words match fewer than `depth` chunks, the whole query is scanned, so a result set
 * that is not cut (and facet counts below the depth) stays exact.
 */
export async function bm25TopChunks(
  tx: Tx,
  query: Pick<CandidateQuery, 'q' | 'selectiveQ' | 'where'>,
  depth: number,
  columns?: SQL,
): Promise<Record<string, unknown>[]> {
  const scan = async (text: string) => {
    const bm25Query = sql`to_bm25query(${text}::text, ${BM25_INDEX_NAME})`;
    // rows that match no term score 0 and sort last (only when the planner scans the heap): dropped here
    const result = await tx.execute(sql`
      SELECT * FROM (
        SELECT c.id, c.document_id, ${columns ?? sql`NULL AS none`}, c.body <@> ${bm25Query} AS score
        FROM document_chunks c WHERE ${query.where}
        ORDER BY c.body <@> ${bm25Query} LIMIT ${depth}
      ) AS best WHERE best.score < 0`);
    return result.rows;
  };
  if (query.selectiveQ) {
    const rows = await scan(query.selectiveQ);
    if (rows.length >= depth) return rows;
  }
  return scan(query.q);
}

/**
 * The words of a long query's most informative terms (by weight, term count × idf), as one query text for
 * pg_textsearch; null when the query has at most MAX_CANDIDATE_TERMS terms (scanned whole). A term none of the
 * query's plain words produces (a compound such as "heat-transfer") is left to the full scan and the ranking. A
 * term no shared chunk holds keeps its place, typo or not: it may be in documents only this member reads, and
 * whether it is held anywhere else must not change what they get.
 */
export function selectiveText(
  terms: readonly { lexeme: string; weight: number; words: readonly string[] }[],
): string | null {
  if (terms.length <= MAX_CANDIDATE_TERMS) return null;
  const chosen = terms
    .filter((term) => term.words.length > 0)
    .sort((a, b) => b.weight - a.weight || (a.lexeme < b.lexeme ? -1 : 1))
    .slice(0, MAX_CANDIDATE_TERMS);
  return chosen.length > 0 ? chosen.map((term) => term.words[0]).join(' ') : null;
}

/** A tsquery of exact lexemes (no second stemming pass), quoted as tsquery input expects. */
export function lexemeTsquery(lexemes: readonly string[], operator: '&' | '|'): string {
  return lexemes
    .map((lexeme) => `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`)
    .join(` ${operator} `);
}

/** The most a chunk can score from terms of this total weight, whatever their frequencies (tf part → k1 + 1). */
const scoreCeiling = (totalWeight: number) => totalWeight * (BM25_K1 + 1);

/**
 * How many of the terms, heaviest first, make a decisive candidate set for the any-term pass: the fewest whose
 * lightest one, occurring once in a chunk of average length, outscores the best a chunk could get from all the
 * other terms together. Only then does the shortcut of proposeWithSql usually hold, so it is tried only then (on
 * long questions it mostly failed and cost a scan more, measured). `weights` sorted, largest first; returns their
 * count when no shorter prefix is decisive.
 */
export function decisivePrefix(weights: readonly number[]): number {
  let rest = weights.reduce((sum, weight) => sum + weight, 0);
  for (let k = 1; k < weights.length; k++) {
    rest -= weights[k - 1]!;
    // at average length BM25's length norm is k1, so one occurrence scores the term's weight × 1
    if (weights[k - 1]! > scoreCeiling(rest)) return k;
  }
  return weights.length;
}

/**
 * Chunks holding all the selective terms first. When those are too few, the any-term pass, max-score style: if
 * the chunks holding one of the few heaviest terms fill the pool and its cut scores above anything the other terms
 * could give a chunk without them, no other chunk can enter the pool, and they are not scored. So "photoelastic
 * material properties" scores the chunks with its two rare words, not the hundred thousand that only say
 * "properties" (1.2 s → 0.25 s on 1M chunks, measured). Otherwise every chunk holding a selective term is scored,
 * and when those do not fill the pool, every chunk holding any term.
 * (Tiers of "at least m of the terms" were tried: GIN evaluates such a tsquery's dozens of conjunctions for every
 * chunk holding any term, 100–300 ms a tier on 1M chunks, for no gain.)
 */
async function proposeWithSql(tx: Tx, query: CandidateQuery): Promise<Candidates> {
  const lexemes = query.terms.map((term) => term.lexeme);
  const byWeight = [...query.terms].sort((a, b) => b.weight - a.weight || (a.lexeme < b.lexeme ? -1 : 1));
  const selective = byWeight.slice(0, MAX_CANDIDATE_TERMS);
  const run = async (terms: readonly { lexeme: string }[], operator: '&' | '|') => {
    const tsquery = lexemeTsquery(
      terms.map((term) => term.lexeme),
      operator,
    );
    const result = await tx.execute(sql`
      WITH q(lexeme, weight) AS (
        SELECT * FROM unnest(${sql.param(lexemes)}::text[], ${sql.param(query.terms.map((term) => term.weight))}::float8[])
      )
      SELECT c.id, (
        SELECT sum(q.weight * cardinality(u.positions) * ${BM25_K1 + 1}::float8 / (cardinality(u.positions)
          + ${BM25_K1}::float8 * (1 - ${BM25_B}::float8 + ${BM25_B}::float8 * c.search_length / ${query.avgLength}::float8)))
        FROM unnest(ts_filter(setweight(c.search, 'A', ${sql.param(lexemes)}::text[]), '{a}')) AS u
        JOIN q ON q.lexeme = u.lexeme
      ) AS score
      FROM document_chunks c
      WHERE ${query.where} AND c.search @@ ${tsquery}::tsquery
      ORDER BY score DESC, c.id
      LIMIT ${query.depth}`);
    return result.rows.map((row) => ({ id: String(row.id), score: Number(row.score) }));
  };
  const pool = (rows: readonly { id: string }[], exhausted: boolean) => ({
    chunkIds: rows.map((row) => row.id),
    exhausted,
  });
  if (selective.length > 1) {
    const all = await run(selective, '&');
    if (all.length >= query.depth) return pool(all, false);
  }
  const heaviest = decisivePrefix(byWeight.map((term) => term.weight));
  if (heaviest < selective.length) {
    const found = await run(selective.slice(0, heaviest), '|');
    const cut = found[query.depth - 1]?.score;
    const rest = byWeight.slice(heaviest).reduce((sum, term) => sum + term.weight, 0);
    if (cut !== undefined && cut > scoreCeiling(rest)) return pool(found, false);
  }
  const any = await run(selective, '|');
  if (any.length >= query.depth || selective.length === byWeight.length) {
    return pool(any, any.length < query.depth);
  }
  // fewer matches than the pool holds: the other terms' chunks are all wanted (and few), or a match would be lost
  const every = await run(byWeight, '|');
  return pool(every, every.length < query.depth);
}
