// The Google Workspace directory end to end: the real engine and store syncing the Directory fake on 127.0.0.1
// (connectors/gworkspace-directory/fake.ts). Its people become contacts every member finds through `_search`, its
// groups land in the store with nested memberships flattened, and a member taken out of an inner group leaves the
// outer one at the next permission sync.
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ConnectionStatus } from '../../common/connection-status';
import {
  seedAcmeDirectory,
  startDirectoryFake,
  type WorkspaceDirectoryFake,
} from '../../connectors/gworkspace-directory/fake';
import { aclGroupMembers, appConnections, type User } from '../db/schema';
import { createOrg, createUser } from '../testing/fixtures';
import { hiding, showing, shownTo, titlesFound } from '../testing/search';
import { createTestServer, type TestServer } from '../testing/server';
import { insertConnection, syncNow } from './testing/connections';

let server: TestServer;
let fake: WorkspaceDirectoryFake;
let eve: User;
let connectionId: string;

beforeAll(async () => {
  server = await createTestServer();
  fake = await startDirectoryFake({ pageSize: 2 });
  seedAcmeDirectory(fake);
  const org = await createOrg(server.store.db, { domain: 'acme.test' });
  const admin = await createUser(server.store.db, org, { email: 'admin@acme.test', admin: true });
  eve = await createUser(server.store.db, org, { email: 'eve@acme.test' });
  connectionId = await insertConnection(server.store.db, {
    orgId: org.id,
    userId: admin.id,
    appName: 'gworkspace-directory',
    isOrg: true,
    config: { baseUrl: fake.server.url },
    credentials: {
      access_token: fake.token,
      refresh_token: 'refresh-1',
      expires_at: '2099-01-01T00:00:00.000Z',
    },
  });
});
afterAll(async () => {
  await fake.close();
  await server.close();
});

/** Each group of the connection with its members' emails, as the store keeps them for search. */
async function groups(): Promise<Record<string, string[]>> {
  const rows = await server.store.db
    .select({ groupKey: aclGroupMembers.groupKey, memberEmail: aclGroupMembers.memberEmail })
    .from(aclGroupMembers)
    .where(eq(aclGroupMembers.connectionId, connectionId))
    .orderBy(asc(aclGroupMembers.groupKey), asc(aclGroupMembers.memberEmail));
  const byGroup: Record<string, string[]> = {};
  for (const row of rows) (byGroup[row.groupKey] ??= []).push(row.memberEmail);
  return byGroup;
}

const group = (email: string) => `group:google:${email}`;

it('indexes the listed people for every member, and the groups with their nested members', async () => {
  expect(await syncNow(server.store.db, connectionId, 'full')).toMatchObject({ kind: 'complete' });
  const [connection] = await server.store.db
    .select({ statusCode: appConnections.statusCode })
    .from(appConnections)
    .where(eq(appConnections.id, connectionId));
  expect(connection?.statusCode).toBe(ConnectionStatus.IndexingComplete);
  // Suspended people and those hidden from the address list are not found.
  expect(await titlesFound(server, eve, 'Engineering')).toEqual(['Ada Lovelace', 'Grace Hopper']);
  expect(await titlesFound(server, eve, 'Linus')).toEqual(['Linus Torvalds']);
  expect(await titlesFound(server, eve, 'Mallory')).toEqual([]);
  expect(await titlesFound(server, eve, 'Hidden')).toEqual([]);
  // Linus is in eng through sre, the group nested in it.
  expect(await groups()).toEqual({
    [group('eng@acme.test')]: ['grace@acme.test', 'linus@acme.test'],
    [group('sre@acme.test')]: ['linus@acme.test'],
  });
});

it('takes a member out of the outer group too when the inner group drops them', async () => {
  fake.setMembers('sre@acme.test', [{ email: 'eve@acme.test', type: 'USER', status: 'ACTIVE' }]);
  expect(await syncNow(server.store.db, connectionId, 'permissions')).toMatchObject({
    kind: 'permissions',
  });
  expect(await groups()).toEqual({
    [group('eng@acme.test')]: ['eve@acme.test', 'grace@acme.test'],
    [group('sre@acme.test')]: ['eve@acme.test'],
  });
});

it('shows nobody a person who left the directory once the prune has run, in `_search` or a chat answer', async () => {
  expect(await shownTo(server, eve, 'Torvalds')).toMatchObject(showing('Linus Torvalds'));
  fake.removeUser('linus@acme.test');
  expect(await syncNow(server.store.db, connectionId, 'prune')).toEqual({ kind: 'pruned', deleted: 1 });
  expect(await shownTo(server, eve, 'Torvalds')).toMatchObject(hiding('Linus Torvalds'));
  expect(await shownTo(server, eve, 'Hopper')).toMatchObject(showing('Grace Hopper'));
});
