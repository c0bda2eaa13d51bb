/**
 * Writing documents into the search index (DESIGN §4). A batch is one transaction: documents, their chunks and the
 * org's BM25 statistics (`search_term_stats`, `search_stats`) change together or not at all, so a crash never
 * leaves the statistics describing chunks that do not exist.
 *
 * Statistics are kept per chunk, as pg_textsearch keeps them per indexed row: `doc_freq` is the number of chunks
 * whose tsvector holds the lexeme, `chunk_count` and `total_length` give N and the average length. Each has a
 * `shared_` twin counting only the chunks every member may read (ACL `org` or `public`): ranking reads those, so
 * whether hidden documents hold a word never moves a member's order or scores (issue 11). A document whose ACL
 * changes between shared and not moves its chunks in or out of the twins (shiftSharedStatistics).
 *
 * Writers of one org are serialised by a transaction-level advisory lock: they would queue on the org's single
 * `search_stats` row anyway, and taking the lock first makes "read the stored hash, then decide" race-free.
 */
import { createHash } from 'node:crypto';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { and, asc, eq, gt, inArray, sql, type SQL } from 'drizzle-orm';
import { newId } from '../db/ids';
import { documentChunks, documents, type Document, type NewDocument } from '../db/schema';
import type { Db, DbOrTx, Tx } from '../db/store';
import { effectiveAcl, EVERY_MEMBER_PRINCIPALS, readableByEveryMember, type Principal } from './acl';
import { CHUNKER_VERSION, chunksOf, formatSectionPath } from './chunking';
import { embedIndexedChunks, keepingEmbeddings } from './embeddings';

/** Identity of a document: unique per org by (source, connection, external id). */
export interface DocumentRef {
  source: string;
  /** Null for sources without a connection (uploads, verified answers). */
  connectionId?: string | null;
  externalId: string;
}

/** A document as a connector (or upload, or answer) hands it to the index. */
export interface IndexDocument extends DocumentRef {
  title: string;
  body: string;
  url?: string | null;
  author?: string | null;
  authorEmail?: string | null;
  objectType?: string | null;
  fileType?: string | null;
  createdTime?: Date | null;
  modifiedTime?: Date | null;
  parentExternalId?: string | null;
  /** Principals that may read it (see acl.ts); empty or absent means private to the connection owner. */
  acl?: readonly string[] | null;
  extra?: Record<string, unknown>;
}

export interface IndexOptions {
  /** The connection owner's email: the fail-closed ACL of documents whose source names no readers. */
  ownerEmail?: string | null;
}

export interface UpsertResult {
  /** New documents. */
  inserted: number;
  /** Existing documents whose content changed: re-chunked. */
  rechunked: number;
  /** Existing documents with the same content whose ACL or metadata changed: updated in place. */
  updated: number;
  /** Existing documents identical to what was sent: nothing written. */
  unchanged: number;
  /** The stored document ids, in the order of the (de-duplicated) batch. */
  documentIds: string[];
}

/**
 * Chunk rows per INSERT statement, and the text they may carry between them. The embedded store runs each
 * statement synchronously on the event loop, and tokenising and indexing a chunk costs about 5 ms there, so a
 * statement takes ~16,000 characters (8 chunks of 2,000: ~40 ms) rather than hundreds of chunks (seconds).
 */
const CHUNK_STATEMENT_ROWS = 500;
const CHUNK_STATEMENT_CHARS = 16_000;
/**
 * Past this much text a document's chunks are written over several transactions, one statement each: on the
 * embedded store every other query waits for an open transaction, so one that indexes a book would hold
 * /health and every search for its whole duration.
 */
const LARGE_DOCUMENT_CHARS = 4 * CHUNK_STATEMENT_CHARS;
const DOCUMENT_INSERT_BATCH = 200;
const LOOKUP_BATCH = 500;
const REINDEX_BATCH = 100;

// ---------------------------------------------------------------------------------------------
// Upsert
// ---------------------------------------------------------------------------------------------

interface Prepared {
  doc: IndexDocument;
  key: string;
  acl: Principal[];
  hash: string;
}

function refKey(ref: DocumentRef): string {
  return JSON.stringify([ref.source, ref.connectionId ?? null, ref.externalId]);
}

/** Hash of what determines the chunks (the title is in every chunk's indexed text). */
export function contentHash(doc: Pick<IndexDocument, 'title' | 'body'>): string {
  return createHash('sha256')
    .update(JSON.stringify([CHUNKER_VERSION, doc.title, doc.body]))
    .digest('hex');
}

