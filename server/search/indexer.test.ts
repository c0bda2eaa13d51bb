import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appConnections, documentChunks, documents, type Org } from '../db/schema';
import { openStore, type Db, type Store } from '../db/store';
import { createOrg } from '../testing/fixtures';
import { InvalidAclError } from './acl';
import {
  deleteConnectionDocuments,
  deleteDocuments,
  recomputeStatistics,
  reindexOrg,
  setDocumentAcl,
  upsertDocuments,
  type IndexDocument,
} from './indexer';
import { openServerTestStore, testDatabaseUrl } from '../testing/database';
import { pick } from './testing';
import { seededRandom } from '../testing/random';

let store: Store;
let db: Db;

beforeAll(async () => {
  store = await openStore({ memory: true });
  db = store.db;
});
afterAll(async () => {
  await store?.close();
});

let orgCount = 0;
const newOrg = () => createOrg(db, { domain: `indexer-${++orgCount}.example.com` });

const doc = (externalId: string, overrides: Partial<IndexDocument> = {}): IndexDocument => ({
  source: 'notion',
  externalId,
  title: `Page ${externalId}`,
  body: `# Overview\n\nThe quarterly budget review for ${externalId} happens in March.\n\n## Details\n\nRefunds are processed weekly.`,
  acl: ['org'],
  objectType: 'articles',
  fileType: 'document',
  authorEmail: 'Ada@Example.com',
  modifiedTime: new Date('2025-03-01T10:00:00.000Z'),
  ...overrides,
});

async function documentRows(orgId: string) {
  return db.select().from(documents).where(eq(documents.orgId, orgId)).orderBy(asc(documents.externalId));
}

async function chunkRows(orgId: string) {
  return db
    .select({
      id: documentChunks.id,
      documentId: documentChunks.documentId,
      ord: documentChunks.ord,
      body: documentChunks.body,
      acl: documentChunks.acl,
      sectionPath: documentChunks.sectionPath,
      objectType: documentChunks.objectType,
      authorEmail: documentChunks.authorEmail,
    })
    .from(documentChunks)
    .where(eq(documentChunks.orgId, orgId))
    .orderBy(asc(documentChunks.documentId), asc(documentChunks.ord));
}

/** The stored statistics equal what the chunks say, lexeme by lexeme. */
async function expectStatisticsExact(orgId: string) {
  const stored = await db.execute(sql`
    SELECT lexeme, doc_freq, shared_doc_freq FROM search_term_stats WHERE org_id = ${orgId}::uuid ORDER BY lexeme`);
  const expected = await db.execute(sql`
    SELECT t.lexeme, count(*)::int AS doc_freq, (count(*) FILTER (WHERE ${SHARED}))::int AS shared_doc_freq
    FROM document_chunks c, unnest(tsvector_to_array(c.search)) AS t(lexeme)
    WHERE c.org_id = ${orgId}::uuid GROUP BY t.lexeme ORDER BY t.lexeme`);
  expect(stored.rows).toEqual(expected.rows);
  const totals = await db.execute(sql`
    SELECT
      (SELECT coalesce(chunk_count, 0) FROM search_stats WHERE org_id = ${orgId}::uuid)::int AS stored_count,
      (SELECT coalesce(total_length, 0) FROM search_stats WHERE org_id = ${orgId}::uuid)::int AS stored_length,
      (SELECT coalesce(shared_chunk_count, 0) FROM search_stats WHERE org_id = ${orgId}::uuid)::int AS stored_shared,
      (SELECT coalesce(shared_total_length, 0) FROM search_stats WHERE org_id = ${orgId}::uuid)::int
        AS stored_shared_length,
      (SELECT count(*) FROM document_chunks WHERE org_id = ${orgId}::uuid)::int AS chunk_count,
      (SELECT count(*) FROM document_chunks c WHERE c.org_id = ${orgId}::uuid AND ${SHARED})::int AS shared_count,
      (SELECT coalesce(sum(p), 0) FROM document_chunks c, unnest(c.search) AS u, cardinality(u.positions) AS p
        WHERE c.org_id = ${orgId}::uuid)::int AS total_length,
      (SELECT coalesce(sum(p), 0) FROM document_chunks c, unnest(c.search) AS u, cardinality(u.positions) AS p
        WHERE c.org_id = ${orgId}::uuid AND ${SHARED})::int AS shared_length`);
  const row = totals.rows[0]!;
  expect(row.stored_count ?? 0).toBe(row.chunk_count);
  expect(row.stored_length ?? 0).toBe(row.total_length);
  expect(row.stored_shared ?? 0).toBe(row.shared_count);
  expect(row.stored_shared_length ?? 0).toBe(row.shared_length);
}

