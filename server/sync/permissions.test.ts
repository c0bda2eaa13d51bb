// Who may read what, kept exact after the content is in: group sync and permission sync through the real engine,
// the example connector and its fake vendor on 127.0.0.1, checked as members see it through `_search`.
import { and, asc, eq } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchResponse } from '../../common/api/search';
import { ConnectionStatus } from '../../common/connection-status';
import { notesConnector } from '../../connectors/sdk/example';
import { seedGroups, startNotesFake, type NotesFake } from '../../connectors/sdk/example/fake';
import { aclGroupMembers, appConnections, documentChunks, documents, jobs, type User } from '../db/schema';
import { enqueueDueSchedules } from '../jobs/schedule';
import { runWorker } from '../jobs/worker';
import { syncNow } from './testing/connections';
import { createOrg, createUser, loginTokensFor } from '../testing/fixtures';
import { createTestServer, type TestServer } from '../testing/server';
import { encryptCredentials } from './connections';
import { type SyncMode } from './engine';
import { CONNECTOR_SYNC_JOB, PERMISSIONS_DUE_JOB, permissionSyncSchedule } from './jobs';
import { registerConnector } from './registry';

registerConnector(notesConnector);

let server: TestServer;
let fake: NotesFake;
let owner: User;
let grace: User;
let linus: User;
let bob: User;
let connectionId: string;

beforeAll(async () => {
  server = await createTestServer();
  fake = await startNotesFake({ pageSize: 2 });
  const { db } = server.store;
  const org = await createOrg(db, { domain: 'example.com' });
  owner = await createUser(db, org, { email: 'owner@example.com', admin: true });
  grace = await createUser(db, org, { email: 'grace@example.com' });
  linus = await createUser(db, org, { email: 'linus@example.com' });
  bob = await createUser(db, org, { email: 'bob@example.com' });
  const [row] = await db
    .insert(appConnections)
    .values({
      orgId: org.id,
      userId: owner.id,
      appName: 'guru',
      isOrg: true,
      statusCode: ConnectionStatus.Connecting,
      extra: { config: { baseUrl: fake.server.url } },
    })
    .returning();
  connectionId = row!.id;
  await db
    .update(appConnections)
    .set({ credentialsEncrypted: encryptCredentials(connectionId, { api_key: fake.token }) })
    .where(eq(appConnections.id, connectionId));
});
afterAll(async () => {
  await fake.close();
  await server.close();
});

const sync = (mode: SyncMode) => syncNow(server.store.db, connectionId, mode);

/** The titles a member finds for 'note' (every note's title says it). */
async function visibleTo(user: User): Promise<string[]> {
  const token = (await loginTokensFor(server.ctx, user)).id_token;
  const res = await server.app.inject({
    method: 'POST',
    url: '/api/v1/_search',
    headers: { authorization: `Bearer ${token}` },
    payload: { q: 'note', page_size: 20 },
  });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json<SearchResponse>();
  expect(body.has_more).toBe(false);
  return body.hits.map((hit) => hit.name).sort();
}

const aclOf = async (externalId: string) =>
  (
    await server.store.db
      .select({ acl: documents.acl })
      .from(documents)
      .where(and(eq(documents.connectionId, connectionId), eq(documents.externalId, externalId)))
  )[0]?.acl;

const chunkIdsOf = async (externalId: string) =>
  (
    await server.store.db
      .select({ id: documentChunks.id })
      .from(documentChunks)
      .innerJoin(documents, eq(documents.id, documentChunks.documentId))
      .where(and(eq(documents.connectionId, connectionId), eq(documents.externalId, externalId)))
      .orderBy(asc(documentChunks.ord))
  ).map((row) => row.id);

const contentRequests = () =>
  fake.server.requests.filter((request) => request.path === '/api/notes' || request.path === '/api/changes');

