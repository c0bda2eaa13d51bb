// The Outlook connector against a fake Graph mailbox on 127.0.0.1: the conformance kit, then what the kit cannot
// know about mail: the owner-only ACL, folders left out, the three-year window, moves and Graph's throttling.
import type { Event } from '@microsoft/microsoft-graph-types';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { microsoft } from '../../common/strings';
import {
  InvalidCredentialsError,
  PermissionMismatchError,
  RateLimitedError,
  createConnectorContext,
  type SyncBatch,
} from '../sdk';
import { FAKE_CLIENT } from '../microsoft/fake-identity';
import { collect, runConnectorConformance } from '../sdk/testing';
import {
  FOLDERS,
  OWNER,
  SEEDED_INDEXED,
  fileAttachment,
  mailAttachment,
  message,
  startOutlookFake,
  type OutlookFake,
} from './fake';
import { outlookConnector } from './index';

let fake: OutlookFake;

beforeEach(async () => {
  fake = await startOutlookFake({ pageSize: 2 });
});
afterEach(async () => {
  await fake.close();
});

function context(options: { signal?: AbortSignal } = {}) {
  return createConnectorContext(outlookConnector, {
    credentials: { access_token: fake.identity.accessToken },
    config: { baseUrl: fake.graphUrl },
    random: () => 0,
    ...options,
  });
}

const ids = (batches: readonly SyncBatch[]) =>
  batches.flatMap((batch) => batch.documents.map((document) => document.externalId));
const deletedIn = (batches: readonly SyncBatch[]) =>
  batches.flatMap((batch) => batch.deletedExternalIds ?? []);

