// A fake Microsoft Graph mailbox on 127.0.0.1 for the Outlook connector's tests: /me, mail folders (well-known
// names, child folders), per-folder message delta rounds with opaque skip and delta tokens, plain message
// listings, single messages, and the identity platform's token endpoint for refreshes. Answers are typed with
// @microsoft/microsoft-graph-types, so a shape Graph does not have does not compile. Edits, moves, deletes and an
// access token that expires are scriptable; 429 and 503 storms come from the SDK's fake server (failNext).
import type { MailFolder, Message, User } from '@microsoft/microsoft-graph-types';
import { startFakeServer, type FakeRequest, type FakeResponse, type FakeServer } from '../sdk/fake-server';
import { fakeIdentityPlatform, graphError, type FakeIdentity } from '../microsoft/fake-identity';

/** A Graph collection page. */
export interface ODataPage<T> {
  value: T[];
  '@odata.nextLink'?: string;
  '@odata.deltaLink'?: string;
}

/** What a delta round says of a message that left the folder. */
export interface RemovedEntry {
  id: string;
  '@removed': { reason: 'deleted' | 'changed' };
}

/** A stored message: Graph's Message with the fields the fake files and orders it by always set. */
export type FakeMessage = Message & { id: string; parentFolderId: string; receivedDateTime: string };
/** What a test may change of a message in place; moving it is `move`. */
export type MessagePatch = Omit<Message, 'id' | 'parentFolderId' | 'receivedDateTime'>;

export const OWNER = { id: 'u-ada', name: 'Ada Lovelace', email: 'ada@contoso.com' };

const DAY_MS = 24 * 60 * 60 * 1000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString();

/** Folder ids by well-known name; Graph's ids are opaque, these only look it. */
export const FOLDERS = {
  inbox: 'AAMkFolderInbox',
  projects: 'AAMkFolderProjects',
  sentitems: 'AAMkFolderSent',
  archive: 'AAMkFolderArchive',
  drafts: 'AAMkFolderDrafts',
  deleteditems: 'AAMkFolderDeleted',
  junkemail: 'AAMkFolderJunk',
} as const;

function seedFolders(): (MailFolder & { id: string; parentFolderId: string | null })[] {
  const folder = (id: string, displayName: string, parentFolderId: string | null = null) => ({
    id,
    displayName,
    parentFolderId,
  });
  return [
    folder(FOLDERS.inbox, 'Inbox'),
    folder(FOLDERS.projects, 'Projects', FOLDERS.inbox),
    folder(FOLDERS.sentitems, 'Sent Items'),
    folder(FOLDERS.archive, 'Archive'),
    folder(FOLDERS.drafts, 'Drafts'),
    folder(FOLDERS.deleteditems, 'Deleted Items'),
    folder(FOLDERS.junkemail, 'Junk Email'),
  ];
}

export function message(
  id: string,
  folderId: string,
  days: number,
  subject: string,
  extra: MessagePatch = {},
): FakeMessage {
  return {
    id,
    parentFolderId: folderId,
    subject,
    body: { contentType: 'text', content: `${subject}: the body of ${id}.` },
    from: { emailAddress: { name: 'Grace Hopper', address: 'grace@contoso.com' } },
    toRecipients: [{ emailAddress: { name: OWNER.name, address: OWNER.email } }],
    ccRecipients: [],
    receivedDateTime: daysAgo(days),
    sentDateTime: daysAgo(days),
    createdDateTime: daysAgo(days),
    lastModifiedDateTime: daysAgo(days),
    conversationId: `conv-${id}`,
    webLink: `https://outlook.office365.com/owa/?ItemID=${id}&exvsurl=1&viewmodel=ReadMessageItem`,
    isDraft: false,
    hasAttachments: false,
    ...extra,
  };
}

/**
 * Ada's mailbox: six messages to index (one in a child folder, one sent), and four that are not: a draft, one in
 * Junk Email, one in Deleted Items and one older than the three-year window.
 */
