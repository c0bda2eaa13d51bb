// The sync engine (DESIGN §5): runs one connection's connector and indexes what it yields. Each batch is one
// transaction holding its documents, deletions, cursor and progress, so killing the process at any moment and
// starting again loses nothing and duplicates nothing: the next run resumes from the last committed cursor, and
// re-indexing a batch that was cut short is a no-op for what had been written (upserts are keyed by source,
// connection and external id).
//
// Besides content, the engine keeps who may read it exact. On a full sync and in the periodic 'permissions' mode it
// replaces the connection's groups with the source's snapshot (search reads memberships at query time, so a member
// dropped from a group loses its documents at once); in the 'permissions' mode it also asks the source for the
// current readers of every indexed document and re-ACLs those that changed, without fetching or re-chunking content.
import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import { getApp } from '../../common/catalogue';
import { ConnectionStatus } from '../../common/connection-status';
import { apps } from '../../common/strings';
import {
  FatalSourceError,
  InvalidCredentialsError,
  PermissionMismatchError,
  RateLimitedError,
  DOCUMENT_ACL_BATCH_SIZE,
  LimiterPool,
  createConnectorContext,
  vendorLimiterKey,
  documentAclSchema,
  groupMembershipSchema,
  syncBatchSchema,
  systemClock,
  type ConnectorContext,
  type ConnectorLogger,
  type GroupMembership,
  type SyncBatch,
} from '../../connectors/sdk';
import { appConnections, documents, jobs, users, type AppConnection } from '../db/schema';
import type { Db, Tx } from '../db/store';
import { siteArchivesFor } from '../uploads/site-archives';
import {
  deleteDocuments,
  effectiveAcl,
  setDocumentAcl,
  upsertDocuments,
  userPrincipal,
  type DocumentRef,
  type IndexDocument,
} from '../search';
import { connectionExtra, storedCursor, type StoredCursor } from './connections';
import { connectorFileParser } from './file-parser';
import { connectionPrincipal, expandGroups, replaceConnectionGroups } from './groups';
import { freshCredentials } from './oauth-tokens';
import { getConnector, type RegisteredConnector } from './registry';

export const SYNC_MODES = ['full', 'incremental', 'prune', 'permissions'] as const;
export type SyncMode = (typeof SYNC_MODES)[number];

/** Statuses in which a connection syncs; the others wait for the user (reconnect) or are going away. */
const SYNCABLE: ReadonlySet<number> = new Set([
  ConnectionStatus.Connecting,
  ConnectionStatus.Indexing,
  ConnectionStatus.IndexingComplete,
  ConnectionStatus.IndexingFailed,
  ConnectionStatus.PartiallyConnected,
]);

export function isSyncable(statusCode: number): boolean {
  return SYNCABLE.has(statusCode);
}

/** The job a sync runs under: its lease is renewed with every batch, and a lost lease stops the sync. */
export interface SyncLease {
  jobId: string;
  workerId: string;
  leaseMs: number;
}

/**
 * A content sync (full or incremental) stops after this many items or this long, with its cursor committed, and
 * answers `yielded` so its job goes back in the queue and other jobs get a turn at the lane.
 */
export interface SyncSlice {
  maxItems: number;
  maxMs: number;
}

export interface SyncInput {
  connectionId: string;
  mode: SyncMode;
  lease?: SyncLease;
  /** Without it, a content sync runs to the end. */
  slice?: SyncSlice;
  /** Identifies the run for resumption (the job id); a full sync by another run starts over. */
  runId: string;
  logger: ConnectorLogger;
  signal: AbortSignal;
}

export type SyncOutcome =
  | { kind: 'complete'; batches: number }
  /** The slice is used up; the next run continues from the committed cursor. */
  | { kind: 'yielded'; batches: number; items: number }
  | { kind: 'pruned'; deleted: number }
  /** `memberships`: group memberships stored; `changed`: documents re-ACLed or removed (now readable by nobody). */
  | { kind: 'permissions'; memberships: number; changed: number }
  | { kind: 'skipped'; reason: string }
  /** The connection moved to ErrorReconnect or IndexingFailed: retrying will not help. */
  | { kind: 'stopped'; statusCode: number }
  /** Come back at `at` (the source's Retry-After, or the worker stopping): not a failure. */
  | { kind: 'later'; at: Date };