/** A chunk every member may read: the shared statistics count it. */
const SHARED = sql`c.acl && ARRAY['org', 'public']::text[]`;

describe('upsertDocuments', () => {
  let org: Org;
  beforeAll(async () => {
    org = await newOrg();
  });

  it('indexes a batch into documents, chunks and statistics', async () => {
    const result = await upsertDocuments(db, org.id, [doc('a'), doc('b'), doc('c')]);
    expect(result).toMatchObject({ inserted: 3, rechunked: 0, updated: 0, unchanged: 0 });
    expect(result.documentIds).toHaveLength(3);
    const chunks = await chunkRows(org.id);
    expect(chunks.length).toBeGreaterThanOrEqual(3);
    const first = chunks.find((chunk) => chunk.documentId === result.documentIds[0])!;
    expect(first).toMatchObject({ acl: ['org'], objectType: 'articles', authorEmail: 'ada@example.com' });
    expect(first.body.startsWith('Page a\n')).toBe(true);
    await expectStatisticsExact(org.id);
  });

  it('writes a document too large for one transaction in slices, and redoes one a crash left half-written', async () => {
    const own = await newOrg();
    const body = Array.from({ length: 400 }, (_, i) => `Section ${i} covers the budget review for team ${i}.`)
      .join('\n')
      .repeat(8);
    expect(body.length).toBeGreaterThan(100_000);
    const big = doc('big', { body });
    const first = await upsertDocuments(db, own.id, [big, doc('small')]);
    expect(first).toMatchObject({ inserted: 2 });
    const whole = (await chunkRows(own.id)).filter((chunk) => chunk.documentId === first.documentIds[0]);
    expect(whole.map((chunk) => chunk.ord)).toEqual(whole.map((_, i) => i));
    await expectStatisticsExact(own.id);
    expect(await upsertDocuments(db, own.id, [big])).toMatchObject({ unchanged: 1 });

    // a crash after some of its slices: the row still holds its marker, the later chunks are missing
    await db.execute(sql`
      DELETE FROM document_chunks WHERE document_id = ${first.documentIds[0]}::uuid AND ord >= ${Math.floor(whole.length / 2)}`);
    await db.execute(
      sql`UPDATE documents SET content_hash = 'pending:crashed' WHERE id = ${first.documentIds[0]}::uuid`,
    );
    await recomputeStatistics(db, own.id);
    expect(await upsertDocuments(db, own.id, [big])).toMatchObject({ rechunked: 1 });
    const redone = (await chunkRows(own.id)).filter((chunk) => chunk.documentId === first.documentIds[0]);
    expect(redone.map((chunk) => chunk.body)).toEqual(whole.map((chunk) => chunk.body));
    await expectStatisticsExact(own.id);
  });

  it('is idempotent: the same batch twice leaves every row as it was', async () => {
    const documentsBefore = await documentRows(org.id);
    const chunksBefore = await chunkRows(org.id);
    const result = await upsertDocuments(db, org.id, [doc('a'), doc('b'), doc('c')]);
    expect(result).toMatchObject({ inserted: 0, rechunked: 0, updated: 0, unchanged: 3 });
    expect(await documentRows(org.id)).toEqual(documentsBefore);
    expect(await chunkRows(org.id)).toEqual(chunksBefore);
    await expectStatisticsExact(org.id);
  });

  it('re-chunks a document whose content changed, and only that one', async () => {
    const before = await chunkRows(org.id);
    const [a] = await documentRows(org.id);
    const result = await upsertDocuments(db, org.id, [
      doc('a', { body: 'A completely different text about onboarding laptops.' }),
      doc('b'),
    ]);
    expect(result).toMatchObject({ inserted: 0, rechunked: 1, unchanged: 1 });
    const after = await chunkRows(org.id);
    const ofA = (rows: typeof before) => rows.filter((row) => row.documentId === a!.id);
    const others = (rows: typeof before) => rows.filter((row) => row.documentId !== a!.id);
    expect(ofA(after).map((row) => row.id)).not.toEqual(ofA(before).map((row) => row.id));
    expect(ofA(after)[0]!.body).toContain('onboarding laptops');
    expect(others(after)).toEqual(others(before));
    const [aAfter] = await documentRows(org.id);
    expect(aAfter!.version).toBe(a!.version + 1);
    expect(aAfter!.indexedVersion).toBe(aAfter!.version);
    await expectStatisticsExact(org.id);
  });

  it('applies a new ACL and metadata of unchanged content without re-chunking', async () => {
    const before = await chunkRows(org.id);
    const frequencies = sql`SELECT lexeme, doc_freq FROM search_term_stats WHERE org_id = ${org.id}::uuid ORDER BY lexeme`;
    const stats = await db.execute(frequencies);
    const result = await upsertDocuments(db, org.id, [
      doc('b', { acl: ['group:slack:C42', 'user:Bob@Example.com'], objectType: 'files' }),
    ]);
    expect(result).toMatchObject({ updated: 1, rechunked: 0 });
    const after = await chunkRows(org.id);
    const [, b] = await documentRows(org.id);
    for (const row of after) {
      const old = before.find((chunk) => chunk.id === row.id);
      expect(old).toBeDefined(); // no chunk was replaced
      expect(row.body).toBe(old!.body);
      if (row.documentId === b!.id) {
        expect(row.acl).toEqual(['group:slack:C42', 'user:bob@example.com']);
        expect(row.objectType).toBe('files');
      } else {
        expect(row).toEqual(old);
      }
    }
    expect(b!.acl).toEqual(['group:slack:C42', 'user:bob@example.com']);
    // every chunk still counts; b's no longer count among those every member reads
    expect((await db.execute(frequencies)).rows).toEqual(stats.rows);
    await expectStatisticsExact(org.id);
  });

  it('makes a document without an ACL private to the connection owner (fail closed)', async () => {
    const result = await upsertDocuments(
      db,
      org.id,
      [doc('private', { acl: [] }), doc('private-2', { acl: null })],
      {
        ownerEmail: 'Owner@Example.com',
      },
    );
    for (const id of result.documentIds) {
      const [row] = await db.select().from(documents).where(eq(documents.id, id));
      expect(row!.acl).toEqual(['user:owner@example.com']);
      const chunks = await db.select().from(documentChunks).where(eq(documentChunks.documentId, id));
      for (const chunk of chunks) expect(chunk.acl).toEqual(['user:owner@example.com']);
    }
  });

  it('refuses a document with no ACL and no owner, or with a malformed principal, writing nothing', async () => {
    const count = async () => (await documentRows(org.id)).length;
    const before = await count();
    await expect(upsertDocuments(db, org.id, [doc('x'), doc('nobody', { acl: [] })])).rejects.toThrow(
      InvalidAclError,
    );
    await expect(upsertDocuments(db, org.id, [doc('y', { acl: ['everyone'] })])).rejects.toThrow(
      InvalidAclError,
    );
    await expect(upsertDocuments(db, org.id, [doc('z', { acl: ['user:not-an-email'] })])).rejects.toThrow(
      InvalidAclError,
    );
    expect(await count()).toBe(before);
  });

  it('keeps documents apart by source and connection, and connection-less ones idempotent', async () => {
    const other = await newOrg();
    const batch = [doc('same', { source: 'uploads' }), doc('same', { source: 'answers' })];
    expect((await upsertDocuments(db, other.id, batch)).inserted).toBe(2);
    expect((await upsertDocuments(db, other.id, batch)).unchanged).toBe(2);
    // within one batch the last occurrence wins
    const twice = await upsertDocuments(db, other.id, [
      doc('dup', { title: 'first' }),
      doc('dup', { title: 'second' }),
    ]);
    expect(twice.inserted).toBe(1);
    const [row] = await db
      .select()
      .from(documents)
      .where(and(eq(documents.orgId, other.id), eq(documents.externalId, 'dup')));
    expect(row!.title).toBe('second');
    await expectStatisticsExact(other.id);
  });
});

