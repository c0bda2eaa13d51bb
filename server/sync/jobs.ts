// The sync engine's jobs and schedules. `connector.sync` runs one connection's sync (full, incremental, prune or
// permissions). Each mode has its own dedupe key, so a queued incremental sync never swallows a due prune or
// permission sync; one exclusive key per connection makes them take turns rather than run side by side. Full and
// incremental syncs run in slices (SYNC_SLICE) in the long lane and requeue themselves between slices; permission
// syncs go in the quick lane, beside uploads and embeddings.
// `connector.disconnect` removes a connection's documents and then the connection. Three schedules fan out to every
// connected connection: incremental syncs every 10 minutes, permission syncs (groups and document ACLs) every
// 6 hours, pruning daily.
import { and, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import { ConnectionStatus } from '../../common/connection-status';
import { appConnections, jobs, type Job } from '../db/schema';
import type { Db } from '../db/store';
import { DAY_MS, type Schedule } from '../jobs/schedule';
import { registerJobHandler } from '../jobs/worker';
import { newId } from '../db/ids';
import { deleteConnectionDocuments } from '../search';
import { deleteSiteArchives } from '../uploads/site-archives';
import { connectionExtra } from './connections';
import {
  SYNC_MODES,
  markSyncFailed,
  recordSyncError,
  runSync,
  syncableConnectionIds,
  type SyncMode,
  type SyncSlice,
} from './engine';

export const CONNECTOR_SYNC_JOB = 'connector.sync';
export const CONNECTOR_DISCONNECT_JOB = 'connector.disconnect';
export const SYNC_DUE_JOB = 'connector.sync-due';
export const PRUNE_DUE_JOB = 'connector.prune-due';
export const PERMISSIONS_DUE_JOB = 'connector.permissions-due';

export const INCREMENTAL_SYNC_EVERY_MS = 10 * 60_000;
/**
 * Sharing changes rarely show in a source's change feed, so this bounds how long a revoked reader keeps access
 * through Scout; each run costs a request per 100 documents, which hourly would spend on large sources.
 */
export const PERMISSION_SYNC_EVERY_MS = 6 * 60 * 60_000;

export const syncSchedule: Schedule = { kind: SYNC_DUE_JOB, everyMs: INCREMENTAL_SYNC_EVERY_MS };
export const pruneSchedule: Schedule = { kind: PRUNE_DUE_JOB, everyMs: DAY_MS };
export const permissionSyncSchedule: Schedule = {
  kind: PERMISSIONS_DUE_JOB,
  everyMs: PERMISSION_SYNC_EVERY_MS,
};

export const syncJobPayloadSchema = z.object({ connectionId: z.uuid(), mode: z.enum(SYNC_MODES) });
const disconnectJobPayloadSchema = z.object({ connectionId: z.uuid() });

/** Long enough to amortise a slice's start (a token refresh, a connection load), short enough to share a lane. */
export const SYNC_SLICE: SyncSlice = { maxItems: 1000, maxMs: 30_000 };

export function syncDedupeKey(connectionId: string, mode: SyncMode): string {
  return `${CONNECTOR_SYNC_JOB}:${mode}:${connectionId}`;
}

/** One running job per connection: two syncs of a connection writing its cursor and ACLs at once would race. */
function connectionExclusiveKey(connectionId: string): string {
  return `connection:${connectionId}`;
}

/** A full sync queued or running for the connection: its slices will deliver what an incremental one would. */
async function fullSyncUnderway(db: Db, connectionId: string): Promise<boolean> {
  const [live] = await db
    .select({ id: jobs.id })
    .from(jobs)
    .where(
      and(
        eq(jobs.dedupeKey, syncDedupeKey(connectionId, 'full')),
        inArray(jobs.status, ['queued', 'running']),
      ),
    )
    .limit(1);
  return live !== undefined;
}

/**
 * Queues a sync unless one of the same mode is already queued or running for the connection, or (for an
 * incremental sync) a full sync is, which delivers everything an incremental one would; answers whether it
 * queued. The partial unique index on dedupe_key makes the check and the insert one atomic step.
 */
export async function enqueueSync(
  db: Db,
  connection: { id: string; orgId: string },
  mode: SyncMode,
  runAt = new Date(),
): Promise<boolean> {
  if (mode === 'incremental' && (await fullSyncUnderway(db, connection.id))) return false;
  const inserted = await db
    .insert(jobs)
    .values({
      id: newId(),
      kind: CONNECTOR_SYNC_JOB,
      orgId: connection.orgId,
      payload: { connectionId: connection.id, mode },
      runAt,
      status: 'queued',
      // a full sync of a new connection goes before the background's incremental ones
      priority: mode === 'full' ? 1 : 0,
      dedupeKey: syncDedupeKey(connection.id, mode),
      lane: mode === 'permissions' ? 'quick' : 'long',
      exclusiveKey: connectionExclusiveKey(connection.id),
    })
    .onConflictDoNothing()
    .returning({ id: jobs.id });
  return inserted.length > 0;
}

/**
 * Starts a disconnect: the connection shows Disconnecting ('Disabling') at once, stops syncing at its next batch,
 * and the job removes its documents and then the row.
 */
export async function startDisconnect(db: Db, connection: { id: string; orgId: string }): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .update(appConnections)
      .set({ statusCode: ConnectionStatus.Disconnecting, statusMessage: null })
      .where(eq(appConnections.id, connection.id));
    await tx
      .insert(jobs)
      .values({
        id: newId(),
        kind: CONNECTOR_DISCONNECT_JOB,
        orgId: connection.orgId,
        payload: { connectionId: connection.id },
        status: 'queued',
        priority: 2,
        dedupeKey: `${CONNECTOR_DISCONNECT_JOB}:${connection.id}`,
        lane: 'long',
      })
      .onConflictDoNothing();
  });
}

