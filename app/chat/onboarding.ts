// The onboarding message's app rows (spec asking-questions §2, §4 app connection status, §6, §9): which apps it
// recommends and what each row shows for the member's connections. Pure, so the rules are tested without a screen.
import type { AppsResponse } from '../../common/api/apps';
import { getApp, POPULAR_APP_ORDER, type AppDefinition } from '../../common/catalogue';
import { statusBadge, type StatusBadge } from '../../common/connection-status';
import { RECOMMENDED_APPS_MAX, RECOMMENDED_APPS_MIN_LIST } from '../../common/limits';
import { chatCopy } from '../strings';

type AppEntry = AppsResponse['apps'][number];
type Viewer = { userId: string; admin: boolean };

/**
 * Up to 9 apps: the org's recommended list when it has at least 2 entries, topped up with the popular apps in
 * their order; one fewer when the count is odd and the extension row is shown, so the rows pair up. Members see
 * none when the org restricts apps to admins.
 */
export function onboardingApps(
  appPreferences: Readonly<Record<string, unknown>>,
  viewer: Pick<Viewer, 'admin'>,
  extensionRow: boolean,
): AppDefinition[] {
  if (!viewer.admin && appPreferences.restrict_apps_to_only_admins === true) return [];
  const listed = Array.isArray(appPreferences.recommended_apps_list)
    ? appPreferences.recommended_apps_list.flatMap((entry: unknown) => {
        // Entries are shortnames, or objects naming one (with their social proof).
        const name =
          typeof entry === 'string'
            ? entry
            : typeof entry === 'object' && entry !== null && 'name' in entry
              ? String((entry as { name: unknown }).name)
              : '';
        const app = getApp(name);
        return app ? [app] : [];
      })
    : [];
  const recommended = listed.length >= RECOMMENDED_APPS_MIN_LIST ? listed : [];
  const names = new Set(recommended.map((app) => app.shortname));
  const popular = POPULAR_APP_ORDER.flatMap((name) => {
    const app = getApp(name);
    return app && !names.has(name) ? [app] : [];
  });
  const apps = [...recommended, ...popular].slice(0, RECOMMENDED_APPS_MAX);
  return extensionRow && apps.length % 2 === 1 ? apps.slice(0, -1) : apps;
}

/**
 * What an app's row shows: the member's own connection's badge, else the org connection's (a member sees an
 * admin's as Connected with the admin tooltip), else Connect, or a blank for apps with no personal connection.
 */
export function onboardingBadge(
  app: AppDefinition,
  entry: AppEntry | undefined,
  viewer: Viewer,
): StatusBadge {
  const connections = entry?.connections ?? [];
  const org = connections.find((connection) => connection.isOrg);
  const own = connections.find((connection) => !connection.isOrg && connection.userId === viewer.userId);
  if (own || !org) {
    return statusBadge({
      app,
      column: 'individual',
      connection: own,
      orgConnection: org,
      viewerIsAdmin: viewer.admin,
    });
  }
  return statusBadge({
    app,
    column: 'org',
    connection: org,
    orgConnection: org,
    viewerIsAdmin: viewer.admin,
  });
}

type UseCaseExamples = (typeof chatCopy.useCaseExamples)[keyof typeof chatCopy.useCaseExamples];

/** The three cards' example prompts for the member's work role; the general ones without a known role. */
export function examplesForRole(workRole: string | null): UseCaseExamples {
  const byRole: Readonly<Record<string, UseCaseExamples>> = chatCopy.useCaseExamples;
  return (workRole ? byRole[workRole] : undefined) ?? chatCopy.useCaseExamples.other;
}
