/**
 * A real OpenID Connect provider on 127.0.0.1 for tests: discovery, JWKS, an authorization endpoint that approves
 * at once and redirects back with a code, and a token endpoint that checks the client, the redirect URI and the
 * PKCE verifier before issuing an RS256 ID token (signed with a key made at start) for the configured person.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';

export type OidcPerson = { email: string; emailVerified?: boolean; subject?: string };

export type TestOidcProvider = {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Who the next sign-ins come back as. */
  signInAs(person: OidcPerson): void;
  /** Authorization requests received, newest last (to check state, nonce, PKCE and login_hint were sent). */
  readonly authorizations: URLSearchParams[];
  close(): Promise<void>;
};

type PendingCode = { clientId: string; redirectUri: string; nonce: string | null; challenge: string | null };

const KEY_ID = 'test-key-1';

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  response.end(JSON.stringify(body));
}

export async function startOidcProvider(options: {
  clientId?: string;
  clientSecret?: string;
  person: OidcPerson;
}): Promise<TestOidcProvider> {
  const clientId = options.clientId ?? 'scout-test-client';
  const clientSecret = options.clientSecret ?? 'scout-test-secret';
  let person = options.person;
  const authorizations: URLSearchParams[] = [];
  const codes = new Map<string, PendingCode>();
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const publicJwk = { ...(await exportJWK(publicKey)), kid: KEY_ID, alg: 'RS256', use: 'sig' };
  let issuer = '';

  function clientAuthenticated(request: IncomingMessage, form: URLSearchParams): boolean {
    const basic = /^Basic (.+)$/i.exec(request.headers.authorization ?? '')?.[1];
    if (basic) {
      const [id, secret] = Buffer.from(basic, 'base64').toString('utf8').split(':').map(decodeURIComponent);
      return id === clientId && secret === clientSecret;
    }
    return form.get('client_id') === clientId && form.get('client_secret') === clientSecret;
  }

  async function token(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const form = new URLSearchParams(await readBody(request));
    if (!clientAuthenticated(request, form)) return json(response, 401, { error: 'invalid_client' });
    const code = form.get('code') ?? '';
    const pending = codes.get(code);
    codes.delete(code);
    if (form.get('grant_type') !== 'authorization_code' || !pending || pending.clientId !== clientId) {
      return json(response, 400, { error: 'invalid_grant' });
    }
    if (form.get('redirect_uri') !== pending.redirectUri) {
      return json(response, 400, { error: 'invalid_grant', error_description: 'redirect_uri mismatch' });
    }
    const verifier = form.get('code_verifier');
    const challenge = verifier ? createHash('sha256').update(verifier).digest('base64url') : null;
    if (pending.challenge !== challenge) {
      return json(response, 400, { error: 'invalid_grant', error_description: 'PKCE verification failed' });
    }
    const idToken = await new SignJWT({
      email: person.email,
      email_verified: person.emailVerified ?? true,
      ...(pending.nonce ? { nonce: pending.nonce } : {}),
    })
      .setProtectedHeader({ alg: 'RS256', kid: KEY_ID })
      .setIssuer(issuer)
      .setSubject(person.subject ?? `sub-${person.email}`)
      .setAudience(clientId)
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(privateKey);
    json(response, 200, {
      access_token: randomBytes(16).toString('hex'),
      token_type: 'Bearer',
      expires_in: 300,
      id_token: idToken,
    });
  }

  function authorize(url: URL, response: ServerResponse): void {
    const params = url.searchParams;
    authorizations.push(params);
    const redirectUri = params.get('redirect_uri');
    if (params.get('client_id') !== clientId || !redirectUri || params.get('response_type') !== 'code') {
      return json(response, 400, { error: 'invalid_request' });
    }
    const code = randomBytes(16).toString('hex');
    codes.set(code, {
      clientId,
      redirectUri,
      nonce: params.get('nonce'),
      challenge: params.get('code_challenge_method') === 'S256' ? params.get('code_challenge') : null,
    });
    const back = new URL(redirectUri);
    back.searchParams.set('code', code);
    const state = params.get('state');
    if (state) back.searchParams.set('state', state);
    response.writeHead(302, { location: back.href });
    response.end();
  }

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', issuer);
    const route = `${request.method} ${url.pathname}`;
    const handled = (async () => {
      if (route === 'GET /.well-known/openid-configuration') {
        return json(response, 200, {
          issuer,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
          jwks_uri: `${issuer}/jwks`,
          response_types_supported: ['code'],
          subject_types_supported: ['public'],
          id_token_signing_alg_values_supported: ['RS256'],
          code_challenge_methods_supported: ['S256'],
          token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
          scopes_supported: ['openid', 'email', 'profile'],
        });
      }
      if (route === 'GET /jwks') return json(response, 200, { keys: [publicJwk] });
      if (route === 'GET /authorize') return authorize(url, response);
      if (route === 'POST /token') return token(request, response);
      return json(response, 404, { error: 'not_found' });
    })();
    handled.catch((err: unknown) => json(response, 500, { error: 'server_error', detail: String(err) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    issuer,
    clientId,
    clientSecret,
    signInAs(next) {
      person = next;
    },
    authorizations,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
