/**
 * The vector signal of search (DESIGN §4), on when an embedding provider is configured (embeddings-provider.ts)
 * and the store has pgvector (always the embedded PGlite; a server only if its operator installed the extension).
 *
 * - Storage: `document_chunks.embedding vector(n)`, added here at start rather than by a migration (PostgreSQL 15
 *   in CI has no pgvector), with an HNSW index for cosine distance. The column's comment names the model: another
 *   model or length drops the column, and every chunk is embedded again.
 * - Indexing never waits on the provider's health: chunks are written without vectors, then embedded right after
 *   the write commits; whatever fails (provider down, rate limits) stays NULL, is still found by BM25, and the
 *   backfill job (embeddings-job.ts) embeds it later. A re-chunked document (an edit, `scout reindex`) keeps the
 *   vectors of the chunks whose text it still has (`keepingEmbeddings`).
 * - Query: the query's vector (recent ones cached) finds the nearest chunks under the same org, ACL and filter
 *   conditions as BM25, inside the same query; the two rankings are fused by reciprocal rank (see `fuseRankings`).
 *
 * Without a provider none of this runs and search behaves exactly as BM25 alone. Without pgvector one log line
 * says the vector signal is off.
 */
import { sql, type SQL } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import { newId } from '../db/ids';
import { jobs } from '../db/schema';
import type { Db, DbOrTx, Tx } from '../db/store';
import { createLogger, type Logger } from '../logger';
import {
  createEmbeddingClient,
  loadEmbeddingSettings,
  type ClientOptions,
  type EmbeddingClient,
  type EmbeddingSettings,
} from './embeddings-provider';
import { recencyFactor, type RankedDocument } from './ranking';

export const EMBEDDING_COLUMN = 'embedding';
export const EMBEDDING_INDEX_NAME = 'document_chunks_embedding_idx';
const PENDING_INDEX_NAME = 'document_chunks_embedding_pending_idx';
/** pgvector's HNSW indexes `vector` up to this many dimensions; longer vectors are searched exactly. */
export const HNSW_MAX_DIMENSIONS = 2000;
export const EMBEDDINGS_BACKFILL_JOB = 'search.embeddings-backfill';

/** Chunks read and written per round of a backfill (the client splits them into provider batches). */
const BACKFILL_PAGE = 256;
/** A search waits this long for its query's vector at most, with one retry, then ranks by BM25 alone. */
const QUERY_TIMEOUT_MS = 5_000;
const QUERY_CACHE_SIZE = 500;
const QUERY_CACHE_TTL_MS = 10 * 60_000;

export interface VectorIndex {
  client: EmbeddingClient;
  dimensions: number;
  /** HNSW index present (false past HNSW_MAX_DIMENSIONS: exact search). */
  indexed: boolean;
  /** pgvector 0.8+: filtered HNSW scans keep going until they found enough rows that pass the ACL. */
  iterativeScan: boolean;
  logger: Logger;
  queryCache: Map<string, { vector: number[]; at: number }>;
}

interface Configuration {
  settings: EmbeddingSettings | null;
  client?: ClientOptions;
  logger?: Logger;
}

/** A store's provider: one client per store, so its cool-down after failures holds across calls. */
interface Provider {
  settings: EmbeddingSettings | null;
  client: EmbeddingClient | null;
  logger: Logger;
}

const providers = new WeakMap<Db, Provider>();
const ready = new WeakMap<Db, Promise<VectorIndex | null>>();
let defaultLogger: Logger | undefined;

function provider(
  settings: EmbeddingSettings | null,
  configuration: Omit<Configuration, 'settings'>,
): Provider {
  return {
    settings,
    client: settings ? createEmbeddingClient(settings, configuration.client) : null,
    logger: configuration.logger ?? (defaultLogger ??= createLogger(process.env.LOG_LEVEL ?? 'info')),
  };
}

/**
 * Chooses the provider of this store instead of the environment's (tests, benchmarks); call before indexing or
 * searching. `settings: null` turns vectors off.
 */
export function configureEmbeddings(db: Db, configuration: Configuration): void {
  providers.set(db, provider(configuration.settings, configuration));
  ready.delete(db);
}

/** Environment settings, or null; a malformed value turns vectors off with an error in the log, never indexing. */
function environmentSettings(): EmbeddingSettings | null {
  try {
    return loadEmbeddingSettings();
  } catch (err) {
    (defaultLogger ??= createLogger(process.env.LOG_LEVEL ?? 'info')).error(
      { err },
      'search: invalid embedding settings; the vector signal is off',
    );
    return null;
  }
}

