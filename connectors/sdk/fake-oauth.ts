// A vendor's OAuth authorization server for the fakes, as the SCOUT_FAKE_VENDORS=1 dev mode (and its test) connect
// apps through it: the authorize address answers a page with an Allow button, Allow redirects to the redirect URI
// with a one-time code and the state, and the token endpoint trades the code for the fake's tokens only for the
// client, redirect URI and PKCE verifier (S256) the code was issued to. Refresh grants go to the fake's own token
// endpoint, which the fakes already serve, so a token expiring in dev mode is refreshed as it is in tests.
import { createHash, randomBytes } from 'node:crypto';
import { fakeVendors } from '../../common/strings';
import { startFakeServer, type FakeRequest, type FakeResponse, type FakeServer } from './fake-server';

export interface FakeOAuthClient {
  readonly id: string;
  readonly secret: string;
}

export interface FakeAuthorizationServerOptions {
  /** Names the vendor on the page: 'Slack' gives 'Fake Slack: allow Scout?'. */
  readonly vendor: string;
  readonly client: FakeOAuthClient;
  /** The token endpoint's answer to a code, in the vendor's shape (the fake's current tokens). */
  readonly issue: () => Record<string, unknown>;
  /** The fake's own token endpoint, which answers refresh grants. */
  readonly refreshUrl?: string;
}

export interface FakeAuthorizationServer {
  readonly server: FakeServer;
  readonly authorizeUrl: string;
  readonly tokenUrl: string;
  close(): Promise<void>;
}

interface Grant {
  readonly redirectUri: string;
  readonly challenge: string | null;
}

/** Text for an HTML page of a fake (the vendors' pages echo what the address carried). */
export const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char,
  );

const invalid = (error: string, status = 400): FakeResponse => ({ status, json: { error } });

/** The client as RFC 6749 §2.3.1 lets it authenticate: HTTP Basic or the form's client_id and client_secret. */
function clientOf(request: FakeRequest, form: URLSearchParams): { id: string; secret: string } {
  const basic = /^Basic (.+)$/.exec(request.headers.authorization ?? '')?.[1];
  if (basic) {
    const [id = '', secret = ''] = Buffer.from(basic, 'base64').toString('utf8').split(':');
    return { id: decodeURIComponent(id), secret: decodeURIComponent(secret) };
  }
  return { id: form.get('client_id') ?? '', secret: form.get('client_secret') ?? '' };
}

export async function startFakeAuthorizationServer(
  options: FakeAuthorizationServerOptions,
): Promise<FakeAuthorizationServer> {
  const server = await startFakeServer();
  const grants = new Map<string, Grant>();

  server.route('GET', '/authorize', ({ query }) => {
    const redirectUri = query.get('redirect_uri') ?? '';
    if (query.get('client_id') !== options.client.id || !URL.canParse(redirectUri))
      return invalid('invalid_client');
    if (query.get('response_type') !== 'code') return invalid('unsupported_response_type');
    const challengeMethod = query.get('code_challenge_method');
    if (challengeMethod !== null && challengeMethod !== 'S256') return invalid('invalid_request');
    const kept = ['redirect_uri', 'state', 'code_challenge']
      .map((key) => `<input type="hidden" name="${key}" value="${escapeHtml(query.get(key) ?? '')}">`)
      .join('');
    const title = escapeHtml(fakeVendors.allowTitle(options.vendor));
    return {
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: `<!doctype html>
<html><head><meta charset="utf-8"><title>${title}</title></head>
<body>
<h1>${title}</h1>
<p>${escapeHtml(fakeVendors.allowExplanation(options.vendor))}</p>
<form method="post" action="/authorize">${kept}<button type="submit">${fakeVendors.ALLOW}</button></form>
</body></html>
`,
    };
  });

  server.route('POST', '/authorize', ({ body }) => {
    const form = new URLSearchParams(body);
    const redirectUri = form.get('redirect_uri') ?? '';
    if (!URL.canParse(redirectUri)) return invalid('invalid_request');
    const code = randomBytes(16).toString('base64url');
    grants.set(code, { redirectUri, challenge: form.get('code_challenge') || null });
    const target = new URL(redirectUri);
    target.searchParams.set('code', code);
    target.searchParams.set('state', form.get('state') ?? '');
    return { status: 302, headers: { location: target.href } };
  });

  server.route('POST', '/token', async (request) => {
    const form = new URLSearchParams(request.body);
    if (form.get('grant_type') === 'refresh_token') {
      if (!options.refreshUrl) return invalid('unsupported_grant_type');
      const answer = await fetch(options.refreshUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          ...(request.headers.authorization ? { authorization: request.headers.authorization } : {}),
        },
        body: request.body,
      });
      return { status: answer.status, json: await answer.json() };
    }
    if (form.get('grant_type') !== 'authorization_code') return invalid('unsupported_grant_type');
    const client = clientOf(request, form);
    if (client.id !== options.client.id || client.secret !== options.client.secret)
      return invalid('invalid_client', 401);
    const code = form.get('code') ?? '';
    const grant = grants.get(code);
    // A code is good once, whatever the outcome, as RFC 6749 §4.1.2 asks.
    grants.delete(code);
    if (!grant || grant.redirectUri !== form.get('redirect_uri')) return invalid('invalid_grant');
    const verifier = form.get('code_verifier') ?? '';
    if (
      grant.challenge !== null &&
      createHash('sha256').update(verifier).digest('base64url') !== grant.challenge
    )
      return invalid('invalid_grant');
    return { json: options.issue() };
  });

  return {
    server,
    authorizeUrl: `${server.url}/authorize`,
    tokenUrl: `${server.url}/token`,
    close: () => server.close(),
  };
}