/**
 * Indexes a batch: inserts new documents, re-chunks those whose content hash changed, and applies ACL and
 * metadata changes of the others without re-chunking. Idempotent: the same batch twice changes nothing.
 */
export async function upsertDocuments(
  db: Db,
  orgId: string,
  docs: readonly IndexDocument[],
  options: IndexOptions = {},
): Promise<UpsertResult> {
  // validation and hashing happen before the transaction, so a bad document fails the batch without a lock
  const byKey = new Map<string, Prepared>();
  for (const doc of docs) {
    const key = refKey(doc);
    byKey.delete(key); // the last occurrence wins, in its own position
    byKey.set(key, { doc, key, acl: effectiveAcl(doc.acl, options.ownerEmail), hash: contentHash(doc) });
  }
  const batch = [...byKey.values()];
  const result: UpsertResult = { inserted: 0, rechunked: 0, updated: 0, unchanged: 0, documentIds: [] };
  if (batch.length === 0) return result;

  const large = await db.transaction(async (tx) => {
    await lockOrgIndex(tx, orgId);
    const existing = await findDocuments(
      tx,
      orgId,
      batch.map((prepared) => prepared.doc),
    );
    const toChunk: ChunkEntry[] = [];
    const rechunkIds: string[] = [];
    const fresh: Prepared[] = [];
    const ids = new Map<string, string>();

    for (const prepared of batch) {
      const row = existing.get(prepared.key);
      if (!row) {
        fresh.push(prepared);
        continue;
      }
      ids.set(prepared.key, row.id);
      const values = documentValues(orgId, prepared);
      if (row.contentHash !== prepared.hash) {
        const writing = asWritten(prepared);
        rechunkIds.push(row.id);
        toChunk.push({ id: row.id, prepared, writtenHash: writing.hash });
        await updateDocument(tx, row, documentValues(orgId, writing));
        result.rechunked++;
      } else if (metadataChanged(row, values)) {
        await updateDocument(tx, row, values);
        await setChunkMetadata(tx, orgId, row.id, row.acl, chunkMetadata(values));
        result.updated++;
      } else {
        result.unchanged++;
      }
    }
    for (let i = 0; i < fresh.length; i += DOCUMENT_INSERT_BATCH) {
      const slice = fresh.slice(i, i + DOCUMENT_INSERT_BATCH).map((prepared) => ({
        prepared,
        writing: asWritten(prepared),
      }));
      const sliceIds = await insertDocuments(
        tx,
        orgId,
        slice.map(({ writing }) => writing),
      );
      slice.forEach(({ prepared, writing }, j) => {
        ids.set(prepared.key, sliceIds[j]!);
        toChunk.push({ id: sliceIds[j]!, prepared, writtenHash: writing.hash });
      });
      result.inserted += slice.length;
    }

    if (rechunkIds.length > 0) await removeStatistics(tx, orgId, rechunkIds);
    await keepingEmbeddings(tx, orgId, rechunkIds, async () => {
      if (rechunkIds.length > 0) {
        await tx
          .delete(documentChunks)
          .where(and(eq(documentChunks.orgId, orgId), inArray(documentChunks.documentId, rechunkIds)));
      }
      await insertChunks(
        tx,
        orgId,
        toChunk.filter((entry) => !isLarge(entry.prepared)),
      );
    });
    result.documentIds = batch.map((prepared) => ids.get(prepared.key)!);
    return toChunk.filter((entry) => isLarge(entry.prepared));
  });
  for (const entry of large) await insertLargeDocumentChunks(db, orgId, entry);
  if (result.inserted + result.rechunked > 0) await analyzeIfStale(db);
  // vectors after the commit: the provider's health never decides whether a document is indexed
  if (result.inserted + result.rechunked > 0) await embedIndexedChunks(db, orgId, result.documentIds);
  return result;
}

interface ChunkEntry {
  id: string;
  prepared: Prepared;
  /** The hash its row was written with: the marker of a large document (asWritten), else its own. */
  writtenHash?: string;
}

function isLarge(prepared: Prepared): boolean {
  return prepared.doc.body.length > LARGE_DOCUMENT_CHARS;
}

/**
 * What the document's row first holds. A large document's row carries a marker instead of its hash until the
 * last of its chunks is written (insertLargeDocumentChunks): no content hashes to it, so after a crash midway
 * the next upsert of the document re-chunks it, and a newer write replacing the marker stops the older one.
 */
function asWritten(prepared: Prepared): Prepared {
  return isLarge(prepared) ? { ...prepared, hash: `pending:${newId()}` } : prepared;
}

