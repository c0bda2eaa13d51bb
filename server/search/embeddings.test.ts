import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Org } from '../db/schema';
import { openStore, type Db, type Store } from '../db/store';
import { runWorker } from '../jobs/worker';
import {
  embedText,
  startEmbeddingsServer,
  type EmbeddingsTestServer,
} from '../llm/testing/embeddings-server';
import { createOrg } from '../testing/fixtures';
import { principalsFor, userPrincipal } from './acl';
import {
  configureEmbeddings,
  EMBEDDINGS_BACKFILL_JOB,
  embedPendingChunks,
  ensureEmbeddings,
  fuseRankings,
  RRF_K,
} from './embeddings';
import './embeddings-job';
import type { EmbeddingSettings } from './embeddings-provider';
import { reindexOrg, upsertDocuments, type IndexDocument } from './indexer';
import { facetCounts, searchChunks } from './search';
import { openServerTestStore, testDatabaseUrl } from '../testing/database';

// wide enough that the fake model's hashed words rarely share a coordinate
const DIMENSIONS = 256;
/** Opening a store runs every migration: slow on a loaded 2-core machine. */
const STORE_TIMEOUT_MS = 180_000;

/** A pino logger whose lines a test can read. */
function capturingLogger() {
  const lines: { level: number; msg: string }[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { logger, lines };
}

/** A port nothing listens on: an embedding provider that is down. */
async function deadUrl(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return `http://127.0.0.1:${port}/v1`;
}

const doc = (externalId: string, title: string, body: string, acl: string[] = ['org']): IndexDocument => ({
  source: 'confluence',
  externalId,
  title,
  body,
  acl,
  objectType: 'page',
});

const FIXTURES: IndexDocument[] = [
  doc(
    'cars',
    'Fleet guide',
    'Every car gets new tyres and an oil change each spring. Car keys live at reception.',
  ),
  doc(
    'revenue',
    'Quarterly revenue',
    'Revenue grew in the third quarter thanks to new enterprise contracts.',
  ),
  doc('laptops', 'Equipment', 'Every new starter receives a laptop. Laptop repairs go through IT.'),
  doc('private', 'Vehicle lease', 'Confidential: the vehicle lease terms negotiated by Alice.', [
    userPrincipal('alice@acme.example.com'),
  ]),
];

describe('the vector signal on the embedded store', () => {
  let server: EmbeddingsTestServer;
  let settings: EmbeddingSettings;
  const stores: Store[] = [];
  let orgCount = 0;

  const openConfigured = async (overrides: Partial<EmbeddingSettings> = {}, clientOptions = {}) => {
    const store = await openStore({ dataDir: 'memory://' });
    stores.push(store);
    const { logger, lines } = capturingLogger();
    configureEmbeddings(store.db, {
      settings: { ...settings, ...overrides },
      client: { backoffMs: 1, ...clientOptions },
      logger,
    });
    const org = await createOrg(store.db, { domain: `vectors-${++orgCount}.example.com` });
    return { store, org, lines };
  };
  const search = async (store: Store, org: Org, email: string, q: string) =>
    searchChunks(store, {
      orgId: org.id,
      principals: await principalsFor(store.db, org.id, email),
      q,
      feedback: false,
    });
  const titles = (results: Awaited<ReturnType<typeof searchChunks>>) => results.hits.map((hit) => hit.title);
  /** Counts by app from the search's own pass and from facetCounts. */
  const facetsOf = async (store: Store, org: Org, email: string, q: string) => {
    const principals = await principalsFor(store.db, org.id, email);
    const shared = await searchChunks(store, {
      orgId: org.id,
      principals,
      q,
      feedback: false,
      facets: ['source'],
    });
    const apart = await facetCounts(store, { orgId: org.id, principals, q }, { source: {} });
    return { shared: shared.facets, apart };
  };
  const vectorCount = async (db: Db, orgId: string) => {
    const result = await db.execute(sql`
      SELECT count(*) FILTER (WHERE embedding IS NOT NULL)::int AS embedded, count(*)::int AS chunks
      FROM document_chunks WHERE org_id = ${orgId}::uuid`);
    return { embedded: Number(result.rows[0]!.embedded), chunks: Number(result.rows[0]!.chunks) };
  };

  beforeAll(async () => {
    server = await startEmbeddingsServer({ dimensions: DIMENSIONS });
    settings = {
      baseURL: server.url,
      apiKey: undefined,
      model: 'fake-bow',
      dimensions: undefined,
      minSimilarity: 0.3,
    };
  }, STORE_TIMEOUT_MS);
  afterEach(() => {
    server.failures.length = 0;
    vi.unstubAllEnvs();
  }, STORE_TIMEOUT_MS);
  afterAll(async () => {
    for (const store of stores) await store.close();
    await server?.close();
  }, STORE_TIMEOUT_MS);

  /** One store for the tests that share the default configuration (opening a store is the slow part). */
  let shared: Promise<{ store: Store; lines: { level: number; msg: string }[] }> | undefined;
  const openShared = async () => {
    shared ??= openConfigured();
    const { store, lines } = await shared;
    const org = await createOrg(store.db, { domain: `vectors-${++orgCount}.example.com` });
    return { store, org, lines };
  };

  it(
    'stores a vector per chunk at indexing, in a column sized by the model and an HNSW index',
    async () => {
      const { store, org, lines } = await openShared();
      await upsertDocuments(store.db, org.id, FIXTURES);
      const counts = await vectorCount(store.db, org.id);
      expect(counts.chunks).toBeGreaterThanOrEqual(FIXTURES.length);
      expect(counts.embedded).toBe(counts.chunks);

      const column = await store.db.execute(sql`
      SELECT format_type(a.atttypid, a.atttypmod) AS type, col_description(a.attrelid, a.attnum) AS model
      FROM pg_attribute a WHERE a.attrelid = 'document_chunks'::regclass AND a.attname = 'embedding'`);
      expect(column.rows[0]).toEqual({ type: `vector(${DIMENSIONS})`, model: 'fake-bow' });
      const indexes = await store.db.execute(sql`
      SELECT indexdef FROM pg_indexes WHERE tablename = 'document_chunks' AND indexname = 'document_chunks_embedding_idx'`);
      expect(String(indexes.rows[0]?.indexdef)).toMatch(/hnsw.*vector_cosine_ops/);

      // the stored vector is the provider's vector of the chunk's indexed text
      const stored = await store.db.execute(sql`
      SELECT c.body, c.embedding::text AS embedding FROM document_chunks c
      JOIN documents d ON d.id = c.document_id WHERE d.external_id = 'cars' AND c.org_id = ${org.id}::uuid`);
      const vector = (JSON.parse(String(stored.rows[0]!.embedding)) as number[]).map((x) =>
        Number(x.toFixed(5)),
      );
      expect(vector).toEqual(
        embedText(String(stored.rows[0]!.body), DIMENSIONS).map((x) => Number(x.toFixed(5))),
      );
      expect(lines.some((line) => line.msg === 'search: vector signal on')).toBe(true);

      // an unchanged batch embeds nothing again
      const before = server.requests.length;
      await upsertDocuments(store.db, org.id, FIXTURES);
      expect(server.requests.length).toBe(before);
    },
    STORE_TIMEOUT_MS,
  );

  it(
    'finds a document whose words differ from the query but whose meaning matches',
    async () => {
      const { store, org } = await openShared();
      await upsertDocuments(store.db, org.id, FIXTURES);
      const results = await search(store, org, 'bob@acme.example.com', 'automobile');
      expect(titles(results)).toEqual(['Fleet guide']);
      expect(results.total).toBe(1);
      expect(results.hits[0]!.missingTerms).toEqual(['automobile']);
      // and counted in the facets, whether they come from the search's own pass or apart
      expect(await facetsOf(store, org, 'bob@acme.example.com', 'automobile')).toEqual({
        shared: { source: [{ value: 'confluence', count: 1 }] },
        apart: { source: [{ value: 'confluence', count: 1 }] },
      });

      // a lexical match and a semantic one are both found, one hit per document
      const both = await search(store, org, 'bob@acme.example.com', 'notebook revenue');
      expect(new Set(titles(both))).toEqual(new Set(['Quarterly revenue', 'Equipment']));
      expect(both.total).toBe(2);
    },
    STORE_TIMEOUT_MS,
  );

  it(
    'never returns a vector hit from a document the viewer may not read',
    async () => {
      const { store, org } = await openShared();
      await upsertDocuments(store.db, org.id, FIXTURES);
      const bob = await search(store, org, 'bob@acme.example.com', 'automobile vehicles');
      expect(titles(bob)).toEqual(['Fleet guide']);
      expect(bob.total).toBe(1);
      expect(await facetsOf(store, org, 'bob@acme.example.com', 'automobile vehicles')).toEqual({
        shared: { source: [{ value: 'confluence', count: 1 }] },
        apart: { source: [{ value: 'confluence', count: 1 }] },
      });
      const alice = await search(store, org, 'alice@acme.example.com', 'automobile vehicles');
      expect(new Set(titles(alice))).toEqual(new Set(['Fleet guide', 'Vehicle lease']));

      // nor from another org
      const other = await createOrg(store.db, { domain: `vectors-other-${orgCount}.example.com` });
      expect(titles(await search(store, other, 'bob@acme.example.com', 'automobile'))).toEqual([]);
    },
    STORE_TIMEOUT_MS,
  );

  it(
    'embeds again only the chunks whose text changed, when a document is edited or the org reindexed',
    async () => {
      const { store, org } = await openShared();
      const section = (name: string, topic: string) =>
        `# ${name}\n\n` +
        Array.from(
          { length: 25 },
          (_, i) => `Line ${i} of the ${topic} section explains one more rule.`,
        ).join(' ');
      const body = (third: string) =>
        [section('Travel', 'travel'), section('Expenses', 'expense'), section('Laptops', third)].join('\n\n');
      const handbook = (third: string) => doc('handbook', 'Handbook', body(third));
      await upsertDocuments(store.db, org.id, [handbook('laptop')]);
      const chunkTexts = async () =>
        (
          await store.db.execute(sql`
            SELECT c.body, c.embedding::text AS embedding FROM document_chunks c
            WHERE c.org_id = ${org.id}::uuid ORDER BY c.ord`)
        ).rows.map((row) => ({ body: String(row.body), embedding: row.embedding }));
      const before = await chunkTexts();
      expect(before).toHaveLength(3);

      const sent = server.requests.length;
      const edit = await upsertDocuments(store.db, org.id, [handbook('hardware')]);
      expect(edit.rechunked).toBe(1);
      const after = await chunkTexts();
      expect(after.slice(0, 2)).toEqual(before.slice(0, 2));
      expect(after[2]!.body).toContain('hardware section');
      // the provider saw the edited chunk only, and every chunk has the vector of its own text
      expect(server.requests.slice(sent).flatMap((request) => request.input)).toEqual([after[2]!.body]);
      for (const chunk of after) {
        const vector = (JSON.parse(String(chunk.embedding)) as number[]).map((x) => Number(x.toFixed(5)));
        expect(vector).toEqual(embedText(chunk.body, DIMENSIONS).map((x) => Number(x.toFixed(5))));
      }

      const beforeReindex = server.requests.length;
      await reindexOrg(store.db, org.id);
      expect(server.requests.length).toBe(beforeReindex);
      expect(await chunkTexts()).toEqual(after);
    },
    STORE_TIMEOUT_MS,
  );

  it(
    'indexes and searches by BM25 while the provider fails, and embeds the chunks later',
    async () => {
      const { store, org, lines } = await openConfigured({ dimensions: DIMENSIONS }, { cooldownMs: 0 });
      // every attempt of the first batch fails (one try and three retries)
      server.failures.push(...Array.from({ length: 4 }, () => ({ status: 503 })));
      const written = await upsertDocuments(store.db, org.id, FIXTURES);
      expect(written.inserted).toBe(FIXTURES.length);
      expect((await vectorCount(store.db, org.id)).embedded).toBe(0);
      expect(lines.some((line) => /could not embed chunks/.test(line.msg))).toBe(true);

      // the query's vector fails too (one try, one retry): BM25 still answers
      server.failures.push({ status: 500 }, { status: 500 });
      expect(titles(await search(store, org, 'bob@acme.example.com', 'car keys'))).toEqual(['Fleet guide']);
      expect(lines.some((line) => /could not embed the query/.test(line.msg))).toBe(true);

      // the backfill pass picks up what was left
      const index = await ensureEmbeddings(store.db);
      const pass = await embedPendingChunks(store.db, index!);
      const counts = await vectorCount(store.db, org.id);
      expect(pass).toEqual({ embedded: counts.chunks, failed: 0 });
      expect(counts.embedded).toBe(counts.chunks);
      expect(titles(await search(store, org, 'bob@acme.example.com', 'automobile'))).toEqual(['Fleet guide']);
    },
    STORE_TIMEOUT_MS,
  );

  it(
    'works on BM25 alone when the provider is unreachable from the start',
    async () => {
      const { store, org, lines } = await openConfigured({ baseURL: await deadUrl() });
      const written = await upsertDocuments(store.db, org.id, FIXTURES);
      expect(written.inserted).toBe(FIXTURES.length);
      expect(lines.some((line) => /could not embed new chunks/.test(line.msg))).toBe(true);
      expect(titles(await search(store, org, 'bob@acme.example.com', 'revenue'))).toEqual([
        'Quarterly revenue',
      ]);
      expect(titles(await search(store, org, 'bob@acme.example.com', 'automobile'))).toEqual([]);
    },
    STORE_TIMEOUT_MS,
  );

  it(
    'behaves as before without a provider: no column, no requests, BM25 results',
    async () => {
      const store = await openStore({ dataDir: 'memory://' });
      stores.push(store);
      configureEmbeddings(store.db, { settings: null });
      const org = await createOrg(store.db, { domain: `vectors-none-${++orgCount}.example.com` });
      const before = server.requests.length;
      await upsertDocuments(store.db, org.id, FIXTURES);
      const results = await search(store, org, 'alice@acme.example.com', 'vehicle');
      expect(titles(results)).toEqual(['Vehicle lease']);
      expect(titles(await search(store, org, 'bob@acme.example.com', 'automobile'))).toEqual([]);
      expect(await ensureEmbeddings(store.db)).toBeNull();
      const column = await store.db.execute(sql`
      SELECT 1 FROM pg_attribute WHERE attrelid = 'document_chunks'::regclass AND attname = 'embedding'`);
      expect(column.rows).toHaveLength(0);
      expect(server.requests.length).toBe(before);
    },
    STORE_TIMEOUT_MS,
  );

  it(
    'embeds again from scratch when the model changes',
    async () => {
      const { store, org, lines } = await openConfigured();
      await upsertDocuments(store.db, org.id, FIXTURES);
      const { chunks } = await vectorCount(store.db, org.id);
      configureEmbeddings(store.db, {
        settings: { ...settings, model: 'fake-bow-2', dimensions: 128 },
        logger: capturingLogger().logger,
      });
      const index = await ensureEmbeddings(store.db);
      expect(index?.dimensions).toBe(128);
      expect(await vectorCount(store.db, org.id)).toEqual({ embedded: 0, chunks });
      expect(await embedPendingChunks(store.db, index!)).toEqual({ embedded: chunks, failed: 0 });
      expect(titles(await search(store, org, 'bob@acme.example.com', 'automobile'))).toEqual(['Fleet guide']);
      expect(lines.filter((line) => line.msg === 'search: vector signal on')).toHaveLength(1);
    },
    STORE_TIMEOUT_MS,
  );

  it(
    'leaves chunks written inside a sync transaction to the backfill job, which embeds them after commit',
    async () => {
      const { store, org } = await openConfigured();
      // a transaction handle cannot name its store: the environment says whether vectors are wanted
      vi.stubEnv('EMBEDDING_BASE_URL', server.url);
      // as initSearch does at start
      await ensureEmbeddings(store.db);
      await store.db.transaction(async (tx) => {
        await upsertDocuments(tx as unknown as Db, org.id, FIXTURES);
      });
      expect((await vectorCount(store.db, org.id)).embedded).toBe(0);
      const queued = await store.db.execute(sql`
      SELECT count(*)::int AS n FROM jobs WHERE kind = ${EMBEDDINGS_BACKFILL_JOB} AND status = 'queued'`);
      expect(Number(queued.rows[0]!.n)).toBe(1);

      const worker = runWorker(store, capturingLogger().logger, { idleMs: 20 });
      try {
        await vi.waitFor(
          async () => {
            const counts = await vectorCount(store.db, org.id);
            expect(counts.embedded).toBe(counts.chunks);
          },
          { timeout: 30_000, interval: 100 },
        );
      } finally {
        await worker.stop();
      }
    },
    STORE_TIMEOUT_MS,
  );
});

describe('reciprocal-rank fusion', () => {
  const now = new Date('2026-01-01T00:00:00Z');
  const bm25 = (...ids: string[]) =>
    ids.map((documentId, i) => ({
      documentId,
      score: 10 - i,
      chunks: [{ chunkId: `${documentId}-0`, score: 10 - i }],
    }));
  const hit = (documentId: string, chunk: number, similarity: number) => ({
    chunkId: `${documentId}-${chunk}`,
    documentId,
    similarity,
    modifiedTime: null,
  });

  it('adds 1/(k + rank) per list, so agreement between the signals wins', () => {
    const fused = fuseRankings(bm25('a', 'b', 'c'), [hit('c', 0, 0.9), hit('b', 0, 0.8)], now);
    expect(fused.map((doc) => doc.documentId)).toEqual(['c', 'b', 'a']);
    expect(fused[0]!.score).toBeCloseTo(1 / (RRF_K + 3) + 1 / (RRF_K + 1));
    expect(fused[2]!.score).toBeCloseTo(1 / (RRF_K + 1));
  });

  it('collapses a document’s vector chunks into one entry, nearest chunk first', () => {
    const fused = fuseRankings([], [hit('x', 2, 0.9), hit('y', 0, 0.85), hit('x', 0, 0.7)], now);
    expect(fused.map((doc) => doc.documentId)).toEqual(['x', 'y']);
    expect(fused[0]!.chunks.map((chunk) => chunk.chunkId)).toEqual(['x-2', 'x-0']);
    expect(fused[1]!.score).toBeCloseTo(1 / (RRF_K + 2));
  });

  it('keeps the BM25 chunks of a document both signals found (they hold the query’s words)', () => {
    const fused = fuseRankings(bm25('a'), [hit('a', 3, 0.9)], now);
    expect(fused[0]!.chunks).toEqual([{ chunkId: 'a-0', score: 10 }]);
  });
});

describe.skipIf(!testDatabaseUrl)('the vector signal on a PostgreSQL server without pgvector', () => {
  let server: EmbeddingsTestServer;
  let store: Store;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    server = await startEmbeddingsServer({ dimensions: DIMENSIONS });
    ({ store, drop } = await openServerTestStore('vectors'));
  }, STORE_TIMEOUT_MS);
  afterAll(async () => {
    await drop?.();
    await server?.close();
  });

  it(
    'turns the signal off with one log line; indexing and search work as before',
    async () => {
      if (store.hasExtension('vector')) return; // a server with pgvector is covered by the embedded suite's SQL
      const { logger, lines } = capturingLogger();
      configureEmbeddings(store.db, {
        settings: {
          baseURL: server.url,
          apiKey: undefined,
          model: 'fake-bow',
          dimensions: undefined,
          minSimilarity: 0.3,
        },
        logger,
      });
      const org = await createOrg(store.db, { domain: 'vectors-pg.example.com' });
      await upsertDocuments(store.db, org.id, FIXTURES);
      const principals = await principalsFor(store.db, org.id, 'bob@acme.example.com');
      const car = await searchChunks(store, { orgId: org.id, principals, q: 'car keys' });
      expect(car.hits.map((hit) => hit.title)).toEqual(['Fleet guide']);
      const automobile = await searchChunks(store, { orgId: org.id, principals, q: 'automobile' });
      expect(automobile.hits).toEqual([]);
      expect(server.requests).toHaveLength(0);
      const warnings = lines.filter((line) => /no pgvector extension/.test(line.msg));
      expect(warnings).toHaveLength(1);
    },
    STORE_TIMEOUT_MS,
  );
});
