// The SharePoint connector end to end: a fake Microsoft 365 tenant on 127.0.0.1, the real sync engine and store,
// and members' own searches. (A connector's test may not import the server, so this one lives here.)
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ConnectionStatus } from '../../common/connection-status';
import {
  ADMIN_EMAIL,
  CLIENT_ID,
  CLIENT_SECRET,
  ENG_SITE,
  TEAM_GROUP,
  TENANT,
  groupGrant,
  linkGrant,
  startGraphTenantFake,
  userGrant,
  type GraphTenantFake,
} from '../../connectors/sharepoint/fake';
import { appConnections, documents, type User } from '../db/schema';
import { hiding, showing, shownTo, titlesFound } from '../testing/search';
import { syncNow } from './testing/connections';
import { createOrg, createUser } from '../testing/fixtures';
import { createTestServer, type TestServer } from '../testing/server';
import { encryptCredentials } from './connections';
import { type SyncMode } from './engine';

let server: TestServer;
let tenant: GraphTenantFake;
const members: Record<'admin' | 'ada' | 'grace' | 'linus' | 'bob', User> = {} as never;
let orgId: string;

beforeAll(async () => {
  vi.stubEnv('SCOUT_OAUTH_SHAREPOINT_CLIENT_ID', CLIENT_ID);
  vi.stubEnv('SCOUT_OAUTH_SHAREPOINT_CLIENT_SECRET', CLIENT_SECRET);
  server = await createTestServer();
  tenant = await startGraphTenantFake({ pageSize: 2 });
  const { db } = server.store;
  const org = await createOrg(db, { domain: TENANT });
  orgId = org.id;
  for (const name of ['admin', 'ada', 'grace', 'linus', 'bob'] as const)
    members[name] = await createUser(db, org, { email: `${name}@${TENANT}`, admin: name === 'admin' });
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await tenant.close();
  await server.close();
});

async function connect(): Promise<string> {
  const [row] = await server.store.db
    .insert(appConnections)
    .values({
      orgId,
      userId: members.admin.id,
      appName: 'sharepoint',
      isOrg: true,
      statusCode: ConnectionStatus.Connecting,
      extra: { config: tenant.config },
    })
    .returning();
  await server.store.db
    .update(appConnections)
    .set({ credentialsEncrypted: encryptCredentials(row!.id, { email: ADMIN_EMAIL, marketplace: true }) })
    .where(eq(appConnections.id, row!.id));
  return row!.id;
}

const sync = (connectionId: string, mode: SyncMode, runId?: string) =>
  syncNow(server.store.db, connectionId, mode, { runId });

/** What the index holds for a connection: external id → title. */
const indexed = async (connectionId: string) =>
  new Map(
    (
      await server.store.db
        .select({ externalId: documents.externalId, title: documents.title })
        .from(documents)
        .where(eq(documents.connectionId, connectionId))
    ).map((row) => [row.externalId, row.title]),
  );

const bodyOf = async (connectionId: string, externalId: string) =>
  (
    await server.store.db
      .select({ body: documents.body })
      .from(documents)
      .where(and(eq(documents.connectionId, connectionId), eq(documents.externalId, externalId)))
  )[0]?.body;

/** The titles a member finds for 'documents' (every fixture file's name says it). */
const visibleTo = (user: User) => titlesFound(server, user, 'documents');

/**
 * What the index should hold: the libraries' files and the site pages. Not the list items: Graph names none of
 * their readers, and a document nobody may read is not kept.
 */
const sharePointFiles = () =>
  new Map([
    ...tenant.files(['b!eng', 'b!hr']),
    ...[...tenant.siteContent()].filter(([externalId]) => externalId.startsWith('page:')),
  ]);

/** The titles a member finds for `q`. */
const find = (user: User, q: string) => titlesFound(server, user, q);

/** What a member is shown for `q` by `_search` and by a chat answer. */
const shown = (user: User, q: string) => shownTo(server, user, q);