function documentValues(orgId: string, { doc, acl, hash }: Prepared): NewDocument {
  return {
    orgId,
    connectionId: doc.connectionId ?? null,
    source: doc.source,
    externalId: doc.externalId,
    parentExternalId: doc.parentExternalId ?? null,
    title: doc.title,
    url: doc.url ?? null,
    author: doc.author ?? null,
    authorEmail: doc.authorEmail ? doc.authorEmail.trim().toLowerCase() : null,
    objectType: doc.objectType ?? null,
    fileType: doc.fileType ?? null,
    createdTime: doc.createdTime ?? null,
    modifiedTime: doc.modifiedTime ?? null,
    contentHash: hash,
    body: doc.body,
    acl,
    extra: doc.extra ?? {},
  };
}

const sameTime = (a: Date | null | undefined, b: Date | null | undefined) =>
  (a?.getTime() ?? null) === (b?.getTime() ?? null);

function metadataChanged(row: Document, values: NewDocument): boolean {
  return (
    row.title !== values.title ||
    row.url !== values.url ||
    row.author !== values.author ||
    row.authorEmail !== values.authorEmail ||
    row.objectType !== values.objectType ||
    row.fileType !== values.fileType ||
    row.parentExternalId !== values.parentExternalId ||
    !sameTime(row.createdTime, values.createdTime) ||
    !sameTime(row.modifiedTime, values.modifiedTime) ||
    row.acl.join('\n') !== (values.acl ?? []).join('\n') ||
    canonicalJson(row.extra) !== canonicalJson(values.extra)
  );
}

/** JSON with object keys sorted: jsonb hands keys back in its own order. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}

/** Bumps the outbox version (DESIGN §4); the in-store index is current as of this transaction. */
async function updateDocument(tx: Tx, row: Document, values: NewDocument): Promise<void> {
  await tx
    .update(documents)
    .set({ ...values, version: row.version + 1, indexedVersion: row.version + 1 })
    .where(eq(documents.id, row.id));
}

/** The document fields copied onto its chunks, so one query can rank and filter. */
function chunkMetadata(
  values: Pick<NewDocument, 'objectType' | 'fileType' | 'authorEmail' | 'modifiedTime' | 'acl'>,
) {
  return {
    objectType: values.objectType ?? null,
    fileType: values.fileType ?? null,
    authorEmail: values.authorEmail ?? null,
    modifiedTime: values.modifiedTime ?? null,
    acl: values.acl ?? [],
  };
}

/** The stored rows of these refs, by refKey. */
async function findDocuments(
  tx: Tx,
  orgId: string,
  refs: readonly DocumentRef[],
): Promise<Map<string, Document>> {
  const found = new Map<string, Document>();
  const wanted = new Set(refs.map(refKey));
  for (let i = 0; i < refs.length; i += LOOKUP_BATCH) {
    const slice = refs.slice(i, i + LOOKUP_BATCH);
    const rows = await tx
      .select()
      .from(documents)
      .where(
        and(
          eq(documents.orgId, orgId),
          inArray(documents.source, [...new Set(slice.map((ref) => ref.source))]),
          inArray(documents.externalId, [...new Set(slice.map((ref) => ref.externalId))]),
        ),
      );
    for (const row of rows) {
      const key = refKey(row);
      if (wanted.has(key)) found.set(key, row);
    }
  }
  return found;
}

/** A PostgreSQL array literal of text (the ACL of each chunk travels as one element of a text[] parameter). */
function textArrayLiteral(values: readonly string[]): string {
  return `{${values.map((value) => `"${value.replace(/[\\"]/g, (ch) => `\\${ch}`)}"`).join(',')}}`;
}

/**
 * Inserts new documents, one statement per slice with the columns as arrays: a drizzle multi-row insert builds
 * ~20 bound parameters a row in JavaScript, which cost more than the insert itself. Returns their ids in order.
 */
