// The Teams connector against a fake Graph on 127.0.0.1: the conformance kit, then threads as documents, who reads
// each kind of channel, renames, deletes and membership snapshots.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createConnectorContext, type SyncBatch } from '../sdk';
import { FAKE_CLIENT } from '../microsoft/fake-identity';
import { collect, runConnectorConformance } from '../sdk/testing';
import {
  CHANNELS,
  CHATS,
  PEOPLE,
  SEEDED_CHATS,
  SEEDED_THREADS,
  TEAMS,
  post,
  startTeamsFake,
  type TeamsFake,
} from './fake';
import { teamsConnector } from './index';

let fake: TeamsFake;

beforeEach(async () => {
  fake = await startTeamsFake({ pageSize: 2 });
});
afterEach(async () => {
  await fake.close();
});

function context() {
  return createConnectorContext(teamsConnector, {
    credentials: { access_token: fake.identity.accessToken },
    config: { baseUrl: fake.graphUrl },
    random: () => 0,
  });
}

const id = (team: string, channel: string, root: string) => `${team}/${channel}/${root}`;
const documentsOf = (batches: readonly SyncBatch[]) => batches.flatMap((batch) => batch.documents);

describe('teams connector', () => {
  it('passes the conformance kit', async () => {
    const report = await runConnectorConformance(teamsConnector, {
      fakeServer: fake.server,
      credentials: { access_token: fake.identity.accessToken },
      config: { baseUrl: fake.graphUrl },
      changeSource: () => {
        fake.post(CHANNELS.engGeneral, post('1010', 0, 'Retro notes'));
        fake.post(CHANNELS.incidents, post('2010', 0, 'Follow-up ticket filed'), '2001');
        fake.edit(CHANNELS.partners, '3001', 'Partner pricing sheet for Initech, revised');
        fake.remove(CHANNELS.engGeneral, '1003');
        fake.chatPost(CHATS.launch, post('6002', 0, 'Go/no-go at noon', 'Linus Torvalds'));
        return {
          changed: [
            `chat/${CHATS.launch}`,
            id(TEAMS.eng, CHANNELS.engGeneral, '1010'),
            id(TEAMS.eng, CHANNELS.incidents, '2001'),
            id(TEAMS.eng, CHANNELS.partners, '3001'),
          ],
          deleted: [id(TEAMS.eng, CHANNELS.engGeneral, '1003')],
        };
      },
    });
    expect(report).toMatchObject({
      fullSync: { documents: SEEDED_THREADS.length + SEEDED_CHATS.length },
      resumedMidSync: true,
      incremental: { documents: 4, deleted: 1 },
      // Two teams, and the private and the shared channel.
      groups: 4,
    });
  });

  it('makes a thread one document, replies in order, deleted replies and system events left out', async () => {
    const documents = documentsOf(await collect(teamsConnector.fullSync(context())));
    expect(documents.map((document) => document.externalId).sort()).toEqual(
      [...SEEDED_THREADS, ...SEEDED_CHATS].sort(),
    );
    const incident = documents.find(
      (document) => document.externalId === id(TEAMS.eng, CHANNELS.incidents, '2001'),
    );
    expect(incident).toMatchObject({
      title: 'Database failover postmortem draft',
      objectType: 'Messages',
      author: { name: 'Grace Hopper' },
      extra: { team: 'Engineering', channel: 'Incidents', replies: 1 },
    });
    expect(incident?.body).toMatch(
      /^Grace Hopper, .*: Database failover postmortem draft\n\nAda Lovelace, .*: Root cause/,
    );
    expect(incident?.body).not.toContain('retracted');
    expect(incident?.url).toBe('https://teams.microsoft.com/l/message/2001');
    const freeze = documents.find(
      (document) => document.externalId === id(TEAMS.eng, CHANNELS.engGeneral, '1001'),
    );
    expect(freeze?.title).toBe('Deploy freeze');
  });

  it('gives standard channels to the team and private and shared channels to their own members', async () => {
    const documents = documentsOf(await collect(teamsConnector.fullSync(context())));
    const acl = Object.fromEntries(documents.map((document) => [document.externalId, document.acl]));
    expect(acl[id(TEAMS.eng, CHANNELS.engGeneral, '1001')]).toEqual([`group:msteams:team:${TEAMS.eng}`]);
    expect(acl[id(TEAMS.eng, CHANNELS.incidents, '2001')]).toEqual([
      `group:msteams:channel:${CHANNELS.incidents}`,
    ]);
    expect(acl[id(TEAMS.eng, CHANNELS.partners, '3001')]).toEqual([
      `group:msteams:channel:${CHANNELS.partners}`,
    ]);

    const groups = Object.fromEntries(
      (await collect(teamsConnector.permissions!(context())))
        .flat()
        .map((group) => [group.group, group.members]),
    );
    expect(groups).toEqual({
      [`group:msteams:team:${TEAMS.eng}`]: [PEOPLE.ada, PEOPLE.grace, PEOPLE.linus].map(
        (email) => `user:${email}`,
      ),
      [`group:msteams:team:${TEAMS.sales}`]: [PEOPLE.ada, PEOPLE.bob].map((email) => `user:${email}`),
      [`group:msteams:channel:${CHANNELS.incidents}`]: [`user:${PEOPLE.ada}`, `user:${PEOPLE.grace}`],
      [`group:msteams:channel:${CHANNELS.partners}`]: [`user:${PEOPLE.ada}`, `user:${PEOPLE.bob}`],
    });
  });

  it('makes a chat one document for its participants, titled by its topic or by who is in it', async () => {
    const documents = documentsOf(await collect(teamsConnector.fullSync(context())));
    const chats = Object.fromEntries(
      documents
        .filter((document) => document.externalId.startsWith('chat/'))
        .map((document) => [document.externalId, document]),
    );
    expect(chats[`chat/${CHATS.grace}`]).toMatchObject({
      title: 'Chat with ada, grace',
      acl: [`user:${PEOPLE.ada}`, `user:${PEOPLE.grace}`],
    });
    expect(chats[`chat/${CHATS.grace}`]?.body).toMatch(
      /salary band proposal\?\n\nAda Lovelace, .*: Yes, tomorrow$/,
    );
    expect(chats[`chat/${CHATS.launch}`]).toMatchObject({
      title: 'Launch squad',
      acl: [PEOPLE.ada, PEOPLE.bob, PEOPLE.linus].map((email) => `user:${email}`),
    });

    fake.setChatMembers(CHATS.launch, [PEOPLE.ada, PEOPLE.bob]);
    expect(await teamsConnector.documentAcls!(context(), [`chat/${CHATS.launch}`])).toEqual([
      { externalId: `chat/${CHATS.launch}`, acl: [`user:${PEOPLE.ada}`, `user:${PEOPLE.bob}`] },
    ]);
  });

  it('delivers every thread of a renamed channel again, under its new name', async () => {
    const full = await collect(teamsConnector.fullSync(context()));
    fake.rename(CHANNELS.engGeneral, 'Announcements');
    const incremental = documentsOf(
      await collect(teamsConnector.incrementalSync(context(), full.at(-1)!.cursor)),
    );
    expect(incremental.map((document) => document.externalId).sort()).toEqual([
      id(TEAMS.eng, CHANNELS.engGeneral, '1001'),
      id(TEAMS.eng, CHANNELS.engGeneral, '1003'),
    ]);
    for (const document of incremental) expect(document.extra.channel).toBe('Announcements');
  });

  it('answers the current readers of indexed threads by their channel, leaving out channels no longer listed', async () => {
    const ids = [id(TEAMS.eng, CHANNELS.incidents, '2001'), id(TEAMS.eng, CHANNELS.engGeneral, '1001')];
    fake.setChannelMembers(CHANNELS.incidents, [PEOPLE.grace]);
    expect(await teamsConnector.documentAcls!(context(), ids)).toEqual([
      { externalId: ids[1], acl: [`group:msteams:team:${TEAMS.eng}`] },
    ]);
  });

  it('resumes a pass without listing again the channels it finished, and starts the next pass over', async () => {
    const full = await collect(teamsConnector.fullSync(context()));
    const fullIds = documentsOf(full).map((document) => document.externalId);
    const generalDone = full.findIndex((batch) =>
      (batch.cursor as { done: string[] }).done.includes(`${TEAMS.eng}/${CHANNELS.engGeneral}`),
    );
    expect(generalDone).toBeGreaterThanOrEqual(0);
    const messagesOf = (channel: string) =>
      fake.server.requests.filter((request) =>
        request.path.endsWith(`/channels/${encodeURIComponent(channel)}/messages`),
      ).length;

    fake.server.clearLog();
    const resumed = await collect(teamsConnector.incrementalSync(context(), full[generalDone]!.cursor));
    expect(messagesOf(CHANNELS.engGeneral)).toBe(0);
    expect(messagesOf(CHANNELS.salesGeneral)).toBeGreaterThan(0);
    expect(
      [...documentsOf(full.slice(0, generalDone + 1)), ...documentsOf(resumed)]
        .map((document) => document.externalId)
        .sort(),
    ).toEqual([...fullIds].sort());

    fake.server.clearLog();
    await collect(teamsConnector.incrementalSync(context(), resumed.at(-1)!.cursor));
    for (const channel of Object.values(CHANNELS)) expect(messagesOf(channel)).toBeGreaterThan(0);
  });

  it('reports progress by channels done, reaching the whole window', async () => {
    const batches = await collect(teamsConnector.fullSync(context()));
    const shares = batches.map((batch) => batch.progress?.share ?? 0);
    expect(shares).toEqual([...shares].sort((a, b) => a - b));
    expect(shares.at(-1)).toBe(1);
  });
});

