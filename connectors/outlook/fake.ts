// A fake Microsoft Graph mailbox on 127.0.0.1 for the Outlook connector's tests: /me, mail folders (well-known
// names, child folders), per-folder message delta rounds with opaque skip and delta tokens, plain message
// listings, single messages and their attachments (listed; one alone, an attached mail's item expanded on request;
// and a file's raw bytes at `$value`), and the identity
// platform's token endpoint for refreshes. The same mailbox calls under /users/{id} serve an org connection's
// app-only token, with the tenant's users (GET /users) and a mailbox each. Answers are typed with
// @microsoft/microsoft-graph-types, so a shape Graph does not have does not compile. Edits, moves, deletes and an
// access token that expires are scriptable; 429 and 503 storms come from the SDK's fake server (failNext).
import type {
  Attachment,
  FileAttachment,
  ItemAttachment,
  MailFolder,
  Message,
  ReferenceAttachment,
  User,
} from '@microsoft/microsoft-graph-types';
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
/** An attachment as Graph lists it: a file's (with its bytes), an attached mail or event's, or a cloud file link's. */
export type FakeAttachment =
  | (FileAttachment & { id: string; '@odata.type': '#microsoft.graph.fileAttachment' })
  | (ItemAttachment & { id: string; '@odata.type': '#microsoft.graph.itemAttachment' })
  | (ReferenceAttachment & { id: string; '@odata.type': '#microsoft.graph.referenceAttachment' });

/** A file attached to a message: `size` is what Graph declares (the bytes' length unless given). */
export function fileAttachment(
  id: string,
  name: string,
  contentType: string,
  bytes: Uint8Array,
  extra: { size?: number; isInline?: boolean } = {},
): FakeAttachment {
  return {
    '@odata.type': '#microsoft.graph.fileAttachment',
    id,
    name,
    contentType,
    size: extra.size ?? bytes.byteLength,
    isInline: extra.isInline ?? false,
    lastModifiedDateTime: new Date().toISOString(),
    contentBytes: Buffer.from(bytes).toString('base64'),
  };
}

/**
 * A mail attached to a message as an Outlook item (forwarded as an attachment), with the message Graph expands in
 * it on request. Its own `attachments` come expanded with it, files with their bytes and mails with their item, as
 * in Graph's "get attachment" example 4 (nested up to 30 levels).
 */
export function mailAttachment(
  id: string,
  name: string,
  attached: Message,
  attachments: readonly FakeAttachment[] = [],
): FakeAttachment {
  const item: Message & { '@odata.type': '#microsoft.graph.message' } = {
    '@odata.type': '#microsoft.graph.message',
    ...attached,
    ...(attachments.length > 0
      ? {
          attachments: [...attachments],
          hasAttachments: attachments.some((attachment) => !attachment.isInline),
        }
      : {}),
  };
  return {
    '@odata.type': '#microsoft.graph.itemAttachment',
    id,
    name,
    contentType: null,
    size: 8192,
    isInline: false,
    lastModifiedDateTime: new Date().toISOString(),
    item,
  };
}

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

/** One mailbox's scripted changes; the fake's own methods are Ada's mailbox's. */
export interface MailboxControls {
  /** Adds or replaces a message; every change is what the folder's next delta round reports. */
  put(message: FakeMessage): void;
  edit(id: string, patch: MessagePatch): void;
  move(id: string, folderId: string): void;
  /** A hard delete: the message is gone from the mailbox. */
  remove(id: string): void;
  /** A folder and its messages vanish without a delta entry, which no feed reports (pruning's case). */
  dropFolder(folderId: string): void;
  /** Attaches to a message; one not inline sets its hasAttachments, as Graph counts only those. */
  attach(id: string, ...attachments: FakeAttachment[]): void;
}

export interface OutlookFake extends MailboxControls {
  readonly server: FakeServer;
  /** Where the connector's baseUrl points. */
  readonly graphUrl: string;
  /** Its tokens, as the identity platform issues them. */
  readonly identity: FakeIdentity;
  /**
   * A user of the tenant (listed by GET /users, Ada first), with a mailbox of `messages` unless null (a user without
   * an Exchange mailbox, which Graph answers 404). Replacing a user (disabling them) keeps their mailbox.
   */
  putUser(user: User & { id: string }, messages?: FakeMessage[] | null): void;
  /** The user is deleted from the tenant, mailbox and all. */
  removeUser(id: string): void;
  mailbox(userId: string): MailboxControls;
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
  /** The tenant whose admin consent the client-credentials grant honours (the org admin's domain). */
  readonly tenant?: string;
}