describe('sharepoint through the sync engine', () => {
  let connectionId: string;

  it('syncs the tenant: the index equals its files, and each member finds exactly what Graph lets them read', async () => {
    connectionId = await connect();
    expect(await sync(connectionId, 'full')).toMatchObject({ kind: 'complete' });
    const [row] = await server.store.db
      .select()
      .from(appConnections)
      .where(eq(appConnections.id, connectionId));
    expect(row?.statusCode).toBe(ConnectionStatus.IndexingComplete);
    expect(await indexed(connectionId)).toEqual(sharePointFiles());

    const everyone = ['Handbook documents.pdf', 'Roadmap documents.pptx'];
    expect(await visibleTo(members.bob)).toEqual(['Design documents.docx', ...everyone].sort());
    // Grace through the eng group on the Specs folder; Linus through sre, nested in eng.
    expect(await visibleTo(members.grace)).toEqual(['Design documents.docx', ...everyone].sort());
    expect(await visibleTo(members.linus)).toEqual(
      ['Design documents.docx', 'Offer documents.docx', ...everyone].sort(),
    );
    expect(await visibleTo(members.ada)).toEqual(['Salaries documents.xlsx', ...everyone].sort());
    // Shared only with a site group, whose members Graph cannot list: nobody, not even the admin who connected.
    expect(await visibleTo(members.admin)).toEqual(everyone);
  });

  it('follows an edit, a delete and a move with an incremental sync', async () => {
    tenant.rename('b!eng', 'roadmap', 'Roadmap 2026 documents.pptx');
    tenant.remove('b!hr', 'offer');
    tenant.upsert('b!eng', { id: 'archive', name: 'Archive', folder: true });
    tenant.move('b!eng', 'design', 'archive');
    expect(await sync(connectionId, 'incremental')).toMatchObject({ kind: 'complete' });
    expect(await indexed(connectionId)).toEqual(sharePointFiles());
    expect(await bodyOf(connectionId, 'b!eng:design')).toBe(
      'Engineering / Documents / Archive / Design documents.docx',
    );
    expect(await visibleTo(members.linus)).not.toContain('Offer documents.docx');
    // The move left the Specs folder and the eng group's grant behind.
    expect(await visibleTo(members.grace)).not.toContain('Design documents.docx');
    expect(await visibleTo(members.bob)).toContain('Design documents.docx');
  });

  it('takes a member off an item’s permissions: after the permission sync their search and answers no longer show it', async () => {
    const design = 'Design documents.docx';
    expect(await shown(members.bob, 'design')).toMatchObject(showing(design));
    tenant.setPermissions('b!eng', 'design', [groupGrant('design', 'g-sre')]);
    expect(await sync(connectionId, 'permissions')).toMatchObject({ kind: 'permissions', changed: 1 });
    expect(await visibleTo(members.bob)).not.toContain(design);
    expect(await shown(members.bob, 'design')).toMatchObject(hiding(design));
    expect(await visibleTo(members.linus)).toContain(design);
    expect(await shown(members.linus, 'design')).toMatchObject(showing(design));
  });

  it('takes a member out of an Entra group: after the permission sync their search and answers no longer show its files', async () => {
    const design = 'Design documents.docx';
    expect(await shown(members.linus, 'design')).toMatchObject(showing(design));
    tenant.setGroupMembers('g-sre', []);
    expect(await sync(connectionId, 'permissions')).toMatchObject({ kind: 'permissions' });
    expect(await visibleTo(members.linus)).not.toContain(design);
    expect(await shown(members.linus, 'design')).toMatchObject(hiding(design));
  });

  it('rides out a 429 storm and a token that expires mid-sync', async () => {
    tenant.upsert('b!hr', {
      id: 'benefits',
      name: 'Benefits documents.pdf',
      permissions: [linkGrant('benefits', 'organization')],
    });
    tenant.expireTokens(6);
    const tokensTaken = tenant.login.requests.length;
    tenant.graph.failNext(3, { kind: 'rateLimit', retryAfter: 0 });
    tenant.graph.failNext(1, { kind: 'status', status: 503, headers: { 'retry-after': '0' } });
    expect(await sync(connectionId, 'incremental')).toMatchObject({ kind: 'complete' });
    expect(await indexed(connectionId)).toEqual(sharePointFiles());
    expect(tenant.graph.requests.filter((request) => request.outcome === 'rateLimit')).toHaveLength(3);
    // The engine's context took a token, Graph refused it as expired, and the connector took another.
    expect(tenant.login.requests.length).toBe(tokensTaken + 2);
  });

  it('finds a site page by its text as members and owners of the site’s Microsoft 365 group, and nobody else does; nobody finds a list item', async () => {
    // Bob and Linus are the group's members, Ada its owner; Grace is in neither.
    for (const member of [members.bob, members.linus, members.ada]) {
      expect(await find(member, 'zeppelin')).toEqual(['Launch checklist']);
      // Graph names no list item's readers, so one narrowed below its site cannot be told apart: nobody's.
      expect(await find(member, 'marmalade')).toEqual([]);
    }
    expect(await find(members.grace, 'zeppelin')).toEqual([]);
    expect(await find(members.grace, 'marmalade')).toEqual([]);
    // HR belongs to no Microsoft 365 group: Graph names none of its readers, so nobody finds its page or items.
    for (const member of Object.values(members)) {
      expect(await find(member, 'sabbatical')).toEqual([]);
      expect(await find(member, 'offsite')).toEqual([]);
    }
  });

  it('follows an edited page and a deleted list item with an incremental sync', async () => {
    tenant.upsertPage(ENG_SITE, {
      id: 'launch',
      title: 'Launch checklist',
      paragraphs: ['<p>Freeze the dirigible schema.</p>'],
    });
    tenant.removeListItem('l-incidents', '1');
    expect(await sync(connectionId, 'incremental')).toMatchObject({ kind: 'complete' });
    expect(await indexed(connectionId)).toEqual(sharePointFiles());
    expect(await find(members.bob, 'dirigible')).toEqual(['Launch checklist']);
    expect(await find(members.bob, 'zeppelin')).toEqual([]);
    expect(await find(members.bob, 'marmalade')).toEqual([]);
  });

  it('takes a member and the owner out of the site’s Microsoft 365 group: after the permission sync its pages no longer show to them', async () => {
    tenant.setGroupMembers(TEAM_GROUP, ['u-linus']);
    tenant.setGroupOwners(TEAM_GROUP, []);
    expect(await sync(connectionId, 'permissions')).toMatchObject({ kind: 'permissions' });
    expect(await find(members.bob, 'dirigible')).toEqual([]);
    expect(await find(members.ada, 'dirigible')).toEqual([]);
    expect(await find(members.linus, 'dirigible')).toEqual(['Launch checklist']);
  });

  it('prunes a deleted site page', async () => {
    tenant.removePage(ENG_SITE, 'launch');
    expect(await sync(connectionId, 'prune')).toMatchObject({ kind: 'pruned', deleted: 1 });
    expect(await find(members.linus, 'dirigible')).toEqual([]);
    expect(await indexed(connectionId)).toEqual(sharePointFiles());
  });
});

