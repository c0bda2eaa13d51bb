// Google Calendar: each member connects their own account (OAuth, calendar.readonly) and Scout indexes the events of
// the calendars they own, from three years back onwards, one document per event (a recurring series is one
// document). A sync is a pass over those calendars, one events.list page per batch: a calendar with a sync token is
// asked only for what changed (cancelled events among them, reported deleted); one without, or whose token Google
// no longer honours (410 GONE), is listed afresh from the window's start, and pruning drops what that misses.
import { calendar, type calendar_v3 } from '@googleapis/calendar';
import { z } from 'zod';
import { CREDENTIAL_NAMES } from '../../common/strings';
import {
  FatalSourceError,
  NotFoundError,
  defineConnector,
  type ConnectorContext,
  type SyncBatch,
} from '../sdk';
import {
  call,
  googleClientOptions,
  googleConfigSchema,
  googleCredentialsSchema,
  googleOAuth,
} from '../google/api';
import { withWorkspaceOrgConnection } from '../google/members';
import { eventDocument, eventExternalId } from './event';

export const CALENDAR_ROOT_URL = 'https://www.googleapis.com/';
export const CALENDAR_SCOPES = ['https://www.googleapis.com/auth/calendar.readonly'] as const;
/** events.list answers at most 2500 a page; 250 is its default. */
const EVENTS_PAGE_SIZE = 250;

type Context = ConnectorContext<
  z.output<typeof googleCredentialsSchema>,
  z.output<typeof googleConfigSchema>
>;

const calendarStepSchema = z.object({
  calendarId: z.string().min(1),
  /** null: list the calendar afresh from the window's start. */
  syncToken: z.string().nullable(),
  pageToken: z.string().nullable(),
});
type CalendarStep = z.output<typeof calendarStepSchema>;

/**
 * Versioned so a later shape can tell an old cursor from garbage. `queue` is what is left of the current pass,
 * its head being the calendar in hand; `tokens` are the sync tokens of the calendars already caught up.
 */
const cursorSchema = z.object({
  v: z.literal(1),
  member: z.email(),
  queue: z.array(calendarStepSchema),
  tokens: z.record(z.string(), z.string()),
  /** Calendars in the pass, for the progress share. */
  total: z.number().int().min(0),
});
type Cursor = z.output<typeof cursorSchema>;

function api(ctx: Context): calendar_v3.Calendar {
  return calendar({ version: 'v3', ...googleClientOptions(ctx, CALENDAR_ROOT_URL) });
}

/** The calendars the member owns; the primary one's id is their address. */
async function ownedCalendars(ctx: Context): Promise<{ member: string; calendarIds: string[] }> {
  const ids: string[] = [];
  let member: string | null = null;
  let pageToken: string | null = null;
  do {
    const token: string | null = pageToken;
    const page: calendar_v3.Schema$CalendarList = await call(
      api(ctx).calendarList.list({ minAccessRole: 'owner', ...(token === null ? {} : { pageToken: token }) }),
    );
    for (const entry of page.items ?? []) {
      if (!entry.id || entry.deleted) continue;
      ids.push(entry.id);
      if (entry.primary) member = entry.id.toLowerCase();
    }
    pageToken = page.nextPageToken ?? null;
  } while (pageToken !== null);
  const parsed = z.email().safeParse(member);
  if (!parsed.success) throw new FatalSourceError('Google Calendar listed no primary calendar');
  return { member: parsed.data, calendarIds: ids };
}

function eventsPage(ctx: Context, step: CalendarStep): Promise<calendar_v3.Schema$Events> {
  return call(
    api(ctx).events.list({
      calendarId: step.calendarId,
      maxResults: EVENTS_PAGE_SIZE,
      // Google refuses a sync token together with other restrictions: the window belongs to the fresh listing.
      ...(step.syncToken === null
        ? { timeMin: ctx.syncWindowStart.toISOString() }
        : { syncToken: step.syncToken }),
      ...(step.pageToken === null ? {} : { pageToken: step.pageToken }),
    }),
  );
}

function share(cursor: Cursor): number {
  return cursor.total === 0 ? 1 : (cursor.total - cursor.queue.length) / cursor.total;
}

/**
 * Works the queue off a page at a time; each batch's cursor is the queue as it stands after that page. Answers the
 * cursor it ends with, whose tokens the next pass starts from.
 */
