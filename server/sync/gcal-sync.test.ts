// Google Calendar end to end: the real engine syncs a member's fixture calendars from the fake Calendar API on
// 127.0.0.1 into the in-memory store, and members search them through `_search`. It lives here, not beside the
// connector, because a connector may not import the server. The token endpoint is the fake's, so refreshes are real.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SYNC_WINDOW_MS } from '../../common/connection-status';
import { defineConnector } from '../../connectors/sdk';
import { gcalConnector } from '../../connectors/gcal';
import { startCalendarFake, type CalendarFake } from '../../connectors/gcal/fake';
import { appConnections, documents, type Org, type User } from '../db/schema';
import { titlesFound } from '../testing/search';
import { insertConnection, syncNow } from './testing/connections';
import { createOrg, createUser } from '../testing/fixtures';
import { createTestServer, type TestServer } from '../testing/server';
import { type SyncMode } from './engine';
import { registerConnector } from './registry';

let server: TestServer;
let fake: CalendarFake;
let org: Org;
let ada: User;
let grace: User;
let linus: User;
let bob: User;

beforeAll(async () => {
  fake = await startCalendarFake({ pageSize: 2 });
  registerConnector(
    defineConnector({
      ...gcalConnector,
      oauth: { ...gcalConnector.oauth!, tokenUrl: `${fake.server.url}/token` },
    }),
  );
  vi.stubEnv('SCOUT_OAUTH_GCAL_CLIENT_ID', 'gcal-client');
  vi.stubEnv('SCOUT_OAUTH_GCAL_CLIENT_SECRET', 'gcal-secret');
  server = await createTestServer();
  const { db } = server.store;
  org = await createOrg(db, { domain: 'example.com' });
  ada = await createUser(db, org, { email: 'ada@example.com', admin: true });
  grace = await createUser(db, org, { email: 'grace@example.com' });
  linus = await createUser(db, org, { email: 'linus@example.com' });
  bob = await createUser(db, org, { email: 'bob@example.com' });
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await fake.close();
  await server.close();
});

async function connect(isOrg: boolean, expiresInMs: number): Promise<string> {
  const { db } = server.store;
  return insertConnection(db, {
    orgId: org.id,
    userId: ada.id,
    appName: 'gcal',
    isOrg,
    config: { baseUrl: fake.server.url },
    credentials: {
      access_token: fake.accessToken(),
      refresh_token: fake.refreshToken,
      expires_at: new Date(Date.now() + expiresInMs).toISOString(),
    },
  });
}

const sync = (connectionId: string, mode: SyncMode, runId?: string) =>
  syncNow(server.store.db, connectionId, mode, { runId });

async function indexed(connectionId: string): Promise<Map<string, string>> {
  const rows = await server.store.db
    .select({ externalId: documents.externalId, title: documents.title })
    .from(documents)
    .where(and(eq(documents.orgId, org.id), eq(documents.connectionId, connectionId)));
  return new Map(rows.map((row) => [row.externalId, row.title]));
}

const fixture = () => fake.visibleEvents(new Date(Date.now() - SYNC_WINDOW_MS));

const search = (user: User, q: string) => titlesFound(server, user, q);

const eventRequests = () => fake.server.requests.filter((request) => request.path.endsWith('/events'));

describe('Google Calendar through the sync engine', () => {
  let connectionId: string;

  it('refreshes an expired token and syncs; attendees find the event, others do not', async () => {
    fake.lapseAccessToken();
    connectionId = await connect(true, -60_000);
    expect(await sync(connectionId, 'full')).toMatchObject({ kind: 'complete' });
    expect(fake.server.requests.filter((request) => request.path === '/token')).toHaveLength(1);
    expect(await indexed(connectionId)).toEqual(fixture());
    for (const user of [ada, grace, linus])
      expect(await search(user, 'ranking')).toEqual(['Design review: search ranking']);
    expect(await search(bob, 'ranking')).toEqual([]);
    // No attendees: the member's alone.
    expect(await search(ada, 'dentist')).toEqual(['Dentist']);
    expect(await search(grace, 'dentist')).toEqual([]);
  });

  it('drops a removed attendee at once, and applies an edit and a cancellation', async () => {
    fake.removeAttendee('ada@example.com', 'ev-design-review', 'grace@example.com');
    fake.putEvent('ada@example.com', { id: 'ev-dentist', summary: 'Orthodontist' });
    fake.cancelEvent('ada@example.com', 'ev-standup');
    expect(await sync(connectionId, 'incremental')).toMatchObject({ kind: 'complete' });
    expect(await indexed(connectionId)).toEqual(fixture());
    expect(await search(grace, 'ranking')).toEqual([]);
    expect(await search(linus, 'ranking')).toEqual(['Design review: search ranking']);
    expect(await search(ada, 'orthodontist')).toEqual(['Orthodontist']);
    expect(await search(ada, 'standup')).toEqual([]);
    expect(await search(grace, 'standup')).toEqual([]);
  });

  it('keeps an individual connection’s events to the member, whoever attends', async () => {
    const personal = await connect(false, 3_600_000);
    expect(await sync(personal, 'full')).toMatchObject({ kind: 'complete' });
    const [row] = await server.store.db
      .select({ acl: documents.acl })
      .from(documents)
      .where(
        and(
          eq(documents.connectionId, personal),
          eq(documents.externalId, 'ada@example.com/ev-design-review'),
        ),
      );
    expect(row?.acl).toEqual(['user:ada@example.com']);
    await server.store.db.delete(documents).where(eq(documents.connectionId, personal));
    await server.store.db.delete(appConnections).where(eq(appConnections.id, personal));
  });

  it('cut short by a 429 storm, comes back later and resumes from its cursor to the fixture', async () => {
    const stormy = await connect(true, 3_600_000);
    fake.server.clearLog();
    fake.server.failNext(
      5,
      { kind: 'rateLimit', retryAfter: 0 },
      { path: '/calendar/v3/calendars/team-launches%40group.calendar.google.com/events' },
    );
    const runId = 'storm-run';
    expect((await sync(stormy, 'full', runId)).kind).toBe('later');
    const cut = await indexed(stormy);
    expect(cut.size).toBeGreaterThan(0);
    expect(cut.size).toBeLessThan(fixture().size);

    fake.server.clearLog();
    expect(await sync(stormy, 'full', runId)).toMatchObject({ kind: 'complete' });
    // Resumed at the calendar it had not finished, not from the first one.
    expect(decodeURIComponent(eventRequests()[0]?.path ?? '')).toContain(
      'team-launches@group.calendar.google.com',
    );
    expect(await indexed(stormy)).toEqual(fixture());
  });

  it('prunes events a fresh listing no longer shows', async () => {
    fake.expireSyncTokens();
    fake.cancelEvent('team-launches@group.calendar.google.com', 'ev-launch');
    expect(await sync(connectionId, 'incremental')).toMatchObject({ kind: 'complete' });
    // A fresh listing does not report cancellations; pruning does.
    expect((await indexed(connectionId)).has('team-launches@group.calendar.google.com/ev-launch')).toBe(true);
    expect(await sync(connectionId, 'prune')).toEqual({ kind: 'pruned', deleted: 1 });
    expect(await indexed(connectionId)).toEqual(fixture());
  });
});
