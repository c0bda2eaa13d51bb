// Google groups are the organisation's, not one connection's: a Drive file shared with a group reaches the members
// the Workspace directory connection lists, though the Drive connection lists other members or none. The real engine
// and store sync the Drive and Directory fakes on 127.0.0.1; members are checked through `_search` and a chat answer.
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DOC_MIME, FOLDER_MIME, startDriveFake, type DriveFake } from '../../connectors/gdrive/fake';
import { startDirectoryFake, type WorkspaceDirectoryFake } from '../../connectors/gworkspace-directory/fake';
import { aclGroupMembers, appConnections, documents, type User } from '../db/schema';
import { runWorker } from '../jobs/worker';
import { createLogger } from '../logger';
import { createOrg, createUser } from '../testing/fixtures';
import { hiding, showing, shownTo } from '../testing/search';
import { createTestServer, type TestServer } from '../testing/server';
import { startDisconnect } from './jobs';
import { insertConnection, syncNow } from './testing/connections';

let server: TestServer;
let drive: DriveFake;
let directory: WorkspaceDirectoryFake;
let orgId: string;
const people = new Map<string, User>();
let driveId: string;
let directoryId: string;

const PLAN = 'Kestrel launch plan';
const DESIGN = 'group:google:design@acme.test';

const shown = (name: string) => shownTo(server, people.get(name)!, 'kestrel');

/** The memberships a connection holds, as `group member` lines. */
async function membershipsOf(connectionId: string): Promise<string[]> {
  const rows = await server.store.db
    .select({ groupKey: aclGroupMembers.groupKey, memberEmail: aclGroupMembers.memberEmail })
    .from(aclGroupMembers)
    .where(eq(aclGroupMembers.connectionId, connectionId))
    .orderBy(asc(aclGroupMembers.groupKey), asc(aclGroupMembers.memberEmail));
  return rows.map((row) => `${row.groupKey} ${row.memberEmail}`);
}

beforeAll(async () => {
  server = await createTestServer();
  const { db } = server.store;
  const org = await createOrg(db, { domain: 'acme.test' });
  orgId = org.id;
  for (const name of ['admin', 'bob', 'eve', 'grace'])
    people.set(name, await createUser(db, org, { email: `${name}@acme.test`, admin: name === 'admin' }));

  drive = await startDriveFake();
  drive.addFile({ id: 'root', name: 'My Drive', mimeType: FOLDER_MIME });
  drive.addFile({
    id: 'd-plan',
    name: PLAN,
    mimeType: DOC_MIME,
    parent: 'root',
    content: 'The kestrel launch plan: ship the beta in May.',
    permissions: [{ type: 'group', role: 'reader', emailAddress: 'Design@acme.test' }],
  });
  // Drive's own view of the group names Grace only.
  drive.addGroup('design@acme.test', [{ email: 'grace@acme.test', type: 'USER', status: 'ACTIVE' }]);

  directory = await startDirectoryFake();
  // The directory's: the ux group, nested in design, holds Eve and Bob.
  directory.addGroup('design@acme.test', [{ email: 'ux@acme.test', type: 'GROUP' }]);
  directory.addGroup('ux@acme.test', [
    { email: 'eve@acme.test', type: 'USER', status: 'ACTIVE' },
    { email: 'bob@acme.test', type: 'USER', status: 'ACTIVE' },
  ]);

  const connect = (appName: string, fake: { server: { url: string }; token: string }) =>
    insertConnection(db, {
      orgId,
      userId: people.get('admin')!.id,
      appName,
      isOrg: true,
      config: { baseUrl: fake.server.url },
      credentials: {
        access_token: fake.token,
        refresh_token: 'refresh-1',
        expires_at: '2099-01-01T00:00:00.000Z',
      },
    });
  driveId = await connect('gdrive', drive);
  directoryId = await connect('gworkspace-directory', directory);
});
afterAll(async () => {
  await drive?.close();
  await directory?.close();
  await server?.close();
});

