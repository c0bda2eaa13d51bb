// Who may connect and disconnect which app (spec apps-and-connections §4 and §6), enforced on the server with the
// spec's own strings. The app shows the same rules as tooltips and the upgrade prompt; here they are refusals.
import { and, eq, or } from 'drizzle-orm';
import {
  ConnectionType,
  GWORKSPACE_CHILDREN,
  HRIS_APPS,
  ONE_INDIVIDUAL_CONNECTION_APPS,
  ONE_ORG_CONNECTION_APPS,
  supportsOrg,
  supportsPersonal,
  type AppDefinition,
} from '../../common/catalogue';
import { ConnectionStatus } from '../../common/connection-status';
import { Feature, planAllows } from '../../common/plans';
import { apps } from '../../common/strings';
import type { Viewer } from '../context';
import { appConnections, orgs, type AppConnection } from '../db/schema';
import type { Db } from '../db/store';
import { ApiError, badRequest, conflict, forbidden } from '../errors';
import { orgSubscriptions } from '../orgs/load';
import { ADMIN_REQUIRED_MESSAGE, planRequiredMessage } from './access';

export type ExistingConnection = Pick<AppConnection, 'id' | 'appName' | 'isOrg' | 'userId' | 'statusCode'>;

export const NOT_CONNECTABLE_MESSAGE = 'This app cannot be connected on this Scout server yet.';
export const HRIS_DISCONNECT_MESSAGE = 'Org connections of HRIS apps cannot be disconnected.';

export const notConnectable = () => new ApiError(400, 'NOT_IMPLEMENTED', NOT_CONNECTABLE_MESSAGE);

const planRequired = (message: string) => forbidden(message, 'PLAN_REQUIRED');

const has = (set: ReadonlySet<string>, name: string) => set.has(name);

/**
 * Throws the refusal of a new connection of `app` (org-wide or individual) by `viewer`, given the org's live
 * connections (those not being disconnected) and the features its plan allows.
 */
export function assertMayConnect(input: {
  app: AppDefinition;
  isOrg: boolean;
  viewer: Pick<Viewer, 'userId' | 'admin'>;
  allows: (feature: Feature) => boolean;
  existing: readonly ExistingConnection[];
}): void {
  const { app, isOrg, viewer, allows } = input;
  const live = input.existing.filter((row) => row.statusCode !== ConnectionStatus.Disconnecting);
  const sameApp = live.filter((row) => row.appName === app.shortname);

  if (isOrg && (!supportsOrg(app) || app.connectionType === ConnectionType.PersonalOnly))
    throw badRequest(apps.NO_ORG_CONNECTION);
  if (!isOrg && !supportsPersonal(app)) throw badRequest(apps.NO_INDIVIDUAL_CONNECTIONS);
  if (isOrg && !viewer.admin) throw forbidden(ADMIN_REQUIRED_MESSAGE, 'ADMIN_REQUIRED');

  if (app.shortname === 'custom-api' && !allows(Feature.apiAccess))
    throw planRequired(planRequiredMessage(Feature.apiAccess));
  if (has(HRIS_APPS, app.shortname)) {
    if (!allows(Feature.hris)) throw planRequired(planRequiredMessage(Feature.hris));
    if (live.some((row) => has(HRIS_APPS, row.appName))) throw conflict(apps.ONE_HRIS_APP);
  }

  if (isOrg) {
    const orgConnections = sameApp.filter((row) => row.isOrg);
    if (orgConnections.length > 0) {
      if (has(ONE_ORG_CONNECTION_APPS, app.shortname))
        throw conflict(apps.oneConnectionAllowed(app.displayName));
      // Without org-wide apps the first org connection is allowed and a second opens the upgrade prompt.
      if (!allows(Feature.orgWideApps)) throw planRequired(apps.ONE_ORG_CONNECTION);
    }
    if (
      has(GWORKSPACE_CHILDREN, app.shortname) &&
      live.some((row) => row.isOrg && row.appName !== app.shortname && has(GWORKSPACE_CHILDREN, row.appName))
    )
      throw conflict(apps.UNABLE_TO_ADD);
    return;
  }

  const own = sameApp.filter((row) => !row.isOrg && row.userId === viewer.userId);
  if (own.length > 0) {
    if (has(ONE_INDIVIDUAL_CONNECTION_APPS, app.shortname))
      throw conflict(apps.oneConnectionAllowed(app.displayName));
    if (!allows(Feature.multipleAppAccounts))
      throw planRequired(planRequiredMessage(Feature.multipleAppAccounts));
  }
}

/** `assertMayConnect` against the org's plan and the connections the viewer can see, as the database holds them now. */
export async function assertMayConnectNow(
  db: Db,
  viewer: Pick<Viewer, 'userId' | 'orgId' | 'admin'>,
  app: AppDefinition,
  isOrg: boolean,
): Promise<void> {
  const now = new Date();
  const subs = await orgSubscriptions(db, viewer.orgId);
  const existing = await db
    .select({
      id: appConnections.id,
      appName: appConnections.appName,
      isOrg: appConnections.isOrg,
      userId: appConnections.userId,
      statusCode: appConnections.statusCode,
    })
    .from(appConnections)
    .where(
      and(
        eq(appConnections.orgId, viewer.orgId),
        or(eq(appConnections.isOrg, true), eq(appConnections.userId, viewer.userId)),
      ),
    );
  assertMayConnect({ app, isOrg, viewer, allows: (feature) => planAllows(subs, feature, now), existing });
}

/** Own individual connections, or org connections by an admin; HRIS org connections never (spec §4). */
export function assertMayDisconnect(
  connection: Pick<AppConnection, 'appName' | 'isOrg' | 'userId'>,
  viewer: Pick<Viewer, 'userId' | 'admin'>,
): void {
  if (connection.isOrg) {
    if (!viewer.admin) throw forbidden(ADMIN_REQUIRED_MESSAGE, 'ADMIN_REQUIRED');
    if (has(HRIS_APPS, connection.appName)) throw badRequest(HRIS_DISCONNECT_MESSAGE);
    return;
  }
  if (connection.userId !== viewer.userId) throw forbidden();
}

/**
 * Spec §5: a marketplace org connect (Google Workspace, Microsoft) names an administrator on the org's own domain,
 * the domain its Google Workspace or Microsoft tenant is at.
 */
export async function assertOrgDomainEmail(db: Db, orgId: string, email: string): Promise<void> {
  const [org] = await db.select({ domain: orgs.domain }).from(orgs).where(eq(orgs.id, orgId)).limit(1);
  const domain = (org?.domain ?? '').toLowerCase();
  if (!domain || email.split('@')[1]?.toLowerCase() !== domain)
    throw badRequest(apps.marketplaceEmailDomain(domain), 'VALIDATION_FAILED');
}
