import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authMessages } from '../../../common/api/auth';
import { startFakeServer, type FakeServer } from '../../../connectors/sdk/fake-server';
import { ssoSecretContext } from '../../auth/oauth-sign-in';
import { startOidcProvider, type TestOidcProvider } from '../../auth/testing/oidc-provider';
import { ssoConfigs, type Org } from '../../db/schema';
import { decryptSecret } from '../../db/secrets';
import { createOrg, createUser, loginTokensFor } from '../../testing/fixtures';
import { createTestServer, type TestServer } from '../../testing/server';

let idp: TestOidcProvider;
let server: TestServer;
let org: Org;
let adminToken: string;
let memberToken: string;

beforeAll(async () => {
  idp = await startOidcProvider({ person: { email: 'a@sso-admin.test' } });
  // The test identity provider is on 127.0.0.1, which the outbound guard refuses unless the operator allows it.
  server = await createTestServer({ env: { SCOUT_ALLOW_PRIVATE_HOSTS: '127.0.0.1' } });
  org = await createOrg(server.store.db, { domain: 'sso-admin.test', plan: 'ENTERPRISE' });
  const admin = await createUser(server.store.db, org, { email: 'admin@sso-admin.test', admin: true });
  const member = await createUser(server.store.db, org, { email: 'member@sso-admin.test' });
  adminToken = (await loginTokensFor(server.ctx, admin)).id_token;
  memberToken = (await loginTokensFor(server.ctx, member)).id_token;
});
afterAll(async () => {
  await server.close();
  await idp.close();
});

function call(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', payload?: object, token = adminToken) {
  return server.app.inject({
    method,
    url: '/api/v1/sso-oidc',
    headers: { authorization: `Bearer ${token}` },
    ...(payload ? { payload } : {}),
  });
}

describe('sso-oidc', () => {
  it('creates, reads, updates and deletes the configuration, never answering the secret', async () => {
    expect((await call('GET')).json()).toEqual({ config: null });

    const created = await call('POST', {
      issuer: idp.issuer,
      client_id: idp.clientId,
      client_secret: idp.clientSecret,
      on_prem_url: 'https://scout.sso-admin.test',
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().config).toMatchObject({
      issuer: idp.issuer,
      client_id: idp.clientId,
      has_client_secret: true,
      enforced: false,
      on_prem_url: 'https://scout.sso-admin.test',
      redirect_uri: 'http://localhost:3000/api/v1/auth/sso/callback',
    });
    expect(created.body).not.toContain(idp.clientSecret);

    // Encrypted at rest, bound to the org.
    const [row] = await server.store.db.select().from(ssoConfigs).where(eq(ssoConfigs.orgId, org.id));
    expect(row?.clientSecretEncrypted).not.toContain(idp.clientSecret);
    expect(decryptSecret(row?.clientSecretEncrypted ?? '', ssoSecretContext(org.id))).toBe(idp.clientSecret);

    expect((await call('POST', { issuer: idp.issuer, client_id: 'again' })).statusCode).toBe(409);

    const enforced = await call('PATCH', { enforced: true });
    expect(enforced.statusCode).toBe(200);
    expect(enforced.json().config).toMatchObject({ enforced: true, has_client_secret: true });
    expect((await call('GET')).json().config.enforced).toBe(true);

    const withoutSecret = await call('PATCH', { client_secret: null });
    expect(withoutSecret.json().config.has_client_secret).toBe(false);

    expect((await call('DELETE')).statusCode).toBe(204);
    expect((await call('GET')).json()).toEqual({ config: null });
    expect((await call('DELETE')).statusCode).toBe(404);
    expect((await call('PATCH', { enforced: false })).statusCode).toBe(404);
  });

  it('refuses an issuer that is not https (except on this machine) or that does not answer discovery', async () => {
    const plainHttp = await call('POST', { issuer: 'http://idp.example.com', client_id: 'c' });
    expect(plainHttp.statusCode).toBe(400);
    expect(plainHttp.json().code).toBe('VALIDATION_FAILED');

    const silent = await call('POST', { issuer: 'http://127.0.0.1:9/nothing-here', client_id: 'c' });
    expect(silent.statusCode).toBe(400);
    expect(silent.json()).toEqual({ code: 'BAD_REQUEST', message: authMessages.SSO_DISCOVERY_FAILED });
    expect((await call('GET')).json()).toEqual({ config: null });
  });

  it('is for admins only', async () => {
    const res = await call('GET', undefined, memberToken);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('ADMIN_REQUIRED');
  });
});

describe('sso-oidc discovery through the outbound guard', () => {
  let guarded: TestServer;
  let guardedAdminToken: string;
  let local: FakeServer;

  beforeAll(async () => {
    guarded = await createTestServer();
    const guardedOrg = await createOrg(guarded.store.db, { domain: 'sso-guard.test', plan: 'ENTERPRISE' });
    const admin = await createUser(guarded.store.db, guardedOrg, {
      email: 'admin@sso-guard.test',
      admin: true,
    });
    guardedAdminToken = (await loginTokensFor(guarded.ctx, admin)).id_token;
    local = await startFakeServer();
    const discovery = (issuer: string) => ({
      json: {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
      },
    });
    local.route('GET', '/.well-known/openid-configuration', (request) => discovery(request.origin));
    local.route('GET', '/internal/.well-known/openid-configuration', (request) =>
      discovery(`${request.origin}/internal`),
    );
    local.route('GET', '/bounce/.well-known/openid-configuration', (request) => ({
      status: 302,
      headers: {
        location: `http://localhost:${new URL(request.origin).port}/.well-known/openid-configuration`,
      },
    }));
  });
  afterAll(async () => {
    await guarded.close();
    await local.close();
  });

  const post = (target: TestServer, token: string, issuer: string) =>
    target.app.inject({
      method: 'POST',
      url: '/api/v1/sso-oidc',
      headers: { authorization: `Bearer ${token}` },
      payload: { issuer, client_id: 'c' },
    });

  it('refuses an issuer at a loopback or private address, or a name resolving to one, without a request', async () => {
    const port = new URL(local.url).port;
    for (const issuer of [
      `http://127.0.0.1:${port}/internal?admin=1`,
      `http://localhost:${port}/internal`,
      `http://[::1]:${port}/internal`,
      `https://[::ffff:127.0.0.1]:${port}/internal`,
      'https://10.0.0.1/internal',
      'https://169.254.169.254/latest',
    ]) {
      const refused = await post(guarded, guardedAdminToken, issuer);
      expect(refused.statusCode, issuer).toBe(400);
      expect(refused.json(), issuer).toEqual({
        code: 'BAD_REQUEST',
        message: authMessages.SSO_DISCOVERY_FAILED,
      });
    }
    expect(local.requests).toEqual([]);
    const none = await guarded.app.inject({
      method: 'GET',
      url: '/api/v1/sso-oidc',
      headers: { authorization: `Bearer ${guardedAdminToken}` },
    });
    expect(none.json()).toEqual({ config: null });
  });

  it('follows no redirect from an allowed issuer to an address the allow-list does not name', async () => {
    local.clearLog();
    const port = new URL(local.url).port;
    const bounced = await post(server, adminToken, `http://127.0.0.1:${port}/bounce`);
    expect(bounced.statusCode).toBe(400);
    expect(local.requests.map((request) => request.path)).toEqual([
      '/bounce/.well-known/openid-configuration',
    ]);
    expect((await call('GET')).json()).toEqual({ config: null });
  });
});
