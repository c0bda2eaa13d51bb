import { describe, expect, it } from 'vitest';
import type { AppConnectionView } from '../../../common/api/apps';
import { APPS, AppCategory } from '../../../common/catalogue';
import { ConnectionStatus } from '../../../common/connection-status';
import {
  columnsOf,
  connectOptions,
  connectedApps,
  enabledApps,
  isSettling,
  storeApps,
  suggestedApps,
  type AppEntry,
} from './apps-view';

const admin = { userId: 'admin-1', admin: true };
const member = { userId: 'member-1', admin: false };

let ids = 0;
const connection = (
  appName: string,
  statusCode: number,
  extra: Partial<AppConnectionView> = {},
): AppConnectionView => ({
  id: `c${++ids}`,
  appName,
  shortName: appName,
  displayName: appName,
  org: extra.isOrg ? 'acme.test' : '',
  email: null,
  workspaceName: null,
  connectionName: null,
  userId: member.userId,
  statusCode,
  statusMessage: null,
  syncedFrom: null,
  syncedUntil: null,
  progress: 0,
  isOrg: false,
  isInstant: true,
  createdAt: '2026-01-01T00:00:00.000Z',
  ...extra,
});

/** The catalogue as the API answers it, every app connectable unless listed, with the given connections. */
function entries(connections: AppConnectionView[] = [], unavailable: readonly string[] = []): AppEntry[] {
  return APPS.map((app) => ({
    ...app,
    objectTypes: [...app.objectTypes],
    appCategory: [...app.appCategory],
    available: {
      org: !unavailable.includes(app.shortname),
      individual: !unavailable.includes(app.shortname),
    },
    connections: connections.filter((c) => c.appName === app.shortname),
  }));
}
const entry = (list: AppEntry[], name: string) => {
  const found = list.find((e) => e.shortname === name);
  if (!found) throw new Error(name);
  return found;
};
const S = ConnectionStatus;
const all = { orgWideApps: true, multipleAppAccounts: true, hris: true, apiAccess: true };

describe('the app store', () => {
  it('puts the popular apps first in their order, then the rest by name', () => {
    const names = storeApps(entries(), AppCategory.ALL, '').map((e) => e.shortname);
    expect(names.slice(0, 5)).toEqual(['slack', 'notion', 'gdrive', 'website', 'salesforce']);
    expect(names).not.toContain('gworkspace');
    expect(storeApps(entries(), AppCategory.POPULAR, '').map((e) => e.shortname)).toEqual([
      'slack',
      'notion',
      'gdrive',
      'website',
      'salesforce',
    ]);
    expect(storeApps(entries(), AppCategory.HRIS, '').every((e) => e.appCategory.includes('HRIS'))).toBe(
      true,
    );
  });

  it('searches every tab by name, short name and description', () => {
    expect(storeApps(entries(), AppCategory.CRM, 'WEBSI').map((e) => e.shortname)).toContain('website');
    expect(storeApps(entries(), AppCategory.ALL, 'zzz-nothing')).toEqual([]);
  });
});

describe('columns and polling', () => {
  it('splits org connections from the viewer’s own', () => {
    const list = entries([
      connection('slack', S.IndexingComplete, { isOrg: true, userId: admin.userId }),
      connection('slack', S.Indexing),
    ]);
    const { org, individual } = columnsOf(entry(list, 'slack'), member);
    expect(org).toHaveLength(1);
    expect(individual).toHaveLength(1);
    expect(columnsOf(entry(list, 'slack'), admin).individual).toHaveLength(0);
    expect(connectedApps(list, member).map((e) => e.shortname)).toEqual(['slack']);
  });

  it('keeps polling while a connection syncs or goes away', () => {
    expect(isSettling(entries([connection('slack', S.IndexingComplete)]))).toBe(false);
    expect(isSettling(entries([connection('slack', S.Connecting)]))).toBe(true);
    expect(isSettling(entries([connection('slack', S.Disconnecting)]))).toBe(true);
  });
});

