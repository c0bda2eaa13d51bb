import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  InvalidCredentialsError,
  PermissionMismatchError,
  RateLimitedError,
  TransientError,
  createConnectorContext,
  type Cursor,
  type SourceDocument,
  type SyncBatch,
} from '../sdk';
import { collect, recordingLogger, runConnectorConformance } from '../sdk/testing';
import { startGmailFake, type GmailFake } from './fake';
import { gmailConnector } from './index';

let fake: GmailFake;

beforeEach(async () => {
  fake = await startGmailFake({ pageSize: 2 });
});

afterEach(async () => {
  await fake.close();
});

function context(credentials: object = {}, signal?: AbortSignal) {
  return createConnectorContext(gmailConnector, {
    credentials: { access_token: fake.accessToken(), ...credentials },
    config: { baseUrl: fake.server.url },
    random: () => 0,
    signal,
  });
}

const documentsOf = (batches: readonly SyncBatch[]) => batches.flatMap((batch) => batch.documents);
const idsOf = (batches: readonly SyncBatch[]) => documentsOf(batches).map((document) => document.externalId);
const quotaExceeded = {
  error: {
    code: 403,
    message: 'Quota exceeded',
    errors: [{ reason: 'userRateLimitExceeded', domain: 'usageLimits' }],
  },
};