export function seedMessages(): FakeMessage[] {
  return [
    message('m1', FOLDERS.inbox, 1, 'Quarterly budget review'),
    message('m2', FOLDERS.inbox, 5, 'Offsite agenda', { hasAttachments: true }),
    message('m3', FOLDERS.inbox, 40, 'Security audit findings'),
    message('m4', FOLDERS.projects, 90, 'Project Apollo kickoff'),
    message('m5', FOLDERS.sentitems, 3, 'Re: Offsite agenda', {
      from: { emailAddress: { name: OWNER.name, address: OWNER.email } },
      toRecipients: [{ emailAddress: { name: 'Grace Hopper', address: 'grace@contoso.com' } }],
      conversationId: 'conv-m2',
    }),
    message('m6', FOLDERS.archive, 700, 'Old vendor contract'),
    message('m7', FOLDERS.drafts, 2, 'Unsent thoughts', { isDraft: true }),
    message('m8', FOLDERS.junkemail, 4, 'You won a prize'),
    message('m9', FOLDERS.deleteditems, 6, 'Lunch menu'),
    message('m10', FOLDERS.inbox, 1200, 'Ancient history'),
  ];
}

/** The ids a full sync indexes from the seed. */
export const SEEDED_INDEXED = ['m1', 'm2', 'm3', 'm4', 'm5', 'm6'];

export interface OutlookFake {
  readonly server: FakeServer;
  /** Where the connector's baseUrl points. */
  readonly graphUrl: string;
  /** Its tokens, as the identity platform issues them. */
  readonly identity: FakeIdentity;
  /** Adds or replaces a message; every change is what the folder's next delta round reports. */
  put(message: FakeMessage): void;
  edit(id: string, patch: MessagePatch): void;
  move(id: string, folderId: string): void;
  /** A hard delete: the message is gone from the mailbox. */
  remove(id: string): void;
  /** A folder and its messages vanish without a delta entry, which no feed reports (pruning's case). */
  dropFolder(folderId: string): void;
  close(): Promise<void>;
}

interface Token {
  /** Changes delivered so far: a delta round reports those after it (null: the round lists everything). */
  since: number | null;
  /** The change counter when the round started: the next round's `since`. */
  at: number;
  offset: number;
  from: string | null;
}

const encodeToken = (token: Token) => Buffer.from(JSON.stringify(token)).toString('base64url');
function decodeToken(value: string): Token | null {
  try {
    return JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as Token;
  } catch {
    return null;
  }
}

function pageSize(request: FakeRequest, fallback: number): number {
  const asked = /odata\.maxpagesize=(\d+)/.exec(String(request.headers.prefer ?? ''))?.[1];
  const top = request.query.get('$top');
  return Number(asked ?? top ?? fallback);
}

/** Only `receivedDateTime ge <instant>` is understood, as it is the only filter Graph's message delta takes. */
function filterFrom(request: FakeRequest): string | null | undefined {
  const filter = request.query.get('$filter');
  if (filter === null) return null;
  const match = /^receivedDateTime ge (\S+)$/.exec(filter);
  return match ? new Date(match[1] as string).toISOString() : undefined;
}

export interface OutlookFakeOptions {
  readonly pageSize?: number;
  /** false: bodies come back as HTML whatever the Prefer header asks, as some mailboxes answer. */
  readonly honourTextPreference?: boolean;
}

