import type { AppConnectionView } from '../../common/api/apps';
import { getApp, isInstant } from '../../common/catalogue';
import type { AppConnection } from '../db/schema';
import { connectionProgress } from '../sync/connections';

/** The sync details an admin sees on the app's page: how much is indexed and what went wrong last. */
export type ConnectionDetails = { itemCount: number };

export function presentAppConnection(
  row: AppConnection,
  orgDomain: string,
  now: Date,
  details?: ConnectionDetails,
): AppConnectionView {
  const app = getApp(row.appName);
  return {
    id: row.id,
    appName: row.appName,
    shortName: row.appName,
    displayName: app?.displayName ?? row.appName,
    org: row.isOrg ? orgDomain : '',
    email: row.email,
    workspaceName: row.workspaceName,
    connectionName: row.connectionName,
    userId: row.userId,
    statusCode: row.statusCode,
    statusMessage: row.statusMessage,
    syncedFrom: row.syncedFrom?.toISOString() ?? null,
    syncedUntil: row.syncedUntil?.toISOString() ?? null,
    progress: connectionProgress(row, now),
    isOrg: row.isOrg,
    isInstant: app ? isInstant(app, row.isOrg) : false,
    createdAt: row.createdAt.toISOString(),
    ...(details && {
      itemCount: details.itemCount,
      lastError: row.lastError,
      lastErrorAt: row.lastErrorAt?.toISOString() ?? null,
    }),
  };
}
