// The Microsoft admin-consent popup of an org connection, walked against the fake tenant's consent page: the state
// binds the browser and the admin, the callback records the consented tenant's id, and the install that follows
// takes app-only tokens for that tenant.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { oauthResultSchema, type OAuthResult } from '../../../common/api/oauth';
import { apps, auth, microsoft } from '../../../common/strings';
import { sharepointConnector } from '../../../connectors/sharepoint';
import {
  CLIENT_ID,
  CLIENT_SECRET,
  TENANT_ID,
  startGraphTenantFake,
  type GraphTenantFake,
} from '../../../connectors/sharepoint/fake';
import { appConnections, appOauthStates, type User } from '../../db/schema';
import { decryptCredentials } from '../../sync/connections';
import { getConnector, registerConnector } from '../../sync/registry';
import { createOrg, createUser, loginTokensFor } from '../../testing/fixtures';
import { createTestServer, type TestServer } from '../../testing/server';

const DOMAIN = 'consent.test';
const CALLBACK = 'http://localhost:3000/api/v1/oauth/admin-consent/callback';

let server: TestServer;
let base: string;
let tenant: GraphTenantFake;
let admin: User;
let member: User;

beforeAll(async () => {
  vi.stubEnv('SCOUT_OAUTH_SHAREPOINT_CLIENT_ID', CLIENT_ID);
  vi.stubEnv('SCOUT_OAUTH_SHAREPOINT_CLIENT_SECRET', CLIENT_SECRET);
  tenant = await startGraphTenantFake({ tenant: DOMAIN });
  // Connections reach the fake tenant, whatever they stored, as in dev mode (server/dev/fake-vendors.ts).
  registerConnector({
    ...sharepointConnector,
    configSchema: z.preprocess(
      (stored) => ({ ...(typeof stored === 'object' && stored !== null ? stored : {}), ...tenant.config }),
      sharepointConnector.configSchema,
    ),
  });
  server = await createTestServer();
  base = await server.app.listen({ port: 0, host: '127.0.0.1' });
  const org = await createOrg(server.store.db, { domain: DOMAIN, plan: 'ENTERPRISE' });
  admin = await createUser(server.store.db, org, { email: `admin@${DOMAIN}`, admin: true });
  member = await createUser(server.store.db, org, { email: `member@${DOMAIN}` });
});
afterAll(async () => {
  registerConnector(sharepointConnector);
  vi.unstubAllEnvs();
  await server.close();
  await tenant.close();
});

async function call(user: User, method: string, path: string, body: unknown) {
  const res = await fetch(`${base}/api/v1/${path}`, {
    method,
    headers: {
      authorization: `Bearer ${(await loginTokensFor(server.ctx, user)).id_token}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify(body),
  });
  return {
    status: res.status,
    body: (await res.json()) as { url: string; code?: string; message?: string },
    cookie: res.headers.get('set-cookie')?.split(';')[0] ?? '',
  };
}

const startConsent = (user: User, app: string, email: string) =>
  call(user, 'PUT', `oauth/${app}/admin-consent`, { email });

const install = (user: User, options: Record<string, unknown>) =>
  call(user, 'PUT', 'app/install/sharepoint', { isOrg: true, credentials: {}, options });

/** What the admin does in the popup: open the consent page, press Allow (or Deny), land on Scout's callback. */
async function consent(url: string, decision: 'allow' | 'deny'): Promise<string> {
  const page = await fetch(url);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('<button type="submit" name="decision" value="allow">Allow</button>');
  const address = new URL(url);
  const answer = await fetch(`${address.origin}${address.pathname}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      decision,
      redirect_uri: address.searchParams.get('redirect_uri') ?? '',
      state: address.searchParams.get('state') ?? '',
    }).toString(),
    redirect: 'manual',
  });
  expect(answer.status).toBe(302);
  const location = new URL(answer.headers.get('location') ?? '');
  expect(location.origin + location.pathname).toBe(CALLBACK);
  return `${base}${location.pathname}${location.search}`;
}

/** The callback page's posted result, and that it posts to Scout's origin only. */
async function land(callback: string, cookie: string): Promise<OAuthResult> {
  const res = await fetch(callback, { headers: cookie ? { cookie } : {} });
  expect(res.status).toBe(200);
  expect(res.headers.get('set-cookie')).toMatch(/^scout_app_oauth=;/);
  const html = await res.text();
  expect(html).toContain('window.opener.postMessage(result, "http://localhost:3000")');
  return oauthResultSchema.parse(JSON.parse(/const result = (.*);\n/.exec(html)?.[1] ?? 'null'));
}

const grantedConsents = async () =>
  (await server.store.db.select().from(appOauthStates)).filter(
    (row) => (row.options as { adminConsent?: string }).adminConsent === 'granted',
  );

const tokenTenants = () =>
  tenant.login.requests
    .filter((request) => request.path.endsWith('/oauth2/v2.0/token'))
    .map((request) => request.path.split('/')[1]);