/** The connection was disconnected (or deleted) while syncing. */
class ConnectionGoneError extends Error {}
/** Another worker took the job over (our lease expired): stop without writing. */
class LeaseLostError extends Error {}

interface Running {
  connection: AppConnection;
  connector: RegisteredConnector;
  ownerEmail: string | null;
  input: SyncInput;
}

async function loadConnection(db: Db, connectionId: string) {
  const [row] = await db
    .select({ connection: appConnections, ownerEmail: users.email })
    .from(appConnections)
    .leftJoin(users, eq(users.id, appConnections.userId))
    .where(eq(appConnections.id, connectionId))
    .limit(1);
  return row;
}

/**
 * Who may read a document, or null when nobody may (then it is not indexed, and removed if it was). An individual
 * connection is private to its owner whatever the source says; a document whose source cannot say is private to
 * the connection's owner (DESIGN §4, fail closed).
 */
export function documentAcl(
  acl: readonly string[] | null,
  connection: Pick<AppConnection, 'isOrg'>,
  ownerEmail: string | null,
): string[] | null {
  const owner = ownerEmail ? [userPrincipal(ownerEmail)] : null;
  if (!connection.isOrg || acl === null) return owner;
  return acl.length === 0 ? null : [...acl];
}

/** documentAcl of what a connector reported, its groups namespaced to the connection. */
function sourceAcl(running: Running, acl: readonly string[] | null): string[] | null {
  const { connection, ownerEmail } = running;
  const namespaced = acl?.map((principal) => connectionPrincipal(connection, principal)) ?? null;
  return documentAcl(namespaced, connection, ownerEmail);
}

function toIndexDocuments(running: Running, batch: SyncBatch) {
  const { connection } = running;
  const upserts: IndexDocument[] = [];
  const removals: DocumentRef[] = [];
  const ref = (externalId: string) => documentRef(connection, externalId);
  for (const doc of batch.documents) {
    const acl = sourceAcl(running, doc.acl);
    if (acl === null) {
      removals.push(ref(doc.externalId));
      continue;
    }
    upserts.push({
      ...ref(doc.externalId),
      title: doc.title,
      body: doc.body,
      url: doc.url,
      author: doc.author.name ?? null,
      authorEmail: doc.author.email?.toLowerCase() ?? null,
      objectType: doc.objectType,
      fileType: doc.fileType,
      createdTime: doc.createdTime,
      modifiedTime: doc.modifiedTime,
      parentExternalId: doc.parentExternalId ?? null,
      acl,
      extra: doc.extra,
    });
  }
  const upserted = new Set(upserts.map((doc) => doc.externalId));
  for (const id of batch.deletedExternalIds ?? []) if (!upserted.has(id)) removals.push(ref(id));
  return { upserts, removals };
}

function documentRef(connection: Pick<AppConnection, 'id' | 'appName'>, externalId: string): DocumentRef {
  return { source: connection.appName, connectionId: connection.id, externalId };
}

/** Locks the connection row for the transaction; throws when it is going away. */
async function lockConnection(tx: Tx, connectionId: string): Promise<AppConnection> {
  const [row] = await tx
    .select()
    .from(appConnections)
    .where(eq(appConnections.id, connectionId))
    .for('update');
  if (!row || row.statusCode === ConnectionStatus.Disconnecting) throw new ConnectionGoneError();
  return row;
}

async function renewLease(db: Db | Tx, lease: SyncLease | undefined): Promise<void> {
  if (!lease) return;
  const renewed = await db
    .update(jobs)
    .set({ lockedUntil: new Date(Date.now() + lease.leaseMs) })
    .where(and(eq(jobs.id, lease.jobId), eq(jobs.lockedBy, lease.workerId), eq(jobs.status, 'running')))
    .returning({ id: jobs.id });
  if (renewed.length === 0) throw new LeaseLostError(`lost the lease of job ${lease.jobId}`);
}