/** Puts a job back in the queue for `at` without counting the attempt (a rate limit or a stopping worker). */
async function requeue(db: Db, job: Job, at: Date): Promise<void> {
  await db
    .update(jobs)
    .set({
      status: 'queued',
      runAt: at,
      lockedBy: null,
      lockedUntil: null,
      attempts: sql`greatest(${jobs.attempts} - 1, 0)`,
    })
    .where(and(eq(jobs.id, job.id), eq(jobs.lockedBy, job.lockedBy ?? '')));
}

registerJobHandler(CONNECTOR_SYNC_JOB, async (job, { store, logger, signal }) => {
  const payload = syncJobPayloadSchema.parse(job.payload);
  // Between two slices of a full sync an incremental one would carry on from the full sync's checkpoint under its
  // own name, and the full sync's next slice would then start over.
  if (payload.mode === 'incremental' && (await fullSyncUnderway(store.db, payload.connectionId))) {
    logger.info({ connectionId: payload.connectionId }, 'incremental sync skipped: a full sync is underway');
    return;
  }
  const leaseMs = Math.max(1000, (job.lockedUntil?.getTime() ?? 0) - Date.now());
  try {
    const outcome = await runSync(store.db, {
      ...payload,
      runId: job.id,
      lease: job.lockedBy ? { jobId: job.id, workerId: job.lockedBy, leaseMs } : undefined,
      slice: SYNC_SLICE,
      logger,
      signal,
    });
    logger.info({ connectionId: payload.connectionId, mode: payload.mode, outcome }, 'connector sync ended');
    // The worker's completeJob then finds the job no longer ours and leaves it queued.
    if (outcome.kind === 'later') await requeue(store.db, job, outcome.at);
    if (outcome.kind === 'yielded') await requeue(store.db, job, new Date());
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await recordSyncError(store.db, payload.connectionId, message);
    if (job.attempts >= job.maxAttempts) await markSyncFailed(store.db, payload.connectionId, message);
    throw error;
  }
});

registerJobHandler(CONNECTOR_DISCONNECT_JOB, async (job, { store }) => {
  const { connectionId } = disconnectJobPayloadSchema.parse(job.payload);
  const [connection] = await store.db
    .select({ id: appConnections.id, orgId: appConnections.orgId, extra: appConnections.extra })
    .from(appConnections)
    .where(eq(appConnections.id, connectionId));
  if (!connection) return;
  await deleteConnectionDocuments(store.db, connection.orgId, connection.id);
  // a Google Sites connection was installed from an archive uploaded under its site id
  const siteId = connectionExtra(connection).config.site_id;
  if (typeof siteId === 'string') await deleteSiteArchives(store.db, connection.orgId, siteId);
  await store.db.delete(appConnections).where(eq(appConnections.id, connection.id));
});

async function enqueueForAll(db: Db, mode: SyncMode): Promise<void> {
  for (const connection of await syncableConnectionIds(db)) await enqueueSync(db, connection, mode);
}

registerJobHandler(SYNC_DUE_JOB, async (_job, { store }) => enqueueForAll(store.db, 'incremental'));
registerJobHandler(PRUNE_DUE_JOB, async (_job, { store }) => enqueueForAll(store.db, 'prune'));
registerJobHandler(PERMISSIONS_DUE_JOB, async (_job, { store }) => enqueueForAll(store.db, 'permissions'));
