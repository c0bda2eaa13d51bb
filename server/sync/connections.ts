// Connection rows as the sync engine and the apps routes share them: where credentials, settings, the cursor and
// progress live on an app_connections row, and how a connection's progress reads as a percentage.
import { z } from 'zod';
import { ConnectionStatus, syncProgressPercent } from '../../common/connection-status';
import type { AppConnection } from '../db/schema';
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