/** One batch, all or nothing: documents, deletions, the cursor and progress commit together. */
async function commitBatch(db: Db, running: Running, batch: SyncBatch): Promise<void> {
  const { connection, ownerEmail, input } = running;
  const { upserts, removals } = toIndexDocuments(running, batch);
  await db.transaction(async (tx) => {
    const row = await lockConnection(tx, connection.id);
    await renewLease(tx, input.lease);
    // The indexer's writes nest as savepoints of this transaction (a transaction handle is a database handle).
    const index = tx as unknown as Db;
    if (upserts.length > 0) await upsertDocuments(index, connection.orgId, upserts, { ownerEmail });
    if (removals.length > 0) await deleteDocuments(index, connection.orgId, removals);
    const extra = connectionExtra(row);
    const share = batch.progress?.share;
    const syncedFrom = batch.progress?.syncedFrom;
    const cursor: StoredCursor = { jobId: input.runId, position: batch.cursor };
    await tx
      .update(appConnections)
      .set({
        cursor,
        statusCode:
          row.statusCode === ConnectionStatus.IndexingComplete
            ? ConnectionStatus.IndexingComplete
            : ConnectionStatus.Indexing,
        statusMessage: null,
        ...(syncedFrom && (!row.syncedFrom || syncedFrom < row.syncedFrom) ? { syncedFrom } : {}),
        ...(share !== undefined && share > (extra.progressShare ?? 0)
          ? { extra: { ...row.extra, progressShare: share } }
          : {}),
      })
      .where(eq(appConnections.id, connection.id));
  });
}

async function setStatus(db: Db, connectionId: string, statusCode: number, statusMessage: string | null) {
  await db
    .update(appConnections)
    .set({ statusCode, statusMessage })
    .where(
      and(
        eq(appConnections.id, connectionId),
        sql`${appConnections.statusCode} <> ${ConnectionStatus.Disconnecting}`,
      ),
    );
}

/**
 * Where a content sync starts: a full sync resumed by its own job (its next slice, or after a crash) continues
 * from its checkpoint, a new one starts over (null); an incremental sync continues from any checkpoint.
 */
function resumePoint(input: SyncInput, stored: StoredCursor | null): StoredCursor | null {
  if (input.mode === 'incremental') return stored;
  return stored?.jobId === input.runId ? stored : null;
}

/**
 * One limiter per org and vendor for the whole process: every sync of an org's connections of one vendor draws
 * on the same allowance. Separate processes each keep their own, and meet only through the vendor's 429s.
 */
const vendorLimiters = new LimiterPool(systemClock);

/** Deletes the connection's documents the source no longer lists. Nothing is deleted unless the listing finished. */
async function prune(db: Db, running: Running, ctx: ConnectorContext<unknown, unknown>): Promise<number> {
  const { connection, connector, input } = running;
  const listed = new Set<string>();
  for await (const ids of connector.listIds(ctx)) {
    for (const id of ids) listed.add(id);
    await renewLease(db, input.lease);
  }
  const indexed = await db
    .select({ externalId: documents.externalId })
    .from(documents)
    .where(and(eq(documents.orgId, connection.orgId), eq(documents.connectionId, connection.id)));
  const stale = indexed.filter((row) => !listed.has(row.externalId));
  let deleted = 0;
  for (let start = 0; start < stale.length; start += 500) {
    const refs = stale.slice(start, start + 500).map((row) => ({
      source: connection.appName,
      connectionId: connection.id,
      externalId: row.externalId,
    }));
    deleted += await db.transaction(async (tx) => {
      await lockConnection(tx, connection.id);
      return deleteDocuments(tx as unknown as Db, connection.orgId, refs);
    });
  }
  return deleted;
}

/**
 * Replaces the connection's groups with the source's snapshot, once the listing has finished: a listing cut short
 * leaves the previous snapshot in place. Individual connections skip it, their documents being their owner's only.
 */
async function syncGroups(
  db: Db,
  running: Running,
  ctx: ConnectorContext<unknown, unknown>,
): Promise<number> {
  const { connection, connector, input } = running;
  if (!connector.permissions || !connection.isOrg) return 0;
  const memberships: GroupMembership[] = [];
  for await (const page of connector.permissions(ctx)) {
    for (const membership of page) memberships.push(groupMembershipSchema.parse(membership));
    await renewLease(db, input.lease);
  }
  input.signal.throwIfAborted();
  const members = expandGroups(connection, memberships);
  return db.transaction(async (tx) => {
    await lockConnection(tx, connection.id);
    await renewLease(tx, input.lease);
    return replaceConnectionGroups(tx, connection.orgId, connection.id, members);
  });
}

