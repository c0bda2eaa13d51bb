// Outlook end to end: the real sync engine and store, the Outlook connector and its fake Graph mailbox (with the
// identity platform's token endpoint) on 127.0.0.1, checked as members see it through `_search`.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ConnectionStatus } from '../../common/connection-status';
import {
  FOLDERS,
  OWNER,
  SEEDED_INDEXED,
  fileAttachment,
  mailAttachment,
  message,
  startOutlookFake,
  type OutlookFake,
} from '../../connectors/outlook/fake';
import { createOutlookConnector } from '../../connectors/outlook';
import { FAKE_CLIENT } from '../../connectors/microsoft/fake-identity';
import { appConnections, documents, type User } from '../db/schema';
import { makeDocx, makePdf } from '../parsing/testing';
import { hiding, showing, shownTo, titlesFound } from '../testing/search';
import { insertConnection, syncNow } from './testing/connections';
import { createOrg, createUser } from '../testing/fixtures';
import { createTestServer, type TestServer } from '../testing/server';
import { decryptCredentials } from './connections';
import { type SyncMode, type SyncOutcome } from './engine';
import { registerConnector } from './registry';

let server: TestServer;
let fake: OutlookFake;
let ada: User;
let grace: User;
let admin: User;

beforeAll(async () => {
  fake = await startOutlookFake({ pageSize: 2 });
  // The real connector, its OAuth endpoints on the fake identity platform.
  registerConnector(createOutlookConnector({ loginUrl: fake.server.url }));
  vi.stubEnv('SCOUT_OAUTH_OUTLOOK_CLIENT_ID', FAKE_CLIENT.id);
  vi.stubEnv('SCOUT_OAUTH_OUTLOOK_CLIENT_SECRET', FAKE_CLIENT.secret);
  server = await createTestServer();
  const { db } = server.store;
  const org = await createOrg(db, { domain: 'contoso.com' });
  admin = await createUser(db, org, { email: 'admin@contoso.com', admin: true });
  ada = await createUser(db, org, { email: OWNER.email });
  grace = await createUser(db, org, { email: 'grace@contoso.com' });
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await fake.close();
  await server.close();
});

/** Ada's own connection, holding the fake's current tokens said to expire `expiresInMs` from now. */
async function connectAda(expiresInMs = 3_600_000): Promise<string> {
  const { db } = server.store;
  return insertConnection(db, {
    orgId: ada.orgId,
    userId: ada.id,
    appName: 'outlook',
    isOrg: false,
    config: { baseUrl: fake.graphUrl },
    credentials: {
      access_token: fake.identity.accessToken,
      refresh_token: fake.identity.refreshToken,
      expires_at: new Date(Date.now() + expiresInMs).toISOString(),
    },
  });
}

const sync = (connectionId: string, mode: SyncMode, options: Parameters<typeof syncNow>[3] = {}) =>
  syncNow(server.store.db, connectionId, mode, options);

/** The index as stored: external id → title and folder. */
async function indexed(connectionId: string): Promise<Record<string, { title: string; folder: unknown }>> {
  const rows = await server.store.db
    .select({ externalId: documents.externalId, title: documents.title, extra: documents.extra })
    .from(documents)
    .where(eq(documents.connectionId, connectionId));
  return Object.fromEntries(
    rows.map((row) => [
      row.externalId,
      { title: row.title, folder: (row.extra as Record<string, unknown>).folder },
    ]),
  );
}

const search = (user: User, q: string) => titlesFound(server, user, q);

const row = async (id: string) =>
  (await server.store.db.select().from(appConnections).where(eq(appConnections.id, id)))[0]!;

