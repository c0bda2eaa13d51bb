// OAuth token refresh before a sync, through the real engine against a fake vendor (token endpoint and API) on
// 127.0.0.1: refreshed when expired or about to expire, stored encrypted, and a refusal asks for a reconnect.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ConnectionStatus } from '../../common/connection-status';
import { CREDENTIAL_NAMES } from '../../common/strings';
import { defineConnector, silentLogger } from '../../connectors/sdk';
import { startFakeServer, type FakeServer } from '../../connectors/sdk/fake-server';
import { appConnections, type Org, type User } from '../db/schema';
import { MEMORY_DATA_DIR, openStore, type Store } from '../db/store';
import { insertConnection } from './testing/connections';
import { createOrg, createUser } from '../testing/fixtures';
import { decryptCredentials } from './connections';
import { runSync } from './engine';
import { REFRESH_BEFORE_EXPIRY_MS } from './oauth-tokens';
import { registerConnector } from './registry';

const CLIENT_ID = 'scout-client';
const CLIENT_SECRET = 'scout-secret';

/** The vendor: a token endpoint that rotates refresh tokens, and an API that takes only the latest access token. */
interface Vendor {
  server: FakeServer;
  accessToken: string;
  refreshToken: string;
  /** What the token endpoint answers next instead of a grant, if anything. */
  failure: { status: number; json: unknown } | null;
  /** Whether a refresh issues a new refresh token. */
  rotate: boolean;
  /** Answers as Slack's oauth.v2.access does: `ok`, `token_type: 'bot'`, and here a null refresh token. */
  slack: boolean;
  issued: number;
}

let vendor: Vendor;
let store: Store;
let org: Org;
let owner: User;

async function startVendor(): Promise<Vendor> {
  const server = await startFakeServer();
  const state: Vendor = {
    server,
    accessToken: 'access-0',
    refreshToken: 'refresh-0',
    failure: null,
    rotate: true,
    slack: false,
    issued: 0,
  };
  server.route('POST', '/oauth/token', ({ body }) => {
    if (state.failure) return state.failure;
    const form = new URLSearchParams(body);
    if (
      form.get('grant_type') !== 'refresh_token' ||
      form.get('client_id') !== CLIENT_ID ||
      form.get('client_secret') !== CLIENT_SECRET ||
      form.get('refresh_token') !== state.refreshToken
    )
      return { status: 400, json: { error: 'invalid_grant' } };
    state.issued += 1;
    state.accessToken = `access-${state.issued}`;
    if (state.slack)
      return {
        json: {
          ok: true,
          access_token: state.accessToken,
          token_type: 'bot',
          refresh_token: null,
          expires_in: 43_200,
          scope: 'channels:history',
        },
      };
    if (state.rotate) state.refreshToken = `refresh-${state.issued}`;
    return {
      json: {
        access_token: state.accessToken,
        ...(state.rotate ? { refresh_token: state.refreshToken } : {}),
        token_type: 'Bearer',
        expires_in: 3600,
      },
    };
  });
  server.route('GET', '/api/tasks', ({ headers }) =>
    headers.authorization === `Bearer ${state.accessToken}`
      ? { json: { tasks: [{ id: 't1', name: 'Ship the release' }] } }
      : { status: 401, json: { error: 'invalid_token' } },
  );
  return state;
}

beforeAll(async () => {
  vendor = await startVendor();
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
        authorizeUrl: `${vendor.server.url}/oauth/authorize`,
        tokenUrl: `${vendor.server.url}/oauth/token`,
        scopes: ['tasks:read'],
        pkce: true,
      },
      validate: async () => ({}),
      async *fullSync(ctx) {
        const page = await ctx.http
          .with({
            baseUrl: vendor.server.url,
            headers: { authorization: `Bearer ${ctx.credentials.access_token}` },
          })
          .json('/api/tasks', z.object({ tasks: z.array(z.object({ id: z.string(), name: z.string() })) }));
        yield {
          documents: page.tasks.map((task) => ({
            externalId: task.id,
            title: task.name,
            url: `https://app.asana.example/${task.id}`,
            body: task.name,
            author: {},
            objectType: 'Tasks' as const,
            fileType: 'task',
            createdTime: new Date(),
            modifiedTime: new Date(),
            acl: ['org' as const],
            extra: {},
          })),
          cursor: null,
        };
      },
      async *incrementalSync() {},
      async *listIds() {},
    }),
  );
  vi.stubEnv('SCOUT_OAUTH_ASANA_CLIENT_ID', CLIENT_ID);
  vi.stubEnv('SCOUT_OAUTH_ASANA_CLIENT_SECRET', CLIENT_SECRET);
  store = await openStore({ databaseUrl: null, dataDir: MEMORY_DATA_DIR });
  org = await createOrg(store.db, { domain: 'oauth-refresh.test' });
  owner = await createUser(store.db, org, { email: 'owner@oauth-refresh.test', admin: true });
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await vendor.server.close();
  await store.close();
});
beforeEach(() => {
  vendor.failure = null;
  vendor.rotate = true;
  vendor.slack = false;
  vendor.server.clearLog();
});

