// A Google Calendar event as one document: its title, when and where, who organises and attends, and its
// description. Readable by the connecting member and the event's attendees, as Google shows the event to each of
// them; when Google leaves attendees out of the answer (attendeesOmitted) the list cannot be trusted, so only the
// member keeps it.
import type { calendar_v3 } from '@googleapis/calendar';
import { google as googleStrings } from '../../common/strings';
import { userPrincipal, type Principal, type SourceDocument } from '../sdk';
import { htmlToDocument } from '../sdk/html';

type Event = calendar_v3.Schema$Event;

const CALENDAR_HOME = 'https://calendar.google.com/calendar/r';
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Unique per connection: one event id may appear on several of the member's calendars. */
export function eventExternalId(calendarId: string, eventId: string): string {
  return `${calendarId}/${eventId}`;
}

function when(time: calendar_v3.Schema$EventDateTime | undefined): string {
  if (!time) return '';
  if (time.date) return time.date;
  return time.dateTime ? `${time.dateTime}${time.timeZone ? ` (${time.timeZone})` : ''}` : '';
}

function person(entry: { displayName?: string | null; email?: string | null }): string {
  const name = entry.displayName?.trim();
  const email = entry.email?.trim();
  if (name && email) return `${name} <${email}>`;
  return name || email || '';
}

/** Descriptions may be HTML (Google's editor writes some); plain text passes through. */
function descriptionText(description: string | null | undefined): string {
  if (!description) return '';
  return /<[a-z][\s\S]*>/i.test(description) ? htmlToDocument(description).text : description.trim();
}

/** People attending, without rooms and resources (they read nothing). */
function attendeeEmails(event: Event): string[] {
  return (event.attendees ?? []).flatMap((attendee) =>
    !attendee.resource && attendee.email && EMAIL.test(attendee.email) ? [attendee.email.toLowerCase()] : [],
  );
}

export function eventAcl(event: Event, member: string): Principal[] {
  const readers = event.attendeesOmitted ? [] : attendeeEmails(event);
  return [...new Set([member.toLowerCase(), ...readers])].map(userPrincipal);
}

function date(value: string | null | undefined, fallback: Date): Date {
  const parsed = value ? new Date(value) : fallback;
  return Number.isNaN(parsed.getTime()) ? fallback : parsed;
}

function startOf(event: Event): string {
  return event.start?.dateTime ?? event.start?.date ?? '';
}

export function eventDocument(event: Event, calendarId: string, member: string): SourceDocument | null {
  if (!event.id || event.status === 'cancelled') return null;
  const organizer = event.organizer ?? event.creator ?? {};
  const attendees = (event.attendees ?? []).filter((attendee) => !attendee.resource);
  const lines = [
    `When: ${when(event.start ?? undefined)} – ${when(event.end ?? undefined)}`,
    ...(event.location ? [`Where: ${event.location}`] : []),
    ...(person(organizer) ? [`Organizer: ${person(organizer)}`] : []),
    ...(attendees.length > 0
      ? [
          `Attendees: ${attendees
            .map((attendee) => person(attendee))
            .filter(Boolean)
            .join(', ')}`,
        ]
      : []),
  ];
  const description = descriptionText(event.description);
  const updated = date(event.updated, new Date(0));
  const organizerEmail = organizer.email?.toLowerCase();
  return {
    externalId: eventExternalId(calendarId, event.id),
    title: event.summary?.trim() || googleStrings.NO_EVENT_TITLE,
    url: event.htmlLink?.startsWith('https://') ? event.htmlLink : CALENDAR_HOME,
    body: [lines.join('\n'), description].filter((block) => block !== '').join('\n\n'),
    author: {
      ...(organizer.displayName ? { name: organizer.displayName } : {}),
      ...(organizerEmail && EMAIL.test(organizerEmail) ? { email: organizerEmail } : {}),
    },
    objectType: 'Calendar',
    fileType: 'event',
    createdTime: date(event.created, updated),
    modifiedTime: updated,
    acl: eventAcl(event, member),
    extra: {
      calendar: calendarId,
      start: startOf(event),
      attendees: attendeeEmails(event),
      ...(event.location ? { location: event.location } : {}),
    },
  };
}
