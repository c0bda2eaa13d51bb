import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  InvalidCredentialsError,
  createConnectorContext,
  type Cursor,
  type SourceDocument,
  type SyncBatch,
} from '../sdk';
import { collect, recordingLogger, runConnectorConformance } from '../sdk/testing';
import { startCalendarFake, type CalendarFake } from './fake';
import { gcalConnector } from './index';

let fake: CalendarFake;

beforeEach(async () => {
  fake = await startCalendarFake({ pageSize: 2 });
});

afterEach(async () => {
  await fake.close();
});

function context(logger = recordingLogger()) {
  return createConnectorContext(gcalConnector, {
    credentials: { access_token: fake.accessToken() },
    config: { baseUrl: fake.server.url },
    random: () => 0,
    logger,
  });
}

const LAUNCHES = 'team-launches@group.calendar.google.com';
const documentsOf = (batches: readonly SyncBatch[]) => batches.flatMap((batch) => batch.documents);
const idsOf = (batches: readonly SyncBatch[]) => documentsOf(batches).map((document) => document.externalId);
const deletedOf = (batches: readonly SyncBatch[]) =>
  batches.flatMap((batch) => batch.deletedExternalIds ?? []);

describe('google calendar connector', () => {
  it('passes the conformance kit', async () => {
    const report = await runConnectorConformance(gcalConnector, {
      fakeServer: fake.server,
      credentials: { access_token: fake.accessToken() },
      invalidCredentials: { access_token: 'revoked-token' },
      config: { baseUrl: fake.server.url },
      changeSource: () => {
        fake.putEvent('ada@example.com', { id: 'ev-dentist', summary: 'Dentist (moved)' });
        fake.putEvent(LAUNCHES, {
          id: 'ev-beta',
          summary: 'Beta opens',
          start: { date: '2099-01-01' },
          end: { date: '2099-01-02' },
        });
        fake.cancelEvent('ada@example.com', 'ev-standup');
        return {
          changed: ['ada@example.com/ev-dentist', `${LAUNCHES}/ev-beta`],
          deleted: ['ada@example.com/ev-standup'],
        };
      },
    });
    expect(report).toEqual({
      fullSync: { batches: 3, documents: 4 },
      resumedMidSync: true,
      incremental: { documents: 2, deleted: 1 },
      listedIds: 4,
      groups: null,
    });
  });

  it('indexes the events of calendars the member owns, from three years back, with who attends', async () => {
    const documents = documentsOf(await collect(gcalConnector.fullSync(context())));
    const byId = new Map(documents.map((document) => [document.externalId, document]));
    expect([...byId.keys()].sort()).toEqual([
      'ada@example.com/ev-dentist',
      'ada@example.com/ev-design-review',
      'ada@example.com/ev-standup',
      `${LAUNCHES}/ev-launch`,
    ]);
    const review = byId.get('ada@example.com/ev-design-review') as SourceDocument;
    expect(review).toMatchObject({
      title: 'Design review: search ranking',
      objectType: 'Calendar',
      fileType: 'event',
      author: { name: 'Ada Lovelace', email: 'ada@example.com' },
      // The member and the attendees; the room reads nothing.
      acl: ['user:ada@example.com', 'user:grace@example.com', 'user:linus@example.com'],
      extra: {
        location: 'Room Babbage',
        attendees: ['ada@example.com', 'grace@example.com', 'linus@example.com'],
      },
    });
    expect(review.url).toMatch(/^https:\/\/www\.google\.com\/calendar\/event\?eid=/);
    expect(review.body).toMatch(
      /^When: \S+ \(Europe\/London\) – \S+ \(Europe\/London\)\nWhere: Room Babbage\n/,
    );
    expect(review.body).toContain(
      'Attendees: Ada Lovelace <ada@example.com>, Grace Hopper <grace@example.com>',
    );
    expect(review.body).toContain('Walk through the ranking proposal');
    expect(review.body).not.toContain('<b>');
    expect(byId.get('ada@example.com/ev-dentist')?.acl).toEqual(['user:ada@example.com']);
  });

  it('re-reads an event whose attendee was removed, with the narrower ACL', async () => {
    const full = await collect(gcalConnector.fullSync(context()));
    fake.removeAttendee('ada@example.com', 'ev-design-review', 'grace@example.com');
    const incremental = await collect(
      gcalConnector.incrementalSync(context(), full.at(-1)?.cursor as Cursor),
    );
    expect(idsOf(incremental)).toEqual(['ada@example.com/ev-design-review']);
    expect(documentsOf(incremental)[0]?.acl).toEqual(['user:ada@example.com', 'user:linus@example.com']);
  });

  it('lists a calendar afresh when Google answers 410 GONE to its sync token', async () => {
    const full = await collect(gcalConnector.fullSync(context()));
    fake.expireSyncTokens();
    const logger = recordingLogger();
    const again = await collect(
      gcalConnector.incrementalSync(context(logger), full.at(-1)?.cursor as Cursor),
    );
    expect(idsOf(again).sort()).toEqual(idsOf(full).sort());
    expect(deletedOf(again)).toEqual([]);
    expect(logger.entries.map((entry) => entry.message)).toContain(
      'sync token expired, listing the calendar afresh',
    );
  });

  it('reports its progress as the share of calendars done', async () => {
    const batches = await collect(gcalConnector.fullSync(context()));
    const shares = batches.map((batch) => batch.progress?.share);
    expect(shares).toEqual([0, 0.5, 1]);
  });

  it('rides out 429s and 403 rateLimitExceeded', async () => {
    fake.server.failNext(2, {
      kind: 'status',
      status: 403,
      json: { error: { code: 403, errors: [{ reason: 'rateLimitExceeded', domain: 'usageLimits' }] } },
    });
    fake.server.failNext(2, { kind: 'rateLimit', retryAfter: 0 });
    expect(idsOf(await collect(gcalConnector.fullSync(context())))).toHaveLength(4);
  });

  it('refuses a revoked token at connect, and names the member’s address', async () => {
    await expect(
      gcalConnector.validate(
        createConnectorContext(gcalConnector, {
          credentials: { access_token: 'revoked' },
          config: { baseUrl: fake.server.url },
        }),
      ),
    ).rejects.toBeInstanceOf(InvalidCredentialsError);
    await expect(gcalConnector.validate(context())).resolves.toEqual({
      email: 'ada@example.com',
      appUserId: 'ada@example.com',
      workspaceName: 'ada@example.com',
    });
    expect(gcalConnector.oauth?.scopes).toEqual(['https://www.googleapis.com/auth/calendar.readonly']);
  });
});
