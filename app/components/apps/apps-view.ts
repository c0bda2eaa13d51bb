// What the apps screens show, as pure functions of the apps API's answer and the viewer: store order and search,
// the org and individual columns, and which ways to connect are open (spec apps-and-connections §2–§6). The server
// enforces all of it again; these only keep the client from offering what would be refused.
import type { AppConnectionView, AppsResponse } from '../../../common/api/apps';
import {
  AppCategory,
  GWORKSPACE_CHILDREN,
  ONE_INDIVIDUAL_CONNECTION_APPS,
  ONE_ORG_CONNECTION_APPS,
  appsInCategory,
  getApp,
  isHris,
  supportsOrg,
  supportsPersonal,
  type AppDefinition,
} from '../../../common/catalogue';
import { ConnectionStatus, isEnabledConnection, isInProgress } from '../../../common/connection-status';
import { Feature, requiredPlan, type PlanType } from '../../../common/plans';
import { apps as appStrings } from '../../../common/strings';
import { appsCopy } from '../../strings';

export type AppEntry = AppsResponse['apps'][number];
export type FeatureSet = Partial<Record<Feature, boolean>>;
export interface Viewer {
  readonly userId: string;
  readonly admin: boolean;
}

/** The catalogue's definition of an entry; the API lists catalogue apps only, so it always exists. */
export function definitionOf(entry: Pick<AppEntry, 'shortname'>): AppDefinition {
  const definition = getApp(entry.shortname);
  if (!definition) throw new Error(`app ${entry.shortname} is not in the catalogue`);
  return definition;
}

/** Some connection is still moving (syncing, connecting, going away): worth re-reading soon. */
export function isSettling(apps: readonly Pick<AppEntry, 'connections'>[]): boolean {
  return apps.some((app) =>
    app.connections.some(
      (connection) =>
        isInProgress(connection.statusCode) ||
        connection.statusCode === ConnectionStatus.PartiallyConnected ||
        connection.statusCode === ConnectionStatus.Disconnecting,
    ),
  );
}

/** The store's tabs, in the spec's order. */
export const STORE_CATEGORIES: readonly AppCategory[] = Object.values(AppCategory);

/**
 * The store's apps: a tab's apps in store order (popular ones by popularAppSortOrder, then by name), or, while a
 * search is typed, every app whose name, short name or description contains it. Apps switched off
 * (controlEnabled) are never offered.
 */
export function storeApps(entries: readonly AppEntry[], category: AppCategory, search: string): AppEntry[] {
  const byName = new Map(entries.map((entry) => [entry.shortname, entry]));
  const q = search.trim().toLowerCase();
  const definitions = appsInCategory(q ? AppCategory.ALL : category).filter((app) => app.controlEnabled);
  return definitions
    .filter(
      (app) =>
        !q ||
        app.displayName.toLowerCase().includes(q) ||
        app.shortname.toLowerCase().includes(q) ||
        app.description.toLowerCase().includes(q),
    )
    .flatMap((app) => {
      const entry = byName.get(app.shortname);
      return entry ? [entry] : [];
    });
}

/** The org column's connections and the viewer's own individual ones (the API sends no one else's). */
export function columnsOf(
  entry: Pick<AppEntry, 'connections'>,
  viewer: Viewer,
): { org: AppConnectionView[]; individual: AppConnectionView[] } {
  return {
    org: entry.connections.filter((connection) => connection.isOrg),
    individual: entry.connections.filter(
      (connection) => !connection.isOrg && connection.userId === viewer.userId,
    ),
  };
}

/** Apps the management page lists: those with an org connection or one of the viewer's own. */
export function connectedApps(entries: readonly AppEntry[], viewer: Viewer): AppEntry[] {
  return entries.filter((entry) => {
    const { org, individual } = columnsOf(entry, viewer);
    return org.length > 0 || individual.length > 0;
  });
}

export interface Upgrade {
  readonly title: string;
  readonly text: string;
  readonly plan: PlanType;
}

export type ConnectOption =
  /** The viewer cannot make this kind of connection at all: the entry is left out. */
  | { readonly state: 'hidden' }
  | { readonly state: 'open' }
  /** Shown but not clickable, with the reason as its tooltip. */
  | { readonly state: 'disabled'; readonly reason: string }
  /** Clicking opens the upgrade prompt instead of the dialog. */
  | { readonly state: 'upgrade'; readonly upgrade: Upgrade };

const inSet = (set: ReadonlySet<string>, name: string) => set.has(name);
const live = (connection: AppConnectionView) => connection.statusCode !== ConnectionStatus.Disconnecting;

/** The paywall: org-wide apps in the spec's words, other features in ours. */
function planUpgrade(feature: Feature): ConnectOption {
  const plan = requiredPlan(feature);
  const upgrade =
    feature === Feature.orgWideApps
      ? { title: appStrings.UPGRADE_ORG_WIDE, text: appStrings.ONE_ORG_CONNECTION, plan }
      : { title: appsCopy.UPGRADE_TITLE, text: appsCopy.planNeeded(plan), plan };
  return { state: 'upgrade', upgrade };
}

