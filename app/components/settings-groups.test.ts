import { describe, expect, it } from 'vitest';
import { sidebarCopy } from '../strings';
import { aCurrentUser } from '../testing';
import { settingsGroups } from './settings-groups';

const user = (admin: boolean, flags: Record<string, boolean> = {}) => aCurrentUser({ admin, flags });

const labels = (groups: ReturnType<typeof settingsGroups>) => groups.map((group) => group.label);
const entries = (groups: ReturnType<typeof settingsGroups>, label: string) =>
  groups.find((group) => group.label === label)?.entries.map((entry) => entry.label);

describe('settingsGroups (spec §2.8, §6)', () => {
  it('gives members Knowledge, the tools and Personal, without Files or the Workspace group', () => {
    const groups = settingsGroups(user(false), false);
    expect(labels(groups)).toEqual([sidebarCopy.KNOWLEDGE, null, sidebarCopy.PERSONAL]);
    expect(entries(groups, sidebarCopy.KNOWLEDGE)).toEqual([sidebarCopy.APPS]);
  });

  it('gives admins Files and the Workspace group', () => {
    const groups = settingsGroups(user(true), false);
    expect(labels(groups)).toEqual([
      sidebarCopy.KNOWLEDGE,
      null,
      sidebarCopy.WORKSPACE,
      sidebarCopy.PERSONAL,
    ]);
    expect(entries(groups, sidebarCopy.KNOWLEDGE)).toEqual([sidebarCopy.APPS, sidebarCopy.FILES]);
    expect(entries(groups, sidebarCopy.WORKSPACE)).not.toContain(sidebarCopy.ANALYTICS);
    expect(entries(groups, sidebarCopy.WORKSPACE)).not.toContain(sidebarCopy.API_KEYS);
  });

  it('adds Answers, Analytics (with a token) and API Keys behind their flags', () => {
    const flags = { answers: true, adminAnalytics: true, apiKeysEnabled: true };
    expect(entries(settingsGroups(user(true, flags), false), sidebarCopy.WORKSPACE)).not.toContain(
      sidebarCopy.ANALYTICS,
    );
    const groups = settingsGroups(user(true, flags), true);
    expect(entries(groups, sidebarCopy.KNOWLEDGE)).toContain(sidebarCopy.ANSWERS);
    expect(entries(groups, sidebarCopy.WORKSPACE)).toEqual(
      expect.arrayContaining([sidebarCopy.ANALYTICS, sidebarCopy.API_KEYS]),
    );
  });
});