export async function startOutlookFake(options: OutlookFakeOptions = {}): Promise<OutlookFake> {
  const server = await startFakeServer();
  const folders = seedFolders();
  const messages = new Map<string, { message: FakeMessage; change: number }>();
  const removals: { id: string; folderId: string; change: number }[] = [];
  let changes = 0;
  const identity = fakeIdentityPlatform(server, 'outlook');
  for (const seeded of seedMessages()) messages.set(seeded.id, { message: seeded, change: 0 });

  const folderById = (idOrName: string) =>
    folders.find((folder) => folder.id === idOrName) ??
    folders.find((folder) => folder.id === FOLDERS[idOrName.toLowerCase() as keyof typeof FOLDERS]);

  /** Graph's own shape for a message as the request's Prefer header asks for it. */
  const present = (request: FakeRequest, stored: FakeMessage): Message => {
    const text =
      options.honourTextPreference !== false &&
      /outlook\.body-content-type="text"/.test(String(request.headers.prefer ?? ''));
    const content = stored.body?.content ?? '';
    return {
      ...stored,
      body: text
        ? { contentType: 'text', content }
        : { contentType: 'html', content: `<html><body><p>${content}</p></body></html>` },
    };
  };

  const route = (method: string, path: string, handler: (request: FakeRequest) => FakeResponse) =>
    server.route(method, path, (request) =>
      identity.authorized(request)
        ? handler(request)
        : graphError(401, 'InvalidAuthenticationToken', 'Access token has expired or is not yet valid.'),
    );

  const pageOf = <T>(request: FakeRequest, items: T[], token: Token, size: number): ODataPage<T> => {
    const end = token.offset + size;
    const base = `${request.origin}${request.path}`;
    if (end < items.length)
      return {
        value: items.slice(token.offset, end),
        '@odata.nextLink': `${base}?$skiptoken=${encodeToken({ ...token, offset: end })}`,
      };
    return { value: items.slice(token.offset, end) };
  };

  route('GET', '/v1.0/me', () => {
    const me: User = {
      id: OWNER.id,
      displayName: OWNER.name,
      mail: OWNER.email,
      userPrincipalName: OWNER.email,
    };
    return { json: me };
  });

  const listFolders = (request: FakeRequest, parent: string | null): FakeResponse => {
    const children = folders
      .filter((folder) => folder.parentFolderId === parent)
      .map((folder): MailFolder => ({
        id: folder.id,
        displayName: folder.displayName,
        parentFolderId: folder.parentFolderId,
        childFolderCount: folders.filter((child) => child.parentFolderId === folder.id).length,
      }));
    const skip = Number(request.query.get('$skiptoken') ?? 0);
    const size = pageSize(request, 10);
    const page: ODataPage<MailFolder> = { value: children.slice(skip, skip + size) };
    if (skip + size < children.length)
      page['@odata.nextLink'] = `${request.origin}${request.path}?$skiptoken=${skip + size}`;
    return { json: page };
  };
  route('GET', '/v1.0/me/mailFolders', (request) => listFolders(request, null));
  route('GET', '/v1.0/me/mailFolders/:folder', (request) => {
    const folder = folderById(request.params.folder ?? '');
    if (!folder)
      return graphError(404, 'ErrorItemNotFound', 'The specified object was not found in the store.');
    const answer: MailFolder = { id: folder.id, displayName: folder.displayName };
    return { json: answer };
  });
  route('GET', '/v1.0/me/mailFolders/:folder/childFolders', (request) => {
    const folder = folderById(request.params.folder ?? '');
    if (!folder)
      return graphError(404, 'ErrorItemNotFound', 'The specified object was not found in the store.');
    return listFolders(request, folder.id);
  });

  const inFolder = (folderId: string, from: string | null) =>
    [...messages.values()].filter(
      ({ message: stored }) =>
        stored.parentFolderId === folderId && (from === null || stored.receivedDateTime >= from),
    );
  const newestFirst = (a: { message: FakeMessage }, b: { message: FakeMessage }) =>
    b.message.receivedDateTime.localeCompare(a.message.receivedDateTime);

  route('GET', '/v1.0/me/mailFolders/:folder/messages/delta', (request) => {
    const folder = folderById(request.params.folder ?? '');
    if (!folder)
      return graphError(404, 'ErrorItemNotFound', 'The specified object was not found in the store.');
    const raw = request.query.get('$skiptoken') ?? request.query.get('$deltatoken');
    let token: Token;
    if (raw === null) {
      const from = filterFrom(request);
      if (from === undefined)
        return graphError(400, 'ErrorInvalidUrlQueryFilter', 'The query filter is invalid.');
      token = { since: null, at: changes, offset: 0, from };
    } else {
      const decoded = decodeToken(raw);
      if (decoded === null) return graphError(400, 'SyncStateInvalid', 'The sync state is invalid.');
      // A delta link starts the next round from where the last one ended.
      token = request.query.has('$deltatoken')
        ? { ...decoded, since: decoded.at, at: changes, offset: 0 }
        : decoded;
    }
    const current = inFolder(folder.id, token.from)
      .filter((entry) => token.since === null || entry.change > token.since)
      .sort(newestFirst);
    const listed = current.map((entry) => present(request, entry.message));
    const here = new Set(current.map((entry) => entry.message.id));
    const left: RemovedEntry[] =
      token.since === null
        ? []
        : [
            ...new Set(
              removals
                .filter((removal) => removal.folderId === folder.id && removal.change > (token.since ?? 0))
                .map((removal) => removal.id),
            ),
          ]
            .filter((id) => !here.has(id) && messages.get(id)?.message.parentFolderId !== folder.id)
            .map((id) => ({ id, '@removed': { reason: 'deleted' } }));
    const page = pageOf<Message | RemovedEntry>(
      request,
      [...listed, ...left],
      token,
      pageSize(request, options.pageSize ?? 2),
    );
    if (page['@odata.nextLink'] === undefined)
      page['@odata.deltaLink'] =
        `${request.origin}${request.path}?$deltatoken=${encodeToken({ ...token, offset: 0 })}`;
    return { json: page };
  });

  route('GET', '/v1.0/me/mailFolders/:folder/messages', (request) => {
    const folder = folderById(request.params.folder ?? '');
    if (!folder)
      return graphError(404, 'ErrorItemNotFound', 'The specified object was not found in the store.');
    const raw = request.query.get('$skiptoken');
    const token =
      raw === null
        ? { since: null, at: changes, offset: 0, from: filterFrom(request) ?? null }
        : decodeToken(raw);
    if (token === null) return graphError(400, 'ErrorInvalidUrlQuery', 'The skip token is invalid.');
    const ids = inFolder(folder.id, token.from)
      .sort(newestFirst)
      .map((entry): Message => ({ id: entry.message.id }));
    return { json: pageOf(request, ids, token, pageSize(request, 10)) };
  });

  route('GET', '/v1.0/me/messages/:id', (request) => {
    const stored = messages.get(request.params.id ?? '');
    if (!stored)
      return graphError(404, 'ErrorItemNotFound', 'The specified object was not found in the store.');
    return { json: present(request, stored.message) };
  });

  const change = (id: string, update: (stored: FakeMessage) => FakeMessage) => {
    const stored = messages.get(id);
    if (!stored) throw new Error(`no message ${id}`);
    changes += 1;
    messages.set(id, { message: update(stored.message), change: changes });
  };

  return {
    server,
    graphUrl: `${server.url}/v1.0`,
    identity,
    put(next) {
      changes += 1;
      const previous = messages.get(next.id);
      if (previous && previous.message.parentFolderId !== next.parentFolderId)
        removals.push({ id: next.id, folderId: previous.message.parentFolderId, change: changes });
      messages.set(next.id, { message: next, change: changes });
    },
    edit(id, patch) {
      change(id, (stored) => ({ ...stored, ...patch, lastModifiedDateTime: new Date().toISOString() }));
    },
    move(id, folderId) {
      const from = messages.get(id)?.message.parentFolderId;
      change(id, (stored) => ({
        ...stored,
        parentFolderId: folderId,
        lastModifiedDateTime: new Date().toISOString(),
      }));
      if (from) removals.push({ id, folderId: from, change: changes });
    },
    remove(id) {
      const stored = messages.get(id);
      if (!stored) throw new Error(`no message ${id}`);
      changes += 1;
      messages.delete(id);
      removals.push({ id, folderId: stored.message.parentFolderId, change: changes });
    },
    dropFolder(folderId) {
      folders.splice(
        folders.findIndex((folder) => folder.id === folderId),
        1,
      );
      for (const [id, stored] of messages)
        if (stored.message.parentFolderId === folderId) messages.delete(id);
    },
    close: () => server.close(),
  };
}
