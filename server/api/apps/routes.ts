import { and, eq, or } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  appParamsSchema,
  appsResponseSchema,
  disconnectQuerySchema,
  disconnectResponseSchema,
  installRequestSchema,
  installResponseSchema,
} from '../../../common/api/apps';
import { INSTALL_PAYLOAD_SCHEMAS } from '../../../common/api/connectors';
import { APPS, getApp } from '../../../common/catalogue';
import { ConnectionStatus } from '../../../common/connection-status';
import { apps as appStrings } from '../../../common/strings';
import {
  InvalidCredentialsError,
  PermissionMismatchError,
  createConnectorContext,
  installPayloadOf,
  type ConnectionIdentity,
  type SiteArchives,
} from '../../../connectors/sdk';
import { newId } from '../../db/ids';
import { appConnections, orgs, type AppConnection } from '../../db/schema';
import type { Db } from '../../db/store';
import { ApiError, badRequest, notFound } from '../../errors';
import { viewerOf } from '../../policies/access';
import {
  assertMayConnectNow,
  assertMayDisconnect,
  assertOrgDomainEmail,
  notConnectable,
} from '../../policies/app-connections';
import { presentAppConnection } from '../../presenters/app-connection';
import { connectionItemCounts, encryptCredentials } from '../../sync/connections';
import { enqueueSync, startDisconnect } from '../../sync/jobs';
import { connectableAs, getConnector, type RegisteredConnector } from '../../sync/registry';
import { siteArchivesFor } from '../../uploads/site-archives';
import { grantedAdminConsent, spendAdminConsent, type AdminConsent } from '../oauth/admin-consent';

/** How long an install may spend checking the credentials with the vendor. */
const VALIDATE_TIMEOUT_MS = 30_000;

async function orgDomain(db: Db, orgId: string): Promise<string> {
  const [org] = await db.select({ domain: orgs.domain }).from(orgs).where(eq(orgs.id, orgId)).limit(1);
  return org?.domain ?? '';
}

/** The connector's answer to the credentials, or the spec's failure for the connect dialog. */
async function validateInstall(
  connector: RegisteredConnector,
  appName: string,
  credentials: unknown,
  config: unknown,
  siteArchives: SiteArchives,
): Promise<ConnectionIdentity> {
  try {
    const ctx = createConnectorContext(connector, {
      credentials,
      config,
      signal: AbortSignal.timeout(VALIDATE_TIMEOUT_MS),
      siteArchives,
    });
    return await connector.validate(ctx);
  } catch (error) {
    // InvalidUrlError's message is the website's own failure; the others read 'Incorrect {credential name}…'.
    if (error instanceof InvalidCredentialsError) throw badRequest(error.message, 'INVALID_CREDENTIALS');
    if (error instanceof PermissionMismatchError)
      throw badRequest(appStrings.failedToInstall(appName, error.message), 'APP_PERMISSION_MISMATCH');
    throw new ApiError(502, 'UPSTREAM_FAILED', appStrings.failedToInstallCredentials(appName));
  }
}

/** Splits the install payload: credential fields are encrypted, the rest is the connection's settings. */
function splitPayload(connector: RegisteredConnector, payload: Record<string, unknown>) {
  const secretKeys = new Set<string>(connector.credentialFields.map((field) => field.key));
  const config = Object.fromEntries(Object.entries(payload).filter(([key]) => !secretKeys.has(key)));
  return { config };
}

