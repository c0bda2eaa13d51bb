// Notion end to end on the real store, against the fake Notion API on 127.0.0.1 (connectors/notion/fake.ts):
// connected through the OAuth popup (HTTP Basic at the token URL), synced by the real engine, interrupted and
// resumed, then taken through what a workspace goes through (an edit, a move, an archive, a page unshared from
// the integration, a member turned guest, a 429 storm, a revoked token), each checked as members find it through
// `_search`. It lives here because connectors/ may not import the server.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { oauthResultSchema } from '../../common/api/oauth';
import { ConnectionStatus } from '../../common/connection-status';
import { apps } from '../../common/strings';
import { notionConnectorFor } from '../../connectors/notion';
import { blocks, startNotionFake, type NotionFake } from '../../connectors/notion/fake';
import { silentLogger, type ConnectorLogger } from '../../connectors/sdk';
import { appConnections, documents, type User } from '../db/schema';
import { hiding, showing, shownTo, titlesFound } from '../testing/search';
import { syncNow } from './testing/connections';
import { createOrg, createUser, loginTokensFor } from '../testing/fixtures';
import { createTestServer, type TestServer } from '../testing/server';
import { type SyncMode } from './engine';
import { registerConnector } from './registry';

let server: TestServer;
let base: string;
let notion: NotionFake;
let ada: User;
let grace: User;
let linus: User;
let bob: User;
let connectionId: string;

beforeAll(async () => {
  notion = await startNotionFake();
  // The shipped connector, pointed at the fake instead of api.notion.com.
  registerConnector(notionConnectorFor(notion.url));
  vi.stubEnv('SCOUT_OAUTH_NOTION_CLIENT_ID', notion.clientId);
  vi.stubEnv('SCOUT_OAUTH_NOTION_CLIENT_SECRET', notion.clientSecret);
  server = await createTestServer();
  base = await server.app.listen({ port: 0, host: '127.0.0.1' });
  const org = await createOrg(server.store.db, { domain: 'example.com', plan: 'ENTERPRISE' });
  ada = await createUser(server.store.db, org, { email: 'ada@example.com', admin: true });
  grace = await createUser(server.store.db, org, { email: 'grace@example.com' });
  linus = await createUser(server.store.db, org, { email: 'linus@example.com' });
  // In Scout's org but not in the Notion workspace.
  bob = await createUser(server.store.db, org, { email: 'bob@example.com' });
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await server.close();
  await notion.close();
});

const sync = (mode: SyncMode, options: Parameters<typeof syncNow>[3] = {}) =>
  syncNow(server.store.db, connectionId, mode, options);

/** The titles a member finds for `q`. */
const find = (user: User, q: string) => titlesFound(server, user, q);

/** What a member is shown for `q` by `_search` and by a chat answer. */
const shown = (user: User, q: string) => shownTo(server, user, q);

const indexed = async () =>
  Object.fromEntries(
    (
      await server.store.db
        .select({ externalId: documents.externalId, title: documents.title })
        .from(documents)
        .where(eq(documents.connectionId, connectionId))
    ).map((row) => [row.externalId, row.title]),
  );

const connection = async () =>
  (await server.store.db.select().from(appConnections).where(eq(appConnections.id, connectionId)))[0]!;

/** The fixture as it should be indexed: what is shared with the integration, inside the three-year window. */
const FIXTURE: Record<string, string> = {
  handbook: 'Engineering handbook',
  oncall: 'On-call rotation',
  tasks: 'Roadmap tasks',
  'task-search': 'Ship search',
  'task-sync': 'Fix stuck syncs',
  press: 'Press kit',
};

