// What every app's crash test does around its fake: a connection of the app in a store of its own (a temporary
// DATA_DIR's embedded store, or a new database when TEST_DATABASE_URL names a server), a full sync enqueued, worker
// processes (worker-process.ts) SIGKILLed after some committed batches, a last one left to finish, and what the
// index holds afterwards read back. The test seeds its fake, then asserts on what this returns and on the fake's
// request log (that the resumed runs did not read the source from the start again).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { ConnectionStatus } from '../../../common/connection-status';
import { appConnections, documents } from '../../db/schema';
import { encryptWithKey, loadSecretKey } from '../../db/secrets';
import { openStore, type Store } from '../../db/store';
import { createTestDatabase, testDatabaseUrl, type TestDatabase } from '../../testing/database';
import { createOrg, createUser } from '../../testing/fixtures';
import { enqueueSync } from '../jobs';
import { startWorkerProcess, until } from './worker-process';

export interface CrashSyncOptions {
  /** Names the temporary folder and database. */
  label: string;
  appName: string;
  isOrg: boolean;
  /** The connecting member, whose domain is the org's. */
  ownerEmail: string;
  /** The connection's settings (`baseUrl` pointing at the fake) and its credentials, stored encrypted. */
  config: Record<string, unknown>;
  credentials: Record<string, unknown>;
  kills: number;
  /** Each killed worker first commits a number of batches drawn from this range (inclusive). */
  batchesBeforeKill: readonly [number, number];
}

export interface CrashSyncResult {
  connectionId: string;
  /** The connection's documents with their readers, sorted by external id as `Array.prototype.sort` sorts. */
  documents: { externalId: string; acl: string[] }[];
  statusCode: number;
  /** Batches the killed workers committed between them. */
  committedBeforeLastRun: number;
  /** When each killed worker was seen dead (epoch ms): requests logged between two of them are one worker's. */
  killedAt: number[];
  /** Batches the last worker committed, and the slices it yielded, to its exit. */
  lastRun: { batches: number; slices: number };
}

/**
 * Runs the connection's full sync through `kills` SIGKILLed worker processes and one that finishes it. Throws when
 * a worker finishes before it could be killed (the fixture is too small for the batches asked) or the last one
 * fails.
 */
export async function crashSync(options: CrashSyncOptions): Promise<CrashSyncResult> {
  const dataDir = mkdtempSync(path.join(tmpdir(), `scout-${options.label}-`));
  let database: TestDatabase | undefined;
  try {
    if (testDatabaseUrl)
      database = await createTestDatabase(options.label.replaceAll('-', '_'), { migrated: true });
    const databaseUrl = database?.url ?? null;
    const open = (): Promise<Store> => openStore({ databaseUrl, dataDir });

    let store = await open();
    let connectionId: string;
    try {
      const domain = options.ownerEmail.split('@')[1] ?? '';
      const org = await createOrg(store.db, { domain });
      const owner = await createUser(store.db, org, { email: options.ownerEmail, admin: options.isOrg });
      const [connection] = await store.db
        .insert(appConnections)
        .values({
          orgId: org.id,
          userId: owner.id,
          appName: options.appName,
          isOrg: options.isOrg,
          statusCode: ConnectionStatus.Connecting,
          extra: { config: options.config },
        })
        .returning();
      if (!connection) throw new Error('no connection');
      connectionId = connection.id;
      // The worker decrypts with the key of its DATA_DIR, as `scout worker` would.
      const credentials = encryptWithKey(
        loadSecretKey(dataDir),
        JSON.stringify(options.credentials),
        connection.id,
      );
      await store.db
        .update(appConnections)
        .set({ credentialsEncrypted: credentials })
        .where(eq(appConnections.id, connection.id));
      if (!(await enqueueSync(store.db, connection, 'full')))
        throw new Error('the full sync was not enqueued');
    } finally {
      await store.close();
    }

    const [fewest, most] = options.batchesBeforeKill;
    let committedBeforeLastRun = 0;
    const killedAt: number[] = [];
    for (let kill = 0; kill < options.kills; kill++) {
      const worker = startWorkerProcess(dataDir, databaseUrl);
      const target = fewest + Math.floor(Math.random() * (most - fewest + 1));
      if (!(await until(() => worker.batches() >= target, worker.exited))) {
        throw new Error(
          `worker ${kill + 1} finished before it committed ${target} batches and could be killed`,
        );
      }
      // A random moment within the next batch, mid-transaction included, and never past its commit: batches of a
      // quiet machine take a few ms, so a plain random delay let one worker commit the rest of the sync (CI failed
      // with "worker 2 finished before it committed 1 batches").
      const committed = worker.batches();
      await Promise.race([
        new Promise((resolve) => setTimeout(resolve, Math.random() * 100)),
        until(() => worker.batches() > committed, worker.exited),
      ]);
      worker.child.kill('SIGKILL');
      const signal = await worker.exited;
      if (signal !== 'SIGKILL') throw new Error(`worker ${kill + 1} ended with ${signal}, not the SIGKILL`);
      committedBeforeLastRun += worker.batches();
      killedAt.push(Date.now());
    }
    const last = startWorkerProcess(dataDir, databaseUrl);
    await last.exited;

    store = await open();
    try {
      const rows = await store.db
        .select({ externalId: documents.externalId, acl: documents.acl })
        .from(documents)
        .where(eq(documents.connectionId, connectionId));
      const [done] = await store.db
        .select({ statusCode: appConnections.statusCode })
        .from(appConnections)
        .where(eq(appConnections.id, connectionId));
      return {
        connectionId,
        documents: rows.sort((a, b) => (a.externalId < b.externalId ? -1 : 1)),
        statusCode: done?.statusCode ?? 0,
        committedBeforeLastRun,
        killedAt,
        lastRun: { batches: last.batches(), slices: last.slices() },
      };
    } finally {
      await store.close();
    }
  } finally {
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * How often the most requested of the requests' keys (a page, a file) was asked for. A sync that resumes from its
 * cursor asks for a page again only when a kill struck while it was in hand, and the next worker commits that page
 * before it can be killed, so twice at most; one that started over would ask for its first page once per worker.
 */
export function mostRequestsOfOne<Request>(
  requests: readonly Request[],
  keyOf: (request: Request) => string,
): number {
  const counts = new Map<string, number>();
  for (const request of requests) counts.set(keyOf(request), (counts.get(keyOf(request)) ?? 0) + 1);
  return Math.max(0, ...counts.values());
}
