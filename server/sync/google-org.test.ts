// Org connections of Gmail and Google Calendar end to end: the Workspace admin installs through the marketplace
// payload, the real engine syncs every member's mailbox or calendars through the service account's delegated tokens
// (the fake token endpoint verifies the signed JWTs), and each member finds only what is theirs through `_search`.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ConnectionStatus, SYNC_WINDOW_MS } from '../../common/connection-status';
import { apps, google as googleStrings } from '../../common/strings';
import { CALENDAR_SCOPES, gcalConnector } from '../../connectors/gcal';
import { GMAIL_SCOPES, gmailConnector } from '../../connectors/gmail';
import { googleConfigSchema } from '../../connectors/google/api';
import { DIRECTORY_USERS_SCOPE } from '../../connectors/google/members';
import { defineConnector } from '../../connectors/sdk';
import { appConnections, documents, type Org, type User } from '../db/schema';
import { createOrg, createUser, loginTokensFor } from '../testing/fixtures';
import { titlesFound } from '../testing/search';
import { createTestServer, type TestServer } from '../testing/server';
import { syncNow } from './testing/connections';
import { startWorkspaceFake, type WorkspaceFake } from './testing/google-workspace';
import { registerConnector } from './registry';

let server: TestServer;
let workspace: WorkspaceFake;
let org: Org;
let bob: User;
let ada: User;
let grace: User;

beforeAll(async () => {
  workspace = await startWorkspaceFake({
    admin: 'bob@example.com',
    members: ['ada@example.com', 'grace@example.com'],
  });
  // The marketplace payload carries no address: the connections reach the fake by their schema's default.
  const atFake = googleConfigSchema.extend({ baseUrl: z.url().default(workspace.server.url) });
  registerConnector(defineConnector({ ...gmailConnector, configSchema: atFake }));
  registerConnector(defineConnector({ ...gcalConnector, configSchema: atFake }));
  vi.stubEnv('SCOUT_GOOGLE_SERVICE_ACCOUNT', JSON.stringify(workspace.account.key));
  server = await createTestServer();
  const { db } = server.store;
  org = await createOrg(db, { domain: 'example.com', plan: 'ENTERPRISE' });
  bob = await createUser(db, org, { email: 'bob@example.com', admin: true });
  ada = await createUser(db, org, { email: 'ada@example.com' });
  grace = await createUser(db, org, { email: 'grace@example.com' });
  const DAY = 24 * 60 * 60 * 1000;
  workspace.mailboxes.get('ada@example.com')!.addMessage({
    id: 'ada-1',
    threadId: 't-ada-plan',
    from: 'Charles Babbage <charles@example.org>',
    to: 'ada@example.com',
    subject: 'Analytical engine notes',
    date: new Date(Date.now() - 3 * DAY),
    text: 'The notes on the analytical engine for Ada only.',
  });
  workspace.mailboxes.get('grace@example.com')!.addMessage({
    id: 'grace-1',
    threadId: 't-grace-compiler',
    from: 'Howard Aiken <howard@example.org>',
    to: 'grace@example.com',
    subject: 'Compiler bug report',
    date: new Date(Date.now() - 2 * DAY),
    text: 'A moth in relay 70 for Grace only.',
  });
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await workspace.close();
  await server.close();
});

const install = async (user: User, app: string, email: string) =>
  server.app.inject({
    method: 'PUT',
    url: `/api/v1/app/install/${app}`,
    headers: { authorization: `Bearer ${(await loginTokensFor(server.ctx, user)).id_token}` },
    payload: { isOrg: true, credentials: {}, options: { email, marketplace: true } },
  });

async function indexedIds(connectionId: string): Promise<string[]> {
  const rows = await server.store.db
    .select({ externalId: documents.externalId })
    .from(documents)
    .where(and(eq(documents.orgId, org.id), eq(documents.connectionId, connectionId)));
  return rows.map((row) => row.externalId).sort();
}

/** What every member's own mailbox holds in the window, as the org connection should name it. */
function mailboxFixture(members: readonly string[]): string[] {
  const after = new Date(Date.now() - SYNC_WINDOW_MS);
  return members
    .flatMap((member) =>
      [...workspace.mailboxes.get(member)!.visibleThreads(after).keys()].map((id) => `${member}/${id}`),
    )
    .sort();
}

const search = (user: User, q: string) => titlesFound(server, user, q);