/** The store's provider (no database or network round trip). */
function providerOf(db: Db): Provider {
  let found = providers.get(db);
  if (!found) {
    found = provider(environmentSettings(), {});
    providers.set(db, found);
  }
  return found;
}

const vectorLiteral = (vector: readonly number[]) => `[${vector.join(',')}]`;

/**
 * Prepares the vector column and its indexes for the configured provider; memoised per store. Resolves to null
 * when vectors are off (no provider, or no pgvector). Rejects when the provider could not be asked for its
 * vectors' length (first start without EMBEDDING_DIMENSIONS, provider down): the next call tries again.
 */
export function ensureEmbeddings(db: Db): Promise<VectorIndex | null> {
  let promise = ready.get(db);
  if (!promise) {
    promise = initialise(db);
    promise.catch(() => ready.delete(db));
    ready.set(db, promise);
  }
  return promise;
}

/** The vector column's type (`vector(n)`) and the model named in its comment, if the column exists. */
async function vectorColumn(db: DbOrTx): Promise<{ type: unknown; model: unknown } | undefined> {
  const result = await db.execute(sql`
    SELECT format_type(a.atttypid, a.atttypmod) AS type, col_description(a.attrelid, a.attnum) AS model
    FROM pg_attribute a
    WHERE a.attrelid = 'document_chunks'::regclass AND a.attname = ${EMBEDDING_COLUMN} AND NOT a.attisdropped`);
  const row = result.rows[0];
  return row && { type: row.type, model: row.model };
}

async function initialise(db: Db): Promise<VectorIndex | null> {
  const { settings, client, logger } = providerOf(db);
  if (!settings || !client) return null;
  const extension = await db.execute(sql`SELECT extversion FROM pg_extension WHERE extname = 'vector'`);
  const version = extension.rows[0]?.extversion;
  if (version == null) {
    logger.warn(
      { model: settings.model },
      'search: an embedding provider is configured but this PostgreSQL has no pgvector extension; ' +
        'the vector signal is off and search ranks by BM25 alone',
    );
    return null;
  }
  const existing = await vectorColumn(db);
  const existingDimensions = Number(/^vector\((\d+)\)$/.exec(String(existing?.type ?? ''))?.[1] ?? 0);
  const sameModel = existing?.model === settings.model;
  const dimensions =
    settings.dimensions ??
    (sameModel && existingDimensions > 0
      ? existingDimensions
      : (await client.embed(['dimension probe'], { timeoutMs: QUERY_TIMEOUT_MS, retries: 1 }))[0]!.length);
  const indexed = dimensions <= HNSW_MAX_DIMENSIONS;

  await db.transaction(async (tx) => {
    // serialises starts of several processes on one server
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended('scout:search-embeddings', 0))`);
    const current = await vectorColumn(tx);
    const wanted = `vector(${dimensions})`;
    if (current && (current.type !== wanted || current.model !== settings.model)) {
      logger.info(
        { from: { model: current.model, type: current.type }, to: { model: settings.model, type: wanted } },
        'search: the embedding model changed; every chunk will be embedded again',
      );
      await tx.execute(sql.raw(`ALTER TABLE document_chunks DROP COLUMN ${EMBEDDING_COLUMN}`));
    }
    if (!current || current.type !== wanted || current.model !== settings.model) {
      await tx.execute(sql.raw(`ALTER TABLE document_chunks ADD COLUMN ${EMBEDDING_COLUMN} ${wanted}`));
      await tx.execute(
        sql.raw(
          `COMMENT ON COLUMN document_chunks.${EMBEDDING_COLUMN} IS '${settings.model.replace(/'/g, "''")}'`,
        ),
      );
    }
    // the backfill looks for chunks without a vector; without this it would scan the whole table each pass
    await tx.execute(
      sql.raw(
        `CREATE INDEX IF NOT EXISTS ${PENDING_INDEX_NAME} ON document_chunks (id) WHERE ${EMBEDDING_COLUMN} IS NULL`,
      ),
    );
    if (indexed) {
      await tx.execute(
        sql.raw(
          `CREATE INDEX IF NOT EXISTS ${EMBEDDING_INDEX_NAME} ON document_chunks ` +
            `USING hnsw (${EMBEDDING_COLUMN} vector_cosine_ops)`,
        ),
      );
    }
  });
  if (!indexed) {
    logger.warn(
      { dimensions, max: HNSW_MAX_DIMENSIONS },
      'search: embeddings are too long for an HNSW index; vector search scans every readable chunk',
    );
  }
  const [major = 0, minor = 0] = String(version).split('.').map(Number);
  logger.info({ model: settings.model, dimensions }, 'search: vector signal on');
  return {
    client,
    dimensions,
    indexed,
    iterativeScan: major > 0 || minor >= 8,
    logger,
    queryCache: new Map(),
  };
}

