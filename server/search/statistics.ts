/**
 * The BM25 statistics a viewer's ranking uses (N, average length, document frequencies), counted only over chunks
 * the viewer may read, so that no score and no order tells a member whether documents they cannot read hold a
 * word (issue 11: 40 admin-only documents holding a word used to move an org document's score).
 *
 * - Usually the org's shared statistics: the chunks every member may read (ACL `org` or `public`), kept by the
 *   indexer beside the all-chunk counts, so reading them costs what it always did.
 * - When the org shares fewer than MIN_SHARED_CHUNKS chunks (everything is private: mail, direct shares), those
 *   say next to nothing about words (with none, every idf is the same), so the viewer's own readable chunks are
 *   counted at query time instead: exact, and bounded by what the viewer reads. Which of the two applies depends
 *   only on the shared count, which every member could compute. A viewer who reads only the shared chunks gets
 *   the shared statistics, the same numbers, without counting.
 *
 * Candidate proposal by pg_textsearch still walks its index with the index's own (all-chunk) statistics; only the
 * candidates' scores and order come from here, and the pool is far deeper than a page (MIN_POOL in search.ts).
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../db/store';
import { lexemeTsquery } from './engines';
import type { CollectionStats } from './ranking';

/** Fewer shared chunks than this and ranking counts the viewer's readable chunks instead. */
export const MIN_SHARED_CHUNKS = 1000;

export interface RankingStatistics {
  collection: CollectionStats;
  /** Chunks holding each lexeme, among those the statistics count (absent: none). */
  docFreqs(lexemes: readonly string[]): Promise<Map<string, number>>;
}

export async function rankingStatistics(
  tx: Tx,
  orgId: string,
  principals: readonly string[],
): Promise<RankingStatistics> {
  const result = await tx.execute(sql`
    SELECT shared_chunk_count::float8 AS chunk_count, shared_total_length::float8 AS total_length
    FROM search_stats WHERE org_id = ${orgId}::uuid`);
  const shared: CollectionStats = {
    chunkCount: Number(result.rows[0]?.chunk_count ?? 0),
    totalLength: Number(result.rows[0]?.total_length ?? 0),
  };
  if (shared.chunkCount >= MIN_SHARED_CHUNKS)
    return { collection: shared, docFreqs: (lexemes) => sharedDocFreqs(tx, orgId, lexemes) };
  const readable = sql`c.org_id = ${orgId}::uuid AND c.acl && ${sql.param([...principals])}::text[]`;
  const counted = await tx.execute(sql`
    SELECT count(*)::float8 AS chunk_count, coalesce(sum(c.search_length), 0)::float8 AS total_length
    FROM document_chunks c WHERE ${readable}`);
  const collection: CollectionStats = {
    chunkCount: Number(counted.rows[0]?.chunk_count ?? 0),
    totalLength: Number(counted.rows[0]?.total_length ?? 0),
  };
  // every member reads the shared chunks, so as many readable chunks as shared ones means these are the same
  // chunks, and the indexer's shared frequencies are this viewer's exactly (a small org that keeps nothing private)
  if (collection.chunkCount === shared.chunkCount)
    return { collection: shared, docFreqs: (lexemes) => sharedDocFreqs(tx, orgId, lexemes) };
  return { collection, docFreqs: (lexemes) => readableDocFreqs(tx, readable, lexemes) };
}

async function sharedDocFreqs(
  tx: Tx,
  orgId: string,
  lexemes: readonly string[],
): Promise<Map<string, number>> {
  if (lexemes.length === 0) return new Map();
  const result = await tx.execute(sql`
    SELECT lexeme, shared_doc_freq FROM search_term_stats
    WHERE org_id = ${orgId}::uuid AND shared_doc_freq > 0 AND lexeme = ANY(${sql.param([...lexemes])}::text[])`);
  return new Map(result.rows.map((row) => [String(row.lexeme), Number(row.shared_doc_freq)]));
}

/**
 * One pass for all the lexemes: the GIN index finds the readable chunks holding any of them, and each such chunk's
 * tsvector is read once, cut to the asked lexemes (ts_filter). Counting each lexeme on its own read every readable
 * tsvector once per lexeme: ~3 ms a lexeme on 1,000 chunks, 150 ms for RM3's feedback vocabulary.
 */
async function readableDocFreqs(
  tx: Tx,
  readable: SQL,
  lexemes: readonly string[],
): Promise<Map<string, number>> {
  if (lexemes.length === 0) return new Map();
  const result = await tx.execute(sql`
    SELECT u.lexeme, count(*) AS n
    FROM document_chunks c,
      unnest(ts_filter(setweight(c.search, 'A', ${sql.param([...lexemes])}::text[]), '{a}')) AS u
    WHERE ${readable} AND c.search @@ ${lexemeTsquery(lexemes, '|')}::tsquery
    GROUP BY u.lexeme`);
  return new Map(result.rows.map((row) => [String(row.lexeme), Number(row.n)]));
}