/** Every field of a new document is stored as sent, so the next sync of the same content changes nothing. */
async function expectFieldsStoredAsSent(target: Db) {
  const org = await createOrg(target, { domain: `indexer-fields-${++orgCount}.example.com` });
  const full = doc('full "quoted", \\ back,slash', {
    title: 'Budget {2025}, "final"',
    url: 'https://wiki.example.com/page?id=1&x=a,b',
    author: 'Ada Lovelace',
    parentExternalId: 'parent-1',
    createdTime: new Date('2024-12-31T23:59:59.123Z'),
    acl: ['user:a"b@example.com', 'group:gdrive:x,y', 'org'],
    extra: { nested: { b: 1, a: [true, null, 'ü'] }, 'key with space': '' },
  });
  const bare = doc('bare', {
    authorEmail: null,
    objectType: null,
    fileType: null,
    modifiedTime: null,
    acl: ['org'],
  });
  const [fullId, bareId] = (await upsertDocuments(target, org.id, [full, bare])).documentIds;
  const rows = await target.select().from(documents).where(eq(documents.orgId, org.id));
  const stored = (id: string | undefined) => rows.find((row) => row.id === id)!;
  expect(stored(fullId)).toMatchObject({
    source: 'notion',
    connectionId: null,
    externalId: full.externalId,
    title: full.title,
    url: full.url,
    author: 'Ada Lovelace',
    authorEmail: 'ada@example.com',
    parentExternalId: 'parent-1',
    createdTime: full.createdTime,
    modifiedTime: full.modifiedTime,
    body: full.body,
    acl: [...full.acl!].sort(), // effectiveAcl keeps principals sorted
    extra: full.extra,
    version: 1,
    indexedVersion: 1,
  });
  expect(stored(bareId)).toMatchObject({
    authorEmail: null,
    objectType: null,
    fileType: null,
    modifiedTime: null,
  });
  expect(await upsertDocuments(target, org.id, [full, bare])).toMatchObject({ inserted: 0, unchanged: 2 });
}