it('names a Drive file’s group by its email for the whole org, and reads its members from each connection', async () => {
  expect(await syncNow(server.store.db, driveId, 'full')).toMatchObject({ kind: 'complete' });
  const [plan] = await server.store.db
    .select({ acl: documents.acl })
    .from(documents)
    .where(and(eq(documents.connectionId, driveId), eq(documents.externalId, 'd-plan')));
  expect(plan?.acl).toEqual([DESIGN, 'user:admin@acme.test']);
  expect(await shown('grace')).toMatchObject(showing(PLAN));
  expect(await shown('eve')).toMatchObject(hiding(PLAN));

  expect(await syncNow(server.store.db, directoryId, 'full')).toMatchObject({ kind: 'complete' });
  expect(await membershipsOf(directoryId)).toEqual([
    `${DESIGN} bob@acme.test`,
    `${DESIGN} eve@acme.test`,
    'group:google:ux@acme.test bob@acme.test',
    'group:google:ux@acme.test eve@acme.test',
  ]);
  // Eve is in design only through ux, and only the directory connection says so.
  expect(await shown('eve')).toMatchObject(showing(PLAN));
  expect(await shown('grace')).toMatchObject(showing(PLAN));
});

it('drops a member the directory takes out of a group from their next search and answer', async () => {
  directory.setMembers('ux@acme.test', [{ email: 'bob@acme.test', type: 'USER', status: 'ACTIVE' }]);
  expect(await syncNow(server.store.db, directoryId, 'permissions')).toMatchObject({ kind: 'permissions' });
  expect(await shown('eve')).toMatchObject(hiding(PLAN));
  expect(await shown('bob')).toMatchObject(showing(PLAN));
  // Drive's memberships are Drive's: the directory's sync left them alone.
  expect(await membershipsOf(driveId)).toEqual([`${DESIGN} grace@acme.test`]);
  expect(await shown('grace')).toMatchObject(showing(PLAN));
});

it('leaves the directory’s memberships in place when Drive’s own view of the group changes', async () => {
  drive.setMembers('design@acme.test', []);
  expect(await syncNow(server.store.db, driveId, 'permissions')).toMatchObject({ kind: 'permissions' });
  expect(await membershipsOf(driveId)).toEqual([]);
  expect(await shown('grace')).toMatchObject(hiding(PLAN));
  expect(await shown('bob')).toMatchObject(showing(PLAN));
});

it('stops counting the directory connection’s memberships once it is Disconnecting, and removes exactly them', async () => {
  drive.setMembers('design@acme.test', [{ email: 'grace@acme.test', type: 'USER', status: 'ACTIVE' }]);
  expect(await syncNow(server.store.db, driveId, 'permissions')).toMatchObject({ kind: 'permissions' });
  await startDisconnect(server.store.db, { id: directoryId, orgId });
  // Disabling already: its rows are still there, but Bob was in design through them alone.
  expect(await membershipsOf(directoryId)).not.toEqual([]);
  expect(await shown('bob')).toMatchObject(hiding(PLAN));
  expect(await shown('grace')).toMatchObject(showing(PLAN));
  const worker = runWorker(server.store, createLogger('silent'), { idleMs: 10 });
  try {
    await expect
      .poll(
        async () =>
          (
            await server.store.db
              .select({ id: appConnections.id })
              .from(appConnections)
              .where(eq(appConnections.id, directoryId))
          ).length,
        { timeout: 30_000, interval: 50 },
      )
      .toBe(0);
  } finally {
    await worker.stop();
  }
  expect(await membershipsOf(directoryId)).toEqual([]);
  expect(await membershipsOf(driveId)).toEqual([`${DESIGN} grace@acme.test`]);
  expect(await shown('bob')).toMatchObject(hiding(PLAN));
  expect(await shown('grace')).toMatchObject(showing(PLAN));
});