describe('gmail connector', () => {
  it('passes the conformance kit', async () => {
    const report = await runConnectorConformance(gmailConnector, {
      fakeServer: fake.server,
      credentials: { access_token: fake.accessToken() },
      invalidCredentials: { access_token: 'revoked-token' },
      config: { baseUrl: fake.server.url },
      changeSource: () => {
        fake.addMessage({
          id: 'm20',
          threadId: 't-budget',
          from: 'Grace Hopper <grace@example.com>',
          to: fake.mailbox,
          subject: 'Re: Q3 budget review',
          date: new Date(),
          text: 'Moved to Friday.',
        });
        fake.addMessage({
          id: 'm21',
          threadId: 't-new',
          from: 'Linus <linus@example.com>',
          to: fake.mailbox,
          subject: 'Release train',
          date: new Date(),
          text: 'The train leaves at noon.',
        });
        fake.deleteThread('t-newsletter');
        return { changed: ['t-budget', 't-new'], deleted: ['t-newsletter'] };
      },
    });
    expect(report).toEqual({
      fullSync: { batches: 2, documents: 3 },
      resumedMidSync: true,
      incremental: { documents: 2, deleted: 1 },
      listedIds: 3,
      groups: null,
    });
  });

  it('makes a thread one document: subject, messages in order with sender and date, text, attachment names', async () => {
    const documents = documentsOf(await collect(gmailConnector.fullSync(context())));
    const byId = new Map(documents.map((document) => [document.externalId, document]));
    expect([...byId.keys()].sort()).toEqual(['t-budget', 't-newsletter', 't-offsite']);

    const budget = byId.get('t-budget') as SourceDocument;
    expect(budget).toMatchObject({
      title: 'Q3 budget review',
      author: { name: 'Grace Hopper', email: 'grace@example.com' },
      objectType: 'Messages',
      fileType: 'email',
      acl: ['user:ada@example.com'],
      url: 'https://mail.google.com/mail/?authuser=ada%40example.com#all/t-budget',
      extra: { from: ['grace@example.com', 'ada@example.com'], messages: 2, attachments: ['q3-budget.xlsx'] },
    });
    expect(budget.body).toMatch(
      /^From: Grace Hopper <grace@example.com>\nDate: \S+\nTo: ada@example.com\n\nCan we review the Q3 budget[^]*Attachments: q3-budget.xlsx\n\n---\n\nFrom: Ada Lovelace <ada@example.com>[^]*Thursday works/,
    );
    expect(budget.createdTime.getTime()).toBeLessThan(budget.modifiedTime.getTime());

    const newsletter = byId.get('t-newsletter') as SourceDocument;
    expect(newsletter.body).toContain('Tracing every request with spans.');
    expect(newsletter.body).not.toContain('<b>');
    // text/plain wins over the HTML alternative.
    expect(byId.get('t-offsite')?.body).toContain('the lighthouse, the barn and the observatory');
  });

  it('leaves out threads in the bin, in spam and older than three years, and reports how far back it reached', async () => {
    const ctx = context();
    const batches = await collect(gmailConnector.fullSync(ctx));
    for (const id of ['t-binned', 't-spam', 't-ancient']) expect(idsOf(batches)).not.toContain(id);
    const reached = batches.map((batch) => batch.progress?.syncedFrom?.getTime() ?? 0);
    expect(reached).toEqual([...reached].sort((a, b) => b - a));
    expect(batches.at(-1)?.progress?.syncedFrom).toEqual(ctx.syncWindowStart);
  });

  it('follows history: a thread moved to the bin is reported deleted, a new reply re-reads its thread', async () => {
    const full = await collect(gmailConnector.fullSync(context()));
    fake.trashThread('t-offsite');
    fake.addMessage({
      id: 'm30',
      threadId: 't-budget',
      from: 'Grace Hopper <grace@example.com>',
      to: fake.mailbox,
      subject: 'Re: Q3 budget review',
      date: new Date(),
      text: 'Approved.',
    });
    const incremental = await collect(
      gmailConnector.incrementalSync(context(), full.at(-1)?.cursor as Cursor),
    );
    expect(idsOf(incremental)).toEqual(['t-budget']);
    expect(documentsOf(incremental)[0]?.body).toMatch(/Thursday works[^]*Approved\./);
    expect(incremental.flatMap((batch) => batch.deletedExternalIds ?? [])).toEqual(['t-offsite']);
  });

  it('falls back to a full sync when Gmail no longer keeps the history it was asked for', async () => {
    const full = await collect(gmailConnector.fullSync(context()));
    fake.expireHistory();
    const logger = recordingLogger();
    const ctx = createConnectorContext(gmailConnector, {
      credentials: { access_token: fake.accessToken() },
      config: { baseUrl: fake.server.url },
      logger,
    });
    const again = await collect(gmailConnector.incrementalSync(ctx, full.at(-1)?.cursor as Cursor));
    expect(idsOf(again).sort()).toEqual(['t-budget', 't-newsletter', 't-offsite']);
    expect(logger.entries.map((entry) => entry.message)).toContain('history expired, running a full sync');
  });

  it('rides out a storm of 429s and 403 userRateLimitExceeded, backing off the whole connection', async () => {
    // Four refusals in a row: one short of the attempts a request gets.
    fake.server.failNext(2, { kind: 'status', status: 403, json: quotaExceeded });
    fake.server.failNext(2, { kind: 'rateLimit', retryAfter: 0 });
    const documents = documentsOf(await collect(gmailConnector.fullSync(context())));
    expect(documents).toHaveLength(3);
    expect(fake.server.requests.slice(0, 5).map((request) => request.outcome)).toEqual([
      'status',
      'status',
      'rateLimit',
      'rateLimit',
      'route',
    ]);
  });

  it('hands back RateLimitedError when the quota refusals outlast the retries', async () => {
    fake.server.failNext(20, { kind: 'status', status: 403, json: quotaExceeded });
    await expect(collect(gmailConnector.fullSync(context()))).rejects.toBeInstanceOf(RateLimitedError);
  });

  it('tells a lapsed access token (retry after a refresh) from a revoked one (reconnect)', async () => {
    fake.lapseAccessToken();
    const soon = new Date(Date.now() + 60_000).toISOString();
    await expect(collect(gmailConnector.fullSync(context({ expires_at: soon })))).rejects.toBeInstanceOf(
      TransientError,
    );
    const later = new Date(Date.now() + 3_000_000).toISOString();
    await expect(collect(gmailConnector.fullSync(context({ expires_at: later })))).rejects.toBeInstanceOf(
      InvalidCredentialsError,
    );
  });

  it('reports a token without the Gmail scope as a permission mismatch at connect', async () => {
    fake.server.failNext(1, {
      kind: 'status',
      status: 403,
      json: { error: { code: 403, errors: [{ reason: 'insufficientPermissions' }] } },
    });
    await expect(gmailConnector.validate(context())).rejects.toBeInstanceOf(PermissionMismatchError);
    await expect(gmailConnector.validate(context())).resolves.toEqual({
      email: 'ada@example.com',
      appUserId: 'ada@example.com',
      workspaceName: 'ada@example.com',
    });
  });

  it('asks Google for offline read-only access to mail', () => {
    expect(gmailConnector.oauth).toMatchObject({
      scopes: ['https://www.googleapis.com/auth/gmail.readonly'],
      pkce: true,
      authorizeParams: { access_type: 'offline', prompt: 'consent' },
    });
  });
});