function sameAcl(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((principal, index) => principal === b[index]);
}

/**
 * Asks the source who may read each indexed document now, a batch of ids at a time, and applies the changes with
 * setDocumentAcl (no re-chunking); a document the source now says nobody may read is removed. Ids the source
 * leaves out are pruning's business. Answers how many documents changed.
 */
async function syncDocumentAcls(
  db: Db,
  running: Running,
  ctx: ConnectorContext<unknown, unknown>,
): Promise<number> {
  const { connection, connector, ownerEmail, input } = running;
  if (!connector.documentAcls || !connection.isOrg) return 0;
  let changed = 0;
  let after = '';
  for (;;) {
    const stored = await db
      .select({ externalId: documents.externalId, acl: documents.acl })
      .from(documents)
      .where(
        and(
          eq(documents.orgId, connection.orgId),
          eq(documents.connectionId, connection.id),
          gt(documents.externalId, after),
        ),
      )
      .orderBy(asc(documents.externalId))
      .limit(DOCUMENT_ACL_BATCH_SIZE);
    const last = stored.at(-1);
    if (!last) return changed;
    after = last.externalId;
    const current = new Map(stored.map((row) => [row.externalId, row.acl]));
    const answers = await connector.documentAcls(ctx, [...current.keys()]);
    input.signal.throwIfAborted();
    const updates: { ref: DocumentRef; acl: string[] }[] = [];
    const removals: DocumentRef[] = [];
    for (const answer of answers.map((raw) => documentAclSchema.parse(raw))) {
      const was = current.get(answer.externalId);
      if (was === undefined) continue;
      current.delete(answer.externalId);
      const acl = sourceAcl(running, answer.acl);
      if (acl === null) removals.push(documentRef(connection, answer.externalId));
      else if (!sameAcl(effectiveAcl(acl, ownerEmail), was))
        updates.push({ ref: documentRef(connection, answer.externalId), acl });
    }
    await db.transaction(async (tx) => {
      await lockConnection(tx, connection.id);
      await renewLease(tx, input.lease);
      // The indexer's writes nest as savepoints of this transaction, as in commitBatch.
      const index = tx as unknown as Db;
      for (const { ref, acl } of updates)
        await setDocumentAcl(index, connection.orgId, ref, acl, { ownerEmail });
      if (removals.length > 0) await deleteDocuments(index, connection.orgId, removals);
    });
    changed += updates.length + removals.length;
  }
}

/**
 * Runs one sync of a connection. Transient failures (and bugs) are thrown for the job queue to retry with
 * back-off, leaving the status as it is; everything else ends in an outcome.
 */
