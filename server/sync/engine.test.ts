import { and, eq } from 'drizzle-orm';
import { pino } from 'pino';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectionStatus } from '../../common/connection-status';
import { CREDENTIAL_NAMES } from '../../common/strings';
import {
  FatalSourceError,
  PermissionMismatchError,
  RateLimitedError,
  TransientError,
  type Connector,
} from '../../connectors/sdk';
import { notesConnector } from '../../connectors/sdk/example';
import { startNotesFake, type NotesFake } from '../../connectors/sdk/example/fake';
import { appConnections, documents, jobs, type Org, type User } from '../db/schema';
import { MEMORY_DATA_DIR, openStore, type Store } from '../db/store';
import { runWorker } from '../jobs/worker';
import { syncNow } from './testing/connections';
import { createOrg, createUser } from '../testing/fixtures';
import { connectionProgress, encryptCredentials } from './connections';
import { type SyncMode } from './engine';
import { enqueueSync, syncDedupeKey } from './jobs';
import { registerConnector } from './registry';

const failures = {
  fatal: () => new FatalSourceError('the workspace no longer exists'),
  permission: () => new PermissionMismatchError('The API key must belong to a workspace admin.'),
  rateLimited: () => new RateLimitedError(3_600_000),
  transient: () => new TransientError('upstream 503'),
} as const;

/** Fails its sync as its config says: how the engine maps each kind of connector error. */
const failingConnector: Connector<{ api_key: string }, { fail: keyof typeof failures }> = {
  shortname: 'aha',
  installPayload: 'apiKey',
  credentialsSchema: z.object({ api_key: z.string() }),
  configSchema: z.object({ fail: z.enum(['fatal', 'permission', 'rateLimited', 'transient']) }),
  credentialFields: [{ key: 'api_key', label: 'API key', secret: true }],
  credentialName: CREDENTIAL_NAMES.apiKey,
  validate: async () => ({}),
  async *fullSync(ctx) {
    yield* [];
    throw failures[ctx.config.fail]();
  },
  async *incrementalSync() {},
  async *listIds() {},
};
registerConnector(notesConnector);
registerConnector(failingConnector);

let store: Store;
let fake: NotesFake;
let org: Org;
let owner: User;
beforeAll(async () => {
  store = await openStore({ databaseUrl: null, dataDir: MEMORY_DATA_DIR });
  fake = await startNotesFake({ pageSize: 2 });
  org = await createOrg(store.db, { domain: 'sync-engine.test' });
  owner = await createUser(store.db, org, { email: 'Owner@sync-engine.test', admin: true });
});
afterAll(async () => {
  await fake.close();
  await store.close();
});

async function connect(
  options: { appName?: string; isOrg?: boolean; apiKey?: string; config?: object } = {},
) {
  const [row] = await store.db
    .insert(appConnections)
    .values({
      orgId: org.id,
      userId: owner.id,
      appName: options.appName ?? 'guru',
      isOrg: options.isOrg ?? true,
      statusCode: ConnectionStatus.Connecting,
      extra: { config: options.config ?? { baseUrl: fake.server.url } },
    })
    .returning();
  const credentials = encryptCredentials(row!.id, { api_key: options.apiKey ?? fake.token });
  await store.db
    .update(appConnections)
    .set({ credentialsEncrypted: credentials })
    .where(eq(appConnections.id, row!.id));
  return row!;
}

const sync = (connectionId: string, mode: SyncMode, runId?: string) =>
  syncNow(store.db, connectionId, mode, { runId });

const connectionRow = async (id: string) =>
  (await store.db.select().from(appConnections).where(eq(appConnections.id, id)))[0]!;

const indexed = async (connectionId: string) =>
  Object.fromEntries(
    (
      await store.db
        .select({ externalId: documents.externalId, acl: documents.acl })
        .from(documents)
        .where(eq(documents.connectionId, connectionId))
    ).map((row) => [row.externalId, row.acl]),
  );

