// Teams end to end: the real sync engine and store, the Teams connector and its fake Graph (with the identity
// platform's token endpoint) on 127.0.0.1, checked as members see it through `_search`.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTeamsConnector } from '../../connectors/msteams';
import {
  CHANNELS,
  CHATS,
  SEEDED_CHATS,
  PEOPLE,
  SEEDED_THREADS,
  TEAMS,
  post,
  startTeamsFake,
  type TeamsFake,
} from '../../connectors/msteams/fake';
import { FAKE_CLIENT } from '../../connectors/microsoft/fake-identity';
import { appConnections, documents, type User } from '../db/schema';
import { hiding, showing, shownTo, titlesFound } from '../testing/search';
import { insertConnection, syncNow } from './testing/connections';
import { createOrg, createUser } from '../testing/fixtures';
import { createTestServer, type TestServer } from '../testing/server';
import { type SyncMode } from './engine';
import { registerConnector } from './registry';

let server: TestServer;
let fake: TeamsFake;
let ada: User;
let grace: User;
let linus: User;
let bob: User;

beforeAll(async () => {
  fake = await startTeamsFake({ pageSize: 2 });
  registerConnector(createTeamsConnector({ loginUrl: fake.server.url }));
  vi.stubEnv('SCOUT_OAUTH_MSTEAMS_CLIENT_ID', FAKE_CLIENT.id);
  vi.stubEnv('SCOUT_OAUTH_MSTEAMS_CLIENT_SECRET', FAKE_CLIENT.secret);
  server = await createTestServer();
  const { db } = server.store;
  const org = await createOrg(db, { domain: 'contoso.com' });
  ada = await createUser(db, org, { email: PEOPLE.ada, admin: true });
  grace = await createUser(db, org, { email: PEOPLE.grace });
  linus = await createUser(db, org, { email: PEOPLE.linus });
  bob = await createUser(db, org, { email: PEOPLE.bob });
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await fake.close();
  await server.close();
});

/** Ada's org connection of Teams, its tokens said to expire `expiresInMs` from now. */
async function connect(expiresInMs = 3_600_000): Promise<string> {
  const { db } = server.store;
  return insertConnection(db, {
    orgId: ada.orgId,
    userId: ada.id,
    appName: 'msteams',
    isOrg: true,
    config: { baseUrl: fake.graphUrl },
    credentials: {
      access_token: fake.identity.accessToken,
      refresh_token: fake.identity.refreshToken,
      expires_at: new Date(Date.now() + expiresInMs).toISOString(),
    },
  });
}

const sync = (connectionId: string, mode: SyncMode, options: Parameters<typeof syncNow>[3] = {}) =>
  syncNow(server.store.db, connectionId, mode, options);

async function indexed(connectionId: string): Promise<Record<string, string>> {
  const rows = await server.store.db
    .select({ externalId: documents.externalId, title: documents.title })
    .from(documents)
    .where(eq(documents.connectionId, connectionId));
  return Object.fromEntries(rows.map((row) => [row.externalId, row.title]));
}

const search = (user: User, q: string) => titlesFound(server, user, q);

/** What a member is shown for `q` by `_search` and by a chat answer. */
const shown = (user: User, q: string) => shownTo(server, user, q);

