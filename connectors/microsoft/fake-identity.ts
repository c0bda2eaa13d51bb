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
}

/** Graph's error body. */
export function graphError(status: number, code: string, message: string): FakeResponse {
  return { status, json: { error: { code, message } } };
}

export function fakeIdentityPlatform(server: FakeServer, prefix: string): FakeIdentity {
  let issued = 0;
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
  };
}