interface Mailbox {
  readonly folders: (MailFolder & { id: string; parentFolderId: string | null })[];
  readonly messages: Map<string, { message: FakeMessage; change: number }>;
  readonly removals: { id: string; folderId: string; change: number }[];
  /** By message id. */
  readonly attachments: Map<string, FakeAttachment[]>;
  changes: number;
}

function newMailbox(messages: readonly FakeMessage[]): Mailbox {
  const box: Mailbox = {
    folders: seedFolders(),
    messages: new Map(),
    removals: [],
    attachments: new Map(),
    changes: 0,
  };
  for (const seeded of messages) box.messages.set(seeded.id, { message: seeded, change: 0 });
  return box;
}

const notFound = () =>
  graphError(404, 'ErrorItemNotFound', 'The specified object was not found in the store.');

function controls(box: Mailbox): MailboxControls {
  const change = (id: string, update: (stored: FakeMessage) => FakeMessage) => {
    const stored = box.messages.get(id);
    if (!stored) throw new Error(`no message ${id}`);
    box.changes += 1;
    box.messages.set(id, { message: update(stored.message), change: box.changes });
  };
  return {
    put(next) {
      box.changes += 1;
      const previous = box.messages.get(next.id);
      if (previous && previous.message.parentFolderId !== next.parentFolderId)
        box.removals.push({ id: next.id, folderId: previous.message.parentFolderId, change: box.changes });
      box.messages.set(next.id, { message: next, change: box.changes });
    },
    edit(id, patch) {
      change(id, (stored) => ({ ...stored, ...patch, lastModifiedDateTime: new Date().toISOString() }));
    },
    move(id, folderId) {
      const from = box.messages.get(id)?.message.parentFolderId;
      change(id, (stored) => ({
        ...stored,
        parentFolderId: folderId,
        lastModifiedDateTime: new Date().toISOString(),
      }));
      if (from) box.removals.push({ id, folderId: from, change: box.changes });
    },
    remove(id) {
      const stored = box.messages.get(id);
      if (!stored) throw new Error(`no message ${id}`);
      box.changes += 1;
      box.messages.delete(id);
      box.attachments.delete(id);
      box.removals.push({ id, folderId: stored.message.parentFolderId, change: box.changes });
    },
    attach(id, ...attachments) {
      box.attachments.set(id, [...(box.attachments.get(id) ?? []), ...attachments]);
      const listed = attachments.some((attachment) => !attachment.isInline);
      change(id, (stored) => ({ ...stored, hasAttachments: stored.hasAttachments || listed }));
    },
    dropFolder(folderId) {
      box.folders.splice(
        box.folders.findIndex((folder) => folder.id === folderId),
        1,
      );
      for (const [id, stored] of box.messages)
        if (stored.message.parentFolderId === folderId) box.messages.delete(id);
    },
  };
}

