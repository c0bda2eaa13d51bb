// Google's rows: a member's Gmail and Calendar and Drive (individual connections, the OAuth token the fake issues)
// and an admin's Workspace directory (an org connection).
import { CHANGE_MARK, changedText, connectorRow, paragraphsOf, textPieces } from '../connector-bench';
import { gcalConnector } from '../../connectors/gcal';
import { startCalendarFake, type CalendarFake } from '../../connectors/gcal/fake';
import { gdriveConnector } from '../../connectors/gdrive';
import { DOC_MIME, FOLDER_MIME, startDriveFake, type DriveFake } from '../../connectors/gdrive/fake';
import { gmailConnector } from '../../connectors/gmail';
import { startGmailFake, type GmailFake } from '../../connectors/gmail/fake';
import { gworkspaceDirectoryConnector } from '../../connectors/gworkspace-directory';
import { startDirectoryFake, type WorkspaceDirectoryFake } from '../../connectors/gworkspace-directory/fake';

const DAY_MS = 86_400_000;
/** How far back the items of a mailbox, calendar or drive go: two of the three years a sync reads. */
const SPREAD_MS = 2 * 365 * DAY_MS;
const COLLEAGUES = ['Grace Hopper', 'Linus Torvalds', 'Barbara Liskov', 'Ken Thompson', 'Frances Allen'];
const addressOf = (name: string) => `${name.split(' ')[0]!.toLowerCase()}@example.com`;

/** A token good for an hour, as the OAuth flow stores it; the engine refreshes it before it lapses. */
const oauthCredentials = (fake: { accessToken(): string; refreshToken: string }) => ({
  access_token: fake.accessToken(),
  refresh_token: fake.refreshToken,
  expires_at: new Date(Date.now() + 3_600_000).toISOString(),
});

/** The fixture's threads, none of them the benchmark's. */
const SEEDED_THREADS = ['t-budget', 't-newsletter', 't-offsite', 't-binned', 't-spam', 't-ancient'];

export const gmailRow = connectorRow({
  connector: gmailConnector,
  isOrg: false,
  async startWorkspace(items) {
    const gmail = await startGmailFake({ pageSize: 100 });
    for (const thread of SEEDED_THREADS) gmail.deleteThread(thread);
    let k = 0;
    // Thread k: a colleague writes (item 0 the newest), and in one thread of three the member answers.
    for (const { title, body } of textPieces(items, { min: 200, max: 4_000 })) {
      const colleague = COLLEAGUES[k % COLLEAGUES.length]!;
      const date = Date.now() - 3_600_000 - (k * SPREAD_MS) / items;
      const [question = body, ...answer] = k % 3 === 0 ? paragraphsOf(body, body.length / 2) : [body];
      gmail.addMessage({
        id: `m-${k}`,
        threadId: `t-${k}`,
        from: `${colleague} <${addressOf(colleague)}>`,
        to: gmail.mailbox,
        subject: title.slice(0, 120),
        date: new Date(date),
        text: question,
      });
      if (answer.length > 0)
        gmail.addMessage({
          id: `m-${k}-re`,
          threadId: `t-${k}`,
          from: gmail.mailbox,
          to: addressOf(colleague),
          subject: `Re: ${title.slice(0, 120)}`,
          date: new Date(date + 1_800_000),
          text: answer.join('\n\n'),
        });
      k += 1;
    }
    return { fake: gmail, config: { baseUrl: gmail.server.url }, credentials: oauthCredentials(gmail) };
  },
  change(gmail: GmailFake, changes) {
    // A reply lands in each thread: history reports the message added.
    for (let n = 0; n < changes; n++)
      gmail.addMessage({
        id: `m-${n}-change`,
        threadId: `t-${n}`,
        from: `${COLLEAGUES[0]} <${addressOf(COLLEAGUES[0]!)}>`,
        to: gmail.mailbox,
        subject: 'Re: correction',
        date: new Date(),
        text: changedText(n),
      });
  },
  requests: (gmail) => gmail.server.requests.length,
  close: (gmail) => gmail.close(),
});

/** The fixture's events in the member's own calendars, by calendar. */
const SEEDED_EVENTS: [calendar: string | null, event: string][] = [
  [null, 'ev-design-review'],
  [null, 'ev-dentist'],
  [null, 'ev-standup'],
  [null, 'ev-ancient'],
  ['team-launches@group.calendar.google.com', 'ev-launch'],
];

interface CalendarWorkspace {
  calendar: CalendarFake;
  descriptions: string[];
}

export const gcalRow = connectorRow({
  connector: gcalConnector,
  isOrg: false,
  async startWorkspace(items) {
    const calendar = await startCalendarFake({ pageSize: 250 });
    for (const [calendarId, event] of SEEDED_EVENTS)
      calendar.cancelEvent(calendarId ?? calendar.member, event);
    const descriptions: string[] = [];
    let k = 0;
    // Event k: from a month ahead (event 0) back over two years, each with the member and some colleagues.
    for (const { title, body } of textPieces(items, { min: 100, max: 1_500 })) {
      const start = new Date(Date.now() + 30 * DAY_MS - (k * SPREAD_MS) / items);
      const attendees = COLLEAGUES.slice(0, 1 + (k % COLLEAGUES.length));
      calendar.putEvent(calendar.member, {
        id: `ev-${k}`,
        summary: title.slice(0, 120),
        description: body,
        location: k % 4 === 0 ? 'Room Babbage' : 'Video call',
        start: { dateTime: start.toISOString() },
        end: { dateTime: new Date(start.getTime() + (1 + (k % 3)) * 1_800_000).toISOString() },
        organizer: { email: calendar.member, self: true },
        attendees: [
          { email: calendar.member, responseStatus: 'accepted' },
          ...attendees.map((name) => ({
            email: addressOf(name),
            displayName: name,
            responseStatus: 'accepted',
          })),
        ],
      });
      descriptions.push(body);
      k += 1;
    }
    return {
      fake: { calendar, descriptions },
      config: { baseUrl: calendar.server.url },
      credentials: oauthCredentials(calendar),
    };
  },
  change({ calendar, descriptions }: CalendarWorkspace, changes) {
    for (let n = 0; n < changes; n++)
      calendar.putEvent(calendar.member, {
        id: `ev-${n}`,
        description: `${descriptions[n]}\n${changedText(n)}`,
      });
  },
  requests: ({ calendar }) => calendar.server.requests.length,
  close: ({ calendar }) => calendar.close(),
});