describe('teams org connection', () => {
  const orgCredentials = { email: 'admin@contoso.com', marketplace: true };
  beforeEach(() => {
    vi.stubEnv('SCOUT_OAUTH_MSTEAMS_CLIENT_ID', FAKE_CLIENT.id);
    vi.stubEnv('SCOUT_OAUTH_MSTEAMS_CLIENT_SECRET', FAKE_CLIENT.secret);
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });
  const orgContext = () =>
    createConnectorContext(teamsConnector, {
      credentials: orgCredentials,
      config: { baseUrl: fake.graphUrl, loginUrl: fake.server.url },
      random: () => 0,
    });

  it('passes the conformance kit', async () => {
    const report = await runConnectorConformance(teamsConnector, {
      fakeServer: fake.server,
      credentials: orgCredentials,
      config: { baseUrl: fake.graphUrl, loginUrl: fake.server.url },
      changeSource: () => {
        fake.post(CHANNELS.salesGeneral, post('4010', 0, 'Quarter closed'));
        fake.chatPost(CHATS.grace, post('5003', 0, 'Band approved', 'Grace Hopper'));
        fake.remove(CHANNELS.engGeneral, '1003');
        return {
          changed: [id(TEAMS.sales, CHANNELS.salesGeneral, '4010'), `chat/${CHATS.grace}`],
          deleted: [id(TEAMS.eng, CHANNELS.engGeneral, '1003')],
        };
      },
    });
    expect(report).toMatchObject({
      fullSync: { documents: SEEDED_THREADS.length + SEEDED_CHATS.length },
      resumedMidSync: true,
      incremental: { documents: 2, deleted: 1 },
      groups: 4,
    });
  });

  it('reads every team, private channel and chat of the tenant with an app-only token, with the same readers', async () => {
    // Neither the admin nor Ada is in these any more: only a tenant-wide reader still finds them.
    fake.setChannelMembers(CHANNELS.incidents, [PEOPLE.grace]);
    fake.setChatMembers(CHATS.grace, [PEOPLE.grace, PEOPLE.linus]);
    const documents = documentsOf(await collect(teamsConnector.fullSync(orgContext())));
    expect(documents.map((document) => document.externalId).sort()).toEqual(
      [...SEEDED_THREADS, ...SEEDED_CHATS].sort(),
    );
    const acl = Object.fromEntries(documents.map((document) => [document.externalId, document.acl]));
    expect(acl[id(TEAMS.eng, CHANNELS.incidents, '2001')]).toEqual([
      `group:msteams:channel:${CHANNELS.incidents}`,
    ]);
    expect(acl[`chat/${CHATS.grace}`]).toEqual([`user:${PEOPLE.grace}`, `user:${PEOPLE.linus}`]);
    const groups = Object.fromEntries(
      (await collect(teamsConnector.permissions!(orgContext())))
        .flat()
        .map((group) => [group.group, group.members]),
    );
    expect(groups[`group:msteams:channel:${CHANNELS.incidents}`]).toEqual([`user:${PEOPLE.grace}`]);
    // Each chat once, though several users list it.
    const chatIds = documents.filter((document) => document.externalId.startsWith('chat/'));
    expect(new Set(chatIds.map((document) => document.externalId)).size).toBe(chatIds.length);
    expect(fake.server.requests.some((request) => request.path.startsWith('/v1.0/me'))).toBe(false);
  });

  it('names the admin and tenant at validate', async () => {
    await expect(teamsConnector.validate(orgContext())).resolves.toEqual({
      email: 'admin@contoso.com',
      workspaceName: 'contoso.com',
    });
  });
});