/**
 * Which connections the viewer may start for an app, and why not (spec §6, §8): the Connect menu's two entries.
 * `entries` is every app, for the one-HRIS-app and shared-Google-parent rules.
 */
export function connectOptions(
  entry: AppEntry,
  entries: readonly AppEntry[],
  viewer: Viewer,
  features: FeatureSet,
): { org: ConnectOption; individual: ConnectOption } {
  const app = definitionOf(entry);
  const name = app.shortname;
  const { org, individual } = columnsOf(entry, viewer);
  const liveOrg = org.filter(live);
  const liveOwn = individual.filter(live);
  const unable: ConnectOption = { state: 'disabled', reason: appStrings.UNABLE_TO_ADD };
  const featureGate = (): ConnectOption | null => {
    if (name === 'custom-api' && !features[Feature.apiAccess]) return planUpgrade(Feature.apiAccess);
    if (isHris(name)) {
      if (!features[Feature.hris]) return planUpgrade(Feature.hris);
      const otherHris = entries.some(
        (other) => other.shortname !== name && isHris(other.shortname) && other.connections.some(live),
      );
      if (otherHris || liveOrg.length > 0) return { state: 'disabled', reason: appStrings.ONE_HRIS_APP };
    }
    return null;
  };

  let orgOption: ConnectOption;
  if (!viewer.admin) orgOption = { state: 'hidden' };
  else if (!supportsOrg(app)) orgOption = { state: 'disabled', reason: appStrings.NO_ORG_CONNECTION };
  else if (!entry.available.org) orgOption = unable;
  else {
    const siblingConnected =
      inSet(GWORKSPACE_CHILDREN, name) &&
      entries.some(
        (other) =>
          other.shortname !== name &&
          inSet(GWORKSPACE_CHILDREN, other.shortname) &&
          other.connections.some((connection) => connection.isOrg && live(connection)),
      );
    orgOption =
      featureGate() ??
      (siblingConnected
        ? unable
        : liveOrg.length > 0 && inSet(ONE_ORG_CONNECTION_APPS, name)
          ? { state: 'disabled', reason: appStrings.oneConnectionAllowed(app.displayName) }
          : liveOrg.length > 0 && !features[Feature.orgWideApps]
            ? planUpgrade(Feature.orgWideApps)
            : { state: 'open' });
  }

  let individualOption: ConnectOption;
  if (!supportsPersonal(app))
    individualOption = viewer.admin
      ? { state: 'disabled', reason: appStrings.NO_INDIVIDUAL_CONNECTIONS }
      : { state: 'hidden' };
  else if (!entry.available.individual) individualOption = unable;
  else if (liveOwn.length > 0 && inSet(ONE_INDIVIDUAL_CONNECTION_APPS, name))
    individualOption = { state: 'disabled', reason: appStrings.oneConnectionAllowed(app.displayName) };
  else if (liveOwn.length > 0 && !features[Feature.multipleAppAccounts])
    individualOption = planUpgrade(Feature.multipleAppAccounts);
  else individualOption = featureGate() ?? { state: 'open' };

  return { org: orgOption, individual: individualOption };
}

/** The apps of the homepage strip: those with an enabled connection (org or the viewer's own), each once. */
export function enabledApps(entries: readonly AppEntry[], viewer: Viewer): AppEntry[] {
  return entries.filter((entry) => {
    const { org, individual } = columnsOf(entry, viewer);
    return [...org, ...individual].some(isEnabledConnection);
  });
}

/**
 * The homepage's suggestion cards (shell-and-account §2.7, §6): the org's recommended apps when it lists at least
 * `minList`, else the popular ones; not yet connected, ones the viewer could connect, at most `shown`. Members get
 * none when the org restricts apps to admins.
 */
export function suggestedApps(
  entries: readonly AppEntry[],
  viewer: Viewer,
  appPreferences: Readonly<Record<string, unknown>>,
  limits: { shown: number; minList: number },
): AppEntry[] {
  if (!viewer.admin && appPreferences.restrict_apps_to_only_admins === true) return [];
  const recommended = Array.isArray(appPreferences.recommended_apps_list)
    ? appPreferences.recommended_apps_list.filter((name): name is string => typeof name === 'string')
    : [];
  const names =
    recommended.length >= limits.minList
      ? recommended
      : appsInCategory(AppCategory.POPULAR).map((app) => app.shortname);
  const byName = new Map(entries.map((entry) => [entry.shortname, entry]));
  return names
    .flatMap((name) => {
      const entry = byName.get(name);
      return entry ? [entry] : [];
    })
    .filter((entry) => {
      if (entry.connections.some(live)) return false;
      const options = connectOptions(entry, entries, viewer, {});
      return options.org.state === 'open' || options.individual.state === 'open';
    })
    .slice(0, limits.shown);
}