async function insertDocuments(tx: Tx, orgId: string, slice: readonly Prepared[]): Promise<string[]> {
  const ids = slice.map(() => newId());
  const rows = slice.map((prepared) => documentValues(orgId, prepared));
  const column = <T>(value: (row: NewDocument) => T) => sql.param(rows.map(value));
  await tx.execute(sql`
    INSERT INTO documents (id, org_id, connection_id, source, external_id, parent_external_id, title, url, author,
      author_email, object_type, file_type, created_time, modified_time, content_hash, body, acl, extra, version,
      indexed_version)
    SELECT i.id, ${orgId}::uuid, i.connection_id, i.source, i.external_id, i.parent_external_id, i.title, i.url,
      i.author, i.author_email, i.object_type, i.file_type, i.created_time, i.modified_time, i.content_hash, i.body,
      i.acl::text[], i.extra::jsonb, 1, 1
    FROM unnest(
      ${sql.param(ids)}::uuid[], ${column((row) => row.connectionId)}::uuid[], ${column((row) => row.source)}::text[],
      ${column((row) => row.externalId)}::text[], ${column((row) => row.parentExternalId)}::text[],
      ${column((row) => row.title)}::text[], ${column((row) => row.url)}::text[], ${column((row) => row.author)}::text[],
      ${column((row) => row.authorEmail)}::text[], ${column((row) => row.objectType)}::text[],
      ${column((row) => row.fileType)}::text[], ${column((row) => row.createdTime?.toISOString() ?? null)}::timestamptz[],
      ${column((row) => row.modifiedTime?.toISOString() ?? null)}::timestamptz[],
      ${column((row) => row.contentHash)}::text[], ${column((row) => row.body)}::text[],
      ${column((row) => textArrayLiteral(row.acl ?? []))}::text[], ${column((row) => JSON.stringify(row.extra ?? {}))}::text[]
    ) AS i(id, connection_id, source, external_id, parent_external_id, title, url, author, author_email, object_type,
      file_type, created_time, modified_time, content_hash, body, acl, extra)`);
  return ids;
}

interface ChunkRow {
  documentId: string;
  ord: number;
  title: string;
  sectionPath: string | null;
  text: string;
  prefix: string;
  start: number;
  end: number;
  tokenCount: number;
  source: string;
  metadata: ReturnType<typeof chunkMetadata>;
}

/** The chunk rows of these documents, chunked only as they are asked for. */
function* chunkRows(orgId: string, entries: readonly ChunkEntry[]): Generator<ChunkRow> {
  for (const { id, prepared } of entries) {
    const { doc } = prepared;
    const metadata = chunkMetadata(documentValues(orgId, prepared));
    for (const chunk of chunksOf({ title: doc.title, body: doc.body })) {
      yield {
        documentId: id,
        ord: chunk.ord,
        title: doc.title,
        sectionPath: chunk.sectionPath.length > 0 ? formatSectionPath(chunk.sectionPath) : null,
        text: chunk.text,
        prefix: chunk.text.slice(0, chunk.text.length - (chunk.end - chunk.start)),
        start: chunk.start,
        end: chunk.end,
        tokenCount: chunk.tokenCount,
        source: doc.source,
        metadata,
      };
    }
  }
}

/** The rows of the next statement: within its row and character budgets, and at least one row unless none left. */
function nextStatement(rows: Iterator<ChunkRow>): ChunkRow[] {
  const slice: ChunkRow[] = [];
  let chars = 0;
  while (slice.length < CHUNK_STATEMENT_ROWS && chars < CHUNK_STATEMENT_CHARS) {
    const next = rows.next();
    if (next.done) break;
    slice.push(next.value);
    chars += next.value.text.length;
  }
  return slice;
}

/**
 * Writes the chunks of these documents, a statement at a time (nextStatement), letting the event loop run
 * between statements.
 */
async function insertChunks(tx: Tx, orgId: string, entries: readonly ChunkEntry[]): Promise<void> {
  const rows = chunkRows(orgId, entries);
  for (let slice = nextStatement(rows); slice.length > 0; slice = nextStatement(rows)) {
    await insertChunkStatement(tx, orgId, slice);
    await yieldToEventLoop();
  }
}

/**
 * Writes a large document's chunks once its row has committed (with its marker, see asWritten): one statement
 * per transaction, so other queries get the store between them, then its real hash. Each transaction first
 * checks, under the org's lock, that the row still holds this run's marker: a newer write of the document (which
 * replaced the chunks written so far) or its deletion ends this one.
 */
async function insertLargeDocumentChunks(db: Db, orgId: string, entry: ChunkEntry): Promise<void> {
  const rows = chunkRows(orgId, [entry]);
  const ours = and(
    eq(documents.orgId, orgId),
    eq(documents.id, entry.id),
    eq(documents.contentHash, entry.writtenHash!),
  );
  for (;;) {
    const slice = nextStatement(rows);
    const current = await db.transaction(async (tx) => {
      await lockOrgIndex(tx, orgId);
      if (slice.length === 0) {
        await tx.update(documents).set({ contentHash: entry.prepared.hash }).where(ours);
        return false;
      }
      const [row] = await tx.select({ id: documents.id }).from(documents).where(ours);
      if (row) await insertChunkStatement(tx, orgId, slice);
      return row !== undefined;
    });
    if (!current) return;
    await yieldToEventLoop();
  }
}