/** A connection holding the vendor's current tokens, said to expire `expiresInMs` from now. */
async function connect(expiresInMs: number) {
  return insertConnection(store.db, {
    orgId: org.id,
    userId: owner.id,
    appName: 'asana',
    isOrg: true,
    config: {},
    credentials: {
      access_token: vendor.accessToken,
      refresh_token: vendor.refreshToken,
      expires_at: new Date(Date.now() + expiresInMs).toISOString(),
    },
  });
}

const sync = (connectionId: string) =>
  runSync(store.db, {
    connectionId,
    mode: 'full',
    runId: `run-${Math.random()}`,
    logger: silentLogger,
    signal: new AbortController().signal,
  });

const connectionRow = async (id: string) =>
  (await store.db.select().from(appConnections).where(eq(appConnections.id, id)))[0]!;

const tokenRequests = () => vendor.server.requests.filter((request) => request.path === '/oauth/token');

describe('OAuth token refresh before a sync', () => {
  it('refreshes an expired access token, stores the new pair encrypted and syncs with it', async () => {
    const id = await connect(-60_000);
    expect(await sync(id)).toMatchObject({ kind: 'complete', batches: 1 });
    expect(tokenRequests()).toHaveLength(1);
    const row = await connectionRow(id);
    expect(row.statusCode).toBe(ConnectionStatus.IndexingComplete);
    expect(row.credentialsEncrypted).not.toContain(vendor.accessToken);
    const stored = decryptCredentials(row) as Record<string, string>;
    expect(stored).toMatchObject({ access_token: vendor.accessToken, refresh_token: vendor.refreshToken });
    expect(new Date(stored.expires_at!).getTime()).toBeGreaterThan(Date.now() + 3_000_000);

    // Now fresh: the next sync goes straight to the API.
    vendor.server.clearLog();
    expect(await sync(id)).toMatchObject({ kind: 'complete' });
    expect(tokenRequests()).toHaveLength(0);
  });

  it('refreshes a token about to expire, keeping the refresh token a vendor does not rotate', async () => {
    vendor.rotate = false;
    const id = await connect(REFRESH_BEFORE_EXPIRY_MS / 2);
    const refreshToken = vendor.refreshToken;
    expect(await sync(id)).toMatchObject({ kind: 'complete' });
    expect(tokenRequests()).toHaveLength(1);
    expect(decryptCredentials(await connectionRow(id))).toMatchObject({
      access_token: vendor.accessToken,
      refresh_token: refreshToken,
    });
  });

  it('asks for a reconnect when the vendor refuses the refresh token', async () => {
    const id = await connect(-60_000);
    const before = (await connectionRow(id)).credentialsEncrypted;
    vendor.failure = { status: 400, json: { error: 'invalid_grant', error_description: 'revoked' } };
    expect(await sync(id)).toEqual({ kind: 'stopped', statusCode: ConnectionStatus.ErrorReconnect });
    const row = await connectionRow(id);
    expect(row).toMatchObject({
      statusCode: ConnectionStatus.ErrorReconnect,
      statusMessage: 'Incorrect access token. Please try again.',
    });
    expect(row.credentialsEncrypted).toBe(before);
    expect(vendor.server.requests.filter((request) => request.path === '/api/tasks')).toHaveLength(0);
  });

  it("takes Slack's token answers: a bot token type, a refusal said with HTTP 200, a null refresh token", async () => {
    vendor.slack = true;
    const id = await connect(-60_000);
    const refreshToken = vendor.refreshToken;
    expect(await sync(id)).toMatchObject({ kind: 'complete' });
    expect(decryptCredentials(await connectionRow(id))).toMatchObject({
      access_token: vendor.accessToken,
      refresh_token: refreshToken,
    });

    vendor.failure = { status: 200, json: { ok: false, error: 'invalid_refresh_token' } };
    const refused = await connect(-60_000);
    expect(await sync(refused)).toEqual({ kind: 'stopped', statusCode: ConnectionStatus.ErrorReconnect });
  });

  it('leaves the connection as it is for a retry when the token endpoint is down', async () => {
    const id = await connect(-60_000);
    const before = (await connectionRow(id)).credentialsEncrypted;
    vendor.failure = { status: 503, json: { error: 'temporarily_unavailable' } };
    await expect(sync(id)).rejects.toThrow('the token refresh failed');
    const row = await connectionRow(id);
    expect(row.statusCode).toBe(ConnectionStatus.Connecting);
    expect(row.credentialsEncrypted).toBe(before);
  });
});
