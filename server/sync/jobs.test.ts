// The sync jobs when many connections share a worker: a dedupe key per sync mode, content syncs in slices that
// resume from their cursor, one request limiter per org and vendor, and the last error kept for the admins.
import { eq, inArray } from 'drizzle-orm';
import { pino } from 'pino';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectionStatus } from '../../common/connection-status';
import { TransientError, silentLogger, type Connector } from '../../connectors/sdk';
import { CREDENTIAL_NAMES } from '../../common/strings';
import { notesConnector } from '../../connectors/sdk/example';
import { startNotesFake, type NotesFake } from '../../connectors/sdk/example/fake';
import { appConnections, documents, jobs, type Org, type User } from '../db/schema';
import { MEMORY_DATA_DIR, openStore, type Store } from '../db/store';
import { runWorker } from '../jobs/worker';
import { createOrg, createUser } from '../testing/fixtures';
import { encryptCredentials } from './connections';
import { runSync, type SyncMode, type SyncOutcome, type SyncSlice } from './engine';
import { enqueueSync, syncDedupeKey } from './jobs';
import { registerConnector } from './registry';

/** Fails with a transient error while its config says so, then syncs nothing. */
const flakyConnector: Connector<{ api_key: string }, { fail: boolean }> = {
  shortname: 'aha',
  installPayload: 'apiKey',
  credentialsSchema: z.object({ api_key: z.string() }),
  configSchema: z.object({ fail: z.boolean() }),
  credentialFields: [{ key: 'api_key', label: 'API key', secret: true }],
  credentialName: CREDENTIAL_NAMES.apiKey,
  validate: async () => ({}),
  async *fullSync(ctx) {
    if (ctx.config.fail) throw new TransientError('upstream 503');
    yield { documents: [], cursor: null };
  },
  async *incrementalSync() {},
  async *listIds() {},
};
registerConnector(notesConnector);
registerConnector(flakyConnector);

let store: Store;
let fake: NotesFake;
let org: Org;
let owner: User;
beforeAll(async () => {
  store = await openStore({ databaseUrl: null, dataDir: MEMORY_DATA_DIR });
  fake = await startNotesFake({ pageSize: 2 });
  org = await createOrg(store.db, { domain: 'sync-jobs.test' });
  owner = await createUser(store.db, org, { email: 'owner@sync-jobs.test', admin: true });
});
afterAll(async () => {
  await fake.close();
  await store.close();
});

async function connect(inOrg: Org = org, user: User = owner, baseUrl = fake.server.url) {
  const [row] = await store.db
    .insert(appConnections)
    .values({
      orgId: inOrg.id,
      userId: user.id,
      appName: 'guru',
      isOrg: true,
      statusCode: ConnectionStatus.Connecting,
      extra: { config: { baseUrl } },
    })
    .returning();
  await store.db
    .update(appConnections)
    .set({ credentialsEncrypted: encryptCredentials(row!.id, { api_key: fake.token }) })
    .where(eq(appConnections.id, row!.id));
  return row!;
}

const sync = (connectionId: string, mode: SyncMode, runId: string, slice?: SyncSlice) =>
  runSync(store.db, {
    connectionId,
    mode,
    runId,
    slice,
    logger: silentLogger,
    signal: new AbortController().signal,
  });

const indexedIds = async (connectionId: string) =>
  (
    await store.db
      .select({ externalId: documents.externalId })
      .from(documents)
      .where(eq(documents.connectionId, connectionId))
  )
    .map((row) => row.externalId)
    .sort();

const connectionRow = async (id: string) =>
  (await store.db.select().from(appConnections).where(eq(appConnections.id, id)))[0]!;

const notePages = () => fake.server.requests.filter((request) => request.path === '/api/notes').length;