describe('outlook through the engine', () => {
  let connectionId: string;

  it('indexes the member’s mail for them alone: no other member, not even an admin, finds any of it', async () => {
    connectionId = await connectAda();
    expect(await sync(connectionId, 'full')).toMatchObject({ kind: 'complete' });
    expect(Object.keys(await indexed(connectionId)).sort()).toEqual([...SEEDED_INDEXED].sort());
    expect(await search(ada, 'budget')).toEqual(['Quarterly budget review']);
    expect(await search(ada, 'body')).toHaveLength(SEEDED_INDEXED.length);
    expect(await search(grace, 'body')).toEqual([]);
    expect(await search(admin, 'body')).toEqual([]);
    expect(await search(grace, 'budget')).toEqual([]);
    expect((await row(connectionId)).statusCode).toBe(ConnectionStatus.IndexingComplete);
  });

  it('applies an edit, a delete, a move and a new message from the delta feeds', async () => {
    fake.edit('m1', { subject: 'Quarterly budget review (final)' });
    fake.remove('m3');
    fake.move('m4', FOLDERS.archive);
    fake.move('m2', FOLDERS.deleteditems);
    fake.put(message('m20', FOLDERS.inbox, 0, 'Hiring plan'));
    expect(await sync(connectionId, 'incremental')).toMatchObject({ kind: 'complete' });
    const index = await indexed(connectionId);
    expect(Object.keys(index).sort()).toEqual(['m1', 'm20', 'm4', 'm5', 'm6']);
    expect(index.m1?.title).toBe('Quarterly budget review (final)');
    expect(index.m4?.folder).toBe('Archive');
    expect(await search(ada, 'budget')).toEqual(['Quarterly budget review (final)']);
    expect(await search(ada, 'audit')).toEqual([]);
    expect(await search(grace, 'hiring')).toEqual([]);
  });

  it('prunes what no feed reports (a folder gone with its mail), and nothing live', async () => {
    fake.put(message('m21', FOLDERS.projects, 0, 'Apollo retrospective'));
    await sync(connectionId, 'incremental');
    expect(await search(ada, 'retrospective')).toEqual(['Apollo retrospective']);
    fake.dropFolder(FOLDERS.projects);
    await sync(connectionId, 'incremental');
    expect(Object.keys(await indexed(connectionId))).toContain('m21');
    expect(await sync(connectionId, 'prune')).toEqual({ kind: 'pruned', deleted: 1 });
    expect(Object.keys(await indexed(connectionId)).sort()).toEqual(['m1', 'm20', 'm4', 'm5', 'm6']);
    expect(await search(ada, 'retrospective')).toEqual([]);
  });

  it('finds the text of a PDF and a Word attachment of a new message for the mailbox owner alone, under each file’s name', async () => {
    const review = await makePdf([['Telemetry from the quasar probe', 'arrived on schedule.']]);
    fake.put(message('m40', FOLDERS.inbox, 0, 'Flight review pack'));
    fake.attach(
      'm40',
      fileAttachment('a-review', 'review.pdf', 'application/pdf', review),
      fileAttachment(
        'a-handbook',
        'handbook.docx',
        'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        await makeDocx(),
      ),
      fileAttachment('a-scan', 'scan.pdf', 'application/pdf', review, { size: 2 * 1024 * 1024 * 1024 }),
      fileAttachment(
        'a-broken',
        'broken.pdf',
        'application/pdf',
        new TextEncoder().encode('%PDF-1.7\n1 0 obj << /Type /Catalog >> garbage, no xref'),
      ),
      fileAttachment(
        'a-gone',
        'minutes.pdf',
        'application/pdf',
        await makePdf([['Minutes of the lemur board']]),
      ),
    );
    fake.server.clearLog();
    // Graph no longer hands over one attachment: the message is indexed without its text.
    fake.server.failNext(
      1,
      { kind: 'status', status: 404, json: { error: { code: 'ErrorItemNotFound', message: 'Not found.' } } },
      { path: '/v1.0/me/messages/m40/attachments/a-gone/$value' },
    );
    expect(await sync(connectionId, 'incremental')).toMatchObject({ kind: 'complete' });

    expect(await search(ada, 'telemetry')).toEqual(['Flight review pack']);
    expect(await search(ada, 'laptop')).toEqual(['Flight review pack']);
    for (const other of [grace, admin]) {
      expect(await search(other, 'telemetry')).toEqual([]);
      expect(await search(other, 'laptop')).toEqual([]);
    }
    const [stored] = await server.store.db
      .select({ body: documents.body })
      .from(documents)
      .where(and(eq(documents.connectionId, connectionId), eq(documents.externalId, 'm40')));
    expect(stored?.body).toContain('Attachment: review.pdf\n\nTelemetry from the quasar probe');
    expect(stored?.body).toContain(
      'Attachments: review.pdf, handbook.docx, scan.pdf, broken.pdf, minutes.pdf',
    );
    expect(await search(ada, 'lemur')).toEqual([]);
    // The attachment over the size limit is never fetched, and the one that will not parse adds no text.
    expect(stored?.body).not.toContain('Attachment: scan.pdf');
    expect(stored?.body).not.toContain('Attachment: broken.pdf');
    const fetched = fake.server.requests
      .filter((request) => request.path.endsWith('/$value'))
      .map((request) => request.path.split('/').at(-2))
      .sort();
    expect(fetched).toEqual(['a-broken', 'a-gone', 'a-handbook', 'a-review']);
  });

  it('finds the text of a mail attached to a new message for the mailbox owner alone, as that message', async () => {
    fake.put(message('m41', FOLDERS.inbox, 0, 'FW: supplier thread'));
    fake.attach(
      'm41',
      mailAttachment('a-supplier', 'Capybara shipment delayed', {
        subject: 'Capybara shipment delayed',
        body: { contentType: 'text', content: 'The capybara shipment reaches the harbour in May.' },
        from: { emailAddress: { name: 'Supplier', address: 'orders@supplier.test' } },
        sentDateTime: '2026-04-01T08:00:00Z',
      }),
    );
    expect(await sync(connectionId, 'incremental')).toMatchObject({ kind: 'complete' });
    expect(await search(ada, 'capybara harbour')).toEqual(['FW: supplier thread']);
    for (const other of [grace, admin]) expect(await search(other, 'capybara harbour')).toEqual([]);
  });

  it('reads the files and mails attached to an attached mail, three mails deep, for the mailbox owner alone', async () => {
    const mail = (subject: string, content: string) => ({
      subject,
      body: { contentType: 'text' as const, content },
      from: { emailAddress: { name: 'Auditor', address: 'audit@firm.test' } },
      sentDateTime: '2026-03-01T08:00:00Z',
    });
    const pdf = (text: string) => makePdf([[text]]);
    fake.put(message('m42', FOLDERS.inbox, 0, 'FW: audit chain'));
    fake.attach(
      'm42',
      mailAttachment('a-outer', 'Audit findings', mail('Audit findings', 'See the report attached.'), [
        fileAttachment(
          'n-report',
          'findings.pdf',
          'application/pdf',
          await pdf('Ocelot ledger discrepancies'),
        ),
        fileAttachment(
          'n-logo',
          'signature.txt',
          'text/plain',
          new TextEncoder().encode('Meerkat signature'),
          {
            isInline: true,
          },
        ),
        fileAttachment('n-huge', 'scans.pdf', 'application/pdf', await pdf('Pangolin invoices'), {
          size: 2 * 1024 * 1024 * 1024,
        }),
        mailAttachment('n-second', 'Second level', mail('Second level', 'Wombat payroll notes.'), [
          mailAttachment('n-third', 'Third level', mail('Third level', 'Narwhal vendor list.'), [
            fileAttachment('n-deep', 'deep.pdf', 'application/pdf', await pdf('Axolotl contract terms')),
            mailAttachment('n-fourth', 'Fourth level', mail('Fourth level', 'Quokka petty cash.')),
          ]),
        ]),
      ]),
    );
    expect(await sync(connectionId, 'incremental')).toMatchObject({ kind: 'complete' });

    for (const word of ['ocelot', 'wombat', 'narwhal', 'axolotl'])
      expect(await search(ada, word)).toEqual(['FW: audit chain']);
    // Over the parsing limit, and a fourth mail down: named, not read. An inline picture or signature: neither.
    expect(await search(ada, 'pangolin')).toEqual([]);
    expect(await search(ada, 'meerkat')).toEqual([]);
    expect(await search(ada, 'quokka')).toEqual([]);
    const [stored] = await server.store.db
      .select({ body: documents.body })
      .from(documents)
      .where(and(eq(documents.connectionId, connectionId), eq(documents.externalId, 'm42')));
    expect(stored?.body).toContain('Attachment: findings.pdf\n\nOcelot ledger discrepancies');
    expect(stored?.body).toContain('Attachments: findings.pdf, scans.pdf, Second level');
    expect(stored?.body).toContain('Attachments: deep.pdf, Fourth level');

    expect(await shownTo(server, ada, 'ocelot ledger')).toMatchObject(showing('FW: audit chain'));
    for (const other of [grace, admin]) {
      expect(await shownTo(server, other, 'ocelot ledger')).toMatchObject(hiding('FW: audit chain'));
      expect(await search(other, 'axolotl')).toEqual([]);
    }
  });
});