describe('document fields', () => {
  it('are stored as sent (embedded store)', async () => {
    await expectFieldsStoredAsSent(db);
  });

  it.skipIf(!testDatabaseUrl)('are stored as sent (PostgreSQL server, TEST_DATABASE_URL)', async () => {
    const server = await openServerTestStore('indexer');
    try {
      await expectFieldsStoredAsSent(server.store.db);
    } finally {
      await server.drop();
    }
  });
});

describe('deleteDocuments, setDocumentAcl, deleteConnectionDocuments', () => {
  it('deletes documents with their chunks and statistics, ignoring unknown refs', async () => {
    const org = await newOrg();
    await upsertDocuments(db, org.id, [doc('a'), doc('b', { body: 'Unique words: zeppelin harmonica.' })]);
    const removed = await deleteDocuments(db, org.id, [
      { source: 'notion', externalId: 'b' },
      { source: 'notion', externalId: 'missing' },
    ]);
    expect(removed).toBe(1);
    expect((await documentRows(org.id)).map((row) => row.externalId)).toEqual(['a']);
    const leftovers = await db.execute(sql`
      SELECT count(*)::int AS n FROM search_term_stats WHERE org_id = ${org.id}::uuid AND lexeme = 'zeppelin'`);
    expect(leftovers.rows[0]!.n).toBe(0);
    await expectStatisticsExact(org.id);
  });

  it('re-ACLs a document and all its chunks without re-chunking', async () => {
    const org = await newOrg();
    const longBody = Array.from({ length: 400 }, (_, i) => `Sentence ${i} about the migration plan.`).join(
      ' ',
    );
    await upsertDocuments(db, org.id, [doc('long', { body: longBody })]);
    const before = await chunkRows(org.id);
    expect(before.length).toBeGreaterThan(1);
    expect(
      await setDocumentAcl(db, org.id, { source: 'notion', externalId: 'long' }, ['user:Eve@Example.com']),
    ).toBe(true);
    const after = await chunkRows(org.id);
    expect(after.map((row) => row.id)).toEqual(before.map((row) => row.id));
    for (const row of after) expect(row.acl).toEqual(['user:eve@example.com']);
    const [document] = await documentRows(org.id);
    expect(document!.acl).toEqual(['user:eve@example.com']);
    expect(document!.version).toBe(2);
    // its chunks left the shared statistics, and come back with an org-wide ACL
    await expectStatisticsExact(org.id);
    await setDocumentAcl(db, org.id, { source: 'notion', externalId: 'long' }, [
      'org',
      'user:eve@example.com',
    ]);
    await expectStatisticsExact(org.id);
    // empty falls back to the owner, as at indexing; without one it is refused
    await setDocumentAcl(db, org.id, { source: 'notion', externalId: 'long' }, [], {
      ownerEmail: 'o@example.com',
    });
    expect((await chunkRows(org.id))[0]!.acl).toEqual(['user:o@example.com']);
    await expect(setDocumentAcl(db, org.id, { source: 'notion', externalId: 'long' }, [])).rejects.toThrow(
      InvalidAclError,
    );
    expect(await setDocumentAcl(db, org.id, { source: 'notion', externalId: 'nope' }, ['org'])).toBe(false);
  });

  it('deletes every document of a connection, keeping the statistics exact', async () => {
    const org = await newOrg();
    const [connection] = await db
      .insert(appConnections)
      .values({ orgId: org.id, appName: 'slack' })
      .returning({ id: appConnections.id });
    await upsertDocuments(db, org.id, [
      doc('m1', { source: 'slack', connectionId: connection!.id }),
      doc('m2', { source: 'slack', connectionId: connection!.id }),
      doc('kept'),
    ]);
    expect(await deleteConnectionDocuments(db, org.id, connection!.id)).toBe(2);
    expect((await documentRows(org.id)).map((row) => row.externalId)).toEqual(['kept']);
    await expectStatisticsExact(org.id);
  });
});

