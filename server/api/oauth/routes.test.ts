import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { oauthResultSchema, type OAuthResult } from '../../../common/api/oauth';
import { ConnectionStatus } from '../../../common/connection-status';
import { apps, auth, CREDENTIAL_NAMES } from '../../../common/strings';
import { defineConnector } from '../../../connectors/sdk';
import { startFakeServer, type FakeServer } from '../../../connectors/sdk/fake-server';
import { appConnections, appOauthStates, type User } from '../../db/schema';
import { decryptCredentials } from '../../sync/connections';
import { registerConnector } from '../../sync/registry';
import { createOrg, createUser, loginTokensFor } from '../../testing/fixtures';
import { createTestServer, type TestServer } from '../../testing/server';

const CLIENT_ID = 'scout-client';
const CLIENT_SECRET = 'scout-secret';

/** A vendor's OAuth server: authorization codes bound to the client, redirect URI and PKCE challenge. */
function fakeOAuthServer(): Promise<FakeServer> {
  const codes = new Map<string, { challenge: string; redirectUri: string; used: boolean }>();
  let issued = 0;
  return startFakeServer({
    routes: [
      {
        method: 'GET',
        path: '/oauth/authorize',
        handler: ({ query }) => {
          const redirectUri = query.get('redirect_uri') ?? '';
          const target = new URL(redirectUri);
          target.searchParams.set('state', query.get('state') ?? '');
          if (query.get('scope') !== 'tasks:read users:read') {
            target.searchParams.set('error', 'invalid_scope');
            return { status: 302, headers: { location: target.href } };
          }
          if (
            query.get('client_id') !== CLIENT_ID ||
            query.get('response_type') !== 'code' ||
            query.get('code_challenge_method') !== 'S256'
          )
            return { status: 400, json: { error: 'invalid_request' } };
          if (query.get('prompt') === 'deny') {
            target.searchParams.set('error', 'access_denied');
            return { status: 302, headers: { location: target.href } };
          }
          const code = `code-${++issued}`;
          codes.set(code, { challenge: query.get('code_challenge') ?? '', redirectUri, used: false });
          target.searchParams.set('code', code);
          return { status: 302, headers: { location: target.href } };
        },
      },
      {
        method: 'POST',
        path: '/oauth/token',
        handler: ({ body }) => {
          const form = new URLSearchParams(body);
          const grant = codes.get(form.get('code') ?? '');
          const verifier = form.get('code_verifier') ?? '';
          const ok =
            form.get('grant_type') === 'authorization_code' &&
            form.get('client_id') === CLIENT_ID &&
            form.get('client_secret') === CLIENT_SECRET &&
            grant !== undefined &&
            !grant.used &&
            grant.redirectUri === form.get('redirect_uri') &&
            createHash('sha256').update(verifier).digest('base64url') === grant.challenge;
          if (!ok) return { status: 400, json: { error: 'invalid_grant' } };
          grant.used = true;
          return {
            json: {
              access_token: 'vendor-access-token',
              refresh_token: 'vendor-refresh-token',
              token_type: 'Bearer',
              expires_in: 3600,
              scope: 'tasks:read users:read',
            },
          };
        },
      },
      {
        method: 'GET',
        path: '/api/me',
        handler: ({ headers }) =>
          headers.authorization === 'Bearer vendor-access-token'
            ? { json: { email: 'Owner@Vendor.test', workspace: 'Acme tasks' } }
            : { status: 401, json: { error: 'unauthorized' } },
      },
    ],
  });
}

let server: TestServer;
let base: string;
let vendor: FakeServer;
let admin: User;
let member: User;