describe('outlook connected org-wide on the tenant’s admin consent', () => {
  let tenant: OutlookFake;
  let connectionId: string;
  beforeAll(async () => {
    tenant = await startOutlookFake({ pageSize: 2 });
    tenant.putUser(
      {
        id: 'u-grace',
        displayName: 'Grace Hopper',
        mail: grace.email,
        userPrincipalName: grace.email,
        accountEnabled: true,
      },
      [message('g1', FOLDERS.inbox, 2, 'Compiler notes'), message('g2', FOLDERS.inbox, 3, 'Compiler budget')],
    );
    // Subjects of Ada's that her own connection (above) does not hold, so her searches tell the two apart.
    tenant.put(message('a1', FOLDERS.inbox, 1, 'Zeppelin hangar lease'));
    tenant.put(message('a2', FOLDERS.inbox, 2, 'Zeppelin insurance'));
  });
  afterAll(async () => {
    await tenant.close();
  });

  it('indexes every mailbox, each message found by its mailbox’s owner alone', async () => {
    connectionId = await insertConnection(server.store.db, {
      orgId: admin.orgId,
      userId: admin.id,
      appName: 'outlook',
      isOrg: true,
      config: { baseUrl: tenant.graphUrl, loginUrl: tenant.server.url },
      credentials: { email: admin.email, marketplace: true },
    });
    expect(await sync(connectionId, 'full')).toMatchObject({ kind: 'complete' });
    expect(Object.keys(await indexed(connectionId))).toHaveLength(SEEDED_INDEXED.length + 4);
    expect((await search(ada, 'zeppelin')).sort()).toEqual(['Zeppelin hangar lease', 'Zeppelin insurance']);
    expect((await search(grace, 'compiler')).sort()).toEqual(['Compiler budget', 'Compiler notes']);
    expect(await search(ada, 'compiler')).toEqual([]);
    expect(await search(grace, 'zeppelin')).toEqual([]);
    expect(await search(admin, 'zeppelin')).toEqual([]);
    expect(await search(admin, 'compiler')).toEqual([]);
    expect((await row(connectionId)).statusCode).toBe(ConnectionStatus.IndexingComplete);
  });

  it('follows each mailbox’s delta: an edit in one, a delete in another', async () => {
    tenant.mailbox('u-grace').edit('g1', { subject: 'Compiler notes (v2)' });
    tenant.remove('a1');
    expect(await sync(connectionId, 'incremental')).toMatchObject({ kind: 'complete' });
    expect(await search(grace, 'notes')).toEqual(['Compiler notes (v2)']);
    expect(await search(ada, 'zeppelin')).toEqual(['Zeppelin insurance']);
  });

  it('removes a disabled account’s mail from every search once pruned, and nothing of anyone else’s', async () => {
    tenant.putUser({
      id: 'u-grace',
      displayName: 'Grace Hopper',
      mail: grace.email,
      userPrincipalName: grace.email,
      accountEnabled: false,
    });
    expect(await sync(connectionId, 'prune')).toEqual({ kind: 'pruned', deleted: 2 });
    expect(await search(grace, 'compiler')).toEqual([]);
    expect(await search(ada, 'zeppelin')).toEqual(['Zeppelin insurance']);
  });

  it('reads the attachments of each mailbox with the app-only token, for that mailbox’s owner alone', async () => {
    tenant.put(message('a3', FOLDERS.inbox, 0, 'Zeppelin mooring'));
    tenant.attach(
      'a3',
      fileAttachment(
        'a-manual',
        'mooring.pdf',
        'application/pdf',
        await makePdf([['Tie the walrus rope to the mast', 'before the gale.']]),
      ),
    );
    tenant.server.clearLog();
    expect(await sync(connectionId, 'incremental')).toMatchObject({ kind: 'complete' });
    expect(await search(ada, 'walrus')).toEqual(['Zeppelin mooring']);
    expect(await search(grace, 'walrus')).toEqual([]);
    expect(await search(admin, 'walrus')).toEqual([]);
    expect(
      tenant.server.requests.some(
        (request) => request.path === `/v1.0/users/${OWNER.id}/messages/a3/attachments/a-manual/$value`,
      ),
    ).toBe(true);
  });
});