describe('teams through the engine', () => {
  let connectionId: string;

  it('shows each channel’s threads to who may read the channel in Teams', async () => {
    connectionId = await connect();
    expect(await sync(connectionId, 'full')).toMatchObject({ kind: 'complete' });
    expect(Object.keys(await indexed(connectionId)).sort()).toEqual(
      [...SEEDED_THREADS, ...SEEDED_CHATS].sort(),
    );
    // Private channel: its members; standard channel: the team; shared channel: its own members.
    expect(await search(grace, 'postmortem')).toEqual(['Database failover postmortem draft']);
    expect(await search(linus, 'postmortem')).toEqual([]);
    expect(await search(linus, 'freeze')).toEqual(['Deploy freeze']);
    expect(await search(bob, 'freeze')).toEqual([]);
    expect(await search(bob, 'initech')).toEqual(['Partner pricing sheet for Initech']);
    expect(await search(grace, 'initech')).toEqual([]);
    expect(await search(bob, 'pipeline')).toEqual(['Pipeline review']);
    // Chats: their participants only.
    expect(await search(grace, 'salary')).toEqual(['Chat with ada, grace']);
    expect(await search(bob, 'salary')).toEqual([]);
    expect(await search(linus, 'checklist')).toEqual(['Launch squad']);
    expect(await search(grace, 'checklist')).toEqual([]);
  });

  it('drops a member removed from a private channel from its threads at the next permission sync', async () => {
    const postmortem = 'Database failover postmortem draft';
    expect(await shown(grace, 'postmortem')).toMatchObject(showing(postmortem));
    fake.setChannelMembers(CHANNELS.incidents, [PEOPLE.ada]);
    expect(await sync(connectionId, 'permissions')).toMatchObject({ kind: 'permissions' });
    // Neither `_search` nor the chat answer (its references and its text) shows her the channel any more.
    expect(await shown(grace, 'postmortem')).toMatchObject(hiding(postmortem));
    expect(await shown(ada, 'postmortem')).toMatchObject(showing(postmortem));
    expect(await shown(linus, 'freeze')).toMatchObject(showing('Deploy freeze'));
    expect(await shown(linus, 'checklist')).toMatchObject(showing('Launch squad'));
    fake.setTeamMembers(TEAMS.eng, [PEOPLE.ada, PEOPLE.grace]);
    fake.setChatMembers(CHATS.launch, [PEOPLE.ada, PEOPLE.bob]);
    await sync(connectionId, 'permissions');
    expect(await shown(linus, 'freeze')).toMatchObject(hiding('Deploy freeze'));
    expect(await shown(linus, 'checklist')).toMatchObject(hiding('Launch squad'));
    expect(await shown(bob, 'checklist')).toMatchObject(showing('Launch squad'));
  });

  it('applies a reply, an edit, a delete and a channel rename from the next sync', async () => {
    expect(await shown(grace, 'compilers')).toMatchObject(showing('Lunch and learn: compilers'));
    fake.post(CHANNELS.engGeneral, post('1011', 0, 'Observability budget request'), '1001');
    fake.edit(CHANNELS.salesGeneral, '4001', 'Pipeline review moved to Monday');
    fake.remove(CHANNELS.engGeneral, '1003');
    fake.rename(CHANNELS.partners, 'Initech partnership');
    expect(await sync(connectionId, 'incremental')).toMatchObject({ kind: 'complete' });
    const index = await indexed(connectionId);
    expect(Object.keys(index)).not.toContain(`${TEAMS.eng}/${CHANNELS.engGeneral}/1003`);
    expect(await shown(grace, 'compilers')).toMatchObject(hiding('Lunch and learn: compilers'));
    expect(await search(grace, 'observability')).toEqual(['Deploy freeze']);
    expect(await search(bob, 'monday')).toEqual(['Pipeline review moved to Monday']);
    const [partners] = await server.store.db
      .select({ extra: documents.extra })
      .from(documents)
      .where(eq(documents.externalId, `${TEAMS.eng}/${CHANNELS.partners}/3001`));
    expect(partners?.extra).toMatchObject({ channel: 'Initech partnership' });
    expect(await sync(connectionId, 'prune')).toEqual({ kind: 'pruned', deleted: 0 });
  });
});

