// A fake Google Calendar API on 127.0.0.1 for the connector's tests, answering in the shapes of
// @googleapis/calendar's own types: calendarList.list (with minAccessRole) and events.list with page tokens, a
// `timeMin` window, and sync tokens that return what changed since (cancelled events included) or 410 GONE once
// expired, as Google does. OAuth (bearer check, lapsing tokens, the refresh grant) is the Gmail fake's.
import type { calendar_v3 } from '@googleapis/calendar';
import { fakeGoogleAuth, googleError } from '../google/fake-auth';
import { startFakeServer, type FakeServer } from '../sdk/fake-server';

export interface CalendarFake {
  readonly server: FakeServer;
  readonly member: string;
  readonly refreshToken: string;
  accessToken(): string;
  lapseAccessToken(): void;
  /** Adds or replaces an event; `updated` moves on. */
  putEvent(calendarId: string, event: calendar_v3.Schema$Event): void;
  /** Cancels an event, as deleting it in Google Calendar does. */
  cancelEvent(calendarId: string, eventId: string): void;
  /** Removes an attendee from an event. */
  removeAttendee(calendarId: string, eventId: string, email: string): void;
  /** Sync tokens handed out so far answer 410 GONE. */
  expireSyncTokens(): void;
  /** What the connector should hold: externalId → title, for events ending after `after`. */
  visibleEvents(after: Date): Map<string, string>;
  close(): Promise<void>;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const SCOPE = 'https://www.googleapis.com/auth/calendar.readonly';

interface Stored {
  event: calendar_v3.Schema$Event;
  /** The change serial it was last written at; sync tokens name a serial. */
  serial: number;
}

function at(days: number, hour: number): string {
  const date = new Date(Date.now() + days * DAY_MS);
  date.setUTCHours(hour, 0, 0, 0);
  return date.toISOString();
}

const endOf = (event: calendar_v3.Schema$Event) =>
  new Date(event.end?.dateTime ?? event.end?.date ?? event.start?.dateTime ?? 0);

/** The member's primary calendar, a secondary one they own, and a colleague's they only read. */
function seedCalendars(member: string): calendar_v3.Schema$CalendarListEntry[] {
  return [
    { id: member, summary: member, primary: true, accessRole: 'owner', timeZone: 'Europe/London' },
    { id: 'team-launches@group.calendar.google.com', summary: 'Launches', accessRole: 'owner' },
    { id: 'grace@example.com', summary: 'Grace Hopper', accessRole: 'reader' },
  ];
}

function seedEvents(member: string): { calendarId: string; event: calendar_v3.Schema$Event }[] {
  const attendee = (email: string, displayName?: string): calendar_v3.Schema$EventAttendee => ({
    email,
    responseStatus: 'accepted',
    ...(displayName ? { displayName } : {}),
  });
  return [
    {
      calendarId: member,
      event: {
        id: 'ev-design-review',
        summary: 'Design review: search ranking',
        description: 'Walk through the <b>ranking</b> proposal and the evaluation set.',
        location: 'Room Babbage',
        start: { dateTime: at(2, 14), timeZone: 'Europe/London' },
        end: { dateTime: at(2, 15), timeZone: 'Europe/London' },
        organizer: { email: member, displayName: 'Ada Lovelace', self: true },
        attendees: [
          attendee(member, 'Ada Lovelace'),
          attendee('grace@example.com', 'Grace Hopper'),
          attendee('linus@example.com'),
          { email: 'room-babbage@resource.calendar.google.com', resource: true, responseStatus: 'accepted' },
        ],
      },
    },
    {
      calendarId: member,
      event: {
        id: 'ev-dentist',
        summary: 'Dentist',
        start: { dateTime: at(-30, 9) },
        end: { dateTime: at(-30, 10) },
        organizer: { email: member, self: true },
        visibility: 'private',
      },
    },
    {
      calendarId: member,
      event: {
        id: 'ev-standup',
        summary: 'Team standup',
        description: 'Daily.',
        recurrence: ['RRULE:FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR'],
        start: { dateTime: at(-100, 9) },
        end: { dateTime: at(-100, 9) },
        organizer: { email: 'grace@example.com' },
        attendees: [attendee(member), attendee('grace@example.com')],
      },
    },
    {
      calendarId: 'team-launches@group.calendar.google.com',
      event: {
        id: 'ev-launch',
        summary: 'Launch: workplace search',
        start: { date: at(20, 0).slice(0, 10) },
        end: { date: at(21, 0).slice(0, 10) },
        organizer: { email: 'team-launches@group.calendar.google.com', displayName: 'Launches' },
      },
    },
    {
      calendarId: member,
      event: {
        id: 'ev-ancient',
        summary: 'Kick-off, long ago',
        start: { dateTime: at(-1500, 9) },
        end: { dateTime: at(-1500, 10) },
        organizer: { email: member, self: true },
      },
    },
    {
      calendarId: 'grace@example.com',
      event: {
        id: 'ev-grace-private',
        summary: 'Grace: interviews',
        start: { dateTime: at(3, 10) },
        end: { dateTime: at(3, 11) },
        organizer: { email: 'grace@example.com', self: true },
      },
    },
  ];
}

const encode = (value: string) => Buffer.from(value, 'utf8').toString('base64url');
const decode = (value: string) => Buffer.from(value, 'base64url').toString('utf8');

export async function startCalendarFake(
  options: { member?: string; pageSize?: number; tokenLifetimeSeconds?: number } = {},
): Promise<CalendarFake> {
  const member = options.member ?? 'ada@example.com';
  const pageSize = options.pageSize ?? 2;
  const server = await startFakeServer();
  const auth = fakeGoogleAuth(server, {
    prefix: 'gcal',
    scope: SCOPE,
    tokenLifetimeSeconds: options.tokenLifetimeSeconds,
  });
  const calendars = seedCalendars(member);
  const events = new Map<string, Map<string, Stored>>();
  let serial = 1;
  let oldestSyncSerial = 0;

  const calendarEvents = (calendarId: string) => {
    let map = events.get(calendarId);
    if (!map) {
      map = new Map();
      events.set(calendarId, map);
    }
    return map;
  };
  const write = (calendarId: string, event: calendar_v3.Schema$Event) => {
    serial += 1;
    const stamp = new Date(Date.now() + serial).toISOString();
    const existing = calendarEvents(calendarId).get(event.id ?? '');
    calendarEvents(calendarId).set(event.id ?? '', {
      serial,
      event: {
        kind: 'calendar#event',
        status: 'confirmed',
        htmlLink: `https://www.google.com/calendar/event?eid=${encode(`${event.id} ${calendarId}`)}`,
        created: existing?.event.created ?? stamp,
        ...existing?.event,
        ...event,
        updated: stamp,
      },
    });
  };

  server.route(
    'GET',
    '/calendar/v3/users/me/calendarList',
    auth.authorized((request) => {
      const owned = request.query.get('minAccessRole') === 'owner';
      const answer: calendar_v3.Schema$CalendarList = {
        kind: 'calendar#calendarList',
        items: calendars.filter((entry) => !owned || entry.accessRole === 'owner'),
      };
      return { json: answer };
    }),
  );

  server.route(
    'GET',
    '/calendar/v3/calendars/:calendarId/events',
    auth.authorized((request) => {
      const calendarId = request.params.calendarId ?? '';
      if (!calendars.some((entry) => entry.id === calendarId))
        return googleError(404, 'NOT_FOUND', 'notFound', 'Not Found');
      const syncToken = request.query.get('syncToken');
      const timeMin = request.query.get('timeMin');
      if (syncToken !== null && timeMin !== null)
        return googleError(
          400,
          'INVALID_ARGUMENT',
          'invalid',
          'Sync token cannot be used with other request restrictions.',
        );
      const stored = [...calendarEvents(calendarId).values()].sort((a, b) => a.serial - b.serial);
      let matching: Stored[];
      if (syncToken !== null) {
        const since = Number(decode(syncToken).replace(/^sync-/, ''));
        if (!Number.isInteger(since) || since < oldestSyncSerial)
          return googleError(
            410,
            'GONE',
            'fullSyncRequired',
            'Sync token is no longer valid, a full sync is required.',
          );
        matching = stored.filter((entry) => entry.serial > since);
      } else {
        const from = timeMin === null ? new Date(0) : new Date(timeMin);
        matching = stored.filter(
          (entry) =>
            entry.event.status !== 'cancelled' && (entry.event.recurrence || endOf(entry.event) >= from),
        );
      }
      const offset = Number(decode(request.query.get('pageToken') ?? encode('0')));
      const size = Math.min(Number(request.query.get('maxResults') ?? 250), pageSize);
      const last = offset + size >= matching.length;
      const answer: calendar_v3.Schema$Events = {
        kind: 'calendar#events',
        summary: calendarId,
        timeZone: 'UTC',
        items: matching.slice(offset, offset + size).map((entry) => entry.event),
        ...(last
          ? { nextSyncToken: encode(`sync-${serial}`) }
          : { nextPageToken: encode(String(offset + size)) }),
      };
      return { json: answer };
    }),
  );

  const fake: CalendarFake = {
    server,
    member,
    refreshToken: auth.refreshToken,
    accessToken: auth.accessToken,
    lapseAccessToken: auth.lapse,
    putEvent: write,
    cancelEvent(calendarId, eventId) {
      write(calendarId, { id: eventId, status: 'cancelled' });
    },
    removeAttendee(calendarId, eventId, email) {
      const stored = calendarEvents(calendarId).get(eventId);
      if (!stored) throw new Error(`no event ${eventId}`);
      write(calendarId, {
        id: eventId,
        attendees: (stored.event.attendees ?? []).filter((attendee) => attendee.email !== email),
      });
    },
    expireSyncTokens() {
      oldestSyncSerial = serial + 1;
    },
    visibleEvents(after) {
      const visible = new Map<string, string>();
      for (const entry of calendars) {
        if (entry.accessRole !== 'owner' || !entry.id) continue;
        for (const { event } of calendarEvents(entry.id).values()) {
          if (event.status === 'cancelled' || (!event.recurrence && endOf(event) < after)) continue;
          visible.set(`${entry.id}/${event.id}`, event.summary ?? '');
        }
      }
      return visible;
    },
    close: () => server.close(),
  };
  for (const { calendarId, event } of seedEvents(member)) write(calendarId, event);
  return fake;
}
