// The Slack connector survives being killed mid-sync: its fake workspace stays up in this process while the real
// job worker (server/sync/testing/worker-entry.ts, which has every shipped connector registered) syncs it in a
// child process that is SIGKILLed twice after some batches are committed. The index must end up holding exactly
// the fixture, and the resumed runs must not have read the channels from the start again.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, expect, it } from 'vitest';
import { ConnectionStatus } from '../../common/connection-status';
import { startSlackFake, type SlackFake } from '../../connectors/slack/fake';
import { ADMIN, GUEST, MEMBER, credentialsFor, seedWorkspace } from '../../connectors/slack/fixture';
import { appConnections, documents } from '../db/schema';
import { encryptWithKey, loadSecretKey } from '../db/secrets';
import { openStore, type Store } from '../db/store';
import { createOrg, createUser } from '../testing/fixtures';
import { enqueueSync } from './jobs';
import { createTestDatabase, testDatabaseUrl, type TestDatabase } from '../testing/database';
import { startWorkerProcess, until } from './testing/worker-process';

const PAGE_SIZE = 4;
const MORE_MESSAGES = 16;
const KILLS = 2;
/** Each worker process loads the whole server before its first batch: tens of seconds on a busy machine. */
const TIMEOUT_MS = 300_000;

let fake: SlackFake | undefined;
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

it(
  `indexes exactly the fixture workspace after ${KILLS} SIGKILLs mid-sync`,
  async () => {
    fake = await startSlackFake({ pageSize: PAGE_SIZE });
    const fixture = seedWorkspace(fake);
    const expected = [
      `${fixture.general}/${fixture.ts.hello}`,
      `${fixture.general}/${fixture.ts.question}`,
      `${fixture.general}/${fixture.ts.old}`,
      `${fixture.eng}/${fixture.ts.spec}`,
      `${fixture.eng}/${fixture.ts.spec}/${fixture.specFileId}`,
      `${fixture.eng}/${fixture.ts.design}`,
    ];
    for (let n = 0; n < MORE_MESSAGES; n++) {
      const general = fake.post(fixture.general, {
        user: MEMBER,
        text: `Status ${n}`,
        ageSeconds: 10 * 86_400 + n,
      });
      const eng = fake.post(fixture.eng, {
        user: n % 2 ? ADMIN : GUEST,
        text: `Build ${n}`,
        ageSeconds: 86_400 + n,
      });
      expected.push(`${fixture.general}/${general.ts}`, `${fixture.eng}/${eng.ts}`);
    }

    dataDir = mkdtempSync(path.join(tmpdir(), 'scout-slack-crash-'));
    if (testDatabaseUrl) database = await createTestDatabase('slack_crash');
    let store = await openTestStore(dataDir);
    const org = await createOrg(store.db, { domain: `slack-crash-${Date.now()}.test` });
    const owner = await createUser(store.db, org, { email: `admin@${org.domain}`, admin: true });
    const [connection] = await store.db
      .insert(appConnections)
      .values({
        orgId: org.id,
        userId: owner.id,
        appName: 'slack',
        isOrg: true,
        statusCode: ConnectionStatus.Connecting,
        extra: { config: { baseUrl: fake.apiUrl } },
      })
      .returning();
    if (!connection) throw new Error('no connection');
    // The child process decrypts with the key of its DATA_DIR, as `scout worker` would.
    const credentials = encryptWithKey(
      loadSecretKey(dataDir),
      JSON.stringify(credentialsFor(fake)),
      connection.id,
    );
    await store.db
      .update(appConnections)
      .set({ credentialsEncrypted: credentials })
      .where(eq(appConnections.id, connection.id));
    expect(await enqueueSync(store.db, connection, 'full')).toBe(true);
    await store.close();

    for (let kill = 0; kill < KILLS; kill++) {
      const worker = startWorkerProcess(dataDir, databaseUrl());
      const target = 2 + Math.floor(Math.random() * 2);
      const reached = await until(() => worker.batches() >= target, worker.exited);
      expect(reached, 'the worker finished before it could be killed').toBe(true);
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 100));
      worker.child.kill('SIGKILL');
      expect(await worker.exited).toBe('SIGKILL');
    }
    const last = startWorkerProcess(dataDir, databaseUrl());
    expect(await last.exited).toBe(0);

    store = await openTestStore(dataDir);
    try {
      const rows = await store.db
        .select({ externalId: documents.externalId })
        .from(documents)
        .where(and(eq(documents.orgId, org.id), eq(documents.connectionId, connection.id)));
      expect(rows.map((row) => row.externalId).sort()).toEqual(expected.sort());
      const [done] = await store.db.select().from(appConnections).where(eq(appConnections.id, connection.id));
      expect(done?.statusCode).toBe(ConnectionStatus.IndexingComplete);
      // Resumed from the committed cursor: a channel's first page (no cursor) is read once per channel, plus at
      // most one more per kill that struck while that page was in hand.
      const firstPages = fake.server.requests.filter(
        (request) => request.path === '/api/conversations.history' && !request.body.includes('cursor='),
      ).length;
      expect(firstPages).toBeLessThanOrEqual(2 + KILLS);
    } finally {
      await store.close();
    }
  },
  TIMEOUT_MS,
);