describe('outlook connector', () => {
  it('passes the conformance kit', async () => {
    const report = await runConnectorConformance(outlookConnector, {
      fakeServer: fake.server,
      credentials: { access_token: fake.identity.accessToken },
      config: { baseUrl: fake.graphUrl },
      changeSource: () => {
        fake.edit('m1', { subject: 'Quarterly budget review (revised)' });
        fake.put(message('m11', FOLDERS.projects, 0, 'Apollo status'));
        fake.move('m3', FOLDERS.archive);
        fake.remove('m4');
        return { changed: ['m1', 'm11', 'm3'], deleted: ['m4'] };
      },
    });
    expect(report).toMatchObject({
      fullSync: { documents: SEEDED_INDEXED.length },
      resumedMidSync: true,
      // The moved message comes twice: from its new folder's delta, and checked when its old folder reports it gone.
      incremental: { documents: 4, deleted: 1 },
      groups: null,
    });
  });

  it('indexes the mailbox for its owner only, leaving out drafts, junk, deleted items and mail past the window', async () => {
    const documents = (await collect(outlookConnector.fullSync(context()))).flatMap(
      (batch) => batch.documents,
    );
    expect(documents.map((document) => document.externalId).sort()).toEqual([...SEEDED_INDEXED].sort());
    for (const document of documents) expect(document.acl).toEqual([`user:${OWNER.email}`]);
    const sent = documents.find((document) => document.externalId === 'm5');
    expect(sent).toMatchObject({
      title: 'Re: Offsite agenda',
      author: { name: OWNER.name, email: OWNER.email },
      objectType: 'Messages',
      fileType: 'email',
      parentExternalId: 'conv-m2',
      extra: { folder: 'Sent Items', to: ['grace@contoso.com'] },
    });
    expect(sent?.url).toMatch(/^https:\/\/outlook\.office365\.com\/owa\/\?ItemID=m5/);
    expect(sent?.body).toContain('To: Grace Hopper <grace@contoso.com>');
    expect(sent?.body).toContain('Re: Offsite agenda: the body of m5.');
    expect(documents.find((document) => document.externalId === 'm4')?.extra.folder).toBe('Projects');
  });

  it('asks Graph for immutable ids, text bodies and only the window, newest first', async () => {
    await collect(outlookConnector.fullSync(context()));
    const delta = fake.server.requests.find((request) => request.path.endsWith('/messages/delta'));
    const query = new URLSearchParams(delta?.search);
    expect(query.get('$filter')).toMatch(/^receivedDateTime ge \d{4}-/);
    expect(query.get('$orderby')).toBe('receivedDateTime desc');
    expect(delta?.headers.prefer).toContain('IdType="ImmutableId"');
    expect(delta?.headers.prefer).toContain('outlook.body-content-type="text"');
  });

  it('reports progress as folders done and how far back the current one reached, ending at the whole window', async () => {
    const batches = await collect(outlookConnector.fullSync(context()));
    const shares = batches.map((batch) => batch.progress?.share ?? 0);
    expect(shares).toEqual([...shares].sort((a, b) => a - b));
    expect(shares.at(-1)).toBe(1);
    expect(shares[0]).toBeLessThan(1);
  });

  it('treats a message moved to Deleted Items as deleted and one moved between folders as moved', async () => {
    const full = await collect(outlookConnector.fullSync(context()));
    fake.move('m2', FOLDERS.deleteditems);
    fake.move('m6', FOLDERS.inbox);
    const incremental = await collect(outlookConnector.incrementalSync(context(), full.at(-1)!.cursor));
    expect(deletedIn(incremental)).toEqual(['m2']);
    const moved = incremental.flatMap((batch) => batch.documents).filter((doc) => doc.externalId === 'm6');
    expect(moved.length).toBeGreaterThan(0);
    for (const document of moved) expect(document.extra.folder).toBe('Inbox');
  });

  it('turns HTML bodies into text when the mailbox ignores the text preference', async () => {
    const htmlFake = await startOutlookFake({ honourTextPreference: false });
    try {
      const ctx = createConnectorContext(outlookConnector, {
        credentials: { access_token: htmlFake.identity.accessToken },
        config: { baseUrl: htmlFake.graphUrl },
      });
      const documents = (await collect(outlookConnector.fullSync(ctx))).flatMap((batch) => batch.documents);
      const m1 = documents.find((document) => document.externalId === 'm1');
      expect(m1?.body).toContain('Quarterly budget review: the body of m1.');
      expect(m1?.body).not.toContain('<p>');
    } finally {
      await htmlFake.close();
    }
  });

  it('waits out a storm of 429s and 503s with Retry-After, then gives up with RateLimitedError', async () => {
    // Four refusals in a row, one short of the client's attempts at one request.
    fake.server.failNext(2, { kind: 'rateLimit', retryAfter: 0 });
    fake.server.failNext(2, { kind: 'rateLimit', status: 503, retryAfter: 0 });
    expect(ids(await collect(outlookConnector.fullSync(context())))).toHaveLength(SEEDED_INDEXED.length);

    fake.server.failNext(1, { kind: 'rateLimit', retryAfter: 3600 });
    await expect(collect(outlookConnector.fullSync(context()))).rejects.toBeInstanceOf(RateLimitedError);
  });

  it('reports an expired token as invalid credentials and a refused Mail.Read as a permission mismatch', async () => {
    const ctx = context();
    fake.identity.expireAccessToken();
    await expect(outlookConnector.validate(ctx)).rejects.toBeInstanceOf(InvalidCredentialsError);

    const withMe = await startOutlookFake();
    try {
      withMe.server.failNext(
        1,
        { kind: 'status', status: 403, json: { error: { code: 'ErrorAccessDenied' } } },
        {
          path: '/v1.0/me/mailFolders/inbox',
        },
      );
      const refused = outlookConnector.validate(
        createConnectorContext(outlookConnector, {
          credentials: { access_token: withMe.identity.accessToken },
          config: { baseUrl: withMe.graphUrl },
        }),
      );
      await expect(refused).rejects.toBeInstanceOf(PermissionMismatchError);
      await expect(refused).rejects.toThrow(microsoft.MAIL_ACCESS_NEEDED);
    } finally {
      await withMe.close();
    }
  });

  it('names the account at validate', async () => {
    await expect(outlookConnector.validate(context())).resolves.toEqual({
      email: OWNER.email,
      appUserId: OWNER.id,
      workspaceName: OWNER.name,
    });
  });

  it('names a message’s attachments, listing them without their bytes, and asks nothing of a message without', async () => {
    const bytes = new TextEncoder().encode('minutes');
    fake.put(message('m30', FOLDERS.inbox, 0, 'Flight review pack'));
    fake.attach(
      'm30',
      fileAttachment('a-review', 'review.pdf', 'application/pdf', bytes),
      {
        '@odata.type': '#microsoft.graph.itemAttachment',
        id: 'a-minutes',
        name: 'Fwd: board minutes',
        contentType: 'message/rfc822',
        size: 4096,
      },
      fileAttachment('a-logo', 'logo.png', 'image/png', bytes, { isInline: true }),
    );
    // A message whose only attachment is an inline picture: Graph says it has none.
    fake.put(message('m31', FOLDERS.inbox, 0, 'Signature only'));
    fake.attach('m31', fileAttachment('a-sig', 'signature.png', 'image/png', bytes, { isInline: true }));
    const documents = (await collect(outlookConnector.fullSync(context()))).flatMap(
      (batch) => batch.documents,
    );
    const pack = documents.find((document) => document.externalId === 'm30');
    expect(pack?.extra.attachments).toEqual(['review.pdf', 'Fwd: board minutes', 'logo.png']);
    expect(pack?.body).toContain('Attachments: review.pdf, Fwd: board minutes, logo.png');
    expect(pack?.acl).toEqual([`user:${OWNER.email}`]);
    expect(documents.find((document) => document.externalId === 'm31')?.extra.attachments).toEqual([]);

    const listings = fake.server.requests.filter((request) => request.path.endsWith('/attachments'));
    expect(listings.map((request) => request.path).sort()).toEqual([
      '/v1.0/me/messages/m2/attachments',
      '/v1.0/me/messages/m30/attachments',
    ]);
    for (const request of listings)
      expect(new URLSearchParams(request.search).get('$select')).not.toContain('contentBytes');
    // This context lends no parsers, so no file is worth its bytes.
    expect(fake.server.requests.filter((request) => request.path.endsWith('/$value'))).toEqual([]);
  });

  it('reads a mail attached as an Outlook item into its message’s document, for the mailbox’s owner alone', async () => {
    const meeting: Event & { '@odata.type': string } = {
      '@odata.type': '#microsoft.graph.event',
      id: 'ev-1',
      subject: 'Board meeting',
      body: { contentType: 'text', content: 'Agenda: the Orion launch budget.' },
    };
    fake.put(message('m40', FOLDERS.inbox, 0, 'FW: see the attached thread'));
    fake.attach(
      'm40',
      mailAttachment('a-board', 'Board minutes', {
        subject: 'Board minutes, March',
        body: { contentType: 'html', content: '<p>The board approved the Orion launch budget.</p>' },
        from: { emailAddress: { name: 'Linus Torvalds', address: 'linus@fabrikam.com' } },
        toRecipients: [{ emailAddress: { name: 'Grace Hopper', address: 'grace@contoso.com' } }],
        sentDateTime: '2026-03-02T09:00:00Z',
      }),
      {
        '@odata.type': '#microsoft.graph.itemAttachment',
        id: 'a-event',
        name: 'Board meeting',
        item: meeting,
      },
    );
    const documents = (await collect(outlookConnector.fullSync(context()))).flatMap(
      (batch) => batch.documents,
    );
    const forwarded = documents.find((document) => document.externalId === 'm40');
    expect(forwarded?.acl).toEqual([`user:${OWNER.email}`]);
    expect(forwarded?.extra.attachments).toEqual(['Board minutes', 'Board meeting']);
    expect(forwarded?.body).toContain(
      'Attachment: Board minutes\n\nSubject: Board minutes, March\nFrom: Linus Torvalds <linus@fabrikam.com>\n' +
        'To: Grace Hopper <grace@contoso.com>\nDate: 2026-03-02T09:00:00.000Z\n\nThe board approved the Orion launch budget.',
    );
    // An attached event is named, not read.
    expect(forwarded?.body).not.toContain('Attachment: Board meeting');
    const expanded = fake.server.requests.filter((request) =>
      request.path.startsWith('/v1.0/me/messages/m40/attachments/'),
    );
    expect(expanded.map((request) => new URLSearchParams(request.search).get('$expand'))).toEqual([
      'microsoft.graph.itemattachment/item',
      'microsoft.graph.itemattachment/item',
    ]);
  });

  it('starts over from a cursor it cannot read', async () => {
    const batches = await collect(outlookConnector.incrementalSync(context(), { from: 'another version' }));
    expect(ids(batches).sort()).toEqual([...SEEDED_INDEXED].sort());
  });
});

