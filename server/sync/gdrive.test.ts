// Google Drive end to end: the real engine and store syncing the Drive fake on 127.0.0.1, checked as members see it
// through `_search`. Edits, trash, moves and unsharing travel through Drive's change feed; a group membership change
// through the permission sync; a 429 storm, an expired token and an interrupted sync are ridden out.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ConnectionStatus } from '../../common/connection-status';
import { startFakeServer, type FakeServer } from '../../connectors/sdk/fake-server';
import { gdriveConnector } from '../../connectors/gdrive';
import { FOLDER_MIME, seedAcmeDrive, startDriveFake, type DriveFake } from '../../connectors/gdrive/fake';
import { seedAcmeDirectory, startDirectoryFake } from '../../connectors/gworkspace-directory/fake';
import { makeDocx, makePdf } from '../parsing/testing';
import { appConnections, documents, type Org, type User } from '../db/schema';
import { hiding, showing, shownTo, titlesFound } from '../testing/search';
import { syncNow } from './testing/connections';
import { createOrg, createUser } from '../testing/fixtures';
import { createTestServer, type TestServer } from '../testing/server';
import { decryptCredentials, encryptCredentials } from './connections';
import { type SyncMode } from './engine';
import { registerConnector } from './registry';

let server: TestServer;
let org: Org;
const people = new Map<string, User>();
/** Google's token endpoint: trades the refresh token for a new access token, which the Drive fake then requires. */
let oauth: FakeServer;
let refusing = false;
let issued = 0;

async function connect(
  fake: { server: FakeServer; token: string },
  appName: 'gdrive' | 'gworkspace-directory' = 'gdrive',
): Promise<string> {
  const { db } = server.store;
  const [row] = await db
    .insert(appConnections)
    .values({
      orgId: org.id,
      userId: people.get('admin')!.id,
      appName,
      isOrg: true,
      statusCode: ConnectionStatus.Connecting,
      extra: { config: { baseUrl: fake.server.url } },
    })
    .returning();
  await setCredentials(row!.id, { access_token: fake.token, expiresAt: '2099-01-01T00:00:00.000Z' });
  return row!.id;
}

async function setCredentials(connectionId: string, tokens: { access_token: string; expiresAt: string }) {
  const credentials = {
    access_token: tokens.access_token,
    refresh_token: 'refresh-1',
    token_type: 'Bearer',
    expires_at: tokens.expiresAt,
  };
  await server.store.db
    .update(appConnections)
    .set({ credentialsEncrypted: encryptCredentials(connectionId, credentials) })
    .where(eq(appConnections.id, connectionId));
}

const sync = (connectionId: string, mode: SyncMode, options: Parameters<typeof syncNow>[3] = {}) =>
  syncNow(server.store.db, connectionId, mode, options);

/** The titles a member finds for `q`. */
const found = (name: string, q = 'falcon') => titlesFound(server, people.get(name)!, q);

/** What a member is shown for `q` by `_search` and by a chat answer. */
const shown = (name: string, q: string) => shownTo(server, people.get(name)!, q);

const indexed = async (connectionId: string) =>
  (
    await server.store.db
      .select({ externalId: documents.externalId, title: documents.title })
      .from(documents)
      .where(and(eq(documents.orgId, org.id), eq(documents.connectionId, connectionId)))
  )
    .map((row) => `${row.externalId}:${row.title}`)
    .sort();

const statusOf = async (connectionId: string) =>
  (
    await server.store.db
      .select({ statusCode: appConnections.statusCode })
      .from(appConnections)
      .where(eq(appConnections.id, connectionId))
  )[0]?.statusCode;

const FIXTURE_INDEX = [
  'd-pitch:Falcon pitch',
  'd-roadmap:Falcon roadmap',
  'p-handbook:Falcon handbook.pdf',
  's-budget:Falcon budget',
  't-notes:falcon-notes.txt',
];

beforeAll(async () => {
  server = await createTestServer();
  const { db } = server.store;
  org = await createOrg(db, { domain: 'acme.test' });
  for (const name of ['admin', 'bob', 'grace', 'linus', 'carol', 'dave', 'eve'])
    people.set(name, await createUser(db, org, { email: `${name}@acme.test`, admin: name === 'admin' }));
  oauth = await startFakeServer();
  vi.stubEnv('SCOUT_OAUTH_GDRIVE_CLIENT_ID', 'scout-client');
  vi.stubEnv('SCOUT_OAUTH_GDRIVE_CLIENT_SECRET', 'scout-secret');
  // The shipped connector, with Google's token endpoint moved to 127.0.0.1.
  registerConnector({
    ...gdriveConnector,
    oauth: { ...gdriveConnector.oauth!, tokenUrl: `${oauth.url}/token` },
  });
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await oauth.close();
  await server.close();
});

