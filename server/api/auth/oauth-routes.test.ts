import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authMessages } from '../../../common/api/auth';
import { auth } from '../../../common/strings';
import { ssoSecretContext } from '../../auth/oauth-sign-in';
import { startOidcProvider, type TestOidcProvider } from '../../auth/testing/oidc-provider';
import { orgs, ssoConfigs, users } from '../../db/schema';
import { encryptSecret } from '../../db/secrets';
import { createOrg, createUser } from '../../testing/fixtures';
import { createTestServer, type TestServer } from '../../testing/server';

let idp: TestOidcProvider;
let server: TestServer;

beforeAll(async () => {
  idp = await startOidcProvider({ person: { email: 'sam@corp.test' } });
  server = await createTestServer({
    env: {
      GOOGLE_CLIENT_ID: idp.clientId,
      GOOGLE_CLIENT_SECRET: idp.clientSecret,
      GOOGLE_ISSUER_URL: idp.issuer,
      // The org's SSO issuer below is the same local provider, which the outbound guard refuses unless allowed.
      SCOUT_ALLOW_PRIVATE_HOSTS: '127.0.0.1',
    },
  });
  const corp = await createOrg(server.store.db, { domain: 'corp.test' });
  await createUser(server.store.db, corp, { email: 'sam@corp.test', status: 'INVITED' });
  await server.store.db.insert(ssoConfigs).values({
    orgId: corp.id,
    issuer: idp.issuer,
    clientId: idp.clientId,
    clientSecretEncrypted: encryptSecret(idp.clientSecret, ssoSecretContext(corp.id)),
    onPremUrl: 'https://scout.corp.test',
  });
  const other = await createOrg(server.store.db, { domain: 'other.test' });
  await createUser(server.store.db, other, { email: 'oli@other.test' });
});
afterAll(async () => {
  await server.close();
  await idp.close();
});

/** The browser's part: visit the provider's address (it approves at once) and come back to our callback. */
async function throughProvider(start: { url: string; cookie: string }) {
  const atProvider = await fetch(start.url, { redirect: 'manual' });
  expect(atProvider.status).toBe(302);
  const callback = new URL(atProvider.headers.get('location') ?? '');
  const back = await server.app.inject({
    method: 'GET',
    url: `${callback.pathname}${callback.search}`,
    headers: { cookie: start.cookie },
  });
  expect(back.statusCode).toBe(302);
  expect(String(back.headers['set-cookie'])).toContain('Max-Age=0');
  return new URL(String(back.headers.location), 'http://localhost:3000');
}

async function startSso(email: string, origin?: string) {
  const res = await server.app.inject({
    method: 'GET',
    url: '/api/v1/auth/sso',
    query: { sso: '1', email, ...(origin ? { origin } : {}) },
  });
  expect(res.statusCode).toBe(200);
  const cookie = String(res.headers['set-cookie']).split(';')[0] ?? '';
  expect(String(res.headers['set-cookie'])).toMatch(/HttpOnly; SameSite=Lax/);
  return { ...res.json<{ url: string; on_prem_url: string | null }>(), cookie };
}

const exchange = (grant: string) =>
  server.app.inject({ method: 'POST', url: '/api/v1/auth/grant', payload: { grant } });

