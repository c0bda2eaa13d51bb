// Drive's org connection end to end: the Workspace admin installs through the marketplace payload, the real engine
// reads every member's Drive and each shared drive through the service account's delegated tokens (the fake token
// endpoint verifies the signed JWTs, and the Drive fake answers as the member each token acts as), and each member
// finds through `_search` exactly the files Drive lets them open, each file indexed once.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ConnectionStatus } from '../../common/connection-status';
import { apps } from '../../common/strings';
import { gdriveConnector } from '../../connectors/gdrive';
import { DOC_MIME, startDriveFake, type DriveFake } from '../../connectors/gdrive/fake';
import { DRIVE_ORG_SCOPES, DRIVE_READONLY_SCOPE } from '../../connectors/gdrive/org';
import { googleConfigSchema } from '../../connectors/google/api';
import { defineConnector } from '../../connectors/sdk';
import { appConnections, documents, type Org, type User } from '../db/schema';
import { createOrg, createUser, loginTokensFor } from '../testing/fixtures';
import { hiding, showing, shownTo, titlesFound } from '../testing/search';
import { createTestServer, type TestServer } from '../testing/server';
import { syncNow } from './testing/connections';
import { registerConnector } from './registry';

let server: TestServer;
let fake: DriveFake;
let org: Org;
const people = new Map<string, User>();
let connectionId: string;

const ADMIN = 'bob@example.com';
const MEMBERS = ['bob', 'ada', 'grace'] as const;

beforeAll(async () => {
  fake = await startDriveFake({ pageSize: 2, workspace: { admin: ADMIN, driveScope: DRIVE_READONLY_SCOPE } });
  for (const name of MEMBERS)
    fake.putUser({ primaryEmail: `${name}@example.com`, suspended: false, isAdmin: name === 'bob' });
  fake.account!.grant(DRIVE_ORG_SCOPES);
  // The marketplace payload carries no address: the connection reaches the fake by its schema's default.
  const atFake = googleConfigSchema.extend({ baseUrl: z.url().default(fake.server.url) });
  registerConnector(defineConnector({ ...gdriveConnector, configSchema: atFake }));
  vi.stubEnv('SCOUT_GOOGLE_SERVICE_ACCOUNT', JSON.stringify(fake.account!.key));
  server = await createTestServer();
  const { db } = server.store;
  org = await createOrg(db, { domain: 'example.com', plan: 'ENTERPRISE' });
  for (const name of [...MEMBERS, 'eve'])
    people.set(name, await createUser(db, org, { email: `${name}@example.com`, admin: name === 'bob' }));

  fake.addGroup('eng@example.com', [{ email: 'ada@example.com', type: 'USER', status: 'ACTIVE' }]);
  const doc = (
    id: string,
    name: string,
    owner: string,
    permissions: Parameters<DriveFake['addFile']>[0]['permissions'] = [],
  ) =>
    fake.addFile({
      id,
      name,
      mimeType: DOC_MIME,
      owner,
      content: `${name}: the zephyr project.`,
      permissions,
    });
  doc('a-plan', 'Zephyr plan', 'ada@example.com', [
    { type: 'user', role: 'reader', emailAddress: 'grace@example.com' },
  ]);
  doc('a-diary', 'Zephyr diary', 'ada@example.com');
  doc('g-notes', 'Zephyr notes', 'grace@example.com', [
    { type: 'domain', role: 'reader', domain: 'example.com', allowFileDiscovery: true },
  ]);
  doc('g-private', 'Zephyr draft', 'grace@example.com');
  doc('b-memo', 'Zephyr group memo', ADMIN, [
    { type: 'group', role: 'reader', emailAddress: 'eng@example.com' },
  ]);
  // Owned outside the Workspace: indexed from the feed of the member who may share it, for whom it names.
  doc('x-brief', 'Zephyr partner brief', 'pat@partner.test', [
    { type: 'user', role: 'writer', emailAddress: 'ada@example.com' },
    { type: 'user', role: 'reader', emailAddress: 'grace@example.com' },
  ]);
  // Shared with a reader only: nobody in the Workspace may read its sharing, so nobody finds it.
  doc('x-rumour', 'Zephyr rumour', 'pat@partner.test', [
    { type: 'user', role: 'reader', emailAddress: 'grace@example.com' },
  ]);
  fake.addDrive('drive-eng', 'Engineering', [
    { type: 'user', role: 'organizer', emailAddress: 'grace@example.com' },
    { type: 'user', role: 'fileOrganizer', emailAddress: 'ada@example.com' },
  ]);
  fake.addFile({
    id: 'd-spec',
    name: 'Zephyr spec',
    mimeType: DOC_MIME,
    parent: 'drive-eng',
    driveId: 'drive-eng',
    content: 'The zephyr spec.',
  });
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await fake.close();
  await server.close();
});