describe('teams connected org-wide on the tenant’s admin consent', () => {
  let tenant: TeamsFake;
  let connectionId: string;
  beforeAll(async () => {
    tenant = await startTeamsFake({ pageSize: 2 });
    // A private channel and a chat the connecting admin is not in: only a tenant-wide reader finds them.
    tenant.setChannelMembers(CHANNELS.incidents, [PEOPLE.linus]);
    tenant.setChatMembers(CHATS.grace, [PEOPLE.grace, PEOPLE.linus]);
  });
  afterAll(async () => {
    await tenant.close();
  });

  it('indexes every team and chat with an app-only token, each found by who may read it in Teams', async () => {
    connectionId = await insertConnection(server.store.db, {
      orgId: ada.orgId,
      userId: ada.id,
      appName: 'msteams',
      isOrg: true,
      config: { baseUrl: tenant.graphUrl, loginUrl: tenant.server.url },
      credentials: { email: PEOPLE.ada, marketplace: true },
    });
    expect(await sync(connectionId, 'full')).toMatchObject({ kind: 'complete' });
    expect(Object.keys(await indexed(connectionId)).sort()).toEqual(
      [...SEEDED_THREADS, ...SEEDED_CHATS].sort(),
    );
    expect(await search(linus, 'postmortem')).toEqual(['Database failover postmortem draft']);
    expect(await search(linus, 'salary')).toEqual(['Chat with grace, linus']);
    expect(await search(ada, 'salary')).not.toContain('Chat with grace, linus');
    expect(await search(bob, 'salary')).toEqual([]);
  });

  it('drops someone removed from a private channel or a chat from it at the next permission sync', async () => {
    const chat = 'Chat with grace, linus';
    expect(await shown(linus, 'postmortem')).toMatchObject(showing('Database failover postmortem draft'));
    expect(await shown(linus, 'salary')).toMatchObject(showing(chat));
    tenant.setChannelMembers(CHANNELS.incidents, [PEOPLE.grace]);
    tenant.setChatMembers(CHATS.grace, [PEOPLE.grace]);
    expect(await sync(connectionId, 'permissions')).toMatchObject({ kind: 'permissions' });
    expect(await shown(linus, 'postmortem')).toMatchObject(hiding('Database failover postmortem draft'));
    expect(await shown(linus, 'salary')).toMatchObject(hiding(chat));
    expect(await search(grace, 'salary')).toContain(chat);
    expect(await shown(grace, 'salary')).toMatchObject({
      chat: expect.arrayContaining([chat]),
      answer: expect.stringContaining(chat),
    });
  });
});

describe('teams under stress', () => {
  it('refreshes an expired token, rides out a 429 storm and resumes an interrupted sync to exactly the source', async () => {
    const connectionId = await connect(-60_000);
    fake.identity.expireAccessToken();
    fake.server.failNext(
      5,
      { kind: 'rateLimit', retryAfter: 0 },
      { path: '/v1.0/teams/:team/channels/:channel/messages' },
    );
    expect((await sync(connectionId, 'full', { runId: 'stress' })).kind).toBe('later');

    fake.server.clearLog();
    fake.server.failNext(
      1,
      { kind: 'hang' },
      { path: `/v1.0/teams/${TEAMS.sales}/channels/:channel/messages` },
    );
    const controller = new AbortController();
    const interrupted = sync(connectionId, 'full', { runId: 'stress', signal: controller.signal });
    await vi.waitFor(() =>
      expect(fake.server.requests.some((request) => request.outcome === 'hang')).toBe(true),
    );
    controller.abort();
    expect((await interrupted).kind).toBe('later');
    expect(Object.keys(await indexed(connectionId)).length).toBeGreaterThan(0);

    // The committed cursor holds the channels finished before the interruption; the same job resumes from it.
    const [stopped] = await server.store.db
      .select({ cursor: appConnections.cursor })
      .from(appConnections)
      .where(eq(appConnections.id, connectionId));
    const position = (stopped?.cursor as { position: { channels: { since: string | null }[] } }).position;
    expect(position.channels.filter((channel) => channel.since !== null).length).toBeGreaterThan(0);
    expect(await sync(connectionId, 'full', { runId: 'stress' })).toMatchObject({ kind: 'complete' });

    const fresh = await connect();
    expect(await sync(fresh, 'full')).toMatchObject({ kind: 'complete' });
    expect(await indexed(connectionId)).toEqual(await indexed(fresh));
  });
});
