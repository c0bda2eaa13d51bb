// The Slack connector end to end: its fake workspace on 127.0.0.1 synced by the real engine into the real store,
// and what each member then finds through `_search`. It lives beside the engine because a connector's own folder
// may not import the server.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppsResponse } from '../../common/api/apps';
import { ConnectionStatus } from '../../common/connection-status';
import { silentLogger, type ConnectorLogger } from '../../connectors/sdk';
import { slackConnector } from '../../connectors/slack';
import { startSlackFake, type SlackFake } from '../../connectors/slack/fake';
import { GUEST, credentialsFor, seedWorkspace, type Fixture } from '../../connectors/slack/fixture';
import { appConnections, documents, type User } from '../db/schema';
import { makeDocx, makePdf } from '../parsing/testing';
import { hiding, showing, shownTo, titlesFound } from '../testing/search';
import { syncNow } from './testing/connections';
import { createOrg, createUser, loginTokensFor } from '../testing/fixtures';
import { createTestServer, type TestServer } from '../testing/server';
import { encryptCredentials } from './connections';
import { type SyncMode } from './engine';
import { registerConnector } from './registry';

let server: TestServer;
let fake: SlackFake;
let fixture: Fixture;
let orgId: string;
let ada: User;
let grace: User;
let gus: User;
let bob: User;

beforeAll(async () => {
  // Slack's Tier 3 allowance (50 calls a minute, shared by every sync of the workspace) would have this small
  // workspace's syncs wait out most of a minute between tests; the limiter itself is tested in connectors/sdk.
  registerConnector({ ...slackConnector, limits: { concurrency: 2 } });
  server = await createTestServer();
  // Small pages, so a sync takes many batches and can be cut short between them.
  fake = await startSlackFake({ pageSize: 2 });
  fixture = seedWorkspace(fake);
  const { db } = server.store;
  const org = await createOrg(db, { domain: 'example.com' });
  orgId = org.id;
  ada = await createUser(db, org, { email: 'ada@example.com', admin: true });
  grace = await createUser(db, org, { email: 'grace@example.com' });
  gus = await createUser(db, org, { email: 'gus@example.com' });
  bob = await createUser(db, org, { email: 'bob@example.com' });
});
afterAll(async () => {
  await fake.close();
  await server.close();
});

async function connect(): Promise<string> {
  const { db } = server.store;
  const [row] = await db
    .insert(appConnections)
    .values({
      orgId,
      userId: ada.id,
      appName: 'slack',
      isOrg: true,
      statusCode: ConnectionStatus.Connecting,
      extra: { config: { baseUrl: fake.apiUrl } },
    })
    .returning();
  const id = row!.id;
  await db
    .update(appConnections)
    .set({ credentialsEncrypted: encryptCredentials(id, credentialsFor(fake)) })
    .where(eq(appConnections.id, id));
  return id;
}

const sync = (connectionId: string, mode: SyncMode, options: Parameters<typeof syncNow>[3] = {}) =>
  syncNow(server.store.db, connectionId, mode, options);

async function indexedIds(connectionId: string): Promise<string[]> {
  const rows = await server.store.db
    .select({ externalId: documents.externalId })
    .from(documents)
    .where(and(eq(documents.orgId, orgId), eq(documents.connectionId, connectionId)));
  return rows.map((row) => row.externalId).sort();
}

async function statusOf(connectionId: string) {
  const [row] = await server.store.db
    .select({ statusCode: appConnections.statusCode, statusMessage: appConnections.statusMessage })
    .from(appConnections)
    .where(eq(appConnections.id, connectionId));
  return row;
}

/** The titles a member finds for `q`. */
const found = (user: User, q: string) => titlesFound(server, user, q);

/** What a member is shown for `q` by `_search` and by a chat answer. */
const shown = (user: User, q: string) => shownTo(server, user, q);

/** What the fixture workspace holds inside the window, in the channels the app is in. */
const fixtureIds = () =>
  [
    `${fixture.general}/${fixture.ts.hello}`,
    `${fixture.general}/${fixture.ts.question}`,
    `${fixture.general}/${fixture.ts.old}`,
    `${fixture.eng}/${fixture.ts.spec}`,
    `${fixture.eng}/${fixture.ts.spec}/${fixture.specFileId}`,
    `${fixture.eng}/${fixture.ts.design}`,
  ].sort();