const install = async (user: User, app: string, email: string) =>
  server.app.inject({
    method: 'PUT',
    url: `/api/v1/app/install/${app}`,
    headers: { authorization: `Bearer ${(await loginTokensFor(server.ctx, user)).id_token}` },
    payload: { isOrg: true, credentials: {}, options: { email, marketplace: true } },
  });

const found = (name: string, q = 'zephyr') => titlesFound(server, people.get(name)!, q);

/** What a member is shown for `q` by `_search` and by a chat answer. */
const shown = (name: string, q: string) => shownTo(server, people.get(name)!, q);

async function indexed(): Promise<string[]> {
  const rows = await server.store.db
    .select({ externalId: documents.externalId })
    .from(documents)
    .where(and(eq(documents.orgId, org.id), eq(documents.connectionId, connectionId)));
  return rows.map((row) => row.externalId).sort();
}

const sync = (mode: Parameters<typeof syncNow>[2]) => syncNow(server.store.db, connectionId, mode);

describe('a Drive org connection through domain-wide delegation', () => {
  it('indexes every member’s files and each shared drive once, each member finding what Drive lets them open', async () => {
    const res = await install(people.get('bob')!, 'gdrive', ADMIN);
    expect(res.statusCode, res.body).toBe(200);
    const [row] = await server.store.db.select().from(appConnections).where(eq(appConnections.orgId, org.id));
    expect(row).toMatchObject({ isOrg: true, email: ADMIN, workspaceName: 'example.com' });
    connectionId = row!.id;

    expect(await sync('full')).toMatchObject({ kind: 'complete' });
    expect(new Set(fake.account!.issuedTo)).toEqual(new Set(MEMBERS.map((name) => `${name}@example.com`)));
    expect(await indexed()).toEqual([
      'a-diary',
      'a-plan',
      'b-memo',
      'd-spec',
      'g-notes',
      'g-private',
      'x-brief',
    ]);
    expect(await found('ada')).toEqual([
      'Zephyr diary',
      'Zephyr group memo',
      'Zephyr notes',
      'Zephyr partner brief',
      'Zephyr plan',
      'Zephyr spec',
    ]);
    expect(await found('grace')).toEqual([
      'Zephyr draft',
      'Zephyr notes',
      'Zephyr partner brief',
      'Zephyr plan',
      'Zephyr spec',
    ]);
    expect(await found('bob')).toEqual(['Zephyr group memo', 'Zephyr notes']);
    expect(await found('eve')).toEqual(['Zephyr notes']);
    // Read from its owner's feed, whichever feed met it first: the readers are the file's own.
    const [plan] = await server.store.db
      .select({ acl: documents.acl })
      .from(documents)
      .where(and(eq(documents.connectionId, connectionId), eq(documents.externalId, 'a-plan')));
    expect(plan?.acl.filter((principal) => principal.startsWith('user:')).sort()).toEqual([
      'user:ada@example.com',
      'user:grace@example.com',
    ]);
  });

  it('follows a share and an unshare between two members to the other member’s next search', async () => {
    expect(await shown('grace', 'plan')).toMatchObject(showing('Zephyr plan'));
    fake.share('a-diary', [{ type: 'user', role: 'reader', emailAddress: 'grace@example.com' }]);
    fake.share('a-plan', []);
    expect(await sync('incremental')).toMatchObject({ kind: 'complete' });
    expect(await found('grace')).toEqual([
      'Zephyr diary',
      'Zephyr draft',
      'Zephyr notes',
      'Zephyr partner brief',
      'Zephyr spec',
    ]);
    // Neither `_search` nor the chat answer (its references and its text) shows Grace the plan any more.
    expect(await shown('grace', 'plan')).toMatchObject(hiding('Zephyr plan'));
    // Gone from Grace's feed, still Ada's: the file stays, read again for its readers.
    expect(await shown('ada', 'plan')).toMatchObject(showing('Zephyr plan'));
    expect(await indexed()).toContain('a-plan');
  });

  it('keeps a file owned outside the Workspace while a member may share it, and drops it when none may', async () => {
    fake.share('x-brief', [{ type: 'user', role: 'reader', emailAddress: 'grace@example.com' }]);
    expect(await sync('incremental')).toMatchObject({ kind: 'complete' });
    expect(await indexed()).not.toContain('x-brief');
    expect(await found('grace', 'partner')).toEqual([]);
  });

  it('prunes a file deleted from Drive, from every feed that held it', async () => {
    fake.remove('a-plan');
    fake.trash('d-spec');
    expect(await sync('incremental')).toMatchObject({ kind: 'complete' });
    expect(await indexed()).toEqual(['a-diary', 'b-memo', 'g-notes', 'g-private']);
    expect(await found('ada')).toEqual(['Zephyr diary', 'Zephyr group memo', 'Zephyr notes']);
  });

  it('follows a group membership change on the permission sync, leaving the files’ readers as they are', async () => {
    const memo = 'Zephyr group memo';
    expect(await shown('ada', 'memo')).toMatchObject(showing(memo));
    fake.setMembers('eng@example.com', []);
    expect(await sync('permissions')).toMatchObject({ kind: 'permissions', changed: 0 });
    expect(await found('ada')).toEqual(['Zephyr diary', 'Zephyr notes']);
    expect(await shown('ada', 'memo')).toMatchObject(hiding(memo));
    // Its owner still reads it.
    expect(await shown('bob', 'memo')).toMatchObject(showing(memo));
    expect(await indexed()).toEqual(['a-diary', 'b-memo', 'g-notes', 'g-private']);
  });

  it('prunes a departed member’s private files, keeping what was transferred with its new sharing', async () => {
    expect(await shown('grace', 'draft')).toMatchObject(showing('Zephyr draft'));
    fake.transfer('g-notes', ADMIN);
    fake.removeUser('grace@example.com');
    expect(await sync('incremental')).toMatchObject({ kind: 'complete' });
    expect(await sync('prune')).toEqual({ kind: 'pruned', deleted: 1 });
    expect(await indexed()).toEqual(['a-diary', 'b-memo', 'g-notes']);
    // Neither `_search` nor a chat answer shows the pruned draft to anyone, the member who wrote it included.
    expect(await shown('grace', 'draft')).toMatchObject(hiding('Zephyr draft'));
    // Her grant on Ada's diary is marked deleted; the permission sync reads it again.
    expect(await sync('permissions')).toMatchObject({ kind: 'permissions', changed: 1 });
    expect(await found('grace')).toEqual(['Zephyr notes']);
    expect(await found('eve')).toEqual(['Zephyr notes']);
    const [notes] = await server.store.db
      .select({ author: documents.authorEmail })
      .from(documents)
      .where(and(eq(documents.connectionId, connectionId), eq(documents.externalId, 'g-notes')));
    expect(notes?.author).toBe(ADMIN);
    const [row] = await server.store.db
      .select({ statusCode: appConnections.statusCode })
      .from(appConnections)
      .where(eq(appConnections.id, connectionId));
    expect(row?.statusCode).toBe(ConnectionStatus.IndexingComplete);
  });

  it('blocks an org connection of Gmail while Drive has one (the gworkspace parent rule)', async () => {
    const res = await install(people.get('bob')!, 'gmail', ADMIN);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ message: apps.UNABLE_TO_ADD });
  });
});