describe('connect options (spec §6, §8)', () => {
  it('hides org connections from members and refuses apps this server cannot connect', () => {
    const list = entries([], ['slack']);
    expect(connectOptions(entry(list, 'notion'), list, member, all).org).toEqual({ state: 'hidden' });
    expect(connectOptions(entry(list, 'slack'), list, admin, all)).toEqual({
      org: { state: 'disabled', reason: 'You are unable to add this app.' },
      individual: { state: 'disabled', reason: 'You are unable to add this app.' },
    });
  });

  it('names what a kind of app cannot have', () => {
    const list = entries();
    expect(connectOptions(entry(list, 'website'), list, admin, all).individual).toEqual({
      state: 'disabled',
      reason: 'No Individual connections allowed for this app',
    });
    expect(connectOptions(entry(list, 'canva'), list, admin, all).org).toEqual({
      state: 'disabled',
      reason: 'No org-wide connection available for this app',
    });
  });

  it('opens the upgrade prompt for a second org connection without org-wide apps', () => {
    const list = entries([connection('website', S.IndexingComplete, { isOrg: true, userId: admin.userId })]);
    expect(connectOptions(entry(list, 'website'), list, admin, {}).org).toMatchObject({
      state: 'upgrade',
      upgrade: {
        title: 'Upgrade to enable org-wide app connections',
        text: 'Only 1 Org connection allowed for this app',
      },
    });
    expect(connectOptions(entry(list, 'website'), list, admin, all).org).toEqual({ state: 'open' });
    // a first org connection needs no plan
    expect(connectOptions(entry(entries(), 'website'), entries(), admin, {}).org).toEqual({ state: 'open' });
  });

  it('allows one HRIS app, one Outlook org connection and one Notion account at a time', () => {
    const list = entries([
      connection('bamboo_hr', S.IndexingComplete, { isOrg: true, userId: admin.userId }),
      connection('outlook', S.IndexingComplete, { isOrg: true, userId: admin.userId }),
      connection('notion', S.IndexingComplete, { userId: admin.userId }),
    ]);
    expect(connectOptions(entry(list, 'workday'), list, admin, all).org).toMatchObject({
      state: 'disabled',
      reason: expect.stringContaining('Only one HRIS app'),
    });
    expect(connectOptions(entry(list, 'outlook'), list, admin, all).org).toEqual({
      state: 'disabled',
      reason: 'Only one Outlook connection is allowed at a time.',
    });
    expect(connectOptions(entry(list, 'notion'), list, admin, all).individual).toEqual({
      state: 'disabled',
      reason: 'Only one Notion connection is allowed at a time.',
    });
    expect(connectOptions(entry(list, 'workday'), list, admin, { orgWideApps: true }).org).toMatchObject({
      state: 'upgrade',
    });
  });

  it('blocks an org connection to a Google app whose sibling is connected org-wide', () => {
    const list = entries([connection('gmail', S.IndexingComplete, { isOrg: true, userId: admin.userId })]);
    expect(connectOptions(entry(list, 'gdrive'), list, admin, all).org).toEqual({
      state: 'disabled',
      reason: 'You are unable to add this app.',
    });
    expect(connectOptions(entry(list, 'gdrive'), list, admin, all).individual).toEqual({ state: 'open' });
  });
});

describe('the homepage apps', () => {
  it('shows enabled apps in the strip, leaving out instant apps that need a reconnect', () => {
    const list = entries([
      connection('slack', S.IndexingComplete),
      connection('notion', S.ErrorReconnect),
      connection('jira', S.NotConnected, { isInstant: false }),
      connection('box', S.Indexing, { isInstant: false }),
    ]);
    expect(enabledApps(list, member).map((e) => e.shortname)).toEqual(['box', 'slack']);
  });

  it('suggests recommended or popular apps not yet connected, none to members when restricted', () => {
    const limits = { shown: 3, minList: 2 };
    const list = entries([connection('slack', S.IndexingComplete)]);
    expect(suggestedApps(list, member, {}, limits).map((e) => e.shortname)).toEqual([
      'notion',
      'gdrive',
      'salesforce',
    ]);
    expect(
      suggestedApps(list, admin, { recommended_apps_list: ['jira', 'slack', 'asana'] }, limits).map(
        (e) => e.shortname,
      ),
    ).toEqual(['jira', 'asana']);
    // a one-app list is too short: popular apps instead
    expect(suggestedApps(list, admin, { recommended_apps_list: ['jira'] }, limits)[0]?.shortname).toBe(
      'notion',
    );
    expect(suggestedApps(list, member, { restrict_apps_to_only_admins: true }, limits)).toEqual([]);
  });
});