// ---------------------------------------------------------------------------------------------
// Indexing
// ---------------------------------------------------------------------------------------------

export interface EmbedResult {
  embedded: number;
  /** Chunks left without a vector by this pass (provider errors); a later pass retries them. */
  failed: number;
}

/**
 * Embeds chunks that have no vector yet (all of them, or an org's, or some documents'), page by page in id order
 * so each chunk is tried once per pass. A provider error ends the pass early and is logged, never thrown.
 */
export async function embedPendingChunks(
  db: Db,
  index: VectorIndex,
  scope: {
    orgId?: string;
    documentIds?: readonly string[];
    signal?: AbortSignal;
    /** Stop starting pages after this time (epoch ms); what is left waits for the next pass. */
    until?: number;
  } = {},
): Promise<EmbedResult> {
  const result: EmbedResult = { embedded: 0, failed: 0 };
  const conditions: SQL[] = [sql.raw(`c.${EMBEDDING_COLUMN} IS NULL`)];
  if (scope.orgId) conditions.push(sql`c.org_id = ${scope.orgId}::uuid`);
  if (scope.documentIds)
    conditions.push(sql`c.document_id = ANY(${sql.param([...scope.documentIds])}::uuid[])`);
  let after: string | null = null;
  while (!scope.signal?.aborted && Date.now() < (scope.until ?? Infinity)) {
    const page: { rows: Record<string, unknown>[] } = await db.execute(sql`
      SELECT c.id, c.body FROM document_chunks c
      WHERE ${sql.join(conditions, sql` AND `)} ${after ? sql`AND c.id > ${after}::uuid` : sql``}
      ORDER BY c.id LIMIT ${BACKFILL_PAGE}`);
    if (page.rows.length === 0) break;
    const ids = page.rows.map((row) => String(row.id));
    after = ids[ids.length - 1]!;
    let vectors: number[][];
    try {
      vectors = await index.client.embed(
        page.rows.map((row) => String(row.body)),
        { signal: scope.signal },
      );
      if (vectors.some((vector) => vector.length !== index.dimensions)) {
        throw new Error(`the provider's vectors no longer have ${index.dimensions} dimensions`);
      }
    } catch (err) {
      result.failed += ids.length;
      index.logger.warn(
        { err, chunks: ids.length, orgId: scope.orgId },
        'search: could not embed chunks; they stay searchable by BM25 and are retried later',
      );
      break;
    }
    // a chunk re-chunked meanwhile is gone (its id with it): the update then matches nothing
    await db.execute(sql`
      UPDATE document_chunks c SET ${sql.raw(EMBEDDING_COLUMN)} = v.embedding::vector
      FROM unnest(${sql.param(ids)}::uuid[], ${sql.param(vectors.map(vectorLiteral))}::text[]) AS v(id, embedding)
      WHERE c.id = v.id AND c.${sql.raw(EMBEDDING_COLUMN)} IS NULL`);
    result.embedded += ids.length;
  }
  return result;
}

/**
 * Runs `rewrite` (which replaces the chunks of these documents) keeping the vectors of chunks whose text did not
 * change: a new chunk with the same text as an old one of its document takes the old vector, so an edit to one
 * paragraph re-embeds that paragraph's chunk, not the whole document (the provider's calls cost money and time).
 * Inside the indexer's transaction; without the vector column it only runs `rewrite`.
 */
export async function keepingEmbeddings(
  tx: Tx,
  orgId: string,
  documentIds: readonly string[],
  rewrite: () => Promise<void>,
): Promise<void> {
  if (documentIds.length === 0 || !(await vectorColumn(tx))) return rewrite();
  // a name per call: an outer transaction may hold several indexer batches
  const kept = sql.identifier(`scout_kept_embeddings_${newId().replace(/-/g, '')}`);
  const ids = sql.param([...documentIds]);
  const column = sql.raw(EMBEDDING_COLUMN);
  await tx.execute(sql`
    CREATE TEMP TABLE ${kept} ON COMMIT DROP AS
    SELECT DISTINCT ON (c.document_id, md5(c.body)) c.document_id, md5(c.body) AS body_hash, c.${column} AS vector
    FROM document_chunks c
    WHERE c.org_id = ${orgId}::uuid AND c.document_id = ANY(${ids}::uuid[]) AND c.${column} IS NOT NULL`);
  await rewrite();
  await tx.execute(sql`
    UPDATE document_chunks c SET ${column} = k.vector
    FROM ${kept} k
    WHERE c.org_id = ${orgId}::uuid AND c.document_id = ANY(${ids}::uuid[]) AND c.${column} IS NULL
      AND c.document_id = k.document_id AND md5(c.body) = k.body_hash`);
  await tx.execute(sql`DROP TABLE ${kept}`);
}