export async function runSync(db: Db, input: SyncInput): Promise<SyncOutcome> {
  const loaded = await loadConnection(db, input.connectionId);
  if (!loaded) return { kind: 'skipped', reason: 'no such connection' };
  const { connection, ownerEmail } = loaded;
  if (!isSyncable(connection.statusCode))
    return { kind: 'skipped', reason: `status ${connection.statusCode}` };
  const connector = getConnector(connection.appName);
  const appName = getApp(connection.appName)?.displayName ?? connection.appName;
  if (!connector) {
    await setStatus(
      db,
      connection.id,
      ConnectionStatus.IndexingFailed,
      `${appName} has no connector on this server`,
    );
    return { kind: 'stopped', statusCode: ConnectionStatus.IndexingFailed };
  }
  const running: Running = { connection, connector, ownerEmail, input };
  const log = input.logger;
  try {
    await renewLease(db, input.lease);
    const ctx = createConnectorContext(connector, {
      credentials: await freshCredentials(db, connection, connector),
      config: connectionExtra(connection).config,
      logger: log,
      signal: input.signal,
      limiter: vendorLimiters.limiterFor(vendorLimiterKey(connection, connector), connector.limits ?? {}),
      siteArchives: siteArchivesFor(db, connection),
      files: connectorFileParser(log, input.signal),
    });
    if (input.mode === 'prune')
      return { kind: 'pruned', deleted: connector.pushed ? 0 : await prune(db, running, ctx) };
    if (input.mode === 'permissions') {
      const memberships = await syncGroups(db, running, ctx);
      return { kind: 'permissions', memberships, changed: await syncDocumentAcls(db, running, ctx) };
    }
    const resume = resumePoint(input, storedCursor(connection));
    // Groups first, so members see documents shared with their groups as soon as the documents are in.
    if (input.mode === 'full' && !resume) await syncGroups(db, running, ctx);

    const startedAt = ctx.now();
    let batches = 0;
    let items = 0;
    const batchIterable = resume ? connector.incrementalSync(ctx, resume.position) : connector.fullSync(ctx);
    for await (const raw of batchIterable) {
      input.signal.throwIfAborted();
      const batch = syncBatchSchema.parse(raw);
      await commitBatch(db, running, batch);
      batches += 1;
      items += batch.documents.length + (batch.deletedExternalIds?.length ?? 0);
      log.debug(
        { connectionId: connection.id, batches, documents: batch.documents.length },
        'sync batch committed',
      );
      const slice = input.slice;
      if (slice && (items >= slice.maxItems || ctx.now().getTime() - startedAt.getTime() >= slice.maxMs))
        return { kind: 'yielded', batches, items };
    }
    input.signal.throwIfAborted();
    await db.transaction(async (tx) => {
      await lockConnection(tx, connection.id);
      await tx
        .update(appConnections)
        .set({
          statusCode: ConnectionStatus.IndexingComplete,
          statusMessage: null,
          syncedUntil: startedAt,
          lastError: null,
          lastErrorAt: null,
        })
        .where(eq(appConnections.id, connection.id));
    });
    return { kind: 'complete', batches };
  } catch (error) {
    if (error instanceof ConnectionGoneError) return { kind: 'skipped', reason: 'disconnected' };
    if (error instanceof LeaseLostError) return { kind: 'skipped', reason: 'lease lost' };
    if (input.signal.aborted) return { kind: 'later', at: new Date() };
    if (error instanceof RateLimitedError)
      return { kind: 'later', at: new Date(Date.now() + error.retryAfterMs) };
    if (error instanceof InvalidCredentialsError) {
      // The spec's own sentence ('Incorrect API key. Please try again.', or the website's URL failure).
      await setStatus(db, connection.id, ConnectionStatus.ErrorReconnect, error.message);
      return { kind: 'stopped', statusCode: ConnectionStatus.ErrorReconnect };
    }
    if (error instanceof PermissionMismatchError) {
      await setStatus(
        db,
        connection.id,
        ConnectionStatus.ErrorReconnect,
        apps.failedToInstall(appName, error.message),
      );
      return { kind: 'stopped', statusCode: ConnectionStatus.ErrorReconnect };
    }
    if (error instanceof FatalSourceError) {
      log.warn({ connectionId: connection.id, err: error }, 'sync failed for good');
      await setStatus(db, connection.id, ConnectionStatus.IndexingFailed, error.message);
      return { kind: 'stopped', statusCode: ConnectionStatus.IndexingFailed };
    }
    throw error;
  }
}

/** Marks a connection IndexingFailed once its job has used up its retries. */
export async function markSyncFailed(db: Db, connectionId: string, message: string): Promise<void> {
  await setStatus(db, connectionId, ConnectionStatus.IndexingFailed, message.slice(0, 500));
}

/** Keeps a failed attempt's message on the connection for its admins, while the job retries. */
export async function recordSyncError(db: Db, connectionId: string, message: string): Promise<void> {
  await db
    .update(appConnections)
    .set({ lastError: message.slice(0, 500), lastErrorAt: new Date() })
    .where(eq(appConnections.id, connectionId));
}

/** Connections that a schedule should sync now. */
export async function syncableConnectionIds(db: Db): Promise<{ id: string; orgId: string }[]> {
  return db
    .select({ id: appConnections.id, orgId: appConnections.orgId })
    .from(appConnections)
    .where(inArray(appConnections.statusCode, [...SYNCABLE]));
}