describe('a Drive connection', () => {
  let fake: DriveFake;
  let connectionId: string;

  beforeAll(async () => {
    fake = await startDriveFake({ pageSize: 2 });
    seedAcmeDrive(fake);
    connectionId = await connect(fake);
    oauth.route('POST', '/token', ({ body }) => {
      const form = new URLSearchParams(body);
      if (
        refusing ||
        form.get('refresh_token') !== 'refresh-1' ||
        form.get('client_secret') !== 'scout-secret'
      )
        return {
          status: 400,
          json: { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' },
        };
      issued += 1;
      fake.rotateToken(`ya29.refreshed-${issued}`);
      return { json: { access_token: `ya29.refreshed-${issued}`, expires_in: 3599, token_type: 'Bearer' } };
    });
  });
  afterAll(() => fake.close());

  it('indexes the fixture drive, each member finding exactly what Drive lets them open', async () => {
    // The first sync meets a 429 storm and Drive's 403 userRateLimitExceeded, and rides them out.
    fake.server.failNext(3, { kind: 'rateLimit', retryAfter: 0 });
    fake.server.failNext(1, {
      kind: 'status',
      status: 403,
      json: { error: { code: 403, errors: [{ domain: 'usageLimits', reason: 'userRateLimitExceeded' }] } },
    });
    expect(await sync(connectionId, 'full')).toMatchObject({ kind: 'complete' });
    expect(await indexed(connectionId)).toEqual(FIXTURE_INDEX);
    expect(await found('admin')).toEqual([
      'Falcon budget',
      'Falcon handbook.pdf',
      'Falcon roadmap',
      'falcon-notes.txt',
    ]);
    expect(await found('bob')).toEqual(['Falcon budget', 'Falcon roadmap']);
    // Through the folder's group, and through a group nested in it.
    expect(await found('grace')).toEqual(['Falcon budget', 'Falcon roadmap', 'falcon-notes.txt']);
    expect(await found('linus')).toEqual(['Falcon budget', 'Falcon roadmap', 'falcon-notes.txt']);
    // A shared drive's member, and a member of its member group.
    expect(await found('carol')).toEqual(['Falcon budget', 'Falcon pitch']);
    expect(await found('dave')).toEqual(['Falcon budget', 'Falcon pitch']);
    // Domain-wide only; the link-only handbook and the file whose sharing cannot be read reach nobody.
    expect(await found('eve')).toEqual(['Falcon budget']);
  });

  it('carries an edit, a trash and a move through the change feed', async () => {
    expect(await shown('grace', 'standup')).toMatchObject(showing('falcon-notes.txt'));
    fake.edit('d-roadmap', 'The falcon roadmap now lands the zeppelin.');
    fake.trash('t-notes');
    fake.move('d-roadmap', 'f-archive');
    expect(await sync(connectionId, 'incremental')).toMatchObject({ kind: 'complete' });
    expect(await found('bob', 'zeppelin')).toEqual(['Falcon roadmap']);
    // The move took the roadmap out of the group-shared folder, and the trash took the notes away.
    expect(await found('grace')).toEqual(['Falcon budget']);
    expect(await shown('grace', 'standup')).toMatchObject(hiding('falcon-notes.txt'));
    expect(await found('admin')).toEqual(['Falcon budget', 'Falcon handbook.pdf', 'Falcon roadmap']);
    const [roadmap] = await server.store.db
      .select({ extra: documents.extra })
      .from(documents)
      .where(and(eq(documents.connectionId, connectionId), eq(documents.externalId, 'd-roadmap')));
    expect(roadmap?.extra).toMatchObject({ path: '/My Drive/Archive' });
  });

  it('drops a member unshared from a file, and one removed from a group, from their next search and answer', async () => {
    expect(await shown('bob', 'zeppelin')).toMatchObject(showing('Falcon roadmap'));
    fake.share('d-roadmap', []);
    expect(await sync(connectionId, 'incremental')).toMatchObject({ kind: 'complete' });
    expect(await found('bob')).toEqual(['Falcon budget']);
    expect(await shown('bob', 'zeppelin')).toMatchObject(hiding('Falcon roadmap'));
    // Its owner still reads it.
    expect(await shown('admin', 'zeppelin')).toMatchObject(showing('Falcon roadmap'));

    expect(await shown('dave', 'pitch')).toMatchObject(showing('Falcon pitch'));
    fake.setMembers('sales@acme.test', []);
    expect(await sync(connectionId, 'permissions')).toMatchObject({ kind: 'permissions' });
    expect(await found('dave')).toEqual(['Falcon budget']);
    expect(await shown('dave', 'pitch')).toMatchObject(hiding('Falcon pitch'));
    expect(await found('carol')).toEqual(['Falcon budget', 'Falcon pitch']);
    expect(await shown('carol', 'pitch')).toMatchObject(showing('Falcon pitch'));
  });

  it('comes back later from a storm longer than its retries, then goes on from its cursor', async () => {
    fake.edit('s-budget', 'item,cost\nfalcon servers,120');
    // Five refusals in a row use up one request's tries.
    fake.server.failNext(5, { kind: 'rateLimit', retryAfter: 0 });
    expect(await sync(connectionId, 'incremental')).toMatchObject({ kind: 'later' });
    fake.server.clearLog();
    expect(await sync(connectionId, 'incremental')).toMatchObject({ kind: 'complete' });
    expect(fake.server.requests.some((request) => request.path === '/drive/v3/files/s-budget/export')).toBe(
      true,
    );
  });

  it('refreshes an expired access token before syncing, and asks for a reconnect once Google refuses', async () => {
    await setCredentials(connectionId, { access_token: fake.token, expiresAt: '2020-01-01T00:00:00.000Z' });
    fake.edit('s-budget', 'item,cost\nfalcon servers,130');
    expect(await sync(connectionId, 'incremental')).toMatchObject({ kind: 'complete' });
    expect(issued).toBe(1);
    const credentials = decryptCredentials(
      (await server.store.db.select().from(appConnections).where(eq(appConnections.id, connectionId)))[0]!,
    );
    expect(credentials).toMatchObject({ access_token: 'ya29.refreshed-1', refresh_token: 'refresh-1' });

    refusing = true;
    await setCredentials(connectionId, { access_token: fake.token, expiresAt: '2020-01-01T00:00:00.000Z' });
    expect(await sync(connectionId, 'incremental')).toMatchObject({ kind: 'stopped' });
    expect(await statusOf(connectionId)).toBe(ConnectionStatus.ErrorReconnect);
  });
});

describe('an interrupted full sync', () => {
  it('resumes from its last committed cursor, and ends with the fixture indexed exactly', async () => {
    const fake = await startDriveFake({ pageSize: 2 });
    try {
      seedAcmeDrive(fake);
      const connectionId = await connect(fake);
      // The third page's text file never answers; the worker is stopped while waiting for it.
      fake.server.failNext(1, { kind: 'hang' }, { path: '/drive/v3/files/t-notes' });
      const stop = new AbortController();
      const watcher = setInterval(() => {
        if (fake.server.requests.some((request) => request.outcome === 'hang')) stop.abort();
      }, 5);
      const first = await sync(connectionId, 'full', { runId: 'full-1', signal: stop.signal });
      clearInterval(watcher);
      expect(first).toMatchObject({ kind: 'later' });
      expect(await indexed(connectionId)).toEqual([
        'd-pitch:Falcon pitch',
        'p-handbook:Falcon handbook.pdf',
        's-budget:Falcon budget',
      ]);

      fake.server.clearLog();
      expect(await sync(connectionId, 'full', { runId: 'full-1' })).toMatchObject({ kind: 'complete' });
      const listings = fake.server.requests.filter((request) => request.path === '/drive/v3/files');
      expect(listings.every((request) => request.search.includes('pageToken='))).toBe(true);
      expect(await indexed(connectionId)).toEqual(FIXTURE_INDEX);
    } finally {
      await fake.close();
    }
  });
});

describe('a Drive connection holding PDFs and Office files', () => {
  const GB = 1024 * 1024 * 1024;
  const DOCX_MIME = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
  const bobOnly = [{ type: 'user', role: 'reader', emailAddress: 'bob@acme.test' }];
  let fake: DriveFake;
  let connectionId: string;

  beforeAll(async () => {
    fake = await startDriveFake();
    fake.addFile({ id: 'root', name: 'My Drive', mimeType: FOLDER_MIME });
    fake.addFile({
      id: 'p-review',
      name: 'Q3 review.pdf',
      mimeType: 'application/pdf',
      parent: 'root',
      content: await makePdf([['Telemetry from the quasar probe', 'arrived on schedule.']]),
      permissions: bobOnly,
    });
    fake.addFile({
      id: 'w-handbook',
      name: 'Handbook.docx',
      mimeType: DOCX_MIME,
      parent: 'root',
      content: await makeDocx(),
      permissions: [{ type: 'user', role: 'reader', emailAddress: 'grace@acme.test' }],
    });
    fake.addFile({
      id: 'p-scan',
      name: 'Quasar archive scan.pdf',
      mimeType: 'application/pdf',
      parent: 'root',
      content: await makePdf([['quasar archive']]),
      size: 2 * GB,
      permissions: bobOnly,
    });
    fake.addFile({
      id: 'p-broken',
      name: 'Quasar broken.pdf',
      mimeType: 'application/pdf',
      parent: 'root',
      content: new TextEncoder().encode('%PDF-1.7\n1 0 obj << /Type /Catalog >> garbage, no xref'),
      permissions: bobOnly,
    });
    connectionId = await connect(fake);
  });
  afterAll(() => fake.close());

  it('finds the text inside a PDF and a Word file for the members they are shared with, and nobody else', async () => {
    expect(await sync(connectionId, 'full')).toMatchObject({ kind: 'complete' });
    expect(await found('bob', 'telemetry')).toEqual(['Q3 review.pdf']);
    expect(await found('grace', 'telemetry')).toEqual([]);
    expect(await found('eve', 'telemetry')).toEqual([]);
    expect(await found('grace', 'laptop')).toEqual(['Handbook.docx']);
    expect(await found('bob', 'laptop')).toEqual([]);
  });

  it('indexes a file over the size limit by its title, never downloading it', async () => {
    expect(await found('bob', 'quasar')).toEqual([
      'Q3 review.pdf',
      'Quasar archive scan.pdf',
      'Quasar broken.pdf',
    ]);
    expect(await found('bob', 'archive')).toEqual(['Quasar archive scan.pdf']);
    const downloads = fake.server.requests.filter((request) => request.search.includes('alt=media'));
    expect(downloads.map((request) => request.path).sort()).toEqual([
      '/drive/v3/files/p-broken',
      '/drive/v3/files/p-review',
      '/drive/v3/files/w-handbook',
    ]);
  });

  it('keeps a PDF that will not parse by its title, and reads it once an edit mends it', async () => {
    const [broken] = await server.store.db
      .select({ body: documents.body })
      .from(documents)
      .where(and(eq(documents.connectionId, connectionId), eq(documents.externalId, 'p-broken')));
    expect(broken?.body).toBe('/My Drive');
    fake.edit('p-broken', await makePdf([['The mended quasar ledger']]));
    expect(await sync(connectionId, 'incremental')).toMatchObject({ kind: 'complete' });
    expect(await found('bob', 'ledger')).toEqual(['Quasar broken.pdf']);
  });
});

describe('a Google Workspace directory connection', () => {
  it('makes the directory’s listed people searchable by every member, and prunes those who leave', async () => {
    const fake = await startDirectoryFake({ pageSize: 2 });
    try {
      seedAcmeDirectory(fake);
      const connectionId = await connect(fake, 'gworkspace-directory');
      expect(await sync(connectionId, 'full')).toMatchObject({ kind: 'complete' });
      expect(await found('eve', 'Engineering')).toEqual(['Ada Lovelace', 'Grace Hopper']);
      // Suspended accounts and people hidden from the address list stay out.
      expect(await indexed(connectionId)).toEqual([
        'u-ada:Ada Lovelace',
        'u-grace:Grace Hopper',
        'u-linus:Linus Torvalds',
      ]);

      fake.removeUser('grace@acme.test');
      expect(await sync(connectionId, 'prune')).toEqual({ kind: 'pruned', deleted: 1 });
      expect(await found('eve', 'Engineering')).toEqual(['Ada Lovelace']);
    } finally {
      await fake.close();
    }
  });
});