async function* runQueue(ctx: Context, start: Cursor): AsyncGenerator<SyncBatch, Cursor> {
  let cursor = start;
  for (;;) {
    const [step, ...rest] = cursor.queue;
    if (step === undefined) return cursor;
    let page: calendar_v3.Schema$Events;
    try {
      page = await eventsPage(ctx, step);
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      if (error.status === 410 && step.syncToken !== null) {
        // The sync token expired: list the calendar afresh.
        ctx.logger.info({ connector: 'gcal' }, 'sync token expired, listing the calendar afresh');
        cursor = { ...cursor, queue: [{ ...step, syncToken: null, pageToken: null }, ...rest] };
        continue;
      }
      // The calendar itself is gone; pruning removes its events.
      const tokens = Object.entries(cursor.tokens).filter(([calendarId]) => calendarId !== step.calendarId);
      cursor = { ...cursor, queue: rest, tokens: Object.fromEntries(tokens) };
      continue;
    }
    const items = page.items ?? [];
    const documents = items.flatMap((event) => eventDocument(event, step.calendarId, cursor.member) ?? []);
    const cancelled = items.flatMap((event) =>
      event.id && event.status === 'cancelled' ? [eventExternalId(step.calendarId, event.id)] : [],
    );
    const next = page.nextPageToken ?? null;
    if (next !== null) {
      cursor = { ...cursor, queue: [{ ...step, pageToken: next }, ...rest] };
    } else {
      if (!page.nextSyncToken)
        throw new FatalSourceError('Google Calendar ended a listing without a sync token');
      cursor = {
        ...cursor,
        queue: rest,
        tokens: { ...cursor.tokens, [step.calendarId]: page.nextSyncToken },
      };
    }
    yield { documents, deletedExternalIds: cancelled, cursor, progress: { share: share(cursor) } };
  }
}

/** A pass over the member's calendars as they are now: sync tokens where we have them, fresh listings elsewhere. */
async function* newPass(ctx: Context, tokens: Record<string, string>): AsyncGenerator<SyncBatch> {
  const { member, calendarIds } = await ownedCalendars(ctx);
  const cursor: Cursor = {
    v: 1,
    member,
    queue: calendarIds.map((calendarId) => ({
      calendarId,
      syncToken: tokens[calendarId] ?? null,
      pageToken: null,
    })),
    // Calendars no longer owned drop out; pruning removes their events.
    tokens: {},
    total: calendarIds.length,
  };
  if (calendarIds.length === 0) {
    yield { documents: [], cursor, progress: { share: 1 } };
    return;
  }
  yield* runQueue(ctx, cursor);
}

const calendarsConnector = defineConnector({
  shortname: 'gcal',
  installPayload: { individual: 'oauth' },
  credentialsSchema: googleCredentialsSchema,
  configSchema: googleConfigSchema,
  credentialFields: [],
  credentialName: CREDENTIAL_NAMES.credentials,
  // Calendar allows 600 requests a minute per user; five a second leaves half for the member's other apps. The
  // quota is Calendar's own, apart from the other Google APIs', so it keeps its own vendor, and each user's, so
  // each connection has its own limiter.
  limits: { concurrency: 2, rate: { requests: 5, intervalMs: 1000 } },
  limitScope: 'connection',
  oauth: googleOAuth(CALENDAR_SCOPES),

  async validate(ctx) {
    const { member } = await ownedCalendars(ctx);
    return { email: member, appUserId: member, workspaceName: member };
  },

  fullSync: (ctx) => newPass(ctx, {}),

  async *incrementalSync(ctx, saved) {
    const cursor = cursorSchema.safeParse(saved);
    if (!cursor.success) {
      ctx.logger.warn({ connector: 'gcal' }, 'unreadable cursor, running a full sync');
      yield* newPass(ctx, {});
      return;
    }
    // Finish a pass cut short, then catch up with everything changed since.
    const finished = yield* runQueue(ctx, cursor.data);
    yield* newPass(ctx, finished.tokens);
  },

  async *listIds(ctx) {
    const { calendarIds } = await ownedCalendars(ctx);
    for (const calendarId of calendarIds) {
      let step: CalendarStep = { calendarId, syncToken: null, pageToken: null };
      for (;;) {
        const page = await eventsPage(ctx, step);
        yield (page.items ?? []).flatMap((event) =>
          event.id && event.status !== 'cancelled' ? [eventExternalId(calendarId, event.id)] : [],
        );
        if (!page.nextPageToken) break;
        step = { ...step, pageToken: page.nextPageToken };
      }
    }
  },
});

/** A member's own calendars, or (org connection) every member's, each event readable by its owner and attendees. */
export const gcalConnector = withWorkspaceOrgConnection(calendarsConnector, CALENDAR_SCOPES);
