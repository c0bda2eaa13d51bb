/**
 * The OAuth authorization-code flow that connects an app (spec shell-and-account §7.3 `PUT /oauth/{app}`). A
 * connector opts in by declaring `oauth` (authorize and token endpoints, scopes); the client id and secret come
 * from the environment per app (`SCOUT_OAUTH_<APP>_CLIENT_ID` / `_CLIENT_SECRET`, README). The state is random,
 * stored hashed with the member who started it, expires after 10 minutes and is deleted when used, and it must
 * also match a cookie of the browser that started it, so a forged callback cannot connect an attacker's account
 * in a victim's name. The code exchange uses PKCE (S256) where the connector asks for it.
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import * as client from 'openid-client';
import { z } from 'zod';
import { INSTALL_PAYLOAD_SCHEMAS } from '../../../common/api/connectors';
import {
  OAUTH_RESULT_MESSAGE,
  type OAuthResult,
  type oauthStartRequestSchema,
} from '../../../common/api/oauth';
import { getApp, type AppDefinition } from '../../../common/catalogue';
import { ConnectionStatus } from '../../../common/connection-status';
import { apps as appStrings, auth as authStrings } from '../../../common/strings';
import {
  InvalidCredentialsError,
  PermissionMismatchError,
  createConnectorContext,
  installPayloadOf,
  type OAuthSettings,
} from '../../../connectors/sdk';
import { cookieValue, redirectCookie } from '../../auth/redirect-cookie';
import type { ServerContext, Viewer } from '../../context';
import { newId } from '../../db/ids';
import { appConnections, appOauthStates, users } from '../../db/schema';
import type { Db } from '../../db/store';
import { decryptSecret, encryptSecret } from '../../db/secrets';
import { ApiError, badRequest, notFound } from '../../errors';
import { assertMayConnectNow, assertMayDisconnect, notConnectable } from '../../policies/app-connections';
import { encryptCredentials } from '../../sync/connections';
import { enqueueSync } from '../../sync/jobs';
import { oauthClientConfiguration, oauthClientFor, tokenCredentials } from '../../sync/oauth-tokens';
import { getConnector, type RegisteredConnector } from '../../sync/registry';

export const STATE_TTL_MS = 10 * 60_000;
export const COOKIE_NAME = 'scout_app_oauth';
const COOKIE_PATH = '/api/v1/oauth';
const CALLBACK_PATH = '/api/v1/oauth/callback';
const VALIDATE_TIMEOUT_MS = 30_000;

export const hashState = (state: string) => createHash('sha256').update(state).digest('hex');

function redirectUri(ctx: ServerContext): string {
  return new URL(CALLBACK_PATH, ctx.config.publicUrl).href;
}

export function stateCookie(value: string, maxAgeSeconds: number, secure: boolean): string {
  return redirectCookie(COOKIE_NAME, COOKIE_PATH, value, maxAgeSeconds, secure);
}

/** The same refusals as `PUT /app/install/{app}` (roles, plan, one-connection rules), checked when the flow starts and again when it ends. */
export async function assertMayInstall(
  db: Db,
  viewer: Pick<Viewer, 'userId' | 'orgId' | 'admin'>,
  app: AppDefinition,
  isOrg: boolean,
  reconnectId: string | null,
): Promise<void> {
  if (reconnectId) {
    const [connection] = await db
      .select()
      .from(appConnections)
      .where(
        and(
          eq(appConnections.id, reconnectId),
          eq(appConnections.orgId, viewer.orgId),
          eq(appConnections.appName, app.shortname),
        ),
      );
    if (
      !connection ||
      connection.statusCode === ConnectionStatus.Disconnecting ||
      (!connection.isOrg && connection.userId !== viewer.userId)
    )
      throw notFound('No such connection.');
    assertMayDisconnect(connection, viewer);
    return;
  }
  await assertMayConnectNow(db, viewer, app, isOrg);
}

