/**
 * The search module's one interface (DESIGN §4): indexing (documents → chunks, ACLs, statistics) and retrieval
 * (ranking, filters, facets). Everything else in server/search is private to it; a future external engine
 * (OpenSearch) would be another implementation of these functions.
 */
import { sql } from 'drizzle-orm';
import type { Store } from '../db/store';
import { ensureEmbeddings } from './embeddings';
import { ensureSearchIndexes, type SearchEngine } from './engines';

export {
  effectiveAcl,
  groupPrincipal,
  InvalidAclError,
  normalizePrincipal,
  ORG_PRINCIPAL,
  principalsFor,
  PUBLIC_PRINCIPAL,
  userPrincipal,
  type Principal,
} from './acl';
export { chunkDocument, estimateTokens, type Chunk, type ChunkOptions } from './chunking';
export { BM25_INDEX_NAME, ensureSearchIndexes, type SearchEngine } from './engines';
export { configureEmbeddings, ensureEmbeddings } from './embeddings';
export { loadEmbeddingSettings, type EmbeddingSettings } from './embeddings-provider';
export {
  deleteConnectionDocuments,
  deleteDocuments,
  recomputeStatistics,
  reindexOrg,
  setDocumentAcl,
  upsertDocuments,
  type DocumentRef,
  type IndexDocument,
  type IndexOptions,
  type ReindexResult,
  type UpsertResult,
} from './indexer';
export {
  countBy,
  countByObjectType,
  countBySource,
  DEFAULT_LIMIT,
  FACET_DEPTH,
  facetCounts,
  MAX_LIMIT,
  MAX_OFFSET,
  SEARCH_SORTS,
  searchChunks,
  TOTAL_CAP,
  type FacetCount,
  type FacetField,
  type SearchFilters,
  type SearchHit,
  type SearchHitChunk,
  type SearchRequest,
  type SearchResults,
  type SearchSort,
} from './search';

/**
 * Above this many chunks in one org, BM25 computed in SQL (PostgreSQL without pg_textsearch) answers long
 * questions in seconds rather than tenths of a second (docs/benchmarks.md, "1M chunks").
 */
export const SQL_ENGINE_COMFORT_CHUNKS = 200_000;

export interface SearchInit {
  engine: SearchEngine;
  vectors: boolean;
  /** Chunks of the org with the most. */
  largestOrgChunks: number;
}

/**
 * Prepares the store for search at start: the pg_textsearch index where the extension exists, the vector column
 * when an embedding provider is configured. Idempotent; search would do it on first use, but a large table is
 * better indexed before the first query waits for it.
 */
export async function initSearch(store: Store): Promise<SearchInit> {
  const engine = (await ensureSearchIndexes(store)) ? 'pg_textsearch' : 'sql';
  // a provider that is down at start is asked again on first use
  const vectors = (await ensureEmbeddings(store.db).catch(() => null)) !== null;
  const largest = await store.db.execute(
    sql`SELECT coalesce(max(chunk_count), 0)::float8 AS chunks FROM search_stats`,
  );
  return { engine, vectors, largestOrgChunks: Number(largest.rows[0]?.chunks ?? 0) };
}

/** What to tell the operator at start when the store's engine is slow for the size of an org, else null. */
export function searchScaleWarning(init: SearchInit): string | null {
  if (init.engine !== 'sql' || init.largestOrgChunks <= SQL_ENGINE_COMFORT_CHUNKS) return null;
  return (
    `an org holds ${init.largestOrgChunks} chunks: BM25 computed in SQL answers slowly at this size; ` +
    'PostgreSQL 17+ with the pg_textsearch extension searches it with a BM25 index'
  );
}