export async function startOutlookFake(options: OutlookFakeOptions = {}): Promise<OutlookFake> {
  const server = await startFakeServer();
  const identity = fakeIdentityPlatform(server, 'outlook', options.tenant);
  const owner: User & { id: string } = {
    id: OWNER.id,
    displayName: OWNER.name,
    mail: OWNER.email,
    userPrincipalName: OWNER.email,
    accountEnabled: true,
  };
  const users = new Map<string, User & { id: string }>([[OWNER.id, owner]]);
  const mailboxes = new Map<string, Mailbox>([[OWNER.id, newMailbox(seedMessages())]]);
  const ada = mailboxes.get(OWNER.id) as Mailbox;

  /** Graph takes a user's id or sign-in name in /users/{id|userPrincipalName}. */
  const userBy = (idOrName: string) =>
    users.get(idOrName) ??
    [...users.values()].find((user) => user.userPrincipalName?.toLowerCase() === idOrName.toLowerCase());

  const folderById = (box: Mailbox, idOrName: string) =>
    box.folders.find((folder) => folder.id === idOrName) ??
    box.folders.find((folder) => folder.id === FOLDERS[idOrName.toLowerCase() as keyof typeof FOLDERS]);

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

  const unauthorized = () =>
    graphError(401, 'InvalidAuthenticationToken', 'Access token has expired or is not yet valid.');

  /**
   * A mailbox call, at /me for the member's delegated token and at /users/{id} for the tenant's app-only token (Graph
   * refuses /me without a signed-in user). A user without a mailbox answers as Graph does for one.
   */
  const mailboxRoute = (
    method: string,
    path: string,
    handler: (request: FakeRequest, box: Mailbox) => FakeResponse,
  ) => {
    server.route(method, `/v1.0/me${path}`, (request) =>
      identity.authorized(request) ? handler(request, ada) : unauthorized(),
    );
    server.route(method, `/v1.0/users/:user${path}`, (request) => {
      if (!identity.appAuthorized(request)) return unauthorized();
      const user = userBy(request.params.user ?? '');
      if (!user) return graphError(404, 'ResourceNotFound', 'Resource could not be discovered.');
      const box = mailboxes.get(user.id);
      if (!box)
        return graphError(
          404,
          'MailboxNotEnabledForRESTAPI',
          'REST API is not yet supported for this mailbox.',
        );
      return handler(request, box);
    });
  };

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

  server.route('GET', '/v1.0/me', (request) => {
    if (!identity.authorized(request)) return unauthorized();
    const me: User = {
      id: OWNER.id,
      displayName: OWNER.name,
      mail: OWNER.email,
      userPrincipalName: OWNER.email,
    };
    return { json: me };
  });

  server.route('GET', '/v1.0/users', (request) => {
    if (!identity.appAuthorized(request)) return unauthorized();
    const skip = Number(request.query.get('$skiptoken') ?? 0);
    const size = pageSize(request, 10);
    const all = [...users.values()];
    const page: ODataPage<User> = { value: all.slice(skip, skip + size) };
    if (skip + size < all.length) {
      const next = new URL(`${request.origin}${request.path}`);
      for (const [key, value] of request.query) if (key !== '$skiptoken') next.searchParams.set(key, value);
      next.searchParams.set('$skiptoken', String(skip + size));
      page['@odata.nextLink'] = next.href;
    }
    return { json: page };
  });

  const listFolders = (request: FakeRequest, box: Mailbox, parent: string | null): FakeResponse => {
    const children = box.folders
      .filter((folder) => folder.parentFolderId === parent)
      .map((folder): MailFolder => ({
        id: folder.id,
        displayName: folder.displayName,
        parentFolderId: folder.parentFolderId,
        childFolderCount: box.folders.filter((child) => child.parentFolderId === folder.id).length,
      }));
    const skip = Number(request.query.get('$skiptoken') ?? 0);
    const size = pageSize(request, 10);
    const page: ODataPage<MailFolder> = { value: children.slice(skip, skip + size) };
    if (skip + size < children.length)
      page['@odata.nextLink'] = `${request.origin}${request.path}?$skiptoken=${skip + size}`;
    return { json: page };
  };
  mailboxRoute('GET', '/mailFolders', (request, box) => listFolders(request, box, null));
  mailboxRoute('GET', '/mailFolders/:folder', (request, box) => {
    const folder = folderById(box, request.params.folder ?? '');
    if (!folder) return notFound();
    const answer: MailFolder = { id: folder.id, displayName: folder.displayName };
    return { json: answer };
  });
  mailboxRoute('GET', '/mailFolders/:folder/childFolders', (request, box) => {
    const folder = folderById(box, request.params.folder ?? '');
    if (!folder) return notFound();
    return listFolders(request, box, folder.id);
  });

  const inFolder = (box: Mailbox, folderId: string, from: string | null) =>
    [...box.messages.values()].filter(
      ({ message: stored }) =>
        stored.parentFolderId === folderId && (from === null || stored.receivedDateTime >= from),
    );
  const newestFirst = (a: { message: FakeMessage }, b: { message: FakeMessage }) =>
    b.message.receivedDateTime.localeCompare(a.message.receivedDateTime);

  mailboxRoute('GET', '/mailFolders/:folder/messages/delta', (request, box) => {
    const folder = folderById(box, request.params.folder ?? '');
    if (!folder) return notFound();
    const raw = request.query.get('$skiptoken') ?? request.query.get('$deltatoken');
    let token: Token;
    if (raw === null) {
      const from = filterFrom(request);
      if (from === undefined)
        return graphError(400, 'ErrorInvalidUrlQueryFilter', 'The query filter is invalid.');
      token = { since: null, at: box.changes, offset: 0, from };
    } else {
      const decoded = decodeToken(raw);
      if (decoded === null) return graphError(400, 'SyncStateInvalid', 'The sync state is invalid.');
      // A delta link starts the next round from where the last one ended.
      token = request.query.has('$deltatoken')
        ? { ...decoded, since: decoded.at, at: box.changes, offset: 0 }
        : decoded;
    }
    const current = inFolder(box, folder.id, token.from)
      .filter((entry) => token.since === null || entry.change > token.since)
      .sort(newestFirst);
    const listed = current.map((entry) => present(request, entry.message));
    const here = new Set(current.map((entry) => entry.message.id));
    const left: RemovedEntry[] =
      token.since === null
        ? []
        : [
            ...new Set(
              box.removals
                .filter((removal) => removal.folderId === folder.id && removal.change > (token.since ?? 0))
                .map((removal) => removal.id),
            ),
          ]
            .filter((id) => !here.has(id) && box.messages.get(id)?.message.parentFolderId !== folder.id)
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

  mailboxRoute('GET', '/mailFolders/:folder/messages', (request, box) => {
    const folder = folderById(box, request.params.folder ?? '');
    if (!folder) return notFound();
    const raw = request.query.get('$skiptoken');
    const token =
      raw === null
        ? { since: null, at: box.changes, offset: 0, from: filterFrom(request) ?? null }
        : decodeToken(raw);
    if (token === null) return graphError(400, 'ErrorInvalidUrlQuery', 'The skip token is invalid.');
    const ids = inFolder(box, folder.id, token.from)
      .sort(newestFirst)
      .map((entry): Message => ({ id: entry.message.id }));
    return { json: pageOf(request, ids, token, pageSize(request, 10)) };
  });

  mailboxRoute('GET', '/messages/:id', (request, box) => {
    const stored = box.messages.get(request.params.id ?? '');
    if (!stored) return notFound();
    return { json: present(request, stored.message) };
  });

  /**
   * A file's bytes come in a listing unless a $select leaves contentBytes out; an attached Outlook item comes only
   * when $expand asks for it, as Graph answers.
   */
  const selected = (request: FakeRequest, attachment: FakeAttachment): Attachment => {
    if (attachment['@odata.type'] === '#microsoft.graph.itemAttachment') {
      if (request.query.get('$expand') === 'microsoft.graph.itemattachment/item') return attachment;
      const { item: _item, ...rest } = attachment;
      return rest;
    }
    const fields = request.query.get('$select')?.split(',');
    if (!fields || fields.includes('contentBytes') || !('contentBytes' in attachment)) return attachment;
    const { contentBytes: _bytes, ...rest } = attachment;
    return rest;
  };
  mailboxRoute('GET', '/messages/:id/attachments', (request, box) => {
    const id = request.params.id ?? '';
    if (!box.messages.has(id)) return notFound();
    const page: ODataPage<Attachment> = {
      value: (box.attachments.get(id) ?? []).map((attachment) => selected(request, attachment)),
    };
    return { json: page };
  });
  mailboxRoute('GET', '/messages/:id/attachments/:attachment', (request, box) => {
    const id = request.params.id ?? '';
    const attachment = box.messages.has(id)
      ? box.attachments.get(id)?.find((candidate) => candidate.id === request.params.attachment)
      : undefined;
    return attachment ? { json: selected(request, attachment) } : notFound();
  });
  mailboxRoute('GET', '/messages/:id/attachments/:attachment/$value', (request, box) => {
    const id = request.params.id ?? '';
    const attachment = box.messages.has(id)
      ? box.attachments.get(id)?.find((candidate) => candidate.id === request.params.attachment)
      : undefined;
    if (attachment?.['@odata.type'] !== '#microsoft.graph.fileAttachment') return notFound();
    return {
      body: Buffer.from(attachment.contentBytes ?? '', 'base64'),
      headers: { 'content-type': attachment.contentType ?? 'application/octet-stream' },
    };
  });

  return {
    server,
    graphUrl: `${server.url}/v1.0`,
    identity,
    ...controls(ada),
    putUser(user, messages = []) {
      users.set(user.id, user);
      if (messages === null) mailboxes.delete(user.id);
      else if (!mailboxes.has(user.id)) mailboxes.set(user.id, newMailbox(messages));
    },
    removeUser(id) {
      users.delete(id);
      mailboxes.delete(id);
    },
    mailbox(userId) {
      const box = mailboxes.get(userId);
      if (!box) throw new Error(`no mailbox of ${userId}`);
      return controls(box);
    },
    close: () => server.close(),
  };
}
