import { describe, expect, it } from 'vitest';
import type { AppsResponse } from '../../common/api/apps';
import { getApp } from '../../common/catalogue';
import { ConnectionStatus } from '../../common/connection-status';
import { apps as appStrings } from '../../common/strings';
import { WORK_ROLES } from '../../common/api/users';
import { WORK_ROLE_PROMPT_COLUMNS, WORK_ROLE_PROMPTS_PER_COLUMN } from '../../common/limits';
import { chatCopy } from '../strings';
import { onboardingApps, onboardingBadge, examplesForRole } from './onboarding';

type AppEntry = AppsResponse['apps'][number];
type Connection = AppEntry['connections'][number];

const admin = { userId: 'u-admin', admin: true };
const member = { userId: 'u-member', admin: false };

function connection(changes: Partial<Connection>): Connection {
  return {
    id: 'c-1',
    appName: 'notion',
    shortName: 'notion',
    displayName: 'Notion',
    org: '',
    email: null,
    workspaceName: null,
    connectionName: null,
    userId: member.userId,
    statusCode: ConnectionStatus.IndexingComplete,
    statusMessage: null,
    syncedFrom: null,
    syncedUntil: null,
    progress: 100,
    isOrg: false,
    isInstant: false,
    createdAt: '2025-01-01T00:00:00Z',
    ...changes,
  };
}

function entry(connections: Connection[]): AppEntry {
  return { connections } as AppEntry;
}

describe('onboarding apps', () => {
  const names = (list: { shortname: string }[]) => list.map((app) => app.shortname);

  it('shows the popular apps, an even count beside the extension row', () => {
    expect(names(onboardingApps({}, member, true))).toEqual(['slack', 'notion', 'gdrive', 'website']);
    expect(names(onboardingApps({}, member, false))).toEqual([
      'slack',
      'notion',
      'gdrive',
      'website',
      'salesforce',
    ]);
  });

  it('uses the org list from two entries, topped up with popular apps, at most nine', () => {
    const list = { recommended_apps_list: ['jira', { name: 'asana' }, 'slack', 'not-an-app'] };
    expect(names(onboardingApps(list, member, true))).toEqual([
      'jira',
      'asana',
      'slack',
      'notion',
      'gdrive',
      'website',
    ]);
    expect(names(onboardingApps({ recommended_apps_list: ['jira'] }, member, false))[0]).toBe('slack');
    const many = {
      recommended_apps_list: [
        'jira',
        'asana',
        'linear',
        'github',
        'gitlab',
        'zendesk',
        'hubspot',
        'box',
        'miro',
      ],
    };
    expect(onboardingApps(many, member, false)).toHaveLength(9);
    expect(onboardingApps(many, member, true)).toHaveLength(8);
  });

  it('hides them from members when apps are restricted to admins', () => {
    expect(onboardingApps({ restrict_apps_to_only_admins: true }, member, true)).toEqual([]);
    expect(onboardingApps({ restrict_apps_to_only_admins: true }, admin, true)).toHaveLength(4);
  });
});

describe('onboarding app rows', () => {
  const notion = getApp('notion')!;

  it('offers Connect without a connection', () => {
    expect(onboardingBadge(notion, undefined, member)).toEqual({ kind: 'connect' });
  });

  it('shows the member their own connection, and an admin connection as Connected with the tooltip', () => {
    expect(onboardingBadge(notion, entry([connection({})]), member)).toMatchObject({
      kind: 'label',
      label: appStrings.CONNECTED,
    });
    const byAdmin = entry([connection({ isOrg: true, userId: admin.userId, org: 'acme.test' })]);
    expect(onboardingBadge(notion, byAdmin, member)).toMatchObject({
      kind: 'label',
      label: appStrings.CONNECTED,
      tooltip: appStrings.CONNECTED_BY_ADMIN,
    });
    expect(
      onboardingBadge(notion, entry([connection({ statusCode: ConnectionStatus.ErrorReconnect })]), member),
    ).toEqual({ kind: 'reconnect' });
    expect(
      onboardingBadge(notion, entry([connection({ statusCode: ConnectionStatus.Disconnecting })]), member),
    ).toMatchObject({ label: appStrings.DISABLING });
  });
});

describe('use case examples', () => {
  it('has three prompts in each of the three cards for every work role', () => {
    for (const role of WORK_ROLES) {
      const examples = examplesForRole(role);
      expect(Object.keys(examples)).toHaveLength(WORK_ROLE_PROMPT_COLUMNS);
      for (const prompts of Object.values(examples))
        expect(prompts).toHaveLength(WORK_ROLE_PROMPTS_PER_COLUMN);
    }
  });

  it('follows the work role, and falls back to the general ones', () => {
    expect(examplesForRole('sales')).toBe(chatCopy.useCaseExamples.sales);
    expect(examplesForRole(null)).toBe(chatCopy.useCaseExamples.other);
    expect(examplesForRole('astronaut')).toBe(chatCopy.useCaseExamples.other);
  });
});
