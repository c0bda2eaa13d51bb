// Gmail end to end: the real engine syncs a member's fixture mailbox from the fake Gmail API on 127.0.0.1 into the
// in-memory store, and members search it through `_search`. It lives here, not beside the connector, because a
// connector may not import the server. The OAuth client points its token endpoint at the fake, so refreshes are real.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ConnectionStatus, SYNC_WINDOW_MS } from '../../common/connection-status';
import { defineConnector } from '../../connectors/sdk';
import { gmailConnector } from '../../connectors/gmail';
import { startGmailFake, type GmailFake } from '../../connectors/gmail/fake';
import { appConnections, documents, type Org, type User } from '../db/schema';
import { makeDocx, makePdf } from '../parsing/testing';
import { titlesFound } from '../testing/search';
import { insertConnection, syncNow } from './testing/connections';
import { createOrg, createUser, loginTokensFor } from '../testing/fixtures';
import { createTestServer, type TestServer } from '../testing/server';
import { decryptCredentials, encryptCredentials } from './connections';
import { type SyncMode } from './engine';
import { registerConnector } from './registry';

let server: TestServer;
let fake: GmailFake;
let org: Org;
let ada: User;
let grace: User;
let bob: User;

beforeAll(async () => {
  // Two-minute tokens, so a token refreshed at the start of a sync is due again within the engine's margin.
  fake = await startGmailFake({ pageSize: 2, tokenLifetimeSeconds: 120 });
  registerConnector(
    defineConnector({
      ...gmailConnector,
      oauth: { ...gmailConnector.oauth!, tokenUrl: `${fake.server.url}/token` },
    }),
  );
  vi.stubEnv('SCOUT_OAUTH_GMAIL_CLIENT_ID', 'gmail-client');
  vi.stubEnv('SCOUT_OAUTH_GMAIL_CLIENT_SECRET', 'gmail-secret');
  server = await createTestServer();
  const { db } = server.store;
  org = await createOrg(db, { domain: 'example.com' });
  ada = await createUser(db, org, { email: 'ada@example.com' });
  // Grace writes to Ada: being a correspondent does not let her read Ada's mailbox.
  grace = await createUser(db, org, { email: 'grace@example.com' });
  bob = await createUser(db, org, { email: 'bob@example.com', admin: true });
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await fake.close();
  await server.close();
});

async function connect(owner: User, isOrg: boolean, expiresInMs: number): Promise<string> {
  const { db } = server.store;
  return insertConnection(db, {
    orgId: org.id,
    userId: owner.id,
    appName: 'gmail',
    isOrg,
    config: { baseUrl: fake.server.url },
    credentials: {
      access_token: fake.accessToken(),
      refresh_token: fake.refreshToken,
      expires_at: new Date(Date.now() + expiresInMs).toISOString(),
    },
  });
}

const sync = (connectionId: string, mode: SyncMode, runId?: string) =>
  syncNow(server.store.db, connectionId, mode, { runId });

const connectionRow = async (id: string) =>
  (await server.store.db.select().from(appConnections).where(eq(appConnections.id, id)))[0]!;

/** externalId → title of what the connection has indexed. */
async function indexed(connectionId: string): Promise<Map<string, string>> {
  const rows = await server.store.db
    .select({ externalId: documents.externalId, title: documents.title })
    .from(documents)
    .where(and(eq(documents.orgId, org.id), eq(documents.connectionId, connectionId)));
  return new Map(rows.map((row) => [row.externalId, row.title]));
}

const fixture = () => fake.visibleThreads(new Date(Date.now() - SYNC_WINDOW_MS));

/** The titles a member finds for `q`. */
const search = (user: User, q: string) => titlesFound(server, user, q);

const threadListings = () =>
  fake.server.requests.filter((request) => request.path === '/gmail/v1/users/me/threads');
const tokenRequests = () => fake.server.requests.filter((request) => request.path === '/token');

