// The sync engine survives being killed at any moment: a sync of 5,000 documents from the SDK's example
// connector (against its fake notes API on 127.0.0.1) runs in a child worker process that is SIGKILLed at random
// points five times, then resumed to completion. The index must then hold exactly the source's documents, each
// once, with consistent chunks and statistics, and the resumed runs must not have started over.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, expect, it } from 'vitest';
import { ConnectionStatus } from '../../common/connection-status';
import { startNotesFake, type NotesFake } from '../../connectors/sdk/example/fake';
import { appConnections, documents } from '../db/schema';
import { encryptWithKey, loadSecretKey } from '../db/secrets';
import { openStore, type Store } from '../db/store';
import { createOrg, createUser } from '../testing/fixtures';
import { enqueueSync } from './jobs';
import { createTestDatabase, testDatabaseUrl, type TestDatabase } from '../testing/database';
import { startWorkerProcess, until } from './testing/worker-process';

const DOCUMENTS = 5000;
const PAGE_SIZE = 50;
const KILLS = 5;

let fake: NotesFake | undefined;
let dataDir: string | undefined;
/** The test's own database when TEST_DATABASE_URL names a server, shared with the worker processes. */
let database: TestDatabase | undefined;
afterAll(async () => {
  await fake?.close();
  await database?.drop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const databaseUrl = (): string | null => database?.url ?? null;
const openTestStore = (dir: string): Promise<Store> =>
  openStore({ databaseUrl: databaseUrl(), dataDir: dir });

it(`indexes exactly the source's ${DOCUMENTS} documents after ${KILLS} SIGKILLs mid-sync`, async () => {
  fake = await startNotesFake({ pageSize: PAGE_SIZE });
  for (const id of ['n1', 'n2', 'n3', 'n4', 'n5', 'n6', 'n7']) fake.remove(id);
  const expected: string[] = [];
  for (let n = 0; n < DOCUMENTS; n++) {
    const id = `doc-${String(n).padStart(4, '0')}`;
    // Every 50th document is long enough to make several chunks.
    const words = n % 50 === 0 ? 1000 : 30;
    const body = Array.from({ length: words }, (_, i) => `word${(n * 7 + i) % 997}`).join(' ');
    fake.upsert({ id, title: `Document ${n}`, body: `Document ${n}. ${body}` });
    expected.push(id);
  }

  dataDir = mkdtempSync(path.join(tmpdir(), 'scout-crash-'));
  if (testDatabaseUrl) database = await createTestDatabase('crash', { migrated: true });
  let store = await openTestStore(dataDir);
  const org = await createOrg(store.db, { domain: `crash-${Date.now()}.test` });
  const owner = await createUser(store.db, org, { email: `admin@${org.domain}`, admin: true });
  const [connection] = await store.db
    .insert(appConnections)
    .values({
      orgId: org.id,
      userId: owner.id,
      appName: 'guru',
      isOrg: true,
      statusCode: ConnectionStatus.Connecting,
      extra: { config: { baseUrl: fake.server.url } },
    })
    .returning();
  if (!connection) throw new Error('no connection');
  // The child process decrypts with the key of its DATA_DIR, as `scout worker` would.
  const credentials = encryptWithKey(
    loadSecretKey(dataDir),
    JSON.stringify({ api_key: fake.token }),
    connection.id,
  );
  await store.db
    .update(appConnections)
    .set({ credentialsEncrypted: credentials })
    .where(eq(appConnections.id, connection.id));
  expect(await enqueueSync(store.db, connection, 'full')).toBe(true);
  await store.close();

  const totalPages = DOCUMENTS / PAGE_SIZE;
  let killedAt = 0;
  for (let kill = 0; kill < KILLS; kill++) {
    const worker = startWorkerProcess(dataDir, databaseUrl());
    // Somewhere in the next stretch of batches, then a random moment within a batch (mid-transaction included).
    const target = 1 + Math.floor(Math.random() * 10);
    const reached = await until(() => worker.batches() >= target, worker.exited);
    expect(reached, 'the worker finished before it could be killed').toBe(true);
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 150));
    worker.child.kill('SIGKILL');
    expect(await worker.exited).toBe('SIGKILL');
    killedAt += worker.batches();
  }
  expect(killedAt).toBeLessThan(totalPages);
  const last = startWorkerProcess(dataDir, databaseUrl());
  expect(await last.exited).toBe(0);
  // The last run alone has more than a slice to do, so it yields its lane at least once and resumes.
  expect(last.slices()).toBeGreaterThan(0);

  store = await openTestStore(dataDir);
  try {
    const rows = await store.db
      .select({ externalId: documents.externalId, acl: documents.acl })
      .from(documents)
      .where(and(eq(documents.orgId, org.id), eq(documents.connectionId, connection.id)));
    expect(rows).toHaveLength(DOCUMENTS);
    expect(rows.map((row) => row.externalId).sort()).toEqual(expected);
    expect(rows.every((row) => row.acl.join() === 'org')).toBe(true);

    // Each document's chunks are numbered 0..n-1 exactly once, and the BM25 statistics count exactly them.
    const chunks = await store.db.execute(sql`
        SELECT count(*)::int AS chunks, count(DISTINCT (c.document_id, c.ord))::int AS distinct_chunks,
               count(*) FILTER (WHERE c.ord >= d.n)::int AS out_of_range,
               (SELECT chunk_count FROM search_stats WHERE org_id = ${org.id}::uuid)::int AS stats_chunks
        FROM document_chunks c
        JOIN (SELECT document_id, count(*) AS n FROM document_chunks WHERE org_id = ${org.id}::uuid GROUP BY document_id) d
          ON d.document_id = c.document_id
        WHERE c.org_id = ${org.id}::uuid`);
    const counts = chunks.rows[0] as Record<string, number>;
    expect(counts.chunks).toBeGreaterThan(DOCUMENTS);
    expect(counts.distinct_chunks).toBe(counts.chunks);
    expect(counts.out_of_range).toBe(0);
    expect(counts.stats_chunks).toBe(counts.chunks);

    const [done] = await store.db.select().from(appConnections).where(eq(appConnections.id, connection.id));
    expect(done?.statusCode).toBe(ConnectionStatus.IndexingComplete);
    // Resumed from the committed cursor each time: at most the in-flight page or two refetched per kill.
    const pages = fake.server.requests.filter((request) => request.path === '/api/notes').length;
    expect(pages).toBeGreaterThanOrEqual(totalPages);
    expect(pages).toBeLessThanOrEqual(totalPages + KILLS * 3);
  } finally {
    await store.close();
  }
}, 120_000);