describe('a Slack workspace synced into the index', () => {
  it('offers Slack in the catalogue as an app this server can connect', async () => {
    const token = (await loginTokensFor(server.ctx, ada)).id_token;
    const res = await server.app.inject({
      method: 'GET',
      url: '/api/v1/_fetchData/apps',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<AppsResponse>().apps.find((app) => app.shortname === 'slack')?.available).toEqual({
      org: true,
      individual: true,
    });
  });

  it('resumes a sync stopped mid-way from its cursor, ending with exactly the fixture indexed', async () => {
    const connectionId = await connect();
    const controller = new AbortController();
    let committed = 0;
    // Stops the run as a SIGKILL would leave it: after some batches are committed, before the rest.
    const stopAfterTwo: ConnectorLogger = {
      ...silentLogger,
      debug: (_fields, message) => {
        if (message === 'sync batch committed' && ++committed === 2) controller.abort();
      },
    };
    const runId = 'run-interrupted';
    expect(
      await sync(connectionId, 'full', { runId, logger: stopAfterTwo, signal: controller.signal }),
    ).toMatchObject({ kind: 'later' });
    const partial = await indexedIds(connectionId);
    expect(partial.length).toBeGreaterThan(0);
    expect(partial.length).toBeLessThan(fixtureIds().length);

    fake.server.clearLog();
    expect(await sync(connectionId, 'full', { runId })).toMatchObject({ kind: 'complete' });
    expect(await indexedIds(connectionId)).toEqual(fixtureIds());
    // The resumed run did not start over: #general's first page was not asked for again.
    const historyCalls = fake.server.requests.filter((r) => r.path === '/api/conversations.history');
    expect(historyCalls.every((r) => !(r.body.includes(fixture.general) && !r.body.includes('cursor')))).toBe(
      true,
    );
    await server.store.db.delete(appConnections).where(eq(appConnections.id, connectionId));
  });

  let connectionId: string;

  it('shows each member what their Slack channels let them read, and nobody else anything', async () => {
    connectionId = await connect();
    expect(await sync(connectionId, 'full')).toMatchObject({ kind: 'complete' });
    expect(await statusOf(connectionId)).toMatchObject({ statusCode: ConnectionStatus.IndexingComplete });
    expect(await indexedIds(connectionId)).toEqual(fixtureIds());

    const billing = '#general: Where do we deploy the billing service?';
    const vault = '#eng: Design review of the secret vault';
    expect(await found(ada, 'billing')).toEqual([billing]);
    // Grace is a full member: #general is public; she is not in private #eng.
    expect(await found(grace, 'billing')).toEqual([billing]);
    expect(await found(grace, 'vault')).toEqual([]);
    // Gus is a guest in #eng only: a public channel he was not invited to is closed to him.
    expect(await found(gus, 'vault')).toEqual([vault]);
    expect(await found(gus, 'billing')).toEqual([]);
    // Bob has no Slack account at all.
    expect(await found(bob, 'billing')).toEqual([]);
    expect(await found(bob, 'vault')).toEqual([]);
    // Lunch is in #random, which the app was never added to.
    expect(await found(ada, 'lunch')).toEqual([]);
  });

  it('follows an edit, a deletion and a renamed channel', async () => {
    expect(await shown(grace, 'quarterly')).toMatchObject(showing('#general: Quarterly planning notes'));
    fake.edit(fixture.general, fixture.ts.hello, 'Hello Grace, the launch moved to Q3');
    fake.remove(fixture.general, fixture.ts.old);
    fake.rename(fixture.general, 'announcements');
    expect(await sync(connectionId, 'incremental')).toMatchObject({ kind: 'complete' });
    expect(await sync(connectionId, 'prune')).toEqual({ kind: 'pruned', deleted: 1 });

    expect(await found(grace, 'launch')).toEqual(['#announcements: Hello Grace, the launch moved to Q3']);
    expect(await found(grace, 'roadmap')).toEqual([]);
    // Neither door shows the deleted message once it is pruned.
    expect(await shown(grace, 'quarterly')).toMatchObject(hiding('Quarterly planning notes'));
    expect(await found(grace, 'billing')).toEqual([
      '#announcements: Where do we deploy the billing service?',
    ]);
  });

  it('takes a channel away from a member removed from it at the next permission sync', async () => {
    const vault = '#eng: Design review of the secret vault';
    expect(await shown(gus, 'vault')).toMatchObject(showing(vault));
    fake.removeMember(fixture.eng, GUEST);
    expect(await sync(connectionId, 'permissions')).toMatchObject({ kind: 'permissions' });
    // Neither `_search` nor the chat answer (its references and its text) shows him the channel any more.
    expect(await shown(gus, 'vault')).toMatchObject(hiding(vault));
    expect(await shown(gus, 'storage')).toMatchObject(hiding('#eng'));
    expect(await shown(ada, 'vault')).toMatchObject(showing(vault));
  });

  it('rides out a storm of 429s', async () => {
    fake.post(fixture.eng, { user: 'UADA', text: 'Canary deploy tonight' });
    fake.server.failNext(3, { kind: 'rateLimit', retryAfter: 0 }, { path: '/api/conversations.history' });
    expect(await sync(connectionId, 'incremental')).toMatchObject({ kind: 'complete' });
    expect(await found(ada, 'canary')).toEqual(['#eng: Canary deploy tonight']);
  });

  it('finds the text inside a PDF and a Word file shared in a channel for its members alone', async () => {
    const created = Math.floor(Date.now() / 1000);
    const file = (
      id: string,
      name: string,
      mimetype: string,
      bytes: Uint8Array,
      size = bytes.byteLength,
    ) => ({
      id,
      name,
      title: name,
      mimetype,
      filetype: name.split('.').at(-1),
      size,
      permalink: `https://acme.slack.com/files/UADA/${id}/${name}`,
      url_private_download: fake.storeFile(id, name, bytes),
      user: 'UADA',
      created,
    });
    const review = await makePdf([['Telemetry from the quasar probe', 'arrived on schedule.']]);
    fake.post(fixture.eng, {
      user: 'UADA',
      text: 'The review pack',
      files: [
        file('F0REVIEW', 'Q3 review.pdf', 'application/pdf', review),
        file(
          'F0HANDBOOK',
          'Handbook.docx',
          'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
          await makeDocx(),
        ),
        file('F0SCAN', 'Archive scan.pdf', 'application/pdf', review, 2 * 1024 * 1024 * 1024),
        file(
          'F0BROKEN',
          'Broken draft.pdf',
          'application/pdf',
          new TextEncoder().encode('%PDF-1.7\n1 0 obj << /Type /Catalog >> garbage, no xref'),
        ),
      ],
    });
    fake.server.clearLog();
    expect(await sync(connectionId, 'incremental')).toMatchObject({ kind: 'complete' });
    expect(await found(ada, 'telemetry')).toEqual(['Q3 review.pdf']);
    expect(await found(ada, 'laptop')).toEqual(['Handbook.docx']);
    // Grace is not in private #eng; Bob has no Slack account.
    for (const other of [grace, bob]) {
      expect(await found(other, 'telemetry')).toEqual([]);
      expect(await found(other, 'laptop')).toEqual([]);
    }
    // The file over the size limit is indexed by its name, never downloaded; the broken one by its name too (the
    // message that shared them names them as well).
    expect(await found(ada, 'archive')).toEqual(['#eng: The review pack', 'Archive scan.pdf']);
    expect(await found(ada, 'broken')).toEqual(['#eng: The review pack', 'Broken draft.pdf']);
    const downloads = fake.server.requests
      .filter((request) => request.path.startsWith('/files-pri/'))
      .map((request) => request.path.split('/')[2])
      .sort();
    expect(downloads).toEqual(['T0FAKE-F0BROKEN', 'T0FAKE-F0HANDBOOK', 'T0FAKE-F0REVIEW']);
  });

  let gatewayReply: string;

  it('finds a file shared in a thread’s reply, added since the last sync, for the channel’s members alone', async () => {
    const name = 'Gateway report.pdf';
    const bytes = await makePdf([['Latency of the quokka gateway', 'fell by half.']]);
    const reply = fake.reply(fixture.general, fixture.ts.question, {
      user: 'UADA',
      text: 'The gateway report',
      files: [
        {
          id: 'F0GATEWAY',
          name,
          title: name,
          mimetype: 'application/pdf',
          filetype: 'pdf',
          size: bytes.byteLength,
          permalink: `https://acme.slack.com/files/UADA/F0GATEWAY/${name}`,
          url_private_download: fake.storeFile('F0GATEWAY', name, bytes),
          user: 'UADA',
          created: Math.floor(Date.now() / 1000),
        },
      ],
    });
    gatewayReply = reply.ts ?? '';
    expect(await found(grace, 'quokka')).toEqual([]);
    expect(await sync(connectionId, 'incremental')).toMatchObject({ kind: 'complete' });
    // Ada and Grace are in #general (renamed #announcements above); Gus is a guest outside it, Bob has no Slack.
    expect(await found(ada, 'quokka')).toEqual([name]);
    expect(await found(grace, 'quokka')).toEqual([name]);
    expect(await found(gus, 'quokka')).toEqual([]);
    expect(await found(bob, 'quokka')).toEqual([]);
    expect(await found(grace, 'gateway')).toEqual([
      '#announcements: Where do we deploy the billing service?',
      name,
    ]);
    expect(await indexedIds(connectionId)).toContain(`${fixture.general}/${gatewayReply}/F0GATEWAY`);
  });

  it('prunes a thread reply’s file once the reply is deleted', async () => {
    fake.removeReply(fixture.general, gatewayReply);
    expect(await sync(connectionId, 'prune')).toEqual({ kind: 'pruned', deleted: 1 });
    expect(await found(grace, 'quokka')).toEqual([]);
    expect(await indexedIds(connectionId)).not.toContain(`${fixture.general}/${gatewayReply}/F0GATEWAY`);
  });

  it('takes a file deleted from a thread’s reply out of search at the next incremental sync, the reply staying', async () => {
    const name = 'Wombat census.pdf';
    const bytes = await makePdf([['The wombat census counted', 'forty burrows.']]);
    fake.reply(fixture.general, fixture.ts.question, {
      user: 'UADA',
      text: 'The census is in',
      files: [
        {
          id: 'F0CENSUS',
          name,
          title: name,
          mimetype: 'application/pdf',
          filetype: 'pdf',
          size: bytes.byteLength,
          permalink: `https://acme.slack.com/files/UADA/F0CENSUS/${name}`,
          url_private_download: fake.storeFile('F0CENSUS', name, bytes),
          user: 'UADA',
          created: Math.floor(Date.now() / 1000),
        },
      ],
    });
    expect(await sync(connectionId, 'incremental')).toMatchObject({ kind: 'complete' });
    expect(await found(grace, 'wombat burrows')).toContain(name);

    fake.deleteFile('F0CENSUS');
    expect(await sync(connectionId, 'incremental')).toMatchObject({ kind: 'complete' });
    expect(await found(grace, 'wombat burrows')).toEqual([]);
    expect(await found(grace, 'census is in')).toEqual([
      '#announcements: Where do we deploy the billing service?',
    ]);
  });

  it('asks for a reconnect when Slack says the token expired', async () => {
    fake.expireToken();
    expect(await sync(connectionId, 'incremental')).toEqual({
      kind: 'stopped',
      statusCode: ConnectionStatus.ErrorReconnect,
    });
    expect(await statusOf(connectionId)).toEqual({
      statusCode: ConnectionStatus.ErrorReconnect,
      statusMessage: 'Incorrect credentials. Please try again.',
    });
    // What was indexed stays searchable until the admin reconnects.
    expect(await found(ada, 'canary')).toEqual(['#eng: Canary deploy tonight']);
  });

  // Last: the pause is the org's for Slack (every later sync in this process waits it out), as it is at Slack.
  it('leaves a long Retry-After to a later run rather than failing', async () => {
    // as a reconnect leaves the connection (the fake's token stays expired: the 429 comes first)
    await server.store.db
      .update(appConnections)
      .set({ statusCode: ConnectionStatus.IndexingComplete, statusMessage: null })
      .where(eq(appConnections.id, connectionId));
    fake.server.failNext(1, { kind: 'rateLimit', retryAfter: 600 });
    const before = Date.now();
    const outcome = await sync(connectionId, 'permissions');
    expect(outcome).toMatchObject({ kind: 'later' });
    if (outcome.kind === 'later') expect(outcome.at.getTime()).toBeGreaterThanOrEqual(before + 600_000);
    expect(await sync(connectionId, 'incremental')).toMatchObject({ kind: 'later' });
  });
});