describe('an interrupted sharepoint sync', () => {
  it('resumes from its cursor, without enumerating finished drives again, and ends equal to the tenant', async () => {
    const connectionId = await connect();
    // The HR library fails as often as the client retries: the job stops with Engineering committed.
    tenant.graph.failNext(5, { kind: 'status', status: 500 }, { path: '/v1.0/drives/b!hr/root/delta' });
    await expect(sync(connectionId, 'full', 'job-1')).rejects.toThrow(/answered 500/);
    const partial = await indexed(connectionId);
    expect([...partial.keys()].every((id) => id.startsWith('b!eng:'))).toBe(true);
    expect(partial.size).toBeGreaterThan(0);

    tenant.graph.clearLog();
    // The same job, retried: it resumes from the committed cursor.
    expect(await sync(connectionId, 'full', 'job-1')).toMatchObject({ kind: 'complete' });
    expect(await indexed(connectionId)).toEqual(sharePointFiles());
    const restarted = tenant.graph.requests.filter(
      // A fresh enumeration carries neither a delta token nor a page position.
      (request) => request.path === '/v1.0/drives/b!eng/root/delta' && !/token=|skip=/.test(request.search),
    );
    expect(restarted).toEqual([]);
  });
});

describe('sharepoint pages and list items whose permissions were narrowed below their site’s', () => {
  let connectionId: string;
  const page = 'Quokka census';

  beforeAll(async () => {
    // Bob and Linus are the Engineering site's members through its Microsoft 365 group; Grace is not.
    tenant.setGroupMembers(TEAM_GROUP, ['u-bob', 'u-linus']);
    tenant.upsertPage(ENG_SITE, { id: 'census', title: page, paragraphs: ['<p>Quokka headcount.</p>'] });
    tenant.upsertListItem('l-incidents', {
      id: '7',
      fields: { Title: 'Wombat outage', Summary: 'Burrow flooded' },
    });
    tenant.setPagePermissions(ENG_SITE, 'census', [userGrant('census', 'grace')]);
    connectionId = await connect();
    expect(await sync(connectionId, 'full')).toMatchObject({ kind: 'complete' });
    expect(await sync(connectionId, 'permissions')).toMatchObject({ kind: 'permissions' });
  });

  it('shows a page granted to one user to that user alone, not to the site’s members', async () => {
    expect(await shown(members.grace, 'quokka')).toMatchObject(showing(page));
    expect(await shown(members.bob, 'quokka')).toMatchObject(hiding(page));
    expect(await shown(members.linus, 'quokka')).toMatchObject(hiding(page));
  });

  it('shows a list item to nobody, site members included, since Graph cannot say whether it was narrowed', async () => {
    for (const member of [members.bob, members.linus, members.grace])
      expect(await shown(member, 'wombat')).toMatchObject(hiding('Wombat outage'));
  });

  it('shows the page to the site’s members again, and no longer to the user, once it inherits after the permission sync', async () => {
    tenant.setPagePermissions(ENG_SITE, 'census', null);
    expect(await sync(connectionId, 'permissions')).toMatchObject({ kind: 'permissions', changed: 1 });
    expect(await shown(members.bob, 'quokka')).toMatchObject(showing(page));
    expect(await shown(members.grace, 'quokka')).toMatchObject(hiding(page));
  });

  it('narrows it again when its inheritance is broken later: the permission sync hides it from the site’s members', async () => {
    tenant.setPagePermissions(ENG_SITE, 'census', [userGrant('census', 'grace')]);
    expect(await sync(connectionId, 'permissions')).toMatchObject({ kind: 'permissions', changed: 1 });
    expect(await shown(members.bob, 'quokka')).toMatchObject(hiding(page));
    expect(await shown(members.grace, 'quokka')).toMatchObject(showing(page));
  });

  it('shows a page whose permissions Graph refuses to nobody, completes the sync, and shows it once they can be read', async () => {
    tenant.setPagePermissions(ENG_SITE, 'census', null);
    tenant.upsertPage(ENG_SITE, {
      id: 'census',
      title: page,
      paragraphs: ['<p>Quokka headcount, revised.</p>'],
    });
    tenant.graph.failNext(
      1,
      { kind: 'status', status: 403, json: { error: { code: 'accessDenied', message: 'Access denied' } } },
      { path: '/v1.0/sites/:site/lists/:list/items/census/driveItem/permissions' },
    );
    expect(await sync(connectionId, 'incremental')).toMatchObject({ kind: 'complete' });
    for (const member of [members.bob, members.linus, members.grace])
      expect(await shown(member, 'quokka')).toMatchObject(hiding(page));
    expect((await indexed(connectionId)).has(`page:${ENG_SITE}:census`)).toBe(false);
    // The page did not change again: the next sync reads it because it was hidden.
    expect(await sync(connectionId, 'incremental')).toMatchObject({ kind: 'complete' });
    expect(await shown(members.bob, 'quokka')).toMatchObject(showing(page));
    expect(await indexed(connectionId)).toEqual(sharePointFiles());
  });

  it('narrows a page whose sharing alone changed at the next incremental sync, before any permission sync', async () => {
    tenant.setPagePermissions(ENG_SITE, 'census', [userGrant('census', 'grace')]);
    expect(await sync(connectionId, 'incremental')).toMatchObject({ kind: 'complete' });
    expect(await shown(members.bob, 'quokka')).toMatchObject(hiding(page));
    expect(await shown(members.linus, 'quokka')).toMatchObject(hiding(page));
    expect(await shown(members.grace, 'quokka')).toMatchObject(showing(page));
  });
});