/**
 * Called by the indexer after it wrote chunks. On a store handle, embeds them now. Inside a caller's transaction
 * (a sync batch) it does not hold that transaction open on network calls: it queues the backfill job, which runs
 * once the batch commits. Never throws: a chunk without a vector is still found by BM25.
 */
export async function embedIndexedChunks(
  db: DbOrTx,
  orgId: string,
  documentIds?: readonly string[],
): Promise<EmbedResult | null> {
  if (db instanceof PgTransaction) {
    // a transaction handle is not the store: only the environment can say whether vectors are wanted
    if (!environmentSettings()) return null;
    await db
      .insert(jobs)
      .values({
        id: newId(),
        kind: EMBEDDINGS_BACKFILL_JOB,
        // one job embeds every org's pending chunks
        orgId: null,
        payload: {},
        status: 'queued',
        dedupeKey: EMBEDDINGS_BACKFILL_JOB,
      })
      .onConflictDoNothing();
    return null;
  }
  if (!providerOf(db).settings) return null;
  try {
    const index = await ensureEmbeddings(db);
    return index ? await embedPendingChunks(db, index, { orgId, documentIds }) : null;
  } catch (err) {
    // the documents are committed: failing the call now would report an indexing that happened as failed
    providerOf(db).logger.warn(
      { err },
      'search: could not embed new chunks; they stay searchable by BM25 and are embedded later',
    );
    return null;
  }
}

// ---------------------------------------------------------------------------------------------
// Query
// ---------------------------------------------------------------------------------------------

export interface VectorQuery {
  index: VectorIndex;
  vector: number[];
}

/**
 * The query's vector for a relevance search, or null (vectors off, blank query, another sort, provider failing:
 * search then ranks by BM25 alone). Call it before opening the search's transaction: it may wait on the network.
 */
export async function prepareVectorQuery(
  db: Db,
  request: { q: string; sort?: string },
): Promise<VectorQuery | null> {
  const q = request.q.trim();
  if (q === '' || (request.sort ?? 'relevance') !== 'relevance' || !providerOf(db).settings) return null;
  let index: VectorIndex | null = null;
  try {
    index = await ensureEmbeddings(db);
    if (!index) return null;
    const cached = index.queryCache.get(q);
    if (cached && Date.now() - cached.at < QUERY_CACHE_TTL_MS) {
      // re-inserted so the map's order stays least-recently-used first
      index.queryCache.delete(q);
      index.queryCache.set(q, cached);
      return { index, vector: cached.vector };
    }
    const [vector] = await index.client.embed([q], { timeoutMs: QUERY_TIMEOUT_MS, retries: 1 });
    if (!vector || vector.length !== index.dimensions) return null;
    index.queryCache.set(q, { vector, at: Date.now() });
    if (index.queryCache.size > QUERY_CACHE_SIZE) {
      index.queryCache.delete(index.queryCache.keys().next().value!);
    }
    return { index, vector };
  } catch (err) {
    providerOf(db).logger.warn({ err }, 'search: could not embed the query; ranking by BM25 alone');
    return null;
  }
}

export interface VectorHit {
  chunkId: string;
  documentId: string;
  similarity: number;
  modifiedTime: Date | null;
}

/**
 * The `depth` nearest chunks to the query among those `where` admits (org, ACL, filters on `c`), at least as
 * similar as the provider's minimum, nearest first. The conditions are part of the nearest-neighbour query
 * itself, so a chunk the viewer may not read is never a candidate.
 */
