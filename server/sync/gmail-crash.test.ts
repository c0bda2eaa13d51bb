// Gmail survives being killed mid-sync: a full sync of a fixture mailbox from the fake Gmail API runs in the crash
// test's child worker process (the real job worker and engine, over an embedded store in a temporary DATA_DIR),
// which is SIGKILLed after some committed batches three times, then resumed to completion. The index must then hold
// exactly the mailbox's threads, each once, and the resumed runs must have continued from their page tokens.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, expect, it } from 'vitest';
import { ConnectionStatus, SYNC_WINDOW_MS } from '../../common/connection-status';
import { startGmailFake, type GmailFake } from '../../connectors/gmail/fake';
import { appConnections, documents } from '../db/schema';
import { encryptWithKey, loadSecretKey } from '../db/secrets';
import { openStore } from '../db/store';
import { createOrg, createUser } from '../testing/fixtures';
import { enqueueSync } from './jobs';
import { startWorkerProcess, until } from './testing/worker-process';

const THREADS = 60;
const PAGE_SIZE = 6;
const KILLS = 3;

let fake: GmailFake | undefined;
let dataDir: string | undefined;
afterAll(async () => {
  await fake?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

it(`indexes exactly the mailbox's threads after ${KILLS} SIGKILLs mid-sync`, async () => {
  fake = await startGmailFake({ pageSize: PAGE_SIZE });
  for (let n = 0; n < THREADS; n += 1)
    fake.addMessage({
      id: `m-crash-${n}`,
      threadId: `t-crash-${String(n).padStart(3, '0')}`,
      from: 'Grace Hopper <grace@example.com>',
      to: fake.mailbox,
      subject: `Incident ${n}`,
      date: new Date(Date.now() - (n + 1) * 3_600_000),
      text: `Incident ${n}: the pager went off at ${n} past the hour.`,
    });
  const expected = [...fake.visibleThreads(new Date(Date.now() - SYNC_WINDOW_MS)).keys()].sort();

  dataDir = mkdtempSync(path.join(tmpdir(), 'scout-gmail-crash-'));
  let store = await openStore({ databaseUrl: null, dataDir });
  const org = await createOrg(store.db, { domain: 'example.com' });
  const ada = await createUser(store.db, org, { email: 'ada@example.com' });
  const [connection] = await store.db
    .insert(appConnections)
    .values({
      orgId: org.id,
      userId: ada.id,
      appName: 'gmail',
      isOrg: false,
      statusCode: ConnectionStatus.Connecting,
      extra: { config: { baseUrl: fake.server.url } },
    })
    .returning();
  if (!connection) throw new Error('no connection');
  // A token good for an hour: the worker syncs with it as stored.
  const credentials = {
    access_token: fake.accessToken(),
    refresh_token: fake.refreshToken,
    expires_at: new Date(Date.now() + 3_600_000).toISOString(),
  };
  await store.db
    .update(appConnections)
    .set({
      credentialsEncrypted: encryptWithKey(
        loadSecretKey(dataDir),
        JSON.stringify(credentials),
        connection.id,
      ),
    })
    .where(eq(appConnections.id, connection.id));
  expect(await enqueueSync(store.db, connection, 'full')).toBe(true);
  await store.close();

  const totalPages = Math.ceil(expected.length / PAGE_SIZE);
  let committed = 0;
  for (let kill = 0; kill < KILLS; kill += 1) {
    const worker = startWorkerProcess(dataDir, null);
    const target = 1 + Math.floor(Math.random() * 2);
    expect(await until(() => worker.batches() >= target, worker.exited), 'finished before the kill').toBe(
      true,
    );
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 100));
    worker.child.kill('SIGKILL');
    expect(await worker.exited).toBe('SIGKILL');
    committed += worker.batches();
  }
  expect(committed).toBeLessThan(totalPages);
  expect(await startWorkerProcess(dataDir, null).exited).toBe(0);

  store = await openStore({ databaseUrl: null, dataDir });
  try {
    const rows = await store.db
      .select({ externalId: documents.externalId, acl: documents.acl })
      .from(documents)
      .where(and(eq(documents.orgId, org.id), eq(documents.connectionId, connection.id)));
    expect(rows.map((row) => row.externalId).sort()).toEqual(expected);
    expect(rows.every((row) => row.acl.join() === 'user:ada@example.com')).toBe(true);
    const [done] = await store.db.select().from(appConnections).where(eq(appConnections.id, connection.id));
    expect(done?.statusCode).toBe(ConnectionStatus.IndexingComplete);
    // Resumed from the committed page token each time: at most the in-flight page or two listed again per kill.
    const listings = fake.server.requests.filter((request) => request.path === '/gmail/v1/users/me/threads');
    expect(listings.length).toBeGreaterThanOrEqual(totalPages);
    expect(listings.length).toBeLessThanOrEqual(totalPages + KILLS * 2);
  } finally {
    await store.close();
  }
}, 300_000);
