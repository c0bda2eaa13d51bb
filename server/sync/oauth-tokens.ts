// OAuth tokens of app connections. The connect flow (server/api/oauth/flow.ts) stores the vendor's token response
// as the connection's credentials; access tokens expire (an hour at most vendors), so before each sync the engine
// trades the refresh token for a new pair at the connector's token URL and stores it encrypted. A vendor that
// refuses the refresh token (revoked, expired, the app uninstalled) leaves reconnecting as the user's one fix.
import { and, eq, ne } from 'drizzle-orm';
import * as client from 'openid-client';
import { z } from 'zod';
import { ConnectionStatus } from '../../common/connection-status';
import {
  FatalSourceError,
  InvalidCredentialsError,
  TransientError,
  type OAuthSettings,
} from '../../connectors/sdk';
import { appConnections, type AppConnection } from '../db/schema';
import type { Db } from '../db/store';
import { decryptCredentials, encryptCredentials } from './connections';
import type { RegisteredConnector } from './registry';

/** Refresh this long before expiry, so a token does not lapse in the middle of a sync's first requests. */
export const REFRESH_BEFORE_EXPIRY_MS = 5 * 60_000;
const TOKEN_REQUEST_TIMEOUT_SECONDS = 30;

export type OAuthClient = { clientId: string; clientSecret: string };

