// A member's principals on the real store: which connections' group memberships count.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CONNECTION_STATUS_CODES, ConnectionStatus } from '../../common/connection-status';
import { aclGroupMembers, appConnections, type Org, type User } from '../db/schema';
import { openStore, type Store } from '../db/store';
import { createOrg, createUser } from '../testing/fixtures';
import { principalsFor } from './acl';

let store: Store;
let org: Org;
let owner: User;

beforeAll(async () => {
  store = await openStore({ dataDir: 'memory://' });
  org = await createOrg(store.db, { domain: 'principals.test' });
  owner = await createUser(store.db, org, { email: 'owner@principals.test', admin: true });
});
afterAll(async () => {
  await store?.close();
});

/** One connection per status, each listing Ann in a group named after its status code. */
async function groupPerStatus(): Promise<Map<number, string>> {
  const groups = new Map<number, string>();
  for (const statusCode of CONNECTION_STATUS_CODES) {
    const [connection] = await store.db
      .insert(appConnections)
      .values({ orgId: org.id, userId: owner.id, appName: 'slack', isOrg: true, statusCode })
      .returning({ id: appConnections.id });
    const groupKey = `group:slack:${connection!.id}:status${statusCode}`;
    groups.set(statusCode, groupKey);
    await store.db
      .insert(aclGroupMembers)
      .values({ orgId: org.id, connectionId: connection!.id, groupKey, memberEmail: 'ann@principals.test' });
  }
  return groups;
}

it('counts memberships of live connections and of none, never those of a connection going away or dead', async () => {
  const groups = await groupPerStatus();
  await store.db
    .insert(aclGroupMembers)
    .values({ orgId: org.id, groupKey: 'group:seed:everyone', memberEmail: 'ann@principals.test' });

  const principals = await principalsFor(store.db, org.id, ' Ann@Principals.test ');

  const counted = [
    ConnectionStatus.Connecting,
    ConnectionStatus.Indexing,
    ConnectionStatus.IndexingComplete,
    ConnectionStatus.IndexingFailed,
    ConnectionStatus.PartiallyConnected,
    ConnectionStatus.ErrorReconnect,
  ].map((status) => groups.get(status)!);
  expect(principals).toEqual([
    'user:ann@principals.test',
    'org',
    'public',
    ...[...counted, 'group:seed:everyone'].sort(),
  ]);
  for (const status of [
    ConnectionStatus.Disconnecting,
    ConnectionStatus.NotConnected,
    ConnectionStatus.ErrorDoNotReconnect,
  ])
    expect(principals).not.toContain(groups.get(status));
});

it('gives one principal per group when two live connections list the same member of it', async () => {
  const google = 'group:google:team@principals.test';
  for (let i = 0; i < 2; i++) {
    const [connection] = await store.db
      .insert(appConnections)
      .values({
        orgId: org.id,
        userId: owner.id,
        appName: i === 0 ? 'gdrive' : 'gworkspace-directory',
        isOrg: true,
        statusCode: ConnectionStatus.IndexingComplete,
      })
      .returning({ id: appConnections.id });
    await store.db.insert(aclGroupMembers).values({
      orgId: org.id,
      connectionId: connection!.id,
      groupKey: google,
      memberEmail: 'bo@principals.test',
    });
  }
  expect(await principalsFor(store.db, org.id, 'bo@principals.test')).toEqual([
    'user:bo@principals.test',
    'org',
    'public',
    google,
  ]);
});