describe('notion, end to end', () => {
  it('connects through the OAuth popup, the code exchanged with HTTP Basic client credentials', async () => {
    const started = await fetch(`${base}/api/v1/oauth/notion`, {
      method: 'PUT',
      headers: {
        authorization: `Bearer ${(await loginTokensFor(server.ctx, ada)).id_token}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ admin: true, options: {} }),
    });
    expect(started.status).toBe(200);
    const { url } = (await started.json()) as { url: string };
    expect(new URL(url).searchParams.get('owner')).toBe('user');
    const consent = await fetch(url, { redirect: 'manual' });
    expect(consent.status).toBe(302);
    const callback = new URL(consent.headers.get('location') ?? '');
    const page = await fetch(`${base}${callback.pathname}${callback.search}`, {
      headers: { cookie: started.headers.get('set-cookie')?.split(';')[0] ?? '' },
    });
    const result = oauthResultSchema.parse(
      JSON.parse(/const result = (.*);\n/.exec(await page.text())?.[1] ?? ''),
    );
    expect(result).toMatchObject({ app: 'notion', success: true });
    connectionId = result.connectionId ?? '';
    expect(await connection()).toMatchObject({
      isOrg: true,
      email: 'ada@example.com',
      workspaceName: 'Acme',
      statusCode: ConnectionStatus.Connecting,
    });
    const exchange = notion.server.requests.find((request) => request.path === '/v1/oauth/token');
    expect(exchange?.headers.authorization).toMatch(/^Basic /);
    expect(exchange?.body).not.toContain(notion.clientSecret);
  });

  it('resumes a full sync cut short from its cursor, ending with exactly the fixture', async () => {
    // Small batches, so the sync has checkpoints to be cut between.
    await server.store.db
      .update(appConnections)
      .set({ extra: { config: { batchSize: 2 } } })
      .where(eq(appConnections.id, connectionId));
    const stop = new AbortController();
    const cutAfterFirstBatch: ConnectorLogger = {
      ...silentLogger,
      debug: (_fields, message) => {
        if (message === 'sync batch committed') stop.abort();
      },
    };
    expect(
      await sync('full', { runId: 'first-full', logger: cutAfterFirstBatch, signal: stop.signal }),
    ).toMatchObject({ kind: 'later' });
    const partial = Object.keys(await indexed());
    expect(partial.length).toBeGreaterThan(0);
    expect(partial.length).toBeLessThan(Object.keys(FIXTURE).length);

    expect(await sync('full', { runId: 'first-full' })).toMatchObject({ kind: 'complete' });
    expect(await indexed()).toEqual(
      Object.fromEntries(Object.entries(FIXTURE).map(([key, title]) => [notion.idOf(key), title])),
    );
    // Resumed, not started over: the first batch's older page had its blocks fetched once. (The newest minute's
    // pages are fetched again by every walk, to compare their fingerprints.)
    const oncallBlocks = notion.server.requests.filter(
      (request) => request.path === `/v1/blocks/${notion.idOf('oncall')}/children`,
    );
    expect(oncallBlocks).toHaveLength(1);
    expect((await connection()).statusCode).toBe(ConnectionStatus.IndexingComplete);
  });

  it('shows the workspace to its members and to nobody else, a page shared to the web included', async () => {
    expect(await find(grace, 'monday')).toEqual(['On-call rotation']);
    expect(await find(linus, 'journalists')).toEqual(['Press kit']);
    expect(await find(ada, 'progress')).toEqual(['Ship search']);
    expect(await find(bob, 'monday')).toEqual([]);
    expect(await find(bob, 'journalists')).toEqual([]);
    expect(await find(grace, 'confidential')).toEqual([]);
  });

  it('applies an edit and a move on the next incremental sync, and an archive on pruning', async () => {
    notion.upsertPage({
      key: 'oncall',
      title: 'On-call rotation',
      parent: { page: 'handbook' },
      blocks: [blocks.paragraph('The rotation changes every Tuesday.')],
    });
    notion.move('press', { page: 'handbook' });
    notion.trash('task-sync');
    expect(await sync('incremental')).toMatchObject({ kind: 'complete' });
    expect(await find(grace, 'tuesday')).toEqual(['On-call rotation']);
    expect(await find(grace, 'monday')).toEqual([]);
    const [press] = await server.store.db
      .select({ parent: documents.parentExternalId })
      .from(documents)
      .where(and(eq(documents.connectionId, connectionId), eq(documents.externalId, notion.idOf('press'))));
    expect(press?.parent).toBe(notion.idOf('handbook'));

    expect(await shown(grace, 'stuck')).toMatchObject(showing('Fix stuck syncs'));
    expect(await sync('prune')).toEqual({ kind: 'pruned', deleted: 1 });
    expect(await shown(grace, 'stuck')).toMatchObject(hiding('Fix stuck syncs'));
  });

  it('takes away what a page unshared from the integration held, and all of it from a member turned guest', async () => {
    expect(await shown(grace, 'weekdays')).toMatchObject(showing('Engineering handbook'));
    notion.unshare('handbook');
    notion.share('oncall');
    // The handbook, its database and the remaining row go; the press kit, shared with the integration itself, stays.
    expect(await sync('permissions')).toMatchObject({ kind: 'permissions', changed: 3 });
    expect(await find(grace, 'handbook')).toEqual([]);
    expect(await shown(grace, 'weekdays')).toMatchObject(hiding('Engineering handbook'));
    expect(await find(grace, 'journalists')).toEqual(['Press kit']);
    expect(await find(grace, 'progress')).toEqual([]);
    expect(await find(grace, 'tuesday')).toEqual(['On-call rotation']);

    expect(await shown(linus, 'tuesday')).toMatchObject(showing('On-call rotation'));
    notion.setRole('linus', 'guest');
    expect(await sync('permissions')).toMatchObject({ kind: 'permissions', changed: 0 });
    // Neither `_search` nor the chat answer (its references and its text) shows the guest the page any more.
    expect(await shown(linus, 'tuesday')).toMatchObject(hiding('On-call rotation'));
    expect(await shown(grace, 'tuesday')).toMatchObject(showing('On-call rotation'));
  });

  it('rides out a 429 storm, and asks for a reconnect when the token is revoked', async () => {
    notion.upsertPage({ key: 'storm', title: 'Storm notes', parent: { page: 'oncall' } });
    notion.rateLimitNext(3, 1);
    expect(await sync('incremental')).toMatchObject({ kind: 'complete' });
    expect(await find(grace, 'storm')).toEqual(['Storm notes']);

    notion.revokeToken();
    expect(await sync('incremental')).toEqual({
      kind: 'stopped',
      statusCode: ConnectionStatus.ErrorReconnect,
    });
    expect(await connection()).toMatchObject({
      statusCode: ConnectionStatus.ErrorReconnect,
      statusMessage: apps.incorrectCredential('credentials'),
    });
  });
});
