// The Microsoft identity platform's token endpoint for the Graph fakes (Outlook, Teams): a refresh grant rotates
// both tokens, as Entra ID does; the access token can be made to lapse and the refresh token to be refused.
import type { FakeRequest, FakeResponse, FakeServer } from '../sdk/fake-server';

export const FAKE_CLIENT = { id: 'scout-graph-client', secret: 'scout-graph-secret' };

export interface FakeIdentity {
  readonly accessToken: string;
  readonly refreshToken: string;
  /** Whether a Graph request carries the current access token. */
  authorized(request: FakeRequest): boolean;
  /** The access token stops working, as one does when its hour is up. */
  expireAccessToken(): void;
  /** The token endpoint refuses the refresh token from now on (consent revoked). */
  revokeRefreshToken(): void;
  /** Whether a Graph request carries an app-only token of the tenant's admin consent, still valid. */
  appAuthorized(request: FakeRequest): boolean;
  /** The app-only tokens issued so far stop working; the client-credentials grant issues new ones. */
  expireAppTokens(): void;
}

/** Graph's error body. */
export function graphError(status: number, code: string, message: string): FakeResponse {
  return { status, json: { error: { code, message } } };
}

/** The tenant whose admin consent the fake's client-credentials grant honours. */
export const FAKE_TENANT = 'contoso.com';

export function fakeIdentityPlatform(server: FakeServer, prefix: string, tenant = FAKE_TENANT): FakeIdentity {
  let issued = 0;
  let appIssued = 0;
  const appTokens = new Set<string>();
  let accessToken = `${prefix}-access-0`;
  let refreshToken = `${prefix}-refresh-0`;
  let revoked = false;
  server.route('POST', '/organizations/oauth2/v2.0/token', ({ body }) => {
    const form = new URLSearchParams(body);
    if (
      revoked ||
      form.get('grant_type') !== 'refresh_token' ||
      form.get('client_id') !== FAKE_CLIENT.id ||
      form.get('client_secret') !== FAKE_CLIENT.secret ||
      form.get('refresh_token') !== refreshToken
    )
      return {
        status: 400,
        json: { error: 'invalid_grant', error_description: 'AADSTS70000: invalid grant.' },
      };
    issued += 1;
    accessToken = `${prefix}-access-${issued}`;
    refreshToken = `${prefix}-refresh-${issued}`;
    return {
      json: {
        token_type: 'Bearer',
        expires_in: 3600,
        access_token: accessToken,
        refresh_token: refreshToken,
      },
    };
  });
  // After the delegated route, which matches `organizations` first: any other authority is a tenant's.
  server.route('POST', '/:tenant/oauth2/v2.0/token', ({ body, params }) => {
    const form = new URLSearchParams(body);
    if (params.tenant !== tenant)
      return {
        status: 400,
        json: { error: 'invalid_request', error_description: 'AADSTS90002: Tenant not found.' },
      };
    if (
      form.get('grant_type') !== 'client_credentials' ||
      form.get('client_id') !== FAKE_CLIENT.id ||
      form.get('client_secret') !== FAKE_CLIENT.secret ||
      form.get('scope') !== 'https://graph.microsoft.com/.default'
    )
      return {
        status: 401,
        json: { error: 'invalid_client', error_description: 'AADSTS7000215: Invalid client.' },
      };
    const token = `${prefix}-app-${++appIssued}`;
    appTokens.add(token);
    return { json: { token_type: 'Bearer', expires_in: 3599, access_token: token } };
  });
  return {
    get accessToken() {
      return accessToken;
    },
    get refreshToken() {
      return refreshToken;
    },
    authorized: (request) => request.headers.authorization === `Bearer ${accessToken}`,
    expireAccessToken() {
      accessToken = `${prefix}-access-lapsed-${issued}`;
    },
    revokeRefreshToken() {
      revoked = true;
    },
    appAuthorized: (request) =>
      appTokens.has(/^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? ''),
    expireAppTokens() {
      appTokens.clear();
    },
  };
}
