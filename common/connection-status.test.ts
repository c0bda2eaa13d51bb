import { describe, it, expect } from 'vitest';
import { getApp } from './catalogue';
import {
  ConnectionStatus,
  SYNC_WINDOW_MS,
  appsToReconnect,
  connectionsWithErrors,
  isEnabledConnection,
  isErrorStatus,
  isInProgress,
  statusBadge,
  syncProgressPercent,
  syncingLabel,
  type OwnedConnection,
  type StatusConnection,
} from './connection-status';

const now = new Date('2025-06-01T00:00:00Z');

describe('connection status', () => {
  it('groups in-progress and error statuses', () => {
    expect(isInProgress(ConnectionStatus.Connecting)).toBe(true);
    expect(isInProgress(ConnectionStatus.Indexing)).toBe(true);
    expect(isInProgress(ConnectionStatus.IndexingComplete)).toBe(false);
    expect(isErrorStatus(ConnectionStatus.ErrorReconnect)).toBe(true);
    expect(isErrorStatus(ConnectionStatus.IndexingFailed)).toBe(true);
    expect(isErrorStatus(ConnectionStatus.ErrorDoNotReconnect)).toBe(false);
  });

  it('measures sync progress against three years, clamped to whole percents', () => {
    expect(syncProgressPercent(null, now)).toBe(0);
    expect(syncProgressPercent('not a date', now)).toBe(0);
    expect(syncProgressPercent(now, now)).toBe(0);
    expect(syncProgressPercent(new Date(now.getTime() + 1000), now)).toBe(0);
    expect(syncProgressPercent(new Date(now.getTime() - SYNC_WINDOW_MS / 2), now)).toBe(50);
    expect(syncProgressPercent(new Date(now.getTime() - SYNC_WINDOW_MS).toISOString(), now)).toBe(100);
    expect(syncProgressPercent('2010-01-01T00:00:00Z', now)).toBe(100);
  });
});

describe('status badges (spec §4)', () => {
  const app = (name: string) => {
    const found = getApp(name);
    if (!found) throw new Error(name);
    return found;
  };
  const conn = (statusCode: number, isOrg: boolean, progress = 0): StatusConnection => ({
    statusCode,
    isOrg,
    progress,
    isInstant: true,
  });
  const badge = (
    name: string,
    column: 'org' | 'individual',
    connection: StatusConnection | undefined,
    viewerIsAdmin = true,
    orgConnection?: StatusConnection,
  ) => statusBadge({ app: app(name), column, connection, orgConnection, viewerIsAdmin });
  const S = ConnectionStatus;

  it('shows syncing with the percentage once progress is above 0, for instant connection kinds', () => {
    expect(badge('website', 'org', conn(S.Connecting, true))).toMatchObject({ label: 'Syncing' });
    expect(badge('website', 'org', conn(S.Indexing, true, 42))).toMatchObject({
      label: 'syncing (42%)',
      tone: 'progress',
    });
    expect(badge('slack', 'individual', conn(S.IndexingFailed, false, 7))).toMatchObject({
      label: 'syncing (7%)',
    });
    expect(badge('slack', 'org', conn(S.PartiallyConnected, true, 50))).toMatchObject({
      label: 'Connecting',
    });
    expect(syncingLabel(30, false)).toBe('Connecting');
  });

  it('shows Connected, with Disconnect on hover except for HRIS org connections and members', () => {
    expect(badge('slack', 'individual', conn(S.IndexingComplete, false), false)).toEqual({
      kind: 'label',
      label: 'Connected',
      tone: 'connected',
      disconnectOnHover: true,
    });
    expect(badge('website', 'org', conn(S.IndexingComplete, true))).toMatchObject({
      disconnectOnHover: true,
    });
    expect(badge('bamboo_hr', 'org', conn(S.IndexingComplete, true))).toMatchObject({
      label: 'Connected',
      disconnectOnHover: false,
    });
    expect(badge('website', 'org', conn(S.IndexingComplete, true), false)).toEqual({
      kind: 'label',
      label: 'Connected',
      tone: 'connected',
      disconnectOnHover: false,
      tooltip: 'Your admin has connected the app.',
    });
  });

  it('shows Not indexing on own connections and Error to a member on the org connection', () => {
    for (const code of [S.NotConnected, S.ErrorDoNotReconnect]) {
      expect(badge('slack', 'individual', conn(code, false), false)).toMatchObject({ label: 'Not indexing' });
      expect(badge('slack', 'org', conn(code, true), true)).toMatchObject({ label: 'Not indexing' });
      expect(badge('slack', 'org', conn(code, true), false)).toMatchObject({
        label: 'Error',
        tone: 'error',
        tooltip: 'Please contact your admin to reconnect the app.',
      });
    }
  });

  it('offers Reconnect on own connections, Disabling while disconnecting, Connect when there is none', () => {
    expect(badge('slack', 'individual', conn(S.ErrorReconnect, false), false)).toEqual({ kind: 'reconnect' });
    expect(badge('slack', 'org', conn(S.ErrorReconnect, true))).toEqual({ kind: 'reconnect' });
    expect(badge('slack', 'org', conn(S.Disconnecting, true))).toMatchObject({ label: 'Disabling' });
    expect(badge('slack', 'org', undefined)).toEqual({ kind: 'connect' });
    expect(badge('slack', 'individual', undefined, false)).toEqual({ kind: 'connect' });
    // members never make org connections
    expect(badge('slack', 'org', undefined, false)).toEqual({ kind: 'placeholder' });
  });

  it('leaves blank placeholders where a column cannot apply', () => {
    // OrgOnly, and no personal instant bit
    expect(badge('website', 'individual', undefined)).toMatchObject({
      kind: 'placeholder',
      tooltip: 'No Individual connections allowed for this app',
    });
    // PersonalOnly has no org column
    expect(badge('canva', 'org', undefined)).toMatchObject({
      kind: 'placeholder',
      tooltip: 'No org-wide connection available for this app',
    });
    // AccessControl: the org connection, connecting or complete, covers everyone
    for (const code of [S.Connecting, S.IndexingComplete])
      expect(badge('box', 'individual', undefined, false, conn(code, true))).toEqual({ kind: 'placeholder' });
    expect(badge('box', 'individual', undefined, false, conn(S.Indexing, true))).toEqual({ kind: 'connect' });
    // OrgRestricted keeps the individual column while the org connection is complete
    expect(badge('aha', 'individual', undefined, false, conn(S.IndexingComplete, true))).toEqual({
      kind: 'connect',
    });
  });
});

