/**
 * The search module's one interface (DESIGN §4): indexing (documents → chunks, ACLs, statistics) and retrieval
 * (ranking, filters, facets). Everything else in server/search is private to it; a future external engine
 * (OpenSearch) would be another implementation of these functions.
 */
import type { Store } from '../db/store';
import { ensureEmbeddings } from './embeddings';
import { ensureSearchIndexes } from './engines';

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
 * Prepares the store for search at start: the pg_textsearch index where the extension exists, the vector column
 * when an embedding provider is configured. Idempotent; search would do it on first use, but a large table is
 * better indexed before the first query waits for it.
 */
export async function initSearch(
  store: Store,
): Promise<{ engine: 'pg_textsearch' | 'sql'; vectors: boolean }> {
  const engine = (await ensureSearchIndexes(store)) ? 'pg_textsearch' : 'sql';
  // a provider that is down at start is asked again on first use
  const vectors = (await ensureEmbeddings(store.db).catch(() => null)) !== null;
  return { engine, vectors };
}