describe('OIDC single sign-on', () => {
  it('signs a member in end to end: address, provider, callback, grant, tokens', async () => {
    idp.signInAs({ email: 'sam@corp.test' });
    const start = await startSso('sam@corp.test', 'http://localhost:3000/login?redirect=%2Fchat');
    expect(start.on_prem_url).toBe('https://scout.corp.test');
    const sent = new URL(start.url).searchParams;
    expect(sent.get('code_challenge_method')).toBe('S256');
    expect(sent.get('state')).toBeTruthy();
    expect(sent.get('nonce')).toBeTruthy();
    expect(sent.get('login_hint')).toBe('sam@corp.test');

    const landed = await throughProvider(start);
    expect(landed.pathname).toBe('/login');
    expect(landed.searchParams.get('redirect')).toBe('/chat');
    const grant = landed.searchParams.get('loginGrant') ?? '';

    const tokens = await exchange(grant);
    expect(tokens.statusCode).toBe(200);
    expect(tokens.json().username).toBe('sam@corp.test');
    const me = await server.app.inject({
      method: 'GET',
      url: '/api/v1/_fetchData/user',
      headers: { authorization: `Bearer ${tokens.json().id_token}` },
    });
    expect(me.statusCode).toBe(200);
    const [sam] = await server.store.db.select().from(users).where(eq(users.email, 'sam@corp.test'));
    expect(sam?.status).toBe('SIGNED_UP');

    // The grant works once; replaying it ends the session it started.
    expect((await exchange(grant)).statusCode).toBe(401);
    const after = await server.app.inject({
      method: 'GET',
      url: '/api/v1/_fetchData/user',
      headers: { authorization: `Bearer ${tokens.json().id_token}` },
    });
    expect(after.statusCode).toBe(401);
  });

  it('refuses an identity whose email belongs to another workspace', async () => {
    idp.signInAs({ email: 'oli@other.test' });
    const landed = await throughProvider(await startSso('sam@corp.test'));
    expect(landed.searchParams.get('loginGrant')).toBeNull();
    expect(landed.searchParams.get('unauthorized')).toBe('true');
    expect(landed.searchParams.get('message')).toBe(authMessages.SSO_EMAIL_MISMATCH);
  });

  it('refuses a person of the domain who is not a member', async () => {
    idp.signInAs({ email: 'stranger@corp.test' });
    const landed = await throughProvider(await startSso('stranger@corp.test'));
    expect(landed.searchParams.get('message')).toBe(auth.UNKNOWN_ACCOUNT);
  });

  it('refuses a callback from a browser that did not start the sign-in', async () => {
    idp.signInAs({ email: 'sam@corp.test' });
    const start = await startSso('sam@corp.test');
    const other = await startSso('sam@corp.test');
    const landed = await throughProvider({ url: start.url, cookie: other.cookie });
    expect(landed.searchParams.get('loginGrant')).toBeNull();
    expect(landed.searchParams.get('err')).toBe(authMessages.SIGN_IN_FAILED);
  });

  it('answers 501 for an org without SSO', async () => {
    const res = await server.app.inject({
      method: 'GET',
      url: '/api/v1/auth/sso?sso=1&email=oli@other.test',
    });
    expect(res.statusCode).toBe(501);
    expect(res.json()).toEqual({ code: 'NOT_IMPLEMENTED', message: auth.SSO_NOT_SUPPORTED });
  });
});

describe('Google sign-in', () => {
  async function startGoogle() {
    const res = await server.app.inject({ method: 'GET', url: '/api/v1/google/auth-url?origin=/chat' });
    expect(res.statusCode).toBe(200);
    return {
      url: res.json<{ url: string }>().url,
      cookie: String(res.headers['set-cookie']).split(';')[0] ?? '',
    };
  }

  it('signs a member in with a verified Google address', async () => {
    idp.signInAs({ email: 'oli@other.test' });
    const landed = await throughProvider(await startGoogle());
    expect(landed.searchParams.get('redirect')).toBe('/chat');
    const tokens = await exchange(landed.searchParams.get('loginGrant') ?? '');
    expect(tokens.json().username).toBe('oli@other.test');
  });

  it('refuses an unverified address, and members of an org that enforces SSO', async () => {
    idp.signInAs({ email: 'oli@other.test', emailVerified: false });
    expect((await throughProvider(await startGoogle())).searchParams.get('err')).toBe(
      auth.INVALID_CREDENTIALS,
    );

    await server.store.db.update(ssoConfigs).set({ enforced: true });
    try {
      idp.signInAs({ email: 'sam@corp.test' });
      expect((await throughProvider(await startGoogle())).searchParams.get('err')).toBe(auth.SSO_FORCED);
    } finally {
      await server.store.db.update(ssoConfigs).set({ enforced: false });
    }
  });

  it('answers google as the provider of an org that prefers it', async () => {
    const org = await createOrg(server.store.db, { domain: 'googly.test' });
    await server.store.db
      .update(orgs)
      .set({ preferences: { login_provider: 'google' } })
      .where(eq(orgs.id, org.id));
    const res = await server.app.inject({ method: 'GET', url: '/api/v1/auth/provider?email=a@googly.test' });
    expect(res.json()).toEqual({ provider: 'google', domain_exists: true });
  });

  it('answers 501 when this server has no Google sign-in', async () => {
    const plain = await createTestServer();
    try {
      const res = await plain.app.inject({ method: 'GET', url: '/api/v1/google/auth-url' });
      expect(res.statusCode).toBe(501);
      expect(res.json()).toEqual({ code: 'NOT_IMPLEMENTED', message: authMessages.GOOGLE_NOT_CONFIGURED });
    } finally {
      await plain.close();
    }
  });
});
