/**
 * The two retrieval engines behind search (DESIGN §4). Each proposes the top `depth` chunks for a query under the
 * same SQL conditions (org, ACL, filters: always inside the query, never applied afterwards); ranking.ts scores
 * the proposals identically whichever engine made them.
 *
 * - `pg_textsearch`: the extension's `bm25` index and its top-k `<@>` operator (always in embedded PGlite; on
 *   servers where the extension is installed).
 * - `sql`: BM25 computed in SQL over the generated tsvector (GIN) with the org's statistics, for PostgreSQL
 *   15/16 servers: chunks holding all query terms first, then fewer of them tier by tier when those are too few
 *   (for long queries, the most informative terms).
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

async function proposeWithBm25Index(tx: Tx, query: CandidateQuery): Promise<Candidates> {
  const bm25Query = sql`to_bm25query(${query.q}::text, ${BM25_INDEX_NAME})`;
  const result = await tx.execute(sql`
    SELECT c.id, c.body <@> ${bm25Query} AS score
    FROM document_chunks c
    WHERE ${query.where}
    ORDER BY c.body <@> ${bm25Query}
    LIMIT ${query.depth}`);
  // <@> is the negated BM25 score; rows that match no term score 0 (only when the planner scans the heap)
  const chunkIds = result.rows.filter((row) => Number(row.score) < 0).map((row) => String(row.id));
  return { chunkIds, exhausted: chunkIds.length < query.depth };
}

/** A tsquery of exact lexemes (no second stemming pass), quoted as tsquery input expects. */
export function lexemeTsquery(lexemes: readonly string[], operator: '&' | '|'): string {
  return lexemes
    .map((lexeme) => `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`)
    .join(` ${operator} `);
}

/**
 * Long queries (a pasted question, a chat turn) propose candidates from their most informative terms only: a
 * chunk holding none of them cannot score high, and matching every chunk that has a common word would mean
 * scoring most of the org. Every term still counts in the score.
 */
const MAX_CANDIDATE_TERMS = 8;

/**
 * How many of the `n` selective terms a candidate must hold, tier by tier: all of them, then half, then two,
 * then one. Scoring a chunk in SQL costs a pass over its whole tsvector, so the pass stops at the first tier
 * that fills the pool: chunks holding more of the rarest terms are the ones BM25 ranks first, and a long
 * question's any-term tier holds most of the org (on 1M chunks, seconds of scoring for a page of ten).
 */
export function candidateTiers(n: number): number[] {
  return [...new Set([n, Math.ceil(n / 2), Math.min(2, n), 1])].filter((m) => m >= 1).sort((a, b) => b - a);
}

/** A tsquery matching what holds at least `m` of these lexemes: the disjunction of their m-term conjunctions. */
export function atLeastTsquery(lexemes: readonly string[], m: number): string {
  if (m <= 1 || lexemes.length <= 1) return lexemeTsquery(lexemes, '|');
  if (m >= lexemes.length) return lexemeTsquery(lexemes, '&');
  const groups: string[] = [];
  const pick = (from: number, chosen: string[]) => {
    if (chosen.length === m) {
      groups.push(`(${lexemeTsquery(chosen, '&')})`);
      return;
    }
    for (let i = from; i <= lexemes.length - (m - chosen.length); i++) pick(i + 1, [...chosen, lexemes[i]!]);
  };
  pick(0, []);
  return groups.join(' | ');
}

async function proposeWithSql(tx: Tx, query: CandidateQuery): Promise<Candidates> {
  const lexemes = query.terms.map((term) => term.lexeme);
  const selective = [...query.terms]
    .sort((a, b) => b.weight - a.weight || (a.lexeme < b.lexeme ? -1 : 1))
    .slice(0, MAX_CANDIDATE_TERMS)
    .map((term) => term.lexeme);
  const run = async (tsquery: string) => {
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
    return result.rows.map((row) => String(row.id));
  };
  let found: string[] = [];
  for (const m of candidateTiers(selective.length)) {
    found = await run(atLeastTsquery(selective, m));
    if (found.length >= query.depth) return { chunkIds: found, exhausted: false };
  }
  return { chunkIds: found, exhausted: true };
}
