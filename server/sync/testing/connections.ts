// Connections as the connect flow leaves them, and syncs run in the test's own process, for the sync tests.
import { eq } from 'drizzle-orm';
import { ConnectionStatus } from '../../../common/connection-status';
import { silentLogger, type ConnectorLogger } from '../../../connectors/sdk';
import { appConnections } from '../../db/schema';
import type { Db } from '../../db/store';
import { encryptCredentials } from '../connections';
import { runSync, type SyncMode } from '../engine';

/** A connection that has just been connected (status Connecting), its credentials stored encrypted. */
export async function insertConnection(
  db: Db,
  connection: {
    orgId: string;
    userId: string;
    appName: string;
    isOrg: boolean;
    config: Record<string, unknown>;
    credentials: Record<string, unknown>;
  },
): Promise<string> {
  const [row] = await db
    .insert(appConnections)
    .values({
      orgId: connection.orgId,
      userId: connection.userId,
      appName: connection.appName,
      isOrg: connection.isOrg,
      statusCode: ConnectionStatus.Connecting,
      extra: { config: connection.config },
    })
    .returning({ id: appConnections.id });
  // the key is derived from the row's id, so the credentials go in once it has one
  await db
    .update(appConnections)
    .set({ credentialsEncrypted: encryptCredentials(row!.id, connection.credentials) })
    .where(eq(appConnections.id, row!.id));
  return row!.id;
}

/** One sync run of the connection, as the job worker makes it. */
export const syncNow = (
  db: Db,
  connectionId: string,
  mode: SyncMode,
  options: { runId?: string; logger?: ConnectorLogger; signal?: AbortSignal } = {},
) =>
  runSync(db, {
    connectionId,
    mode,
    runId: options.runId ?? `run-${mode}-${Math.random()}`,
    logger: options.logger ?? silentLogger,
    signal: options.signal ?? new AbortController().signal,
  });
