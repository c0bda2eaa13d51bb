// Connection status codes of spec apps-and-connections §3–4 (and shell-and-account §3). The numbers are the wire
// values: the server stores and sends them, the app maps them to badges.

export const ConnectionStatus = {
  NotConnected: 0,
  Connecting: 1,
  Indexing: 2,
  IndexingComplete: 3,
  IndexingFailed: 4,
  PartiallyConnected: 5,
  Disconnecting: -1,
  ErrorReconnect: -2,
  ErrorDoNotReconnect: -3,
} as const;
export type ConnectionStatus = (typeof ConnectionStatus)[keyof typeof ConnectionStatus];

export const CONNECTION_STATUS_CODES: readonly ConnectionStatus[] = Object.values(ConnectionStatus);

export function isConnectionStatus(value: unknown): value is ConnectionStatus {
  return typeof value === 'number' && (CONNECTION_STATUS_CODES as readonly number[]).includes(value);
}

export const IN_PROGRESS_STATUSES: ReadonlySet<ConnectionStatus> = new Set<ConnectionStatus>([
  ConnectionStatus.Connecting,
  ConnectionStatus.Indexing,
]);

/** IndexingFailed counts as an error although its badge still reads 'Syncing': the marker is what flags it. */
export const ERROR_STATUSES: ReadonlySet<ConnectionStatus> = new Set<ConnectionStatus>([
  ConnectionStatus.ErrorReconnect,
  ConnectionStatus.IndexingFailed,
]);

export function isInProgress(status: number): boolean {
  return (IN_PROGRESS_STATUSES as ReadonlySet<number>).has(status);
}

export function isErrorStatus(status: number): boolean {
  return (ERROR_STATUSES as ReadonlySet<number>).has(status);
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Sync progress is the share of this window, back from now, that the backward sync has covered. */
export const SYNC_WINDOW_YEARS = 3;
// 365-day years: a leap day moves the percentage by under 0.1, which the integer rounding hides.
export const SYNC_WINDOW_MS = SYNC_WINDOW_YEARS * 365 * DAY_MS;

/**
 * How far a sync has reached, 0–100. `syncedFrom` is the oldest instant covered so far; a sync that has not
 * started (no date, or an unparsable one) is at 0. Rounded down so 100 means the whole window is in.
 */
export function syncProgressPercent(
  syncedFrom: Date | string | number | null | undefined,
  now: Date,
): number {
  if (syncedFrom === null || syncedFrom === undefined || syncedFrom === '') return 0;
  const from = syncedFrom instanceof Date ? syncedFrom.getTime() : new Date(syncedFrom).getTime();
  if (Number.isNaN(from)) return 0;
  const covered = now.getTime() - from;
  const percent = Math.floor((covered / SYNC_WINDOW_MS) * 100);
  return Math.min(100, Math.max(0, percent));
}
