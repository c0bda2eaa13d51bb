// The OneDrive connector end to end: every user's OneDrive from a fake Microsoft 365 tenant, through the real sync
// engine and store, checked as members search. (A connector's test may not import the server, so it lives here.)
import { and, eq } from 'drizzle-orm';
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
import { makeDocx, makePdf } from '../parsing/testing';
import { hiding, showing, shownTo, titlesFound } from '../testing/search';
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

/** What a member is shown for `q` by `_search` and by a chat answer. */
const shown = (name: string, q: string) => shownTo(server, members.get(name)!, q);

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
    expect(await shown('grace', 'todo')).toMatchObject(showing('Todo documents.txt'));
    tenant.setPermissions('b!linus', 'todo', [userGrant('todo', 'linus')]);
    expect(await sync('permissions')).toMatchObject({ kind: 'permissions', changed: 1 });
    expect(await visibleTo('grace')).toEqual(['Notes documents.md']);
    expect(await visibleTo('linus')).toEqual(['Todo documents.txt']);
    // Neither `_search` nor the chat answer (its references and its text) shows her the file any more.
    expect(await shown('grace', 'todo')).toMatchObject(hiding('Todo documents.txt'));
    expect(await shown('linus', 'todo')).toMatchObject(showing('Todo documents.txt'));
  });

  it('removes a file deleted from a OneDrive on the next incremental sync', async () => {
    expect(await shown('grace', 'notes')).toMatchObject(showing('Notes documents.md'));
    tenant.remove('b!grace', 'notes');
    expect(await sync('incremental')).toMatchObject({ kind: 'complete' });
    expect(await visibleTo('grace')).toEqual([]);
    expect(await shown('grace', 'notes')).toMatchObject(hiding('Notes documents.md'));
  });
});

describe('PDFs and Word files in a OneDrive', () => {
  const GB = 1024 * 1024 * 1024;
  const find = (name: string, q: string) => titlesFound(server, members.get(name)!, q);
  const contentRequests = () =>
    tenant.graph.requests
      .filter((request) => request.path.endsWith('/content'))
      .map((request) => request.path)
      .sort();

  beforeAll(async () => {
    const review = await makePdf([['Telemetry from the quasar probe', 'arrived on schedule.']]);
    tenant.upsert('b!grace', {
      id: 'review',
      name: 'Q3 review.pdf',
      mimeType: 'application/pdf',
      content: review,
      permissions: [userGrant('review', 'grace')],
    });
    tenant.upsert('b!grace', {
      id: 'handbook',
      name: 'Handbook.docx',
      mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      content: await makeDocx(),
      permissions: [userGrant('handbook', 'grace'), userGrant('handbook', 'linus')],
    });
    tenant.upsert('b!grace', {
      id: 'scan',
      name: 'Quasar archive scan.pdf',
      mimeType: 'application/pdf',
      content: review,
      size: 2 * GB,
      permissions: [userGrant('scan', 'grace')],
    });
    tenant.upsert('b!grace', {
      id: 'broken',
      name: 'Quasar broken.pdf',
      mimeType: 'application/pdf',
      content: new TextEncoder().encode('%PDF-1.7\n1 0 obj << /Type /Catalog >> garbage, no xref'),
      permissions: [userGrant('broken', 'grace')],
    });
    tenant.graph.clearLog();
  });

  it('finds the text inside them for the members they are shared with, and for nobody else', async () => {
    expect(await sync('incremental')).toMatchObject({ kind: 'complete' });
    expect(await find('grace', 'telemetry')).toEqual(['Q3 review.pdf']);
    expect(await find('linus', 'telemetry')).toEqual([]);
    expect(await find('bob', 'telemetry')).toEqual([]);
    expect(await find('linus', 'laptop')).toEqual(['Handbook.docx']);
    expect(await find('bob', 'laptop')).toEqual([]);
  });

  it('indexes a file over the size limit, and one that will not parse, by title and path alone', async () => {
    expect(await find('grace', 'quasar')).toEqual([
      'Q3 review.pdf',
      'Quasar archive scan.pdf',
      'Quasar broken.pdf',
    ]);
    expect(contentRequests()).toEqual([
      '/v1.0/drives/b!grace/items/broken/content',
      '/v1.0/drives/b!grace/items/handbook/content',
      '/v1.0/drives/b!grace/items/review/content',
    ]);
    const [broken] = await server.store.db
      .select({ body: documents.body })
      .from(documents)
      .where(and(eq(documents.connectionId, connectionId), eq(documents.externalId, 'b!grace:broken')));
    expect(broken?.body).toBe('OneDrive / Grace / Quasar broken.pdf');
  });
});
