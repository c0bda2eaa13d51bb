import type { CurrentUser } from '../../common/api/session';
import { isFlagOn } from '../auth/session';
import { sidebarCopy } from '../strings';

export type MenuEntry = { label: string; to: string };
export type MenuGroup = { label: string | null; testId: string; entries: MenuEntry[] };

/**
 * The settings panel's groups (spec §2.8): Knowledge, then Bots and Workflows, the Workspace group for admins only,
 * and the Personal group (whose Logout the menu adds).
 */
export function settingsGroups(user: CurrentUser, hasAnalyticsToken: boolean): MenuGroup[] {
  const groups: MenuGroup[] = [
    {
      label: sidebarCopy.KNOWLEDGE,
      testId: 'settings-knowledge',
      entries: [
        { label: sidebarCopy.APPS, to: '/apps/org' },
        ...(user.admin ? [{ label: sidebarCopy.FILES, to: '/files' }] : []),
        ...(isFlagOn(user, 'answers') ? [{ label: sidebarCopy.ANSWERS, to: '/answers' }] : []),
      ],
    },
    {
      label: null,
      testId: 'settings-tools',
      entries: [
        { label: sidebarCopy.BOTS, to: '/bots' },
        { label: sidebarCopy.WORKFLOWS, to: '/workflows' },
      ],
    },
  ];
  if (user.admin) {
    groups.push({
      label: sidebarCopy.WORKSPACE,
      testId: 'settings-workspace',
      entries: [
        { label: sidebarCopy.GENERAL, to: '/admin/appearance' },
        { label: sidebarCopy.AI_CONTROLS, to: '/admin/ai-controls' },
        { label: sidebarCopy.MEMBERS, to: '/admin/members' },
        { label: sidebarCopy.DIRECTORY_SYNC, to: '/admin/directory-sync' },
        ...(isFlagOn(user, 'adminAnalytics') && hasAnalyticsToken
          ? [{ label: sidebarCopy.ANALYTICS, to: '/admin/analytics' }]
          : []),
        { label: sidebarCopy.SECURITY, to: '/admin/sso' },
        ...(isFlagOn(user, 'apiKeysEnabled') ? [{ label: sidebarCopy.API_KEYS, to: '/admin/api-keys' }] : []),
        { label: sidebarCopy.BILLING, to: '/admin/billing' },
      ],
    });
  }
  groups.push({
    label: sidebarCopy.PERSONAL,
    testId: 'settings-personal',
    entries: [
      { label: sidebarCopy.GENERAL, to: '/my-settings' },
      { label: sidebarCopy.AI_CONTROLS, to: '/my-ai-controls' },
      { label: sidebarCopy.NOTIFICATIONS, to: '/notification-preferences' },
      { label: sidebarCopy.BROWSER_EXTENSION, to: '/browser-extension' },
    ],
  });
  return groups;
}