describe('connecting Gmail', () => {
  it('offers Gmail and Google Calendar in the catalogue as apps a member can connect', async () => {
    const token = (await loginTokensFor(server.ctx, grace)).id_token;
    const res = await server.app.inject({
      method: 'GET',
      url: '/api/v1/_fetchData/apps',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    const apps = res.json<{ apps: { shortname: string; available: unknown }[] }>().apps;
    const available = new Map(apps.map((app) => [app.shortname, app.available]));
    const both = { org: true, individual: true };
    expect([available.get('gmail'), available.get('gcal')]).toEqual([both, both]);
  });

  it('sends a member’s popup to Google for offline, read-only mail access with PKCE', async () => {
    const token = (await loginTokensFor(server.ctx, grace)).id_token;
    const res = await server.app.inject({
      method: 'PUT',
      url: '/api/v1/oauth/gmail',
      headers: { authorization: `Bearer ${token}` },
      payload: { admin: false, options: {} },
    });
    expect(res.statusCode, res.body).toBe(200);
    const address = new URL(res.json<{ url: string }>().url);
    expect(address.origin + address.pathname).toBe('https://accounts.google.com/o/oauth2/v2/auth');
    expect(Object.fromEntries(address.searchParams)).toMatchObject({
      client_id: 'gmail-client',
      scope: 'https://www.googleapis.com/auth/gmail.readonly',
      access_type: 'offline',
      prompt: 'consent',
      response_type: 'code',
      code_challenge_method: 'S256',
    });
  });
});

describe('Gmail through the sync engine', () => {
  let connectionId: string;

  it('refreshes an expired token, syncs the mailbox, and only its owner finds her mail', async () => {
    fake.lapseAccessToken();
    connectionId = await connect(ada, false, -60_000);
    expect(await sync(connectionId, 'full')).toMatchObject({ kind: 'complete' });
    expect(tokenRequests()).toHaveLength(1);
    expect(decryptCredentials(await connectionRow(connectionId))).toMatchObject({
      access_token: fake.accessToken(),
    });
    const row = await connectionRow(connectionId);
    expect(row.statusCode).toBe(ConnectionStatus.IndexingComplete);
    expect(await indexed(connectionId)).toEqual(fixture());

    expect(await search(ada, 'budget')).toEqual(['Q3 budget review']);
    expect(await search(ada, 'observability')).toEqual(['Platform Weekly: observability edition']);
    for (const other of [grace, bob]) {
      expect(await search(other, 'budget')).toEqual([]);
      expect(await search(other, 'observability')).toEqual([]);
    }
  });

  it('applies a new reply, a deleted thread and a binned one on the next incremental sync', async () => {
    fake.addMessage({
      id: 'm40',
      threadId: 't-budget',
      from: 'Grace Hopper <grace@example.com>',
      to: 'ada@example.com',
      subject: 'Re: Q3 budget review',
      date: new Date(),
      text: 'The quartermaster signed off on the forecast.',
    });
    fake.deleteThread('t-newsletter');
    fake.trashThread('t-offsite');
    expect(await sync(connectionId, 'incremental')).toMatchObject({ kind: 'complete' });
    expect(await indexed(connectionId)).toEqual(fixture());
    expect([...(await indexed(connectionId)).keys()]).toEqual(['t-budget']);
    expect(await search(ada, 'quartermaster')).toEqual(['Q3 budget review']);
    expect(await search(ada, 'observability')).toEqual([]);
    expect(await search(ada, 'lighthouse')).toEqual([]);
    expect(await search(grace, 'quartermaster')).toEqual([]);
  });

  it('keeps mail private to the mailbox owner on an org connection too, even from the admin who made it', async () => {
    const orgConnection = await connect(bob, true, 3_600_000);
    expect(await sync(orgConnection, 'full')).toMatchObject({ kind: 'complete' });
    const [row] = await server.store.db
      .select({ acl: documents.acl })
      .from(documents)
      .where(and(eq(documents.connectionId, orgConnection), eq(documents.externalId, 't-budget')));
    expect(row?.acl).toEqual(['user:ada@example.com']);
    expect(await search(bob, 'quartermaster')).toEqual([]);
    expect(await search(grace, 'quartermaster')).toEqual([]);
    await server.store.db.delete(documents).where(eq(documents.connectionId, orgConnection));
    await server.store.db.delete(appConnections).where(eq(appConnections.id, orgConnection));
  });

  it('rides out a 429 storm: the run comes back later and the next one completes', async () => {
    const stormy = await connect(ada, false, 3_600_000);
    fake.server.clearLog();
    // The first listing page gets through; then every try of the next request is refused.
    fake.server.failNext(
      5,
      { kind: 'rateLimit', retryAfter: 0 },
      { path: '/gmail/v1/users/me/threads/t-budget' },
    );
    const runId = 'storm-run';
    const first = await sync(stormy, 'full', runId);
    expect(first.kind).toBe('later');
    expect((await connectionRow(stormy)).statusCode).toBe(ConnectionStatus.Connecting);
    expect(await sync(stormy, 'full', runId)).toMatchObject({ kind: 'complete' });
    expect(await indexed(stormy)).toEqual(fixture());
  });

  it('survives a token that lapses mid-sync: the retry refreshes it and resumes from the cursor', async () => {
    // A fresh mailbox for a full sync long enough to be cut: six more threads, two per page.
    for (let n = 0; n < 6; n += 1)
      fake.addMessage({
        id: `m-bulk-${n}`,
        threadId: `t-bulk-${n}`,
        from: 'Linus <linus@example.com>',
        to: 'ada@example.com',
        subject: `Standup notes ${n}`,
        date: new Date(Date.now() - (n + 1) * 86_400_000),
        text: `Standup ${n}: shipped the thing.`,
      });
    fake.lapseAccessToken();
    const resumable = await connect(ada, false, -60_000);
    const runId = 'lapse-run';
    fake.server.clearLog();
    // Profile, a listing and its two threads, the next listing and its two threads: then the token lapses.
    fake.lapseAccessTokenAfter(7);
    await expect(sync(resumable, 'full', runId)).rejects.toThrow(/lapsed mid-sync/);
    const afterCut = await connectionRow(resumable);
    expect(afterCut.statusCode).toBe(ConnectionStatus.Indexing);
    const committed = (await indexed(resumable)).size;
    expect(committed).toBeGreaterThan(0);
    expect(committed).toBeLessThan(fixture().size);

    fake.server.clearLog();
    expect(await sync(resumable, 'full', runId)).toMatchObject({ kind: 'complete' });
    expect(tokenRequests()).toHaveLength(1);
    // Resumed from the saved page token, not from the first page.
    expect(threadListings()[0]?.search).toContain('pageToken=');
    expect(await indexed(resumable)).toEqual(fixture());
  });

  it('prunes a thread deleted where history no longer reaches', async () => {
    expect(await sync(connectionId, 'incremental')).toMatchObject({ kind: 'complete' });
    expect((await indexed(connectionId)).has('t-bulk-5')).toBe(true);
    fake.expireHistory();
    fake.deleteThread('t-bulk-5');
    expect(await sync(connectionId, 'prune')).toEqual({ kind: 'pruned', deleted: 1 });
    expect(await indexed(connectionId)).toEqual(fixture());
  });

  it('asks for a reconnect when Google refuses the refresh token', async () => {
    const revoked = await connect(ada, false, -60_000);
    const credentials = {
      ...(decryptCredentials(await connectionRow(revoked)) as object),
      refresh_token: 'revoked',
    };
    await server.store.db
      .update(appConnections)
      .set({ credentialsEncrypted: encryptCredentials(revoked, credentials) })
      .where(eq(appConnections.id, revoked));
    expect(await sync(revoked, 'full')).toEqual({
      kind: 'stopped',
      statusCode: ConnectionStatus.ErrorReconnect,
    });
  });
});

describe('Gmail attachments', () => {
  it('finds the text of a PDF and a Word attachment for the mailbox owner alone, under each file’s name', async () => {
    fake.addMessage({
      id: 'm-flight',
      threadId: 't-flight',
      from: 'Grace Hopper <grace@example.com>',
      to: 'ada@example.com',
      subject: 'Flight review pack',
      date: new Date(),
      text: 'The pack is attached.',
      attachments: [
        {
          filename: 'review.pdf',
          mimeType: 'application/pdf',
          data: await makePdf([['Telemetry from the quasar probe', 'arrived on schedule.']]),
        },
        {
          filename: 'handbook.docx',
          mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
          data: await makeDocx(),
        },
        {
          filename: 'scan.pdf',
          mimeType: 'application/pdf',
          data: await makePdf([['An archive scan']]),
          size: 2 * 1024 * 1024 * 1024,
        },
        {
          filename: 'broken.pdf',
          mimeType: 'application/pdf',
          data: new TextEncoder().encode('%PDF-1.7\n1 0 obj << /Type /Catalog >> garbage, no xref'),
        },
      ],
    });
    const connectionId = await connect(ada, false, 3_600_000);
    fake.server.clearLog();
    expect(await sync(connectionId, 'full')).toMatchObject({ kind: 'complete' });

    expect(await search(ada, 'telemetry')).toEqual(['Flight review pack']);
    expect(await search(ada, 'laptop')).toEqual(['Flight review pack']);
    for (const other of [grace, bob]) {
      expect(await search(other, 'telemetry')).toEqual([]);
      expect(await search(other, 'laptop')).toEqual([]);
    }
    const [row] = await server.store.db
      .select({ body: documents.body })
      .from(documents)
      .where(and(eq(documents.connectionId, connectionId), eq(documents.externalId, 't-flight')));
    expect(row?.body).toContain('Attachment: review.pdf\n\nTelemetry from the quasar probe');
    // The attachment over the size limit is never fetched, and the one that will not parse adds no text.
    const fetched = fake.server.requests
      .filter((request) => request.path.startsWith('/gmail/v1/users/me/messages/m-flight/attachments/'))
      .map((request) => request.path.split('/').at(-1))
      .sort();
    expect(fetched).toEqual(['m-flight-att-0', 'm-flight-att-1', 'm-flight-att-3']);
    expect(row?.body).not.toContain('Attachment: scan.pdf');
    expect(row?.body).not.toContain('Attachment: broken.pdf');
    expect(row?.body).toContain('Attachments: review.pdf, handbook.docx, scan.pdf, broken.pdf');
  });
});