export async function nearestChunks(
  tx: Tx,
  query: VectorQuery,
  where: SQL,
  depth: number,
): Promise<VectorHit[]> {
  const { index } = query;
  if (index.indexed) {
    // ef_search bounds what one HNSW scan returns; with pgvector 0.8 a filtered scan continues past it
    await tx.execute(sql.raw(`SET LOCAL hnsw.ef_search = ${Math.min(Math.max(depth, 100), 1000)}`));
    if (index.iterativeScan) await tx.execute(sql.raw(`SET LOCAL hnsw.iterative_scan = relaxed_order`));
  }
  const vector = vectorLiteral(query.vector);
  const column = sql.raw(`c.${EMBEDDING_COLUMN}`);
  const result = await tx.execute(sql`
    SELECT nearest.* FROM (
      SELECT c.id, c.document_id, c.modified_time, ${column} <=> ${vector}::vector AS distance
      FROM document_chunks c
      WHERE ${where} AND ${column} IS NOT NULL
      ORDER BY ${column} <=> ${vector}::vector
      LIMIT ${depth}
    ) AS nearest
    WHERE nearest.distance <= ${1 - index.client.settings.minSimilarity}::float8
    ORDER BY nearest.distance, nearest.id`);
  return result.rows.map((row) => ({
    chunkId: String(row.id),
    documentId: String(row.document_id),
    similarity: 1 - Number(row.distance),
    modifiedTime: row.modified_time == null ? null : new Date(row.modified_time as string | Date),
  }));
}

// ---------------------------------------------------------------------------------------------
// Fusion
// ---------------------------------------------------------------------------------------------

/** Cormack, Clarke and Büttcher (2009): k = 60 damps the head of each list; the usual default, not tuned here. */
export const RRF_K = 60;

/** What the document at 0-based `rank` of one fused ranking adds to its fused score. */
export const reciprocalRank = (rank: number): number => 1 / (RRF_K + rank + 1);

/**
 * Reciprocal-rank fusion of the BM25 ranking (documents) with the vector hits (chunks). Ranks rather than
 * normalised scores, because the two scales share nothing: BM25 is unbounded and depends on the query's length and
 * the org's statistics, while cosine similarities crowd into a band that differs per model (0.1–0.5 for OpenAI's,
 * 0.6–0.9 for many open ones). A blend would need a weight tuned per model and collection; RRF needs none and is
 * at least as good as tuned blends on the standard collections.
 *
 * Vector hits collapse per document first (its most similar chunk decides, with the mild recency prior BM25
 * documents already carry), so one document's chunks never take several places. A document found by BM25 keeps its
 * BM25 chunks (they hold the query's words, for the snippet and highlights); one found only by its vector lists
 * its nearest chunks.
 */
export function fuseRankings(
  bm25: readonly RankedDocument[],
  hits: readonly VectorHit[],
  now: Date,
): RankedDocument[] {
  const byDocument = new Map<string, { score: number; chunks: { chunkId: string; score: number }[] }>();
  for (const hit of hits) {
    const entry = byDocument.get(hit.documentId);
    if (entry) {
      entry.chunks.push({ chunkId: hit.chunkId, score: hit.similarity });
      continue;
    }
    byDocument.set(hit.documentId, {
      score: hit.similarity * recencyFactor(hit.modifiedTime, now),
      chunks: [{ chunkId: hit.chunkId, score: hit.similarity }],
    });
  }
  const vectorRanked = [...byDocument.entries()].sort(
    (a, b) => b[1].score - a[1].score || compare(a[0], b[0]),
  );

  const fused = new Map<string, RankedDocument>();
  bm25.forEach((doc, rank) => {
    fused.set(doc.documentId, { ...doc, score: reciprocalRank(rank) });
  });
  vectorRanked.forEach(([documentId, entry], rank) => {
    const contribution = reciprocalRank(rank);
    const existing = fused.get(documentId);
    if (existing) existing.score += contribution;
    else fused.set(documentId, { documentId, score: contribution, chunks: entry.chunks });
  });
  return [...fused.values()].sort((a, b) => b.score - a.score || compare(a.documentId, b.documentId));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The vector signal's part of one relevance search, inside its transaction: the nearest readable chunks fused with
 * the BM25 ranking, and how many of the hits' documents do not match the query's words (`total` counts those too).
 * `matching` is `where` plus the lexical match.
 */
export async function withVectorSignal(
  tx: Tx,
  query: VectorQuery,
  options: { where: SQL; matching: SQL; ranked: readonly RankedDocument[]; wanted: number; now: Date },
): Promise<{ ranked: RankedDocument[]; vectorOnly: number }> {
  const depth = Math.min(Math.max(5 * options.wanted, 100), 1000);
  const hits = await nearestChunks(tx, query, options.where, depth);
  if (hits.length === 0) return { ranked: [...options.ranked], vectorOnly: 0 };
  const documentIds = [...new Set(hits.map((hit) => hit.documentId))];
  const lexical = await tx.execute(sql`
    SELECT DISTINCT c.document_id FROM document_chunks c
    WHERE ${options.matching} AND c.document_id = ANY(${sql.param(documentIds)}::uuid[])`);
  return {
    ranked: fuseRankings(options.ranked, hits, options.now),
    vectorOnly: documentIds.length - lexical.rows.length,
  };
}