describe('statistics and reindex', () => {
  it('stay exact through a random sequence of upserts, ACL changes and deletes', async () => {
    const org = await newOrg();
    const random = seededRandom(7);
    const words = 'budget roadmap hiring refund invoice laptop holiday security incident launch'.split(' ');
    const text = () =>
      Array.from({ length: 5 + Math.floor(random() * 80) }, () => pick(random, words)).join(' ');
    for (let round = 0; round < 12; round++) {
      const batch = Array.from({ length: 5 }, () =>
        doc(`d${Math.floor(random() * 15)}`, {
          body: random() < 0.3 ? 'fixed body' : text(),
          acl: random() < 0.5 ? ['org'] : ['user:a@example.com'],
        }),
      );
      await upsertDocuments(db, org.id, batch);
      if (random() < 0.4) {
        await deleteDocuments(db, org.id, [
          { source: 'notion', externalId: `d${Math.floor(random() * 15)}` },
        ]);
      }
    }
    await expectStatisticsExact(org.id);
  });

  it('reindex rebuilds chunks and statistics from the stored documents', async () => {
    const org = await newOrg();
    await upsertDocuments(db, org.id, [doc('a'), doc('b'), doc('c', { body: '' })]);
    // damage: a lost chunk and drifted statistics
    const [victim] = await chunkRows(org.id);
    await db.delete(documentChunks).where(eq(documentChunks.id, victim!.id));
    await db.execute(sql`UPDATE search_stats SET chunk_count = 999 WHERE org_id = ${org.id}::uuid`);
    await db.execute(sql`UPDATE search_term_stats SET doc_freq = 42 WHERE org_id = ${org.id}::uuid`);
    const progress: number[] = [];
    const result = await reindexOrg(db, org.id, { batchSize: 2, onProgress: (done) => progress.push(done) });
    expect(result.documents).toBe(3);
    expect(progress).toEqual([2, 3]);
    const chunks = await chunkRows(org.id);
    expect(new Set(chunks.map((chunk) => chunk.documentId)).size).toBe(3);
    expect(result.chunks).toBe(chunks.length);
    await expectStatisticsExact(org.id);
  });
});
