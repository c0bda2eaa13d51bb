// Connection status codes of spec apps-and-connections §3–4 (and shell-and-account §3). The numbers are the wire
// values: the server stores and sends them, the app maps them to badges.
import { ConnectionType, isHris, isInstant, supportsPersonal, type AppDefinition } from './catalogue';
import { apps as strings } from './strings';

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

// ── What the app shows (spec apps-and-connections §4, shell-and-account §4.8) ─────────────────────────────────
// Pure rules over wire values, so the store, the management page, the homepage and the sidebar agree and tests
// can walk every case without a browser.

/** The parts of a connection the display rules read (the apps API's connection). */
export interface StatusConnection {
  readonly statusCode: number;
  readonly progress: number;
  readonly isOrg: boolean;
  readonly isInstant: boolean;
}

export type ConnectionColumn = 'org' | 'individual';

export type BadgeTone = 'progress' | 'connected' | 'muted' | 'error' | 'disabling';

export type StatusBadge =
  /** No connection in this column yet: a Connect button that starts an install. */
  | { readonly kind: 'connect' }
  /** Nothing to show or do here (the spec's blank placeholder). */
  | { readonly kind: 'placeholder'; readonly tooltip?: string }
  /** An own connection that needs the user again: a Reconnect button. */
  | { readonly kind: 'reconnect' }
  | {
      readonly kind: 'label';
      readonly label: string;
      readonly tone: BadgeTone;
      readonly tooltip?: string;
      /** The Connected badge turns into a Disconnect button on hover. */
      readonly disconnectOnHover: boolean;
    };

/** 'Syncing' at 0 and 'syncing (N%)' after, for a connection kind the app is instant for; 'Connecting' otherwise. */
export function syncingLabel(progress: number, instant: boolean): string {
  if (!instant) return strings.CONNECTING;
  return progress <= 0 ? strings.SYNCING : strings.syncingPercent(progress);
}

function label(text: string, tone: BadgeTone, tooltip?: string): StatusBadge {
  return { kind: 'label', label: text, tone, disconnectOnHover: false, ...(tooltip ? { tooltip } : {}) };
}

/**
 * The badge of one column (org or individual) of an app for a viewer. `connection` is the column's connection,
 * if any; `orgConnection` is the app's org connection, which blanks the individual column of an AccessControl app
 * while it connects or once complete (it already gives each member their own content).
 */
export function statusBadge(input: {
  app: AppDefinition;
  column: ConnectionColumn;
  connection: StatusConnection | undefined;
  orgConnection: StatusConnection | undefined;
  viewerIsAdmin: boolean;
}): StatusBadge {
  const { app, column, connection, orgConnection, viewerIsAdmin } = input;
  if (column === 'individual') {
    if (!supportsPersonal(app)) return { kind: 'placeholder', tooltip: strings.NO_INDIVIDUAL_CONNECTIONS };
    if (
      app.connectionType === ConnectionType.AccessControl &&
      orgConnection &&
      (orgConnection.statusCode === ConnectionStatus.Connecting ||
        orgConnection.statusCode === ConnectionStatus.IndexingComplete)
    )
      return { kind: 'placeholder' };
  } else if (app.connectionType === ConnectionType.PersonalOnly) {
    return { kind: 'placeholder', tooltip: strings.NO_ORG_CONNECTION };
  }

  // Only admins make org connections; a member sees a blank where an admin sees Connect.
  if (!connection) return column === 'org' && !viewerIsAdmin ? { kind: 'placeholder' } : { kind: 'connect' };

  // A member looking at an org connection an admin made; an individual connection is always the viewer's own.
  const adminsConnection = connection.isOrg && !viewerIsAdmin;
  switch (connection.statusCode) {
    case ConnectionStatus.PartiallyConnected:
      return label(strings.CONNECTING, 'progress');
    case ConnectionStatus.Connecting:
    case ConnectionStatus.Indexing:
    case ConnectionStatus.IndexingFailed:
      return label(syncingLabel(connection.progress, isInstant(app, column === 'org')), 'progress');
    case ConnectionStatus.IndexingComplete:
      if (adminsConnection) return label(strings.CONNECTED, 'connected', strings.CONNECTED_BY_ADMIN);
      return {
        kind: 'label',
        label: strings.CONNECTED,
        tone: 'connected',
        disconnectOnHover: !(connection.isOrg && isHris(app.shortname)),
      };
    case ConnectionStatus.ErrorReconnect:
      return adminsConnection
        ? label(strings.ERROR, 'error', strings.CONTACT_ADMIN_TO_RECONNECT)
        : { kind: 'reconnect' };
    case ConnectionStatus.Disconnecting:
      return label(strings.DISABLING, 'disabling');
    default:
      // NotConnected, ErrorDoNotReconnect
      return adminsConnection
        ? label(strings.ERROR, 'error', strings.CONTACT_ADMIN_TO_RECONNECT)
        : label(strings.NOT_INDEXING, 'muted');
  }
}

/** The parts of a connection the error marker, the apps strip and the reconnect card read. */
export interface OwnedConnection extends StatusConnection {
  readonly appName: string;
  readonly userId: string | null;
}

/**
 * The sidebar's error marker: instant connections in an error state that the viewer can act on. Admins count org
 * connections and their own; members only their own individual ones.
 */
export function connectionsWithErrors<C extends OwnedConnection>(
  connections: readonly C[],
  viewer: { userId: string; admin: boolean },
): C[] {
  return connections.filter(
    (connection) =>
      connection.isInstant &&
      isErrorStatus(connection.statusCode) &&
      (connection.isOrg ? viewer.admin : connection.userId === viewer.userId),
  );
}

/**
 * Whether a connection counts among the viewer's enabled apps (the homepage strip): an instant one unless it
 * needs a reconnect or is going away, any other only while connecting, indexing or complete.
 */
export function isEnabledConnection(connection: StatusConnection): boolean {
  if (connection.statusCode === ConnectionStatus.Disconnecting) return false;
  if (connection.isInstant) return connection.statusCode !== ConnectionStatus.ErrorReconnect;
  return isInProgress(connection.statusCode) || connection.statusCode === ConnectionStatus.IndexingComplete;
}

/**
 * The apps the 'Reconnect Apps for accurate answers' card lists: instant apps in error on connections the user
 * made, whose reconnect count is still under `countLimit`; each app once, in the order given.
 */
export function appsToReconnect(
  connections: readonly OwnedConnection[],
  userId: string,
  reconnectCounts: Readonly<Record<string, number>>,
  countLimit: number,
): string[] {
  const names = connections
    .filter(
      (connection) =>
        connection.isInstant &&
        isErrorStatus(connection.statusCode) &&
        connection.userId === userId &&
        (reconnectCounts[connection.appName] ?? 0) < countLimit,
    )
    .map((connection) => connection.appName);
  return [...new Set(names)];
}