beforeAll(async () => {
  vendor = await fakeOAuthServer();
  registerConnector(
    defineConnector({
      shortname: 'asana',
      installPayload: 'oauth',
      credentialsSchema: z.object({
        access_token: z.string(),
        refresh_token: z.string(),
        expires_at: z.iso.datetime(),
      }),
      configSchema: z.object({}),
      credentialFields: [],
      credentialName: CREDENTIAL_NAMES.accessToken,
      oauth: {
        authorizeUrl: `${vendor.url}/oauth/authorize`,
        tokenUrl: `${vendor.url}/oauth/token`,
        scopes: ['tasks:read', 'users:read'],
        pkce: true,
      },
      async validate(ctx) {
        const me = await ctx.http
          .with({ baseUrl: vendor.url, headers: { authorization: `Bearer ${ctx.credentials.access_token}` } })
          .json('/api/me', z.object({ email: z.email(), workspace: z.string() }));
        return { email: me.email.toLowerCase(), workspaceName: me.workspace };
      },
      async *fullSync() {},
      async *incrementalSync() {},
      async *listIds() {},
    }),
  );
  // Declares OAuth, but no client is configured for it on this server.
  registerConnector(
    defineConnector({
      shortname: 'trello',
      installPayload: 'oauth',
      credentialsSchema: z.object({ access_token: z.string() }),
      configSchema: z.object({}),
      credentialFields: [],
      credentialName: CREDENTIAL_NAMES.accessToken,
      oauth: { authorizeUrl: `${vendor.url}/x`, tokenUrl: `${vendor.url}/y`, scopes: [], pkce: true },
      async validate() {
        return {};
      },
      async *fullSync() {},
      async *incrementalSync() {},
      async *listIds() {},
    }),
  );
  vi.stubEnv('SCOUT_OAUTH_ASANA_CLIENT_ID', CLIENT_ID);
  vi.stubEnv('SCOUT_OAUTH_ASANA_CLIENT_SECRET', CLIENT_SECRET);
  server = await createTestServer();
  base = await server.app.listen({ port: 0, host: '127.0.0.1' });
  const org = await createOrg(server.store.db, { domain: 'oauth.test', plan: 'ENTERPRISE' });
  admin = await createUser(server.store.db, org, { email: 'admin@oauth.test', admin: true });
  member = await createUser(server.store.db, org, { email: 'member@oauth.test' });
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await server.close();
  await vendor.close();
});