describe('the Microsoft admin-consent popup', () => {
  it('sends the admin to the tenant admin-consent page, records the consented tenant and installs with it', async () => {
    tenant.revokeConsent();
    const started = await startConsent(admin, 'sharepoint', `admin@${DOMAIN}`);
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const url = new URL(started.body.url);
    expect(url.origin + url.pathname).toBe(`${tenant.config.loginUrl}/${DOMAIN}/adminconsent`);
    expect(url.searchParams.get('client_id')).toBe(CLIENT_ID);
    expect(url.searchParams.get('redirect_uri')).toBe(CALLBACK);
    expect(started.cookie).toBe(`scout_app_oauth=${url.searchParams.get('state')}`);

    const callback = await consent(started.body.url, 'allow');
    expect(new URL(callback).searchParams.get('tenant')).toBe(TENANT_ID);
    expect(await land(callback, started.cookie)).toEqual({
      type: 'scout-oauth-result',
      app: 'sharepoint',
      success: true,
    });
    expect(await grantedConsents()).toHaveLength(1);
    // The state is one-time: replaying the callback records nothing more.
    expect(await land(callback, started.cookie)).toMatchObject({
      success: false,
      message: auth.APP_AUTH_FAILED,
    });
    expect(await grantedConsents()).toHaveLength(1);

    // A tenant the client names is not taken: only the consent's.
    const installed = await install(admin, { email: `admin@${DOMAIN}`, marketplace: true, tenant: 'other' });
    expect(installed.status, JSON.stringify(installed.body)).toBe(200);
    const [row] = await server.store.db
      .select()
      .from(appConnections)
      .where(eq(appConnections.appName, 'sharepoint'));
    expect(decryptCredentials(row!)).toEqual({
      email: `admin@${DOMAIN}`,
      marketplace: true,
      tenant: TENANT_ID,
    });
    expect(tokenTenants()).toEqual([TENANT_ID]);
    // One install spends the consent.
    expect(await grantedConsents()).toHaveLength(0);
    await server.store.db.delete(appConnections).where(eq(appConnections.id, row!.id));
  });

  it('answers the admin-consent failure when the admin declines, and records nothing', async () => {
    const started = await startConsent(admin, 'sharepoint', `Admin@${DOMAIN.toUpperCase()}`);
    expect(started.status).toBe(200);
    const result = await land(await consent(started.body.url, 'deny'), started.cookie);
    expect(result).toEqual({
      type: 'scout-oauth-result',
      app: 'sharepoint',
      success: false,
      message: microsoft.ADMIN_CONSENT_REQUIRED,
    });
    expect(await grantedConsents()).toHaveLength(0);
  });

  it('refuses a callback in a browser that did not start the consent, or with a state of the OAuth flow', async () => {
    const started = await startConsent(admin, 'sharepoint', `admin@${DOMAIN}`);
    const callback = await consent(started.body.url, 'allow');
    expect(await land(callback, 'scout_app_oauth=someone-elses')).toMatchObject({
      success: false,
      message: auth.APP_AUTH_FAILED,
    });
    expect(await land(callback, '')).toMatchObject({ success: false, message: auth.APP_AUTH_FAILED });
    // An OAuth connect's state and cookie do not stand for a consent.
    vi.stubEnv('SCOUT_OAUTH_SLACK_CLIENT_ID', 'slack-client');
    vi.stubEnv('SCOUT_OAUTH_SLACK_CLIENT_SECRET', 'slack-secret');
    const oauth = await call(admin, 'PUT', 'oauth/slack', { admin: true });
    expect(oauth.status, JSON.stringify(oauth.body)).toBe(200);
    const state = new URL(oauth.body.url).searchParams.get('state') ?? '';
    const forged = `${base}/api/v1/oauth/admin-consent/callback?admin_consent=True&tenant=${TENANT_ID}&state=${state}`;
    expect(await land(forged, oauth.cookie)).toMatchObject({ success: false, message: auth.APP_AUTH_FAILED });
    expect(await grantedConsents()).toHaveLength(0);
  });

  it('applies the org-connect rules before sending anyone to Microsoft', async () => {
    expect(await startConsent(member, 'sharepoint', `member@${DOMAIN}`)).toMatchObject({
      status: 403,
      body: { code: 'ADMIN_REQUIRED' },
    });
    expect(await startConsent(admin, 'sharepoint', 'admin@elsewhere.test')).toMatchObject({
      status: 400,
      body: { message: apps.marketplaceEmailDomain(DOMAIN) },
    });
    // Google's org connections have no consent redirect, and OAuth apps have their own popup.
    expect(getConnector('gmail')).toBeDefined();
    expect(await startConsent(admin, 'gmail', `admin@${DOMAIN}`)).toMatchObject({
      status: 400,
      body: { code: 'NOT_IMPLEMENTED' },
    });
    expect(await startConsent(admin, 'slack', `admin@${DOMAIN}`)).toMatchObject({
      status: 400,
      body: { code: 'NOT_IMPLEMENTED' },
    });
    expect((await startConsent(admin, 'no-such-app', `admin@${DOMAIN}`)).status).toBe(404);
    expect((await startConsent(admin, 'sharepoint', 'not an email')).status).toBe(400);
  });
});