/**
 * Writes chunk rows and adds them to the org's statistics in one statement: each chunk's text is tokenised once
 * (tokenising is most of what indexing costs), and that one tsvector gives the stored `search` column, the BM25
 * length and the statement's lexeme counts for `search_term_stats`.
 */
async function insertChunkStatement(tx: Tx, orgId: string, slice: readonly ChunkRow[]): Promise<void> {
  const column = <T>(value: (row: ChunkRow) => T) => sql.param(slice.map(value));
  await tx.execute(sql`
    WITH input AS (
      SELECT * FROM unnest(
        ${column(() => newId())}::uuid[], ${column((row) => row.documentId)}::uuid[], ${column((row) => row.ord)}::int[],
        ${column((row) => row.title)}::text[], ${column((row) => row.sectionPath)}::text[],
        ${column((row) => row.text)}::text[], ${column((row) => row.prefix)}::text[],
        ${column((row) => row.start)}::int[], ${column((row) => row.end)}::int[],
        ${column((row) => row.tokenCount)}::int[], ${column((row) => row.source)}::text[],
        ${column((row) => row.metadata.objectType)}::text[], ${column((row) => row.metadata.fileType)}::text[],
        ${column((row) => row.metadata.authorEmail)}::text[],
        ${column((row) => row.metadata.modifiedTime?.toISOString() ?? null)}::timestamptz[],
        ${column((row) => textArrayLiteral(row.metadata.acl))}::text[]
      ) AS i(id, document_id, ord, title, section_path, body, prefix, start_offset, end_offset, token_count, source,
        object_type, file_type, author_email, modified_time, acl)
    ),
    tokenised AS MATERIALIZED (
      SELECT i.*, v.search,
        -- BM25 length as pg_textsearch counts it: lexeme occurrences of the english tsvector
        (SELECT coalesce(sum(cardinality(u.positions)), 0)::int FROM unnest(v.search) AS u) AS search_length,
        -- the prefix's words come first in the tsvector, so its last position bounds title and headings
        (SELECT coalesce(max(p), 0)::int
          FROM unnest(to_tsvector('english', i.prefix)) AS u, unnest(u.positions) AS p) AS prefix_positions
      FROM input i, LATERAL (SELECT to_tsvector('english', i.body) AS search OFFSET 0) AS v
    ),
    chunks AS (
      INSERT INTO document_chunks (id, org_id, document_id, ord, title, section_path, body, start_offset, end_offset,
        token_count, source, object_type, file_type, author_email, modified_time, acl, search, search_length,
        prefix_positions)
      SELECT id, ${orgId}::uuid, document_id, ord, title, section_path, body, start_offset, end_offset, token_count,
        source, object_type, file_type, author_email, modified_time, acl::text[], search, search_length,
        prefix_positions
      FROM tokenised
    ),
    terms AS (
      INSERT INTO search_term_stats (org_id, lexeme, doc_freq, shared_doc_freq)
      SELECT ${orgId}::uuid, t.lexeme, count(*)::int, (count(*) FILTER (WHERE ${sharedChunk(sql`tokenised.acl`)}))::int
      FROM tokenised, unnest(tsvector_to_array(tokenised.search)) AS t(lexeme)
      GROUP BY t.lexeme
      ORDER BY t.lexeme
      ON CONFLICT (org_id, lexeme) DO UPDATE SET doc_freq = search_term_stats.doc_freq + excluded.doc_freq,
        shared_doc_freq = search_term_stats.shared_doc_freq + excluded.shared_doc_freq
    )
    INSERT INTO search_stats (org_id, chunk_count, total_length, shared_chunk_count, shared_total_length, updated_at)
    SELECT ${orgId}::uuid, count(*), coalesce(sum(search_length), 0),
      count(*) FILTER (WHERE ${sharedChunk(sql`tokenised.acl`)}),
      coalesce(sum(search_length) FILTER (WHERE ${sharedChunk(sql`tokenised.acl`)}), 0), now()
    FROM tokenised
    ON CONFLICT (org_id) DO UPDATE SET
      chunk_count = search_stats.chunk_count + excluded.chunk_count,
      total_length = search_stats.total_length + excluded.total_length,
      shared_chunk_count = search_stats.shared_chunk_count + excluded.shared_chunk_count,
      shared_total_length = search_stats.shared_total_length + excluded.shared_total_length,
      updated_at = excluded.updated_at`);
}

