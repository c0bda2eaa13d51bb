// Connection rows as the sync engine and the apps routes share them: where credentials, settings, the cursor and
// progress live on an app_connections row, and how a connection's progress reads as a percentage.
import { and, count, desc, eq, isNotNull } from 'drizzle-orm';
import { z } from 'zod';
import { ConnectionStatus, syncProgressPercent } from '../../common/connection-status';
import { appConnections, documents, orgs, type AppConnection } from '../db/schema';
import type { Db } from '../db/store';
import { decryptSecret, encryptSecret } from '../db/secrets';

/**
 * Credentials are encrypted with the connection id as associated data, so a ciphertext copied onto another row
 * does not decrypt there.
 */
export function encryptCredentials(connectionId: string, credentials: unknown): string {
  return encryptSecret(JSON.stringify(credentials), connectionId);
}

export function decryptCredentials(connection: Pick<AppConnection, 'id' | 'credentialsEncrypted'>): unknown {
  if (!connection.credentialsEncrypted) return {};
  return JSON.parse(decryptSecret(connection.credentialsEncrypted, connection.id)) as unknown;
}

/** What the engine keeps in `extra`: the connector's non-secret settings and a crawler's share of work done. */
export const connectionExtraSchema = z
  .object({
    config: z.record(z.string(), z.unknown()).default({}),
    /** 0–1, the highest share a connector that does not walk time has reported (SyncBatch.progress.share). */
    progressShare: z.number().min(0).max(1).optional(),
  })
  .loose();
export type ConnectionExtra = z.infer<typeof connectionExtraSchema>;

export function connectionExtra(connection: Pick<AppConnection, 'extra'>): ConnectionExtra {
  const parsed = connectionExtraSchema.safeParse(connection.extra ?? {});
  return parsed.success ? parsed.data : { config: {} };
}

/**
 * The committed checkpoint: the connector's cursor and the job that wrote it. A full sync resumed after a crash
 * (the same job, claimed again) continues from the cursor; a new full sync (another job) starts over.
 */
export const storedCursorSchema = z.object({ jobId: z.string(), position: z.json() });
export type StoredCursor = z.infer<typeof storedCursorSchema>;

export function storedCursor(connection: Pick<AppConnection, 'cursor'>): StoredCursor | null {
  const parsed = storedCursorSchema.safeParse(connection.cursor);
  return parsed.success && parsed.data.position !== null ? parsed.data : null;
}

/** The badge's N in 'syncing (N%)': the 3-year window covered, or a crawler's share, whichever is further. */
export function connectionProgress(
  connection: Pick<AppConnection, 'statusCode' | 'syncedFrom' | 'extra'>,
  now: Date,
): number {
  if (connection.statusCode === ConnectionStatus.IndexingComplete) return 100;
  const share = connectionExtra(connection).progressShare ?? 0;
  return Math.max(syncProgressPercent(connection.syncedFrom, now), Math.floor(share * 100));
}

/** Documents indexed per connection, of one org or (null) of all. */
export async function connectionItemCounts(db: Db, orgId: string | null): Promise<Map<string, number>> {
  const rows = await db
    .select({ connectionId: documents.connectionId, items: count() })
    .from(documents)
    .where(and(isNotNull(documents.connectionId), orgId === null ? undefined : eq(documents.orgId, orgId)))
    .groupBy(documents.connectionId);
  return new Map(rows.map((row) => [row.connectionId ?? '', row.items]));
}

export type ConnectionSyncState = Pick<
  AppConnection,
  'id' | 'appName' | 'statusCode' | 'syncedUntil' | 'lastError' | 'lastErrorAt'
> & { orgDomain: string; itemCount: number };

/** Every connection of every org with its last sync, item count and last error, newest connection first. */
export async function connectionSyncStates(db: Db): Promise<ConnectionSyncState[]> {
  const [rows, items] = await Promise.all([
    db
      .select({
        id: appConnections.id,
        orgDomain: orgs.domain,
        appName: appConnections.appName,
        statusCode: appConnections.statusCode,
        syncedUntil: appConnections.syncedUntil,
        lastError: appConnections.lastError,
        lastErrorAt: appConnections.lastErrorAt,
      })
      .from(appConnections)
      .innerJoin(orgs, eq(orgs.id, appConnections.orgId))
      .orderBy(desc(appConnections.createdAt)),
    connectionItemCounts(db, null),
  ]);
  return rows.map((row) => ({ ...row, itemCount: items.get(row.id) ?? 0 }));
}
