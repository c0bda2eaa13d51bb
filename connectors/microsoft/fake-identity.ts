// The Microsoft identity platform's token endpoint for the Graph fakes (Outlook, Teams): a refresh grant rotates
// both tokens, as Entra ID does; the access token can be made to lapse and the refresh token to be refused. Also
// the admin-consent page an org connection opens in its popup.
import { fakeVendors } from '../../common/strings';
import { escapeHtml } from '../sdk/fake-oauth';
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

export interface FakeAdminConsentOptions {
  readonly clientId: string;
  /** The tenant's id (a GUID at Entra ID): the redirect names the consenting tenant by it. */
  readonly tenantId: string;
  /** Whether the address's `{tenant}` names this tenant: its domain, its id, or 'organizations'. */
  readonly knows: (tenant: string) => boolean;
  /** The admin allowed: the app may now take app-only tokens for the tenant. */
  readonly onConsent: () => void;
}

/**
 * The identity platform's admin-consent endpoint (`/{tenant}/adminconsent`): a page with Allow and Deny that
 * redirects to `redirect_uri` as Entra ID does, with `admin_consent=True`, the tenant's id and the state, or with
 * `error` and `error_description` when the admin declines.
 */
export function fakeAdminConsent(server: FakeServer, options: FakeAdminConsentOptions): void {
  server.route('GET', '/:tenant/adminconsent', ({ params, query }) => {
    if (query.get('client_id') !== options.clientId || !options.knows(params.tenant ?? ''))
      return {
        status: 400,
        json: { error: 'invalid_request', error_description: 'AADSTS700016: Application not found.' },
      };
    if (!URL.canParse(query.get('redirect_uri') ?? ''))
      return { status: 400, json: { error: 'invalid_request' } };
    const kept = ['redirect_uri', 'state']
      .map((key) => `<input type="hidden" name="${key}" value="${escapeHtml(query.get(key) ?? '')}">`)
      .join('');
    const title = escapeHtml(fakeVendors.allowTitle('Microsoft'));
    return {
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: `<!doctype html>
<html><head><meta charset="utf-8"><title>${title}</title></head>
<body>
<h1>${title}</h1>
<p>${escapeHtml(fakeVendors.allowExplanation('Microsoft'))}</p>
<form method="post">${kept}<button type="submit" name="decision" value="allow">${fakeVendors.ALLOW}</button>
<button type="submit" name="decision" value="deny">${fakeVendors.DENY}</button></form>
</body></html>
`,
    };
  });

  server.route('POST', '/:tenant/adminconsent', ({ body }) => {
    const form = new URLSearchParams(body);
    const redirectUri = form.get('redirect_uri') ?? '';
    if (!URL.canParse(redirectUri)) return { status: 400, json: { error: 'invalid_request' } };
    const target = new URL(redirectUri);
    if (form.get('decision') === 'allow') {
      options.onConsent();
      target.searchParams.set('admin_consent', 'True');
      target.searchParams.set('tenant', options.tenantId);
    } else {
      target.searchParams.set('error', 'access_denied');
      target.searchParams.set(
        'error_description',
        'AADSTS65004: User declined to consent to access the app.',
      );
    }
    target.searchParams.set('state', form.get('state') ?? '');
    return { status: 302, headers: { location: target.href } };
  });
}