const FILES_PER_FOLDER = 500;

interface DriveWorkspace {
  drive: DriveFake;
  contents: string[];
}

export const gdriveRow = connectorRow({
  connector: gdriveConnector,
  isOrg: false,
  async startWorkspace(items) {
    const drive = await startDriveFake();
    drive.addFile({ id: 'root', name: 'My Drive', mimeType: FOLDER_MIME });
    const folders = Math.ceil(items / FILES_PER_FOLDER);
    for (let i = 0; i < folders; i++)
      drive.addFile({
        id: `folder-${i}`,
        name: `Project ${i}`,
        mimeType: FOLDER_MIME,
        parent: 'root',
        // Half the projects are shared with the whole domain, the rest with a colleague.
        permissions:
          i % 2 === 0
            ? [{ type: 'domain', role: 'reader', domain: 'acme.test' }]
            : [{ type: 'user', role: 'writer', emailAddress: 'grace@acme.test' }],
      });
    const contents: string[] = [];
    let k = 0;
    // Google Docs (exported as text) and plain text files, in turn.
    for (const { title, body } of textPieces(items, { min: 500, max: 8_000 })) {
      const doc = k % 2 === 0;
      drive.addFile({
        id: `file-${k}`,
        name: doc ? title.slice(0, 100) : `${title.slice(0, 100)}.txt`,
        mimeType: doc ? DOC_MIME : 'text/plain',
        parent: `folder-${k % folders}`,
        content: body,
      });
      contents.push(body);
      k += 1;
    }
    return {
      fake: { drive, contents },
      config: { baseUrl: drive.server.url },
      credentials: {
        access_token: drive.token,
        refresh_token: 'refresh-1',
        token_type: 'Bearer',
        expires_at: '2099-01-01T00:00:00.000Z',
      },
    };
  },
  change({ drive, contents }: DriveWorkspace, changes) {
    for (let n = 0; n < changes; n++) drive.edit(`file-${n}`, `${contents[n]}\n${changedText(n)}`);
  },
  requests: ({ drive }) => drive.server.requests.length,
  close: ({ drive }) => drive.close(),
});

const FIRST_NAMES = [
  'Ada',
  'Grace',
  'Linus',
  'Barbara',
  'Ken',
  'Frances',
  'Edsger',
  'Margaret',
  'Alan',
  'Radia',
];
const LAST_NAMES = ['Lovelace', 'Hopper', 'Torvalds', 'Liskov', 'Thompson', 'Allen', 'Dijkstra', 'Hamilton'];
const TITLES = [
  'Software engineer',
  'Product manager',
  'Designer',
  'Account executive',
  'Recruiter',
  'Analyst',
];
const DEPARTMENTS = ['Engineering', 'Product', 'Design', 'Sales', 'People', 'Finance'];
const OFFICES = ['London', 'New York', 'Berlin', 'Singapore'];
/** People per manager: person k reports to person k / TEAM (the first to nobody). */
const TEAM = 8;

function person(k: number, title = TITLES[k % TITLES.length]!) {
  return {
    id: `u-${k}`,
    primaryEmail: `person${k}@acme.test`,
    name: {
      fullName: `${FIRST_NAMES[k % FIRST_NAMES.length]} ${LAST_NAMES[Math.floor(k / FIRST_NAMES.length) % LAST_NAMES.length]} ${k}`,
    },
    creationTime: new Date(Date.parse('2020-01-06T09:00:00Z') + k * 3_600_000).toISOString(),
    organizations: [
      {
        title,
        department: DEPARTMENTS[Math.floor(k / TEAM) % DEPARTMENTS.length],
        location: OFFICES[k % OFFICES.length],
        primary: true,
      },
    ],
    ...(k > 0 ? { relations: [{ type: 'manager', value: `person${Math.floor(k / TEAM)}@acme.test` }] } : {}),
  };
}

export const gworkspaceDirectoryRow = connectorRow({
  connector: gworkspaceDirectoryConnector,
  isOrg: true,
  async startWorkspace(items) {
    const directory = await startDirectoryFake();
    for (let k = 0; k < items; k++) directory.putUser(person(k));
    return {
      fake: directory,
      config: { baseUrl: directory.server.url },
      credentials: {
        access_token: directory.token,
        refresh_token: 'refresh-1',
        expires_at: '2099-01-01T00:00:00.000Z',
      },
    };
  },
  change(directory: WorkspaceDirectoryFake, changes) {
    // A promotion: the new title is what the person's document shows.
    for (let n = 0; n < changes; n++) directory.putUser(person(n, `Principal, ${CHANGE_MARK}`));
  },
  requests: (directory) => directory.server.requests.length,
  close: (directory) => directory.close(),
});