describe('sync engine', () => {
  it('runs a full sync: Connecting → IndexingComplete, the source ACLs, fail closed where the source cannot say', async () => {
    const connection = await connect();
    expect(await sync(connection.id, 'full')).toMatchObject({ kind: 'complete' });
    const row = await connectionRow(connection.id);
    expect(row.statusCode).toBe(ConnectionStatus.IndexingComplete);
    expect(connectionProgress(row, new Date())).toBe(100);
    expect(row.syncedFrom).not.toBeNull();
    const docs = await indexed(connection.id);
    // n7 is older than the three-year window.
    expect(Object.keys(docs).sort()).toEqual(['n1', 'n2', 'n3', 'n4', 'n5', 'n6']);
    expect(docs.n1).toEqual(['org']);
    expect(docs.n3).toEqual(['public']);
    // The source's group, namespaced to the connection.
    expect(docs.n2).toEqual([
      `group:guru:${connection.id}:eng`,
      'user:ada@example.com',
      'user:grace@example.com',
    ]);
    // No visibility on the note: private to the connection's owner.
    expect(docs.n4).toEqual(['user:owner@sync-engine.test']);
  });

  it('makes every document of an individual connection private to its owner', async () => {
    const connection = await connect({ isOrg: false });
    await sync(connection.id, 'full');
    const docs = await indexed(connection.id);
    expect(Object.keys(docs)).toHaveLength(6);
    for (const acl of Object.values(docs)) expect(acl).toEqual(['user:owner@sync-engine.test']);
  });

  it('follows changes incrementally and prunes what the source no longer lists', async () => {
    const connection = await connect();
    await sync(connection.id, 'full');
    fake.upsert({ id: 'n8', title: 'Fresh', body: 'A new note.' });
    fake.remove('n2');
    expect(await sync(connection.id, 'incremental')).toMatchObject({ kind: 'complete' });
    let docs = await indexed(connection.id);
    expect(docs.n8).toEqual(['org']);
    expect(docs.n2).toBeUndefined();
    // A document the change feed never reported gone: only pruning finds it.
    await store.db
      .insert(documents)
      .values({ orgId: org.id, connectionId: connection.id, source: 'guru', externalId: 'ghost' });
    expect(await sync(connection.id, 'prune')).toEqual({ kind: 'pruned', deleted: 1 });
    docs = await indexed(connection.id);
    expect(docs.ghost).toBeUndefined();
    expect(docs.n8).toBeDefined();
  });

  it("moves to ErrorReconnect with the spec's text when the credentials stop working", async () => {
    const connection = await connect({ apiKey: 'revoked' });
    expect(await sync(connection.id, 'full')).toEqual({
      kind: 'stopped',
      statusCode: ConnectionStatus.ErrorReconnect,
    });
    expect(await connectionRow(connection.id)).toMatchObject({
      statusCode: ConnectionStatus.ErrorReconnect,
      statusMessage: 'Incorrect API key. Please try again.',
    });
    // ErrorReconnect waits for the user: scheduled syncs skip it.
    expect(await sync(connection.id, 'incremental')).toMatchObject({ kind: 'skipped' });
  });

  it('maps permission mismatch, fatal, rate-limit and transient errors', async () => {
    const permission = await connect({ appName: 'aha', config: { fail: 'permission' } });
    expect(await sync(permission.id, 'full')).toEqual({
      kind: 'stopped',
      statusCode: ConnectionStatus.ErrorReconnect,
    });
    expect((await connectionRow(permission.id)).statusMessage).toBe(
      'Failed to install Aha!: The API key must belong to a workspace admin.',
    );
    const fatal = await connect({ appName: 'aha', config: { fail: 'fatal' } });
    expect(await sync(fatal.id, 'full')).toEqual({
      kind: 'stopped',
      statusCode: ConnectionStatus.IndexingFailed,
    });
    const limited = await connect({ appName: 'aha', config: { fail: 'rateLimited' } });
    const later = await sync(limited.id, 'full');
    expect(later.kind).toBe('later');
    expect((later as { at: Date }).at.getTime()).toBeGreaterThan(Date.now() + 3_500_000);
    expect((await connectionRow(limited.id)).statusCode).toBe(ConnectionStatus.Connecting);
    const transient = await connect({ appName: 'aha', config: { fail: 'transient' } });
    await expect(sync(transient.id, 'full')).rejects.toThrow('upstream 503');
    expect((await connectionRow(transient.id)).statusCode).toBe(ConnectionStatus.Connecting);
  });

  it('through the worker: a rate-limited sync is rescheduled without failing, a transient one retried with back-off', async () => {
    const limited = await connect({ appName: 'aha', config: { fail: 'rateLimited' } });
    const transient = await connect({ appName: 'aha', config: { fail: 'transient' } });
    expect(await enqueueSync(store.db, limited, 'full')).toBe(true);
    // One live sync per connection.
    expect(await enqueueSync(store.db, limited, 'incremental')).toBe(false);
    await enqueueSync(store.db, transient, 'full');
    const worker = runWorker(store, pino({ level: 'silent' }), { idleMs: 10 });
    const jobOf = async (id: string) =>
      (
        await store.db
          .select()
          .from(jobs)
          .where(and(eq(jobs.kind, 'connector.sync'), eq(jobs.dedupeKey, syncDedupeKey(id, 'full'))))
      )[0]!;
    try {
      for (let i = 0; i < 200; i++) {
        const [a, b] = [await jobOf(limited.id), await jobOf(transient.id)];
        if (a.runAt.getTime() > Date.now() + 60_000 && b.lastError) break;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    } finally {
      await worker.stop();
    }
    const a = await jobOf(limited.id);
    expect(a).toMatchObject({ status: 'queued', attempts: 0, lastError: null });
    expect(a.runAt.getTime()).toBeGreaterThan(Date.now() + 3_500_000);
    const b = await jobOf(transient.id);
    expect(b).toMatchObject({ status: 'queued', attempts: 1, lastError: 'upstream 503' });
  });
});