describe('outlook org connection', () => {
  const ADMIN = 'admin@contoso.com';
  const grace = { id: 'u-grace', displayName: 'Grace Hopper', mail: 'grace@contoso.com' };
  const orgCredentials = { email: ADMIN, marketplace: true };

  beforeEach(() => {
    vi.stubEnv('SCOUT_OAUTH_OUTLOOK_CLIENT_ID', FAKE_CLIENT.id);
    vi.stubEnv('SCOUT_OAUTH_OUTLOOK_CLIENT_SECRET', FAKE_CLIENT.secret);
    fake.putUser({ ...grace, userPrincipalName: grace.mail, accountEnabled: true }, [
      message('m1', FOLDERS.inbox, 2, 'Compiler notes', {
        toRecipients: [{ emailAddress: { address: grace.mail } }],
      }),
    ]);
    fake.putUser(
      { id: 'u-bob', mail: 'bob@contoso.com', userPrincipalName: 'bob@contoso.com', accountEnabled: false },
      [message('b1', FOLDERS.inbox, 2, 'Bob’s offboarding')],
    );
    // A meeting room's account: in the directory, no Exchange Online mailbox.
    fake.putUser({ id: 'u-room', mail: 'room@contoso.com', accountEnabled: true }, null);
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  const orgContext = () =>
    createConnectorContext(outlookConnector, {
      credentials: orgCredentials,
      config: { baseUrl: fake.graphUrl, loginUrl: fake.server.url },
      random: () => 0,
    });
  const SEEDED_ORG = [...SEEDED_INDEXED.map((id) => `${OWNER.id}/${id}`), 'u-grace/m1'];

  it('passes the conformance kit', async () => {
    const report = await runConnectorConformance(outlookConnector, {
      fakeServer: fake.server,
      credentials: orgCredentials,
      config: { baseUrl: fake.graphUrl, loginUrl: fake.server.url },
      changeSource: () => {
        fake.edit('m1', { subject: 'Quarterly budget review (revised)' });
        fake.mailbox('u-grace').put(message('m2', FOLDERS.inbox, 0, 'Compiler release'));
        fake.remove('m4');
        return { changed: [`${OWNER.id}/m1`, 'u-grace/m2'], deleted: [`${OWNER.id}/m4`] };
      },
    });
    expect(report).toMatchObject({
      fullSync: { documents: SEEDED_ORG.length },
      resumedMidSync: true,
      incremental: { documents: 2, deleted: 1 },
    });
  });

  it('reads every enabled user’s mailbox with an app-only token, each message readable by its mailbox’s owner only', async () => {
    const documents = (await collect(outlookConnector.fullSync(orgContext()))).flatMap(
      (batch) => batch.documents,
    );
    expect(documents.map((document) => document.externalId).sort()).toEqual([...SEEDED_ORG].sort());
    for (const document of documents) {
      const owner = document.externalId.startsWith('u-grace/') ? grace.mail : OWNER.email;
      expect(document.acl).toEqual([`user:${owner}`]);
    }
    expect(documents.find((document) => document.externalId === 'u-grace/m1')).toMatchObject({
      title: 'Compiler notes',
      parentExternalId: 'u-grace/conv-m1',
    });
    const mailboxCalls = fake.server.requests.filter((request) => request.path.includes('/mailFolders'));
    expect(mailboxCalls.length).toBeGreaterThan(0);
    for (const request of mailboxCalls) expect(request.path).toMatch(/^\/v1\.0\/users\//);
  });

  it('resumes each mailbox from its own cursor, and drops a user removed from the tenant', async () => {
    const batches = await collect(outlookConnector.fullSync(orgContext()));
    // Killed after a batch in the middle of Ada's mailbox: the rest comes from that batch's cursor, nothing twice.
    const cut = 2;
    const before = batches.slice(0, cut).flatMap((batch) => batch.documents.map((doc) => doc.externalId));
    const rest = await collect(outlookConnector.incrementalSync(orgContext(), batches[cut - 1]!.cursor));
    const after = rest.flatMap((batch) => batch.documents.map((doc) => doc.externalId));
    expect([...before, ...after].sort()).toEqual([...SEEDED_ORG].sort());

    fake.removeUser('u-grace');
    fake.edit('m1', { subject: 'Quarterly budget review (final)' });
    const later = await collect(outlookConnector.incrementalSync(orgContext(), rest.at(-1)!.cursor));
    expect(ids(later)).toEqual([`${OWNER.id}/m1`]);
    const cursor = later.at(-1)!.cursor as { users: Record<string, unknown> };
    expect(Object.keys(cursor.users)).toEqual([OWNER.id]);
    const listed = (await collect(outlookConnector.listIds(orgContext()))).flat();
    expect(listed).not.toContain('u-grace/m1');
    expect(listed).toContain(`${OWNER.id}/m1`);
  });

  it('lists each user’s attachments in that user’s mailbox, for that user alone', async () => {
    fake
      .mailbox('u-grace')
      .attach(
        'm1',
        fileAttachment('a-notes', 'notes.pdf', 'application/pdf', new TextEncoder().encode('notes')),
      );
    const documents = (await collect(outlookConnector.fullSync(orgContext()))).flatMap(
      (batch) => batch.documents,
    );
    expect(documents.find((document) => document.externalId === 'u-grace/m1')).toMatchObject({
      acl: [`user:${grace.mail}`],
      extra: { attachments: ['notes.pdf'] },
    });
    expect(
      fake.server.requests.some((request) => request.path === '/v1.0/users/u-grace/messages/m1/attachments'),
    ).toBe(true);
  });

  it('renews an app-only token Graph stops accepting, and names the admin and tenant at validate', async () => {
    const ctx = orgContext();
    await expect(outlookConnector.validate(ctx)).resolves.toEqual({
      email: ADMIN,
      workspaceName: 'contoso.com',
    });
    fake.identity.expireAppTokens();
    expect(ids(await collect(outlookConnector.fullSync(ctx)))).toHaveLength(SEEDED_ORG.length);
  });

  it('reports a tenant that has not consented (or a wrong client secret) as invalid credentials', async () => {
    vi.stubEnv('SCOUT_OAUTH_OUTLOOK_CLIENT_SECRET', 'not-the-secret');
    await expect(outlookConnector.validate(orgContext())).rejects.toBeInstanceOf(InvalidCredentialsError);
  });
});