/** Connect and disconnect apps (spec apps-and-connections §6–§7, shell-and-account §7.3). */
export const appRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = () => app.ctx.store.db;

  app.put(
    '/app/install/:app',
    {
      config: { access: 'signedIn' },
      schema: {
        params: appParamsSchema,
        body: installRequestSchema,
        response: { 200: installResponseSchema },
      },
    },
    async (request) => {
      const viewer = viewerOf(request);
      const definition = getApp(request.params.app);
      if (!definition) throw notFound('No such app.');
      const { isOrg, appId } = request.body;
      const now = new Date();

      const existing = await db()
        .select()
        .from(appConnections)
        .where(and(eq(appConnections.orgId, viewer.orgId), eq(appConnections.appName, definition.shortname)));
      const reconnecting = appId ? existing.find((row) => row.id === appId) : undefined;
      if (appId && !reconnecting) throw notFound('No such connection.');
      if (reconnecting) {
        assertMayDisconnect(reconnecting, viewer);
        if (reconnecting.statusCode === ConnectionStatus.Disconnecting) throw notFound('No such connection.');
      } else {
        await assertMayConnectNow(db(), viewer, definition, isOrg);
      }

      const connector = getConnector(definition.shortname);
      if (!connector) throw notConnectable();
      const kind = installPayloadOf(connector, isOrg);
      if (!kind) throw notConnectable();
      const parsed = INSTALL_PAYLOAD_SCHEMAS[kind].safeParse({
        ...request.body.options,
        ...request.body.credentials,
      });
      if (!parsed.success)
        throw badRequest(parsed.error.issues[0]?.message ?? 'Invalid input.', 'VALIDATION_FAILED');
      const { icon, ...payload } = parsed.data as Record<string, unknown>;
      const connectionName = typeof payload.connection_name === 'string' ? payload.connection_name : null;
      // Pushes and the app tell custom-api connections apart by name (spec §5).
      if (
        connectionName !== null &&
        existing.some(
          (row) =>
            row.id !== reconnecting?.id &&
            row.statusCode !== ConnectionStatus.Disconnecting &&
            row.connectionName?.toLowerCase() === connectionName.toLowerCase(),
        )
      )
        throw badRequest(appStrings.UNIQUE_CONNECTION_NAME, 'VALIDATION_FAILED');
      // A Microsoft tenant's admin consent, granted in the dialog's popup, names the tenant by its id.
      let consent: AdminConsent | undefined;
      if (kind === 'marketplace') {
        await assertOrgDomainEmail(db(), viewer.orgId, String(payload.email));
        consent = await grantedAdminConsent(db(), viewer, definition.shortname, String(payload.email));
        if (consent) payload.tenant = consent.tenant;
      }
      const { config } = splitPayload(connector, payload);
      // The archives the connection's owner, who keeps it through a reconnect, will sync from.
      const owner = { orgId: viewer.orgId, userId: reconnecting ? reconnecting.userId : viewer.userId };
      const archives = siteArchivesFor(db(), owner);
      const identity = await validateInstall(connector, definition.displayName, payload, config, archives);
      const credentials = connector.credentialsSchema.parse(payload);

      const id = reconnecting?.id ?? newId();
      const values = {
        credentialsEncrypted: encryptCredentials(id, credentials),
        statusCode: ConnectionStatus.Connecting,
        statusMessage: null,
        email: identity.email ?? null,
        workspaceName: identity.workspaceName ?? null,
        appUserId: identity.appUserId ?? null,
        connectionName,
        icon: typeof icon === 'string' ? icon : null,
        extra: { config },
      };
      const [row] = reconnecting
        ? await db().update(appConnections).set(values).where(eq(appConnections.id, id)).returning()
        : await db()
            .insert(appConnections)
            .values({
              id,
              orgId: viewer.orgId,
              userId: viewer.userId,
              appName: definition.shortname,
              isOrg,
              ...values,
            })
            .returning();
      if (!row) throw new Error('connection write returned nothing');
      if (consent) await spendAdminConsent(db(), consent);
      await enqueueSync(db(), row, 'full');
      return { connection: presentAppConnection(row, await orgDomain(db(), viewer.orgId), now) };
    },
  );

  app.delete(
    '/app/disconnect_app_name/:app',
    {
      config: { access: 'signedIn' },
      schema: {
        params: appParamsSchema,
        querystring: disconnectQuerySchema,
        response: { 200: disconnectResponseSchema },
      },
    },
    async (request) => {
      const viewer = viewerOf(request);
      const definition = getApp(request.params.app);
      if (!definition) throw notFound('No such app.');
      const { admin, appId } = request.query;
      const rows = await db()
        .select()
        .from(appConnections)
        .where(and(eq(appConnections.orgId, viewer.orgId), eq(appConnections.appName, definition.shortname)));
      const live = rows.filter((row) => row.statusCode !== ConnectionStatus.Disconnecting);
      const connection = appId
        ? rows.find((row) => row.id === appId)
        : live.find((row) => (admin ? row.isOrg : !row.isOrg && row.userId === viewer.userId));
      // Another member's individual connection is not the viewer's to see, let alone remove.
      if (!connection || (!connection.isOrg && connection.userId !== viewer.userId))
        throw notFound('No such connection.');
      assertMayDisconnect(connection, viewer);
      await startDisconnect(db(), connection);
      return {
        connection: presentAppConnection(
          { ...connection, statusCode: ConnectionStatus.Disconnecting, statusMessage: null },
          await orgDomain(db(), viewer.orgId),
          new Date(),
        ),
      };
    },
  );

  app.get(
    '/_fetchData/apps',
    { config: { access: 'signedIn' }, schema: { response: { 200: appsResponseSchema } } },
    async (request) => {
      const viewer = viewerOf(request);
      const now = new Date();
      const rows = await db()
        .select()
        .from(appConnections)
        .where(
          and(
            eq(appConnections.orgId, viewer.orgId),
            or(eq(appConnections.isOrg, true), eq(appConnections.userId, viewer.userId)),
          ),
        )
        .orderBy(appConnections.createdAt);
      const domain = await orgDomain(db(), viewer.orgId);
      const itemCounts = viewer.admin ? await connectionItemCounts(db(), viewer.orgId) : null;
      const detailsOf = (row: AppConnection) =>
        itemCounts ? { itemCount: itemCounts.get(row.id) ?? 0 } : undefined;
      return {
        apps: APPS.map((definition) => ({
          ...definition,
          objectTypes: [...definition.objectTypes],
          appCategory: [...definition.appCategory],
          available: {
            org: connectableAs(definition.shortname, true),
            individual: connectableAs(definition.shortname, false),
          },
          connections: rows
            .filter((row) => row.appName === definition.shortname)
            .map((row) => presentAppConnection(row, domain, now, detailsOf(row))),
        })),
      };
    },
  );
};