function oauthConnector(appName: string): {
  app: AppDefinition;
  connector: RegisteredConnector;
  settings: OAuthSettings;
} {
  const app = getApp(appName);
  if (!app) throw notFound('No such app.');
  const connector = getConnector(app.shortname);
  if (!connector?.oauth) throw notConnectable();
  return { app, connector, settings: connector.oauth };
}

const sealedSchema = z.object({ verifier: z.string(), secrets: z.record(z.string(), z.unknown()) });

/** Starts a connect: the provider's authorization address for the popup, and the cookie that binds the browser. */
export async function beginAppOAuth(
  ctx: ServerContext,
  viewer: Viewer,
  appName: string,
  body: z.output<typeof oauthStartRequestSchema>,
): Promise<{ url: string; cookie: string }> {
  const { app, connector, settings } = oauthConnector(appName);
  const oauthClient = oauthClientFor(app.shortname);
  if (!oauthClient) throw badRequest(appStrings.oauthInstallFailed(app.displayName), 'NOT_IMPLEMENTED');
  const { db } = ctx.store;
  await assertMayInstall(db, viewer, app, body.admin, body.appId ?? null);

  // An app whose org connection is a marketplace install (Google, Microsoft) is not signed in to here.
  if (installPayloadOf(connector, body.admin) !== 'oauth') throw notConnectable();
  const parsed = INSTALL_PAYLOAD_SCHEMAS.oauth.safeParse(body.options);
  if (!parsed.success)
    throw badRequest(parsed.error.issues[0]?.message ?? 'Invalid input.', 'VALIDATION_FAILED');
  const secretKeys = new Set<string>(connector.credentialFields.map((field) => field.key));
  const entries = Object.entries(parsed.data as Record<string, unknown>);
  const secrets = Object.fromEntries(entries.filter(([key]) => secretKeys.has(key)));
  const options = Object.fromEntries(entries.filter(([key]) => !secretKeys.has(key)));

  const state = randomBytes(32).toString('base64url');
  const verifier = client.randomPKCECodeVerifier();
  await db.insert(appOauthStates).values({
    orgId: viewer.orgId,
    userId: viewer.userId,
    appName: app.shortname,
    stateHash: hashState(state),
    verifierEncrypted: encryptSecret(JSON.stringify({ verifier, secrets }), hashState(state)),
    isOrg: body.admin,
    connectionId: body.appId ?? null,
    options: options as Record<string, never>,
    expiresAt: new Date(Date.now() + STATE_TTL_MS),
  });
  const url = client.buildAuthorizationUrl(oauthClientConfiguration(settings, oauthClient), {
    redirect_uri: redirectUri(ctx),
    response_type: 'code',
    scope: settings.scopes.join(' '),
    state,
    ...(settings.pkce
      ? { code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' }
      : {}),
    ...settings.authorizeParams,
  });
  return { url: url.href, cookie: stateCookie(state, STATE_TTL_MS / 1000, ctx.config.production) };
}

/** Ends the flow in any case: the cookie is spent whether or not the connect worked. */
export function spentCookie(ctx: ServerContext): string {
  return stateCookie('', 0, ctx.config.production);
}

class FlowFailure extends Error {}

/** The callback: exchanges the code, stores the tokens encrypted and creates (or reconnects) the connection. */
export async function finishAppOAuth(ctx: ServerContext, request: FastifyRequest): Promise<OAuthResult> {
  const query = new URL(request.url, 'http://callback.invalid').searchParams;
  const state = query.get('state') ?? '';
  const { db } = ctx.store;
  // Deleting is what makes a state one-time: a replayed callback finds nothing.
  const [pending] =
    state && cookieValue(request.headers.cookie, COOKIE_NAME) === state
      ? await db
          .delete(appOauthStates)
          .where(
            and(eq(appOauthStates.stateHash, hashState(state)), gt(appOauthStates.expiresAt, new Date())),
          )
          .returning()
      : [];
  if (!pending)
    return { type: OAUTH_RESULT_MESSAGE, app: '', success: false, message: authStrings.APP_AUTH_FAILED };

  const app = getApp(pending.appName);
  const displayName = app?.displayName ?? pending.appName;
  const failure = (message: string): OAuthResult => ({
    type: OAUTH_RESULT_MESSAGE,
    app: pending.appName,
    success: false,
    message,
  });
  try {
    const { connector, settings } = oauthConnector(pending.appName);
    const oauthClient = oauthClientFor(pending.appName);
    if (!app || !oauthClient) throw new FlowFailure(appStrings.oauthInstallFailed(displayName));
    const [owner] = await db
      .select({ userId: users.id, orgId: users.orgId, admin: users.admin })
      .from(users)
      .where(and(eq(users.id, pending.userId), eq(users.orgId, pending.orgId)));
    if (!owner) throw new FlowFailure(appStrings.oauthInstallFailed(displayName));
    await assertMayInstall(db, owner, app, pending.isOrg, pending.connectionId);

    const sealed = sealedSchema.parse(
      JSON.parse(decryptSecret(pending.verifierEncrypted, pending.stateHash)),
    );
    const callbackUrl = new URL(`${redirectUri(ctx)}?${query.toString()}`);
    const tokens = await client.authorizationCodeGrant(
      oauthClientConfiguration(settings, oauthClient),
      callbackUrl,
      {
        expectedState: state,
        ...(settings.pkce ? { pkceCodeVerifier: sealed.verifier } : {}),
        idTokenExpected: false,
      },
    );
    const payload = { ...pending.options, ...sealed.secrets, ...tokenCredentials(tokens, new Date()) };
    const parsedCredentials = connector.credentialsSchema.safeParse(payload);
    if (!parsedCredentials.success) throw new FlowFailure(appStrings.oauthInstallFailed(displayName));
    const credentials = parsedCredentials.data;
    const config = pending.options;
    const identity = await connector.validate(
      createConnectorContext(connector, {
        credentials,
        config,
        signal: AbortSignal.timeout(VALIDATE_TIMEOUT_MS),
      }),
    );

    const id = pending.connectionId ?? newId();
    const values = {
      credentialsEncrypted: encryptCredentials(id, credentials),
      statusCode: ConnectionStatus.Connecting,
      statusMessage: null,
      email: identity.email ?? null,
      workspaceName: identity.workspaceName ?? null,
      appUserId: identity.appUserId ?? null,
      extra: { config },
    };
    const [row] = pending.connectionId
      ? await db.update(appConnections).set(values).where(eq(appConnections.id, id)).returning()
      : await db
          .insert(appConnections)
          .values({
            id,
            orgId: pending.orgId,
            userId: pending.userId,
            appName: pending.appName,
            isOrg: pending.isOrg,
            ...values,
          })
          .returning();
    if (!row) throw new Error('connection write returned nothing');
    await enqueueSync(db, row, 'full');
    return { type: OAUTH_RESULT_MESSAGE, app: pending.appName, success: true, connectionId: row.id };
  } catch (error) {
    if (error instanceof FlowFailure || error instanceof InvalidCredentialsError)
      return failure(error.message);
    if (error instanceof ApiError) return failure(error.message);
    if (error instanceof PermissionMismatchError)
      return failure(appStrings.failedToInstall(displayName, error.message));
    request.log.warn({ err: error, app: pending.appName }, 'app OAuth connect failed');
    return failure(appStrings.oauthInstallFailed(displayName));
  }
}

/** JSON inside a script element: `<` escaped so no value can close the element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** The popup's page: posts the result to the opener on Scout's origin only, then closes itself. */
export function resultPage(ctx: ServerContext, result: OAuthResult, nonce: string): string {
  const origin = new URL(ctx.config.publicUrl).origin;
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>Scout</title></head>
<body>
<script nonce="${nonce}">
  const result = ${scriptJson(result)};
  if (window.opener) window.opener.postMessage(result, ${scriptJson(origin)});
  window.close();
</script>
</body></html>
`;
}