describe('sync jobs', () => {
  it('queues a prune and a permission sync behind a queued incremental sync, one of each mode', async () => {
    const connection = await connect();
    expect(await enqueueSync(store.db, connection, 'incremental')).toBe(true);
    expect(await enqueueSync(store.db, connection, 'prune')).toBe(true);
    expect(await enqueueSync(store.db, connection, 'permissions')).toBe(true);
    expect(await enqueueSync(store.db, connection, 'prune')).toBe(false);
    const live = await store.db
      .select({ dedupeKey: jobs.dedupeKey, lane: jobs.lane, exclusiveKey: jobs.exclusiveKey })
      .from(jobs)
      .where(
        inArray(
          jobs.dedupeKey,
          (['incremental', 'prune', 'permissions'] as const).map((mode) =>
            syncDedupeKey(connection.id, mode),
          ),
        ),
      );
    expect(live.map((job) => job.lane).sort()).toEqual(['long', 'long', 'quick']);
    expect(new Set(live.map((job) => job.exclusiveKey))).toEqual(new Set([`connection:${connection.id}`]));
  });

  it('does not queue an incremental sync while a full sync is underway: the full sync delivers it', async () => {
    const connection = await connect();
    expect(await enqueueSync(store.db, connection, 'full')).toBe(true);
    expect(await enqueueSync(store.db, connection, 'incremental')).toBe(false);
    expect(await enqueueSync(store.db, connection, 'permissions')).toBe(true);
  });

  it('runs a full sync in slices that resume from the committed cursor, fetching no page twice', async () => {
    const whole = await connect();
    fake.server.clearLog();
    expect((await sync(whole.id, 'full', 'whole-run')).kind).toBe('complete');
    const pagesWhole = notePages();

    const sliced = await connect();
    fake.server.clearLog();
    const outcomes: SyncOutcome[] = [];
    for (let run = 0; run < 20; run++) {
      const outcome = await sync(sliced.id, 'full', 'sliced-run', { maxItems: 2, maxMs: 60_000 });
      outcomes.push(outcome);
      if (outcome.kind !== 'yielded') break;
      // Between slices the connection still shows a sync in progress.
      expect((await connectionRow(sliced.id)).statusCode).toBe(ConnectionStatus.Indexing);
    }
    expect(outcomes.at(-1)?.kind).toBe('complete');
    expect(outcomes.filter((outcome) => outcome.kind === 'yielded').length).toBeGreaterThanOrEqual(2);
    for (const outcome of outcomes.slice(0, -1)) expect(outcome).toMatchObject({ kind: 'yielded', items: 2 });
    expect(await indexedIds(sliced.id)).toEqual(await indexedIds(whole.id));
    expect(notePages()).toBe(pagesWhole);
    expect((await connectionRow(sliced.id)).statusCode).toBe(ConnectionStatus.IndexingComplete);
  });

  it("shares one limiter among an org's connections of a vendor: a 429 on one holds the others back", async () => {
    const first = await connect();
    const second = await connect();
    const otherOrg = await createOrg(store.db, { domain: 'sync-jobs-other.test' });
    const otherOwner = await createUser(store.db, otherOrg, {
      email: 'owner@sync-jobs-other.test',
      admin: true,
    });
    const elsewhere = await connect(otherOrg, otherOwner);

    fake.server.failNext(1, { kind: 'rateLimit', retryAfter: 3600 });
    const limited = await sync(first.id, 'full', 'limited-run');
    expect(limited.kind).toBe('later');
    expect((limited as { at: Date }).at.getTime()).toBeGreaterThan(Date.now() + 3_500_000);

    fake.server.clearLog();
    const held = await sync(second.id, 'full', 'held-run');
    expect(held.kind).toBe('later');
    expect(fake.server.requests).toHaveLength(0);

    expect((await sync(elsewhere.id, 'full', 'elsewhere-run')).kind).toBe('complete');
    expect(fake.server.requests.length).toBeGreaterThan(0);
  });

  it("keeps a failed attempt's error on the connection until a sync completes", async () => {
    const [connection] = await store.db
      .insert(appConnections)
      .values({
        orgId: org.id,
        userId: owner.id,
        appName: 'aha',
        isOrg: true,
        statusCode: ConnectionStatus.Connecting,
        extra: { config: { fail: true } },
      })
      .returning();
    await store.db
      .update(appConnections)
      .set({ credentialsEncrypted: encryptCredentials(connection!.id, { api_key: 'key' }) })
      .where(eq(appConnections.id, connection!.id));
    expect(await enqueueSync(store.db, connection!, 'full')).toBe(true);
    const worker = runWorker(store, pino({ level: 'silent' }), { idleMs: 10 });
    let row = await connectionRow(connection!.id);
    try {
      for (let i = 0; i < 400 && !row.lastError; i++) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        row = await connectionRow(connection!.id);
      }
    } finally {
      await worker.stop();
    }
    expect(row.lastError).toBe('upstream 503');
    expect(row.lastErrorAt).toBeInstanceOf(Date);
    // Still retrying: the badge is not failed yet.
    expect(row.statusCode).toBe(ConnectionStatus.Connecting);

    await store.db
      .update(appConnections)
      .set({ extra: { config: { fail: false } } })
      .where(eq(appConnections.id, connection!.id));
    expect((await sync(connection!.id, 'full', 'healed-run')).kind).toBe('complete');
    const healed = await connectionRow(connection!.id);
    expect(healed.lastError).toBeNull();
    expect(healed.lastErrorAt).toBeNull();
  });
});