describe('error marker, enabled apps and the reconnect card (shell-and-account §4.8)', () => {
  const own = (
    appName: string,
    statusCode: number,
    extra: Partial<OwnedConnection> = {},
  ): OwnedConnection => ({
    appName,
    statusCode,
    userId: 'u1',
    isOrg: false,
    isInstant: true,
    progress: 0,
    ...extra,
  });
  const S = ConnectionStatus;

  it('marks instant connections in error: admins see org ones too, members only their own', () => {
    const list = [
      own('slack', S.ErrorReconnect),
      own('notion', S.IndexingFailed, { isOrg: true, userId: 'u2' }),
      own('jira', S.ErrorReconnect, { isInstant: false }),
      own('box', S.ErrorDoNotReconnect),
      own('gong', S.ErrorReconnect, { userId: 'u2' }),
    ];
    expect(connectionsWithErrors(list, { userId: 'u1', admin: true }).map((c) => c.appName)).toEqual([
      'slack',
      'notion',
    ]);
    expect(connectionsWithErrors(list, { userId: 'u1', admin: false }).map((c) => c.appName)).toEqual([
      'slack',
    ]);
  });

  it('counts instant apps unless they need a reconnect, others only while syncing or complete', () => {
    expect(isEnabledConnection(own('slack', S.IndexingFailed))).toBe(true);
    expect(isEnabledConnection(own('slack', S.ErrorReconnect))).toBe(false);
    expect(isEnabledConnection(own('slack', S.Disconnecting))).toBe(false);
    expect(isEnabledConnection(own('jira', S.Indexing, { isInstant: false }))).toBe(true);
    expect(isEnabledConnection(own('jira', S.IndexingComplete, { isInstant: false }))).toBe(true);
    expect(isEnabledConnection(own('jira', S.NotConnected, { isInstant: false }))).toBe(false);
  });

  it('lists each erroring app of the user once, while its reconnect count is under the limit', () => {
    const list = [
      own('slack', S.ErrorReconnect),
      own('slack', S.IndexingFailed),
      own('notion', S.ErrorReconnect),
      own('gdrive', S.ErrorReconnect, { userId: 'u2', isOrg: true }),
      own('box', S.IndexingComplete),
    ];
    expect(appsToReconnect(list, 'u1', {}, 2)).toEqual(['slack', 'notion']);
    expect(appsToReconnect(list, 'u1', { slack: 2, notion: 1 }, 2)).toEqual(['notion']);
  });
});
