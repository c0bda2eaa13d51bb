// The OneDrive connector end to end: every user's OneDrive from a fake Microsoft 365 tenant, through the real sync
// engine and store, checked as members search. (A connector's test may not import the server, so it lives here.)
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ConnectionStatus } from '../../common/connection-status';
import {
  ADMIN_EMAIL,
  CLIENT_ID,
  CLIENT_SECRET,
  TENANT,
  userGrant,
  startGraphTenantFake,
  type GraphTenantFake,
} from '../../connectors/sharepoint/fake';
import { appConnections, documents, type User } from '../db/schema';
import { titlesFound } from '../testing/search';
import { syncNow } from './testing/connections';
import { createOrg, createUser } from '../testing/fixtures';
import { createTestServer, type TestServer } from '../testing/server';
import { encryptCredentials } from './connections';
import { type SyncMode } from './engine';

let server: TestServer;
let tenant: GraphTenantFake;
let connectionId: string;
const members = new Map<string, User>();

beforeAll(async () => {
  vi.stubEnv('SCOUT_OAUTH_ONEDRIVE_CLIENT_ID', CLIENT_ID);
  vi.stubEnv('SCOUT_OAUTH_ONEDRIVE_CLIENT_SECRET', CLIENT_SECRET);
  server = await createTestServer();
  tenant = await startGraphTenantFake({ pageSize: 2 });
  const { db } = server.store;
  const org = await createOrg(db, { domain: TENANT });
  for (const name of ['admin', 'grace', 'linus', 'bob'])
    members.set(name, await createUser(db, org, { email: `${name}@${TENANT}`, admin: name === 'admin' }));
  const [row] = await db
    .insert(appConnections)
    .values({
      orgId: org.id,
      userId: members.get('admin')!.id,
      appName: 'onedrive',
      isOrg: true,
      statusCode: ConnectionStatus.Connecting,
      extra: { config: tenant.config },
    })
    .returning();
  connectionId = row!.id;
  await db
    .update(appConnections)
    .set({
      credentialsEncrypted: encryptCredentials(connectionId, { email: ADMIN_EMAIL, marketplace: true }),
    })
    .where(eq(appConnections.id, connectionId));
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await tenant.close();
  await server.close();
});

const sync = (mode: SyncMode) => syncNow(server.store.db, connectionId, mode);

/** The titles a member finds for 'onedrive' (every file's path starts with it). */
const visibleTo = (name: string) => titlesFound(server, members.get(name)!, 'onedrive');

describe('onedrive through the sync engine', () => {
  it('indexes every OneDrive, each file found only by whom it is shared with', async () => {
    expect(await sync('full')).toMatchObject({ kind: 'complete' });
    const ids = await server.store.db
      .select({ externalId: documents.externalId })
      .from(documents)
      .where(eq(documents.connectionId, connectionId));
    expect(ids.map((row) => row.externalId).sort()).toEqual(
      [...tenant.files(['b!grace', 'b!linus']).keys()].sort(),
    );
    expect(await visibleTo('grace')).toEqual(['Notes documents.md', 'Todo documents.txt']);
    expect(await visibleTo('linus')).toEqual(['Todo documents.txt']);
    expect(await visibleTo('bob')).toEqual([]);
    expect(await visibleTo('admin')).toEqual([]);
  });

  it('stops showing a file to a member its owner stopped sharing it with, after the permission sync', async () => {
    tenant.setPermissions('b!linus', 'todo', [userGrant('todo', 'linus')]);
    expect(await sync('permissions')).toMatchObject({ kind: 'permissions', changed: 1 });
    expect(await visibleTo('grace')).toEqual(['Notes documents.md']);
    expect(await visibleTo('linus')).toEqual(['Todo documents.txt']);
  });

  it('removes a file deleted from a OneDrive on the next incremental sync', async () => {
    tenant.remove('b!grace', 'notes');
    expect(await sync('incremental')).toMatchObject({ kind: 'complete' });
    expect(await visibleTo('grace')).toEqual([]);
  });
});