async function start(user: User, app: string, body: Record<string, unknown>) {
  const res = await fetch(`${base}/api/v1/oauth/${app}`, {
    method: 'PUT',
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

/** What the popup does: follow the provider's redirect back to Scout, and read what the page posts. */
async function popup(
  url: string,
  cookie: string,
): Promise<{ result: OAuthResult; callback: string; html: string }> {
  const authorize = await fetch(url, { redirect: 'manual' });
  expect(authorize.status).toBe(302);
  const location = new URL(authorize.headers.get('location') ?? '');
  expect(location.pathname).toBe('/api/v1/oauth/callback');
  const callback = `${base}${location.pathname}${location.search}`;
  return { callback, ...(await land(callback, cookie)) };
}

async function land(callback: string, cookie: string): Promise<{ result: OAuthResult; html: string }> {
  const res = await fetch(callback, { headers: cookie ? { cookie } : {} });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/html');
  const nonce = /script-src 'nonce-([^']+)'/.exec(res.headers.get('content-security-policy') ?? '')?.[1];
  const html = await res.text();
  expect(html).toContain(`<script nonce="${nonce}">`);
  expect(html).toContain('window.opener.postMessage(result, "http://localhost:3000")');
  const json = /const result = (.*);\n/.exec(html)?.[1];
  return { result: oauthResultSchema.parse(JSON.parse(json ?? 'null')), html };
}

const connectionsOf = (app: string) =>
  server.store.db.select().from(appConnections).where(eq(appConnections.appName, app));

describe('app OAuth connect', () => {
  it('connects through the popup: code exchanged with PKCE, tokens encrypted, connection created once', async () => {
    const started = await start(admin, 'asana', { admin: true });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const address = new URL(started.body.url);
    expect(address.origin + address.pathname).toBe(`${vendor.url}/oauth/authorize`);
    expect(address.searchParams.get('redirect_uri')).toBe('http://localhost:3000/api/v1/oauth/callback');
    expect(started.cookie).toMatch(/^scout_app_oauth=/);

    const { result, callback } = await popup(started.body.url, started.cookie);
    expect(result).toMatchObject({ type: 'scout-oauth-result', app: 'asana', success: true });
    const [row, ...more] = await connectionsOf('asana');
    expect(more).toHaveLength(0);
    expect(row).toMatchObject({
      id: result.connectionId,
      isOrg: true,
      userId: admin.id,
      email: 'owner@vendor.test',
      workspaceName: 'Acme tasks',
      statusCode: ConnectionStatus.Connecting,
    });
    expect(row!.credentialsEncrypted).not.toContain('vendor-access-token');
    expect(decryptCredentials(row!)).toMatchObject({
      access_token: 'vendor-access-token',
      refresh_token: 'vendor-refresh-token',
    });
    const tokenRequest = vendor.requests.find((r) => r.path === '/oauth/token');
    expect(new URLSearchParams(tokenRequest?.body).get('code_verifier')).toMatch(/^[\w-]{43,}$/);

    // The state is one-time: replaying the callback connects nothing more.
    const replay = await land(callback, started.cookie);
    expect(replay.result).toMatchObject({ success: false, message: auth.APP_AUTH_FAILED });
    expect(await connectionsOf('asana')).toHaveLength(1);
  });

  it('refuses a callback in a browser that did not start the flow', async () => {
    const started = await start(member, 'asana', { admin: false });
    expect(started.status).toBe(200);
    const { result } = await popup(started.body.url, 'scout_app_oauth=someone-elses');
    expect(result).toMatchObject({ success: false, message: auth.APP_AUTH_FAILED });
    expect((await connectionsOf('asana')).filter((row) => row.userId === member.id)).toHaveLength(0);
  });

  it('posts the failure when the vendor denies access', async () => {
    const started = await start(member, 'asana', {});
    const denied = new URL(started.body.url);
    denied.searchParams.set('prompt', 'deny');
    const { result } = await popup(denied.href, started.cookie);
    expect(result).toEqual({
      type: 'scout-oauth-result',
      app: 'asana',
      success: false,
      message: apps.oauthInstallFailed('Asana'),
    });
    expect(await server.store.db.select().from(appOauthStates)).toHaveLength(1);
  });

  it('applies the install rules before sending anyone to the vendor', async () => {
    const byMember = await start(member, 'asana', { admin: true });
    expect(byMember).toMatchObject({ status: 403, body: { code: 'ADMIN_REQUIRED' } });
    const unconfigured = await start(admin, 'trello', { admin: true });
    expect(unconfigured).toMatchObject({ status: 400, body: { message: apps.oauthInstallFailed('Trello') } });
    const noOAuth = await start(admin, 'zendesk', { admin: true });
    expect(noOAuth).toMatchObject({ status: 400, body: { code: 'NOT_IMPLEMENTED' } });
    const unknown = await start(admin, 'no-such-app', {});
    expect(unknown.status).toBe(404);
  });

  it('sends only an individual Gmail connection to Google: the org connection is a marketplace install', async () => {
    vi.stubEnv('SCOUT_OAUTH_GMAIL_CLIENT_ID', 'gmail-client');
    vi.stubEnv('SCOUT_OAUTH_GMAIL_CLIENT_SECRET', 'gmail-secret');
    const org = await start(admin, 'gmail', { admin: true, options: {} });
    expect(org).toMatchObject({ status: 400, body: { code: 'NOT_IMPLEMENTED' } });
    const individual = await start(member, 'gmail', { admin: false, options: {} });
    expect(individual.status).toBe(200);
    expect(new URL(individual.body.url).origin).toBe('https://accounts.google.com');
  });
});