/** `SCOUT_OAUTH_<APP>_CLIENT_ID` and `_CLIENT_SECRET`, the app's shortname upper-cased with `_` for `-`. */
export function oauthClientVariables(appName: string): { id: string; secret: string } {
  const prefix = `SCOUT_OAUTH_${appName.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
  return { id: `${prefix}_CLIENT_ID`, secret: `${prefix}_CLIENT_SECRET` };
}

export function oauthClientFor(appName: string, env: NodeJS.ProcessEnv = process.env): OAuthClient | null {
  const variables = oauthClientVariables(appName);
  const clientId = env[variables.id]?.trim();
  const clientSecret = env[variables.secret]?.trim();
  return clientId && clientSecret ? { clientId, clientSecret } : null;
}

/**
 * HTTP Basic client credentials as the id and secret are, the way Notion's own SDK sends them. openid-client's
 * ClientSecretBasic form-encodes both first (RFC 6749 §2.3.1), turning the dashes of a UUID client id into %2D,
 * which a vendor that does not decode them refuses as invalid_client.
 */
function plainClientSecretBasic(clientSecret: string): client.ClientAuth {
  return (_server, metadata, _body, headers) => {
    headers.set(
      'authorization',
      `Basic ${Buffer.from(`${metadata.client_id}:${clientSecret}`).toString('base64')}`,
    );
  };
}

/**
 * A token endpoint's answer in the shape RFC 6749 §5 gives it, for vendors that stray from it: Slack answers its
 * errors with HTTP 200 and `{"ok": false, "error": …}`, and calls its tokens `"token_type": "bot"` or `"user"`
 * (openid-client accepts only bearer and DPoP); Notion sends `"refresh_token": null` when it issues none.
 */
async function standardTokenResponse(response: Response): Promise<Response> {
  if (!(response.headers.get('content-type') ?? '').includes('json')) return response;
  const body: unknown = await response
    .clone()
    .json()
    .catch(() => null);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return response;
  const answer = { ...(body as Record<string, unknown>) };
  let status = response.status;
  if (answer.ok === false && typeof answer.error === 'string' && status < 300) status = 400;
  else if (
    typeof answer.access_token === 'string' &&
    !['bearer', 'dpop'].includes(String(answer.token_type).toLowerCase())
  )
    answer.token_type = 'bearer';
  for (const key of ['refresh_token', 'expires_in', 'scope', 'id_token'])
    if (answer[key] === null) delete answer[key];
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  headers.delete('content-encoding');
  return new Response(JSON.stringify(answer), { status, headers });
}

export function oauthClientConfiguration(
  settings: OAuthSettings,
  oauthClient: OAuthClient,
): client.Configuration {
  const config = new client.Configuration(
    {
      issuer: new URL(settings.authorizeUrl).origin,
      authorization_endpoint: settings.authorizeUrl,
      token_endpoint: settings.tokenUrl,
    },
    oauthClient.clientId,
    undefined,
    settings.tokenAuth === 'basic'
      ? plainClientSecretBasic(oauthClient.clientSecret)
      : client.ClientSecretPost(oauthClient.clientSecret),
  );
  config.timeout = TOKEN_REQUEST_TIMEOUT_SECONDS;
  // the configuration talks to the token endpoint only (no discovery, no userinfo)
  config[client.customFetch] = async (url, options) =>
    standardTokenResponse(await fetch(url, options as RequestInit));
  if (new URL(settings.tokenUrl).protocol === 'http:') client.allowInsecureRequests(config);
  return config;
}

/**
 * A token response as credentials: the vendor's fields, and `expires_at` (ISO) from `expires_in`, since a relative
 * lifetime means nothing once stored.
 */
export function tokenCredentials(
  tokens: client.TokenEndpointResponse & client.TokenEndpointResponseHelpers,
  now: Date,
): Record<string, unknown> {
  const expiresIn = tokens.expiresIn();
  return {
    ...tokens,
    expires_at:
      expiresIn === undefined ? undefined : new Date(now.getTime() + expiresIn * 1000).toISOString(),
  };
}

const refreshableSchema = z
  .object({ refresh_token: z.string().min(1), expires_at: z.iso.datetime({ offset: true }) })
  .loose();

/** The vendor said no to the grant itself (an OAuth error answer below 500), not that it is unwell. */
function refused(error: unknown): boolean {
  if (error instanceof client.WWWAuthenticateChallengeError) return true;
  return error instanceof client.ResponseBodyError && error.status < 500;
}

/**
 * The connection's credentials, refreshed first when they are OAuth tokens due to expire. Throws
 * InvalidCredentialsError when the vendor refuses the refresh token (the engine then asks for a reconnect) and
 * TransientError when the token endpoint cannot be reached, for the job to retry.
 */
export async function freshCredentials(
  db: Db,
  connection: Pick<AppConnection, 'id' | 'appName' | 'credentialsEncrypted'>,
  connector: RegisteredConnector,
  now = new Date(),
): Promise<unknown> {
  const credentials = decryptCredentials(connection);
  const settings = connector.oauth;
  const stored = refreshableSchema.safeParse(credentials);
  // Tokens that never expire, or vendors that issue no refresh token, are used as they are until refused.
  if (!settings || !stored.success) return credentials;
  if (new Date(stored.data.expires_at).getTime() - now.getTime() > REFRESH_BEFORE_EXPIRY_MS)
    return credentials;

  const oauthClient = oauthClientFor(connection.appName);
  if (!oauthClient)
    throw new FatalSourceError(`${connection.appName}: no OAuth client is configured on this server`);
  let tokens: Awaited<ReturnType<typeof client.refreshTokenGrant>>;
  try {
    tokens = await client.refreshTokenGrant(
      oauthClientConfiguration(settings, oauthClient),
      stored.data.refresh_token,
    );
  } catch (error) {
    if (refused(error)) throw new InvalidCredentialsError(connector.credentialName, { cause: error });
    throw new TransientError(`${connection.appName}: the token refresh failed`, { cause: error });
  }
  // A vendor that does not rotate refresh tokens leaves the field out: the stored one stays valid.
  const refreshed = connector.credentialsSchema.safeParse({
    ...stored.data,
    ...tokenCredentials(tokens, now),
  });
  if (!refreshed.success) throw new InvalidCredentialsError(connector.credentialName);
  // Only over the tokens it read: a reconnect that stored new ones meanwhile wins.
  await db
    .update(appConnections)
    .set({ credentialsEncrypted: encryptCredentials(connection.id, refreshed.data) })
    .where(
      and(
        eq(appConnections.id, connection.id),
        eq(appConnections.credentialsEncrypted, connection.credentialsEncrypted ?? ''),
        ne(appConnections.statusCode, ConnectionStatus.Disconnecting),
      ),
    );
  return refreshed.data;
}
