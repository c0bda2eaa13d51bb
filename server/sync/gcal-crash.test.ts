// Google Calendar survives being killed mid-sync: the member's fixture calendars (connectors/gcal/fake.ts) with a
// fortnight more of meetings stay up in this process while the real job worker syncs them in a child process that
// is SIGKILLed twice after some committed batches (server/sync/testing/crash-harness.ts). The index must end up
// holding exactly the events in the window, the member's own, and no page of events may have been
// listed by all three workers, as it would be by a sync that started over.
import { afterAll, expect, it } from 'vitest';
import { ConnectionStatus, SYNC_WINDOW_MS } from '../../common/connection-status';
import { startCalendarFake, type CalendarFake } from '../../connectors/gcal/fake';
import { crashSync, mostRequestsOfOne } from './testing/crash-harness';

const MORE_EVENTS = 14;
const KILLS = 2;
const DAY_MS = 86_400_000;

let fake: CalendarFake | undefined;
afterAll(async () => {
  await fake?.close();
});

it(`indexes exactly the events in the window after ${KILLS} SIGKILLs mid-sync`, async () => {
  fake = await startCalendarFake({ pageSize: 2 });
  for (let n = 1; n <= MORE_EVENTS; n++) {
    const start = new Date(Date.now() - n * DAY_MS);
    fake.putEvent(fake.member, {
      id: `ev-sync-${n}`,
      summary: `Sync review ${n}`,
      start: { dateTime: start.toISOString() },
      end: { dateTime: new Date(start.getTime() + 1_800_000).toISOString() },
      organizer: { email: fake.member, self: true },
      attendees: [{ email: fake.member, responseStatus: 'accepted' }],
    });
  }
  const expected = [...fake.visibleEvents(new Date(Date.now() - SYNC_WINDOW_MS)).keys()].sort();

  const result = await crashSync({
    label: 'gcal-crash',
    appName: 'gcal',
    isOrg: false,
    ownerEmail: fake.member,
    config: { baseUrl: fake.server.url },
    credentials: {
      access_token: fake.accessToken(),
      refresh_token: fake.refreshToken,
      expires_at: new Date(Date.now() + 3_600_000).toISOString(),
    },
    kills: KILLS,
    batchesBeforeKill: [1, 2],
  });

  expect(result.documents.map((row) => row.externalId)).toEqual(expected);
  // An individual connection's events are the member's alone, whoever attends.
  expect(result.documents.every((row) => row.acl.join() === 'user:ada@example.com')).toBe(true);
  expect(result.statusCode).toBe(ConnectionStatus.IndexingComplete);
  // A page is listed again only when a kill struck while it was in hand, and the next worker committed it.
  const listings = fake.server.requests.filter((request) => request.path.endsWith('/events'));
  const pageToken = (search: string) => new URLSearchParams(search).get('pageToken');
  expect(
    mostRequestsOfOne(listings, (request) => `${request.path}?${pageToken(request.search)}`),
  ).toBeLessThanOrEqual(2);
}, 300_000);