describe('group sync', () => {
  it('stores the source’s groups per connection on a full sync, nested groups flattened', async () => {
    expect(await sync('full')).toMatchObject({ kind: 'complete' });
    const eng = `group:guru:${connectionId}:eng`;
    expect(await aclOf('n2')).toContain(eng);
    const members = await server.store.db
      .select({ groupKey: aclGroupMembers.groupKey, memberEmail: aclGroupMembers.memberEmail })
      .from(aclGroupMembers)
      .where(eq(aclGroupMembers.connectionId, connectionId))
      .orderBy(asc(aclGroupMembers.groupKey), asc(aclGroupMembers.memberEmail));
    expect(members).toEqual([
      { groupKey: eng, memberEmail: 'grace@example.com' },
      { groupKey: eng, memberEmail: 'linus@example.com' },
      { groupKey: `group:guru:${connectionId}:sre`, memberEmail: 'linus@example.com' },
    ]);
    // n2 is shared with eng, which holds sre, which holds Linus.
    expect(await visibleTo(linus)).toContain('Note n2');
    expect(await visibleTo(bob)).not.toContain('Note n2');
  });

  it('takes a member out of a group at the source: after the next sync they no longer find its documents', async () => {
    fake.setGroups([
      { id: 'eng', members: [{ type: 'user', email: 'Grace@Example.com' }] },
      { id: 'sre', members: [{ type: 'user', email: 'linus@example.com' }] },
    ]);
    fake.server.clearLog();
    expect(await sync('permissions')).toEqual({ kind: 'permissions', memberships: 2, changed: 0 });
    expect(contentRequests()).toEqual([]);
    expect(await visibleTo(linus)).not.toContain('Note n2');
    expect(await visibleTo(grace)).toContain('Note n2');

    // A full sync applies group changes too.
    fake.setGroups(seedGroups());
    expect(await sync('full')).toMatchObject({ kind: 'complete' });
    expect(await visibleTo(linus)).toContain('Note n2');
  });
});

describe('permission sync', () => {
  it('applies an ACL change made at the source without fetching or re-chunking content', async () => {
    expect(await visibleTo(bob)).toContain('Note n1');
    const chunks = await chunkIdsOf('n1');
    expect(chunks.length).toBeGreaterThan(0);
    // Sharing changes leave no trace in the change feed: an incremental sync cannot see them.
    fake.setSharing('n1', {
      visibility: 'restricted',
      shared_with: { users: ['grace@example.com'], groups: [] },
    });
    expect(await sync('incremental')).toMatchObject({ kind: 'complete' });
    expect(await visibleTo(bob)).toContain('Note n1');

    fake.server.clearLog();
    expect(await sync('permissions')).toEqual({ kind: 'permissions', memberships: 3, changed: 1 });
    expect(contentRequests()).toEqual([]);
    expect(fake.server.requests.filter((request) => request.path === '/api/notes/permissions')).toHaveLength(
      1,
    );
    expect(await visibleTo(bob)).not.toContain('Note n1');
    expect(await visibleTo(grace)).toContain('Note n1');
    expect(await aclOf('n1')).toEqual(['user:ada@example.com', 'user:grace@example.com']);
    expect(await chunkIdsOf('n1')).toEqual(chunks);
  });

  it('fails closed: a document whose source can no longer say who may read it is private to the owner', async () => {
    expect(await visibleTo(bob)).toContain('Note n6');
    fake.setSharing('n6', {});
    expect(await sync('permissions')).toMatchObject({ kind: 'permissions', changed: 1 });
    expect(await aclOf('n6')).toEqual(['user:owner@example.com']);
    expect(await visibleTo(bob)).not.toContain('Note n6');
    expect(await visibleTo(grace)).not.toContain('Note n6');
    expect(await visibleTo(owner)).toContain('Note n6');
  });

  it('changes nothing when the source’s ACLs match the index', async () => {
    const before = await server.store.db
      .select({ externalId: documents.externalId, version: documents.version })
      .from(documents)
      .where(eq(documents.connectionId, connectionId))
      .orderBy(asc(documents.externalId));
    expect(await sync('permissions')).toEqual({ kind: 'permissions', memberships: 3, changed: 0 });
    const after = await server.store.db
      .select({ externalId: documents.externalId, version: documents.version })
      .from(documents)
      .where(eq(documents.connectionId, connectionId))
      .orderBy(asc(documents.externalId));
    expect(after).toEqual(before);
  });

  it('runs on its schedule for every connected connection, through the worker', async () => {
    fake.setSharing('n3', { visibility: 'restricted', shared_with: { users: [], groups: ['eng'] } });
    expect(await visibleTo(bob)).toContain('Note n3');
    const { db } = server.store;
    expect(await enqueueDueSchedules(db, [permissionSyncSchedule])).toEqual([PERMISSIONS_DUE_JOB]);
    const syncJobs = () =>
      db
        .select({ payload: jobs.payload, status: jobs.status })
        .from(jobs)
        .where(eq(jobs.kind, CONNECTOR_SYNC_JOB));
    const worker = runWorker(server.store, pino({ level: 'silent' }), { idleMs: 10 });
    try {
      for (let i = 0; i < 1200; i++) {
        const [job] = await syncJobs();
        if (job?.status === 'done') break;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    } finally {
      await worker.stop();
    }
    expect(await syncJobs()).toEqual([{ payload: { connectionId, mode: 'permissions' }, status: 'done' }]);
    expect(await visibleTo(bob)).not.toContain('Note n3');
    expect(await visibleTo(grace)).toContain('Note n3');
  });
});