// ---------------------------------------------------------------------------------------------
// Statistics
// ---------------------------------------------------------------------------------------------

/** Whether a chunk with this ACL (a text[] expression) counts in the shared statistics. */
function sharedChunk(acl: SQL): SQL {
  return sql`${acl}::text[] && ${sql.param([...EVERY_MEMBER_PRINCIPALS])}::text[]`;
}

/** Serialises index writers of one org (see the file comment). */
async function lockOrgIndex(tx: Tx, orgId: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`scout:search-index:${orgId}`}, 0))`);
}

/**
 * Removes the current chunks of these documents from the org's statistics; it must run before they are deleted
 * (insertChunks adds new ones). A lexeme no chunk holds any more leaves the table.
 */
async function removeStatistics(tx: Tx, orgId: string, documentIds: readonly string[]) {
  if (documentIds.length === 0) return;
  const ids = sql.param([...documentIds]);
  await tx.execute(sql`
    WITH removed AS MATERIALIZED (
      SELECT t.lexeme, count(*)::int AS n, (count(*) FILTER (WHERE ${sharedChunk(sql`c.acl`)}))::int AS shared
      FROM document_chunks c, unnest(tsvector_to_array(c.search)) AS t(lexeme)
      WHERE c.org_id = ${orgId}::uuid AND c.document_id = ANY(${ids}::uuid[])
      GROUP BY t.lexeme
    ),
    kept AS (
      UPDATE search_term_stats s SET doc_freq = s.doc_freq - r.n, shared_doc_freq = s.shared_doc_freq - r.shared
      FROM removed r
      WHERE s.org_id = ${orgId}::uuid AND s.lexeme = r.lexeme AND s.doc_freq > r.n
    )
    DELETE FROM search_term_stats s USING removed r
    WHERE s.org_id = ${orgId}::uuid AND s.lexeme = r.lexeme AND s.doc_freq <= r.n`);
  await tx.execute(sql`
    UPDATE search_stats s SET chunk_count = s.chunk_count - r.n, total_length = s.total_length - r.length,
      shared_chunk_count = s.shared_chunk_count - r.shared, shared_total_length = s.shared_total_length - r.shared_length,
      updated_at = now()
    FROM (
      SELECT count(*) AS n, coalesce(sum(c.search_length), 0) AS length,
        count(*) FILTER (WHERE ${sharedChunk(sql`c.acl`)}) AS shared,
        coalesce(sum(c.search_length) FILTER (WHERE ${sharedChunk(sql`c.acl`)}), 0) AS shared_length
      FROM document_chunks c
      WHERE c.org_id = ${orgId}::uuid AND c.document_id = ANY(${ids}::uuid[])
    ) AS r
    WHERE s.org_id = ${orgId}::uuid`);
}

/**
 * Moves these documents' chunks into (+1) or out of (-1) the shared statistics, when their ACL starts or stops
 * naming every member; their all-chunk counts do not change. Call it while the chunks are not counted as shared:
 * after the ACL update when adding, before it when removing.
 */
async function shiftSharedStatistics(tx: Tx, orgId: string, documentIds: readonly string[], sign: 1 | -1) {
  const ids = sql.param([...documentIds]);
  await tx.execute(sql`
    UPDATE search_term_stats s SET shared_doc_freq = s.shared_doc_freq + ${sign}::int * r.n
    FROM (
      SELECT t.lexeme, count(*)::int AS n
      FROM document_chunks c, unnest(tsvector_to_array(c.search)) AS t(lexeme)
      WHERE c.org_id = ${orgId}::uuid AND c.document_id = ANY(${ids}::uuid[])
      GROUP BY t.lexeme
    ) AS r
    WHERE s.org_id = ${orgId}::uuid AND s.lexeme = r.lexeme`);
  await tx.execute(sql`
    UPDATE search_stats s SET shared_chunk_count = s.shared_chunk_count + ${sign}::int * r.n,
      shared_total_length = s.shared_total_length + ${sign}::int * r.length, updated_at = now()
    FROM (
      SELECT count(*) AS n, coalesce(sum(c.search_length), 0) AS length FROM document_chunks c
      WHERE c.org_id = ${orgId}::uuid AND c.document_id = ANY(${ids}::uuid[])
    ) AS r
    WHERE s.org_id = ${orgId}::uuid`);
}

/**
 * Writes a document's ACL (and other copied fields) onto its chunks without re-chunking, moving them in or out of
 * the shared statistics when the ACL starts or stops naming every member. The caller holds the org's lock.
 */
async function setChunkMetadata(
  tx: Tx,
  orgId: string,
  documentId: string,
  aclBefore: readonly Principal[],
  values: Partial<typeof documentChunks.$inferInsert> & { acl: Principal[] },
) {
  const wasShared = readableByEveryMember(aclBefore);
  const isShared = readableByEveryMember(values.acl);
  if (wasShared && !isShared) await shiftSharedStatistics(tx, orgId, [documentId], -1);
  await tx
    .update(documentChunks)
    .set(values)
    .where(and(eq(documentChunks.orgId, orgId), eq(documentChunks.documentId, documentId)));
  if (!wasShared && isShared) await shiftSharedStatistics(tx, orgId, [documentId], 1);
}

/** Rebuilds the org's statistics from its chunks (after a reindex, or to heal drift). */
export async function recomputeStatistics(tx: DbOrTx, orgId: string): Promise<void> {
  await tx.execute(sql`DELETE FROM search_term_stats WHERE org_id = ${orgId}::uuid`);
  await tx.execute(sql`
    INSERT INTO search_term_stats (org_id, lexeme, doc_freq, shared_doc_freq)
    SELECT ${orgId}::uuid, t.lexeme, count(*)::int, (count(*) FILTER (WHERE ${sharedChunk(sql`c.acl`)}))::int
    FROM document_chunks c, unnest(tsvector_to_array(c.search)) AS t(lexeme)
    WHERE c.org_id = ${orgId}::uuid
    GROUP BY t.lexeme`);
  await tx.execute(sql`
    INSERT INTO search_stats (org_id, chunk_count, total_length, shared_chunk_count, shared_total_length, updated_at)
    SELECT ${orgId}::uuid, count(*), coalesce(sum(c.search_length), 0),
      count(*) FILTER (WHERE ${sharedChunk(sql`c.acl`)}),
      coalesce(sum(c.search_length) FILTER (WHERE ${sharedChunk(sql`c.acl`)}), 0), now()
    FROM document_chunks c WHERE c.org_id = ${orgId}::uuid
    ON CONFLICT (org_id) DO UPDATE SET
      chunk_count = excluded.chunk_count, total_length = excluded.total_length,
      shared_chunk_count = excluded.shared_chunk_count, shared_total_length = excluded.shared_total_length,
      updated_at = excluded.updated_at`);
}

/**
 * Refreshes the planner's statistics of document_chunks once its row count drifted from what the planner
 * believes (10% + 50 rows, autovacuum's rule). Embedded PGlite has no autovacuum at all, and without statistics
 * the planner scores every readable chunk one by one instead of walking the bm25 index: 500 ms instead of 10 ms
 * on 1,500 chunks, measured. Runs after the write commits; cheap when nothing drifted.
 */
export async function analyzeIfStale(db: Db): Promise<boolean> {
  const result = await db.execute(sql`
    SELECT c.reltuples::float8 AS estimated,
      (SELECT coalesce(sum(s.chunk_count), 0) FROM search_stats s)::float8 AS actual
    FROM pg_class c WHERE c.oid = 'document_chunks'::regclass`);
  const estimated = Number(result.rows[0]?.estimated ?? -1);
  const actual = Number(result.rows[0]?.actual ?? 0);
  // reltuples is -1 before the first ANALYZE (PostgreSQL 14+)
  if (estimated >= 0 && Math.abs(actual - estimated) <= 50 + 0.1 * estimated) return false;
  await db.execute(sql`ANALYZE document_chunks`);
  return true;
}

// ---------------------------------------------------------------------------------------------
// Delete, re-ACL, reindex
// ---------------------------------------------------------------------------------------------

async function documentIdsFor(tx: Tx, orgId: string, refs: readonly DocumentRef[]): Promise<string[]> {
  return [...(await findDocuments(tx, orgId, refs)).values()].map((row) => row.id);
}

async function deleteByIds(tx: Tx, orgId: string, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0;
  await removeStatistics(tx, orgId, ids);
  // chunks go with their document (ON DELETE CASCADE)
  const deleted = await tx
    .delete(documents)
    .where(and(eq(documents.orgId, orgId), inArray(documents.id, [...ids])))
    .returning({ id: documents.id });
  return deleted.length;
}

/** Removes documents (and their chunks) from the index; unknown refs are ignored. Returns how many went. */
export async function deleteDocuments(db: Db, orgId: string, refs: readonly DocumentRef[]): Promise<number> {
  if (refs.length === 0) return 0;
  const deleted = await db.transaction(async (tx) => {
    await lockOrgIndex(tx, orgId);
    return deleteByIds(tx, orgId, await documentIdsFor(tx, orgId, refs));
  });
  if (deleted > 0) await analyzeIfStale(db);
  return deleted;
}

/**
 * Removes every document of a connection. Call it before deleting the connection: the foreign-key cascade would
 * remove the rows too, but behind the statistics' back.
 */
export async function deleteConnectionDocuments(
  db: Db,
  orgId: string,
  connectionId: string,
): Promise<number> {
  const deleted = await db.transaction(async (tx) => {
    await lockOrgIndex(tx, orgId);
    const rows = await tx
      .select({ id: documents.id })
      .from(documents)
      .where(and(eq(documents.orgId, orgId), eq(documents.connectionId, connectionId)));
    return deleteByIds(
      tx,
      orgId,
      rows.map((row) => row.id),
    );
  });
  if (deleted > 0) await analyzeIfStale(db);
  return deleted;
}

/**
 * Replaces a document's ACL on the document and all its chunks, without re-chunking (permission syncs). An empty
 * ACL falls back to the owner, as at indexing. Returns false when the document is not indexed.
 */
export async function setDocumentAcl(
  db: Db,
  orgId: string,
  ref: DocumentRef,
  acl: readonly string[],
  options: IndexOptions = {},
): Promise<boolean> {
  const principals = effectiveAcl(acl, options.ownerEmail);
  return db.transaction(async (tx) => {
    await lockOrgIndex(tx, orgId);
    const [row] = [...(await findDocuments(tx, orgId, [ref])).values()];
    if (!row) return false;
    await tx
      .update(documents)
      .set({
        acl: principals,
        version: sql`${documents.version} + 1`,
        indexedVersion: sql`${documents.version} + 1`,
      })
      .where(and(eq(documents.orgId, orgId), eq(documents.id, row.id)));
    await setChunkMetadata(tx, orgId, row.id, row.acl, { acl: principals });
    return true;
  });
}

export interface ReindexResult {
  documents: number;
  chunks: number;
}

/**
 * Rebuilds every chunk of an org from its stored documents (after a chunker or tokeniser change, or to repair),
 * then recomputes the statistics exactly. Batches commit one by one, so search keeps working meanwhile.
 */
export async function reindexOrg(
  db: Db,
  orgId: string,
  options: { batchSize?: number; onProgress?: (done: number) => void } = {},
): Promise<ReindexResult> {
  const batchSize = options.batchSize ?? REINDEX_BATCH;
  let cursor: string | null = null;
  let done = 0;
  for (;;) {
    const after: string | null = cursor;
    // read under the lock, so a concurrent upsert cannot slip newer content in between read and rewrite
    const count = await db.transaction(async (tx) => {
      await lockOrgIndex(tx, orgId);
      const batch = await tx
        .select()
        .from(documents)
        .where(and(eq(documents.orgId, orgId), after ? gt(documents.id, after) : undefined))
        .orderBy(asc(documents.id))
        .limit(batchSize);
      if (batch.length === 0) return 0;
      const ids = batch.map((row) => row.id);
      await removeStatistics(tx, orgId, ids);
      const entries = batch.map((row) => {
        const doc: IndexDocument = { ...row, acl: row.acl };
        return { id: row.id, prepared: { doc, key: refKey(row), acl: row.acl, hash: contentHash(row) } };
      });
      await keepingEmbeddings(tx, orgId, ids, async () => {
        await tx
          .delete(documentChunks)
          .where(and(eq(documentChunks.orgId, orgId), inArray(documentChunks.documentId, ids)));
        await insertChunks(tx, orgId, entries);
      });
      await tx.execute(sql`
        UPDATE documents d SET content_hash = v.hash
        FROM unnest(${sql.param(ids)}::uuid[], ${sql.param(entries.map((entry) => entry.prepared.hash))}::text[])
          AS v(id, hash)
        WHERE d.org_id = ${orgId}::uuid AND d.id = v.id`);
      cursor = ids[ids.length - 1]!;
      return batch.length;
    });
    if (count === 0) break;
    done += count;
    options.onProgress?.(done);
  }
  await db.transaction(async (tx) => {
    await lockOrgIndex(tx, orgId);
    await recomputeStatistics(tx, orgId);
  });
  await analyzeIfStale(db);
  await embedIndexedChunks(db, orgId);
  const [counted] = await db
    .select({ chunks: sql<number>`count(*)::int` })
    .from(documentChunks)
    .where(eq(documentChunks.orgId, orgId));
  return { documents: done, chunks: counted?.chunks ?? 0 };
}