describe('a Gmail org connection through domain-wide delegation', () => {
  let connectionId: string;

  it('refuses an email outside the org’s domain, and an admin the delegation lacks a scope for', async () => {
    workspace.account.grant([DIRECTORY_USERS_SCOPE]);
    const elsewhere = await install(bob, 'gmail', 'bob@example.net');
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.json()).toMatchObject({ message: apps.marketplaceEmailDomain('example.com') });

    const ungranted = await install(bob, 'gmail', 'bob@example.com');
    expect(ungranted.statusCode).toBe(400);
    expect(ungranted.json()).toEqual({
      code: 'APP_PERMISSION_MISMATCH',
      message: apps.failedToInstall('Gmail', googleStrings.DELEGATION_REQUIRED),
    });
    expect(
      await server.store.db.select().from(appConnections).where(eq(appConnections.orgId, org.id)),
    ).toEqual([]);
  });

  it('refuses a Workspace account that is not its admin', async () => {
    workspace.account.grant([DIRECTORY_USERS_SCOPE, ...GMAIL_SCOPES, ...CALENDAR_SCOPES]);
    const res = await install(bob, 'gmail', 'ada@example.com');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'APP_PERMISSION_MISMATCH' });
  });

  it('syncs every member’s mailbox, each thread found by its owner alone', async () => {
    const res = await install(bob, 'gmail', 'bob@example.com');
    expect(res.statusCode, res.body).toBe(200);
    const [row] = await server.store.db.select().from(appConnections).where(eq(appConnections.orgId, org.id));
    expect(row).toMatchObject({ isOrg: true, email: 'bob@example.com', workspaceName: 'example.com' });
    connectionId = row!.id;

    expect(await syncNow(server.store.db, connectionId, 'full')).toMatchObject({ kind: 'complete' });
    expect(await indexedIds(connectionId)).toEqual(
      mailboxFixture(['ada@example.com', 'bob@example.com', 'grace@example.com']),
    );
    expect(new Set(workspace.account.issuedTo)).toEqual(
      new Set(['bob@example.com', 'ada@example.com', 'grace@example.com']),
    );
    expect(await search(ada, 'analytical engine')).toEqual(['Analytical engine notes']);
    expect(await search(grace, 'analytical engine')).toEqual([]);
    expect(await search(bob, 'analytical engine')).toEqual([]);
    expect(await search(grace, 'compiler bug')).toEqual(['Compiler bug report']);
    expect(await search(ada, 'compiler bug')).toEqual([]);
    // The same seeded thread sits in every mailbox: each member finds their own copy only.
    const [adaBudget] = await server.store.db
      .select({ acl: documents.acl })
      .from(documents)
      .where(
        and(eq(documents.connectionId, connectionId), eq(documents.externalId, 'ada@example.com/t-budget')),
      );
    expect(adaBudget?.acl).toEqual(['user:ada@example.com']);
  });

  it('follows each member’s history, and drops a suspended member’s mail when pruning', async () => {
    workspace.mailboxes.get('grace@example.com')!.addMessage({
      id: 'grace-2',
      threadId: 't-grace-cobol',
      from: 'Jean Sammet <jean@example.org>',
      to: 'grace@example.com',
      subject: 'COBOL committee minutes',
      date: new Date(),
      text: 'Minutes of the committee.',
    });
    expect(await syncNow(server.store.db, connectionId, 'incremental')).toMatchObject({ kind: 'complete' });
    expect(await search(grace, 'committee minutes')).toEqual(['COBOL committee minutes']);
    expect(await search(ada, 'committee minutes')).toEqual([]);

    const graceThreads = mailboxFixture(['grace@example.com']).length;
    workspace.suspend('grace@example.com');
    expect(await syncNow(server.store.db, connectionId, 'prune')).toEqual({
      kind: 'pruned',
      deleted: graceThreads,
    });
    expect(await indexedIds(connectionId)).toEqual(mailboxFixture(['ada@example.com', 'bob@example.com']));
    expect(await search(grace, 'compiler bug')).toEqual([]);
    const [row] = await server.store.db
      .select({ statusCode: appConnections.statusCode })
      .from(appConnections)
      .where(eq(appConnections.id, connectionId));
    expect(row?.statusCode).toBe(ConnectionStatus.IndexingComplete);
  });

  it('blocks an org connection of Google Calendar while Gmail has one (the gworkspace parent rule)', async () => {
    const res = await install(bob, 'gcal', 'bob@example.com');
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ message: apps.UNABLE_TO_ADD });
  });
});

describe('a Google Calendar org connection through domain-wide delegation', () => {
  it('syncs every member’s own calendars; a private event is its owner’s, a meeting its attendees’', async () => {
    const { db } = server.store;
    // The Gmail org connection above blocks Calendar's (the parent rule): it goes first.
    await db.delete(documents).where(eq(documents.orgId, org.id));
    await db.delete(appConnections).where(eq(appConnections.orgId, org.id));
    const res = await install(bob, 'gcal', 'bob@example.com');
    expect(res.statusCode, res.body).toBe(200);
    const [row] = await db.select().from(appConnections).where(eq(appConnections.orgId, org.id));
    expect(await syncNow(db, row!.id, 'full')).toMatchObject({ kind: 'complete' });

    const ids = await indexedIds(row!.id);
    // Grace is suspended (above): her calendars are not read.
    expect(ids.filter((id) => id.endsWith('/ev-dentist'))).toEqual([
      'ada@example.com/ada@example.com/ev-dentist',
      'bob@example.com/bob@example.com/ev-dentist',
    ]);
    expect(await search(ada, 'dentist')).toEqual(['Dentist']);
    expect(await search(bob, 'dentist')).toEqual(['Dentist']);
    expect(await search(grace, 'dentist')).toEqual([]);
    const [review] = await db
      .select({ acl: documents.acl })
      .from(documents)
      .where(
        and(
          eq(documents.connectionId, row!.id),
          eq(documents.externalId, 'ada@example.com/ada@example.com/ev-design-review'),
        ),
      );
    expect([...(review?.acl ?? [])].sort()).toEqual([
      'user:ada@example.com',
      'user:grace@example.com',
      'user:linus@example.com',
    ]);
  });
});