describe('outlook under stress', () => {
  it('refreshes an expired token, rides out a 429 storm and resumes an interrupted sync to exactly the mailbox', async () => {
    const before = fake.identity.accessToken;
    const connectionId = await connectAda(-60_000);
    fake.identity.expireAccessToken();

    // A storm longer than the client waits through: the engine is told to come back later.
    fake.server.failNext(
      5,
      { kind: 'rateLimit', retryAfter: 0 },
      { path: '/v1.0/me/mailFolders/:folder/messages/delta' },
    );
    const stormed: SyncOutcome = await sync(connectionId, 'full', { runId: 'storm' });
    expect(stormed.kind).toBe('later');
    const refreshed = decryptCredentials(await row(connectionId)) as Record<string, string>;
    expect(refreshed.access_token).toBe(fake.identity.accessToken);
    expect(refreshed.access_token).not.toBe(before);

    // Interrupted mid-way: a request hangs, and the job is stopped as a lost worker would be.
    fake.server.clearLog();
    fake.server.failNext(
      1,
      { kind: 'hang' },
      { path: `/v1.0/me/mailFolders/${FOLDERS.archive}/messages/delta` },
    );
    const controller = new AbortController();
    const interrupted = sync(connectionId, 'full', { runId: 'storm', signal: controller.signal });
    await vi.waitFor(() =>
      expect(fake.server.requests.some((request) => request.outcome === 'hang')).toBe(true),
    );
    controller.abort();
    expect((await interrupted).kind).toBe('later');
    const partial = Object.keys(await indexed(connectionId));
    expect(partial.length).toBeGreaterThan(0);

    // The same job resumes from its committed cursor: the folders it finished are not listed again.
    fake.server.clearLog();
    expect(await sync(connectionId, 'full', { runId: 'storm' })).toMatchObject({ kind: 'complete' });
    const restarted = fake.server.requests.filter(
      (request) =>
        request.path === `/v1.0/me/mailFolders/${FOLDERS.inbox}/messages/delta` &&
        request.search.includes('filter'),
    );
    expect(restarted).toEqual([]);

    const stored = await indexed(connectionId);
    const expected = await indexedOfFreshSync();
    expect(stored).toEqual(expected);
  });

  it('asks for a reconnect when the refresh token is refused', async () => {
    const connectionId = await connectAda(-60_000);
    fake.identity.revokeRefreshToken();
    expect(await sync(connectionId, 'full')).toEqual({
      kind: 'stopped',
      statusCode: ConnectionStatus.ErrorReconnect,
    });
    expect((await row(connectionId)).statusMessage).toBe('Incorrect access token. Please try again.');
    const [any] = await server.store.db
      .select({ id: documents.id })
      .from(documents)
      .where(and(eq(documents.connectionId, connectionId)));
    expect(any).toBeUndefined();
  });
});

/** What an uninterrupted full sync of the mailbox as it is now indexes, in a connection of its own. */
async function indexedOfFreshSync() {
  const connectionId = await connectAda();
  expect(await sync(connectionId, 'full')).toMatchObject({ kind: 'complete' });
  return indexed(connectionId);
}
