// A fake Gmail API on 127.0.0.1 for the connector's tests, answering in the shapes of @googleapis/gmail's own types:
// users.getProfile, threads.list (with `after:` and page tokens), threads.get (format=full, MIME parts base64url),
// history.list (with a retention horizon that answers 404, as Gmail does for a start it no longer keeps), and
// Google's token endpoint for refreshes. Access tokens can be made to lapse; failures inject through `server`.
import type { gmail_v1 } from '@googleapis/gmail';
import { startFakeServer, type FakeServer } from '../sdk/fake-server';
import { fakeGoogleAuth, googleError } from '../google/fake-auth';

export interface FakeAttachment {
  filename: string;
  mimeType: string;
  /** The size Gmail reports; the bytes' own length when there are bytes and no size. */
  size?: number;
  /** The file, served by users.messages.attachments.get; none (an empty body) by default. */
  data?: Uint8Array;
}

export interface FakeMessage {
  id: string;
  threadId: string;
  from: string;
  to: string;
  subject: string;
  date: Date;
  /** text/plain; with `html`, the message is multipart/alternative. */
  text?: string;
  html?: string;
  attachments?: FakeAttachment[];
  labels: string[];
}

/** A message as a test writes it: in the inbox unless it says otherwise. */
export type SeedMessage = Omit<FakeMessage, 'labels'> & { labels?: string[] };

export interface GmailFake {
  readonly server: FakeServer;
  readonly mailbox: string;
  readonly refreshToken: string;
  /** The access token the API accepts now. */
  accessToken(): string;
  /** The current access token stops working; the token endpoint hands out the next one. */
  lapseAccessToken(): void;
  /** The access token lapses once `requests` more API requests have been answered. */
  lapseAccessTokenAfter(requests: number): void;
  addMessage(message: SeedMessage): void;
  /** Deletes every message of a thread for good (not the bin). */
  deleteThread(threadId: string): void;
  /** Moves every message of a thread to the bin. */
  trashThread(threadId: string): void;
  /** Forgets history up to now: a start from before answers 404. */
  expireHistory(): void;
  /** The threads the fake holds, as the connector should index them: id → subject. */
  visibleThreads(after: Date): Map<string, string>;
  close(): Promise<void>;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const HIDDEN = new Set(['TRASH', 'SPAM']);

const base64url = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

function textPart(mimeType: string, text: string): gmail_v1.Schema$MessagePart {
  return { mimeType, filename: '', body: { size: Buffer.byteLength(text), data: base64url(text) } };
}

const attachmentId = (messageId: string, index: number) => `${messageId}-att-${index}`;
const attachmentSize = (attachment: FakeAttachment) => attachment.size ?? attachment.data?.byteLength ?? 0;

function toGmailMessage(message: FakeMessage, historyId: number): gmail_v1.Schema$Message {
  const alternatives: gmail_v1.Schema$MessagePart[] = [
    ...(message.text === undefined ? [] : [textPart('text/plain', message.text)]),
    ...(message.html === undefined ? [] : [textPart('text/html', message.html)]),
  ];
  const body: gmail_v1.Schema$MessagePart =
    alternatives.length === 1
      ? (alternatives[0] as gmail_v1.Schema$MessagePart)
      : { mimeType: 'multipart/alternative', filename: '', parts: alternatives };
  const attachments = (message.attachments ?? []).map((attachment, index): gmail_v1.Schema$MessagePart => ({
    partId: String(index + 1),
    mimeType: attachment.mimeType,
    filename: attachment.filename,
    body: { attachmentId: attachmentId(message.id, index), size: attachmentSize(attachment) },
  }));
  const headers: gmail_v1.Schema$MessagePartHeader[] = [
    { name: 'From', value: message.from },
    { name: 'To', value: message.to },
    { name: 'Subject', value: message.subject },
    { name: 'Date', value: message.date.toUTCString() },
  ];
  return {
    id: message.id,
    threadId: message.threadId,
    labelIds: message.labels,
    snippet: (message.text ?? '').slice(0, 100),
    historyId: String(historyId),
    internalDate: String(message.date.getTime()),
    sizeEstimate: 1000,
    payload: {
      partId: '',
      mimeType: attachments.length > 0 ? 'multipart/mixed' : body.mimeType,
      filename: '',
      headers,
      ...(attachments.length > 0
        ? { parts: [body, ...attachments], body: { size: 0 } }
        : { body: body.body, parts: body.parts }),
    },
  };
}

function daysAgo(days: number): Date {
  return new Date(Date.now() - days * DAY_MS);
}

/** Five threads: a conversation with an attachment, an HTML newsletter, a thread in the bin, one in spam, and
 * one older than the three-year window. */
function seedMailbox(mailbox: string): SeedMessage[] {
  return [
    {
      id: 'm1',
      threadId: 't-budget',
      from: 'Grace Hopper <grace@example.com>',
      to: mailbox,
      subject: 'Q3 budget review',
      date: daysAgo(20),
      text: 'Can we review the Q3 budget on Thursday? The marketing line item looks high.',
      attachments: [{ filename: 'q3-budget.xlsx', mimeType: 'application/vnd.ms-excel', size: 20480 }],
    },
    {
      id: 'm2',
      threadId: 't-budget',
      from: `Ada Lovelace <${mailbox}>`,
      to: 'grace@example.com',
      subject: 'Re: Q3 budget review',
      date: daysAgo(19),
      text: 'Thursday works. I will bring the revised forecast.',
    },
    {
      id: 'm3',
      threadId: 't-newsletter',
      from: 'Platform Weekly <news@platform.example>',
      to: mailbox,
      subject: 'Platform Weekly: observability edition',
      date: daysAgo(60),
      html: '<html><body><h1>Observability</h1><p>Tracing <b>every</b> request with spans.</p></body></html>',
    },
    {
      id: 'm4',
      threadId: 't-offsite',
      from: 'Linus <linus@example.com>',
      to: mailbox,
      subject: 'Offsite venue shortlist',
      date: daysAgo(400),
      text: 'Three venues made the shortlist: the lighthouse, the barn and the observatory.',
      html: '<p>Three venues made the shortlist.</p>',
    },
    {
      id: 'm5',
      threadId: 't-binned',
      from: 'Vendor <sales@vendor.example>',
      to: mailbox,
      subject: 'Limited offer',
      date: daysAgo(5),
      text: 'Buy now.',
      labels: ['TRASH'],
    },
    {
      id: 'm6',
      threadId: 't-spam',
      from: 'Prince <prince@spam.example>',
      to: mailbox,
      subject: 'You have won',
      date: daysAgo(3),
      text: 'Send your bank details.',
      labels: ['SPAM'],
    },
    {
      id: 'm7',
      threadId: 't-ancient',
      from: 'Old Friend <old@example.com>',
      to: mailbox,
      subject: 'Lunch in 2019?',
      date: daysAgo(1500),
      text: 'Long ago.',
    },
  ];
}

interface HistoryEntry {
  id: number;
  record: gmail_v1.Schema$History;
}

function decodeToken(token: string | null): number {
  return token ? Number(Buffer.from(token, 'base64url').toString('utf8')) : 0;
}
const encodeToken = (offset: number) => Buffer.from(String(offset), 'utf8').toString('base64url');

export interface GmailFakeOptions {
  mailbox?: string;
  pageSize?: number;
  /** `expires_in` of the tokens the token endpoint issues; Google's are 3599 s. */
  tokenLifetimeSeconds?: number;
}

export async function startGmailFake(options: GmailFakeOptions = {}): Promise<GmailFake> {
  const mailbox = options.mailbox ?? 'ada@example.com';
  const pageSize = options.pageSize ?? 2;
  const messages = new Map<string, FakeMessage>();
  const history: HistoryEntry[] = [];
  let historyId = 1000;
  let oldestHistoryId = historyId;

  const server = await startFakeServer();

  const auth = fakeGoogleAuth(server, {
    prefix: 'gmail',
    scope: 'https://www.googleapis.com/auth/gmail.readonly',
    tokenLifetimeSeconds: options.tokenLifetimeSeconds,
  });
  const { authorized } = auth;

  const record = (entry: gmail_v1.Schema$History) => {
    historyId += 1;
    history.push({ id: historyId, record: { ...entry, id: String(historyId) } });
  };

  const threadMessages = (threadId: string) =>
    [...messages.values()]
      .filter((message) => message.threadId === threadId)
      .sort((a, b) => a.date.getTime() - b.date.getTime());

  const listedThreads = (after: Date, includeSpamTrash: boolean) => {
    const latest = new Map<string, number>();
    for (const message of messages.values()) {
      if (!includeSpamTrash && message.labels.some((label) => HIDDEN.has(label))) continue;
      if (message.date < after) continue;
      latest.set(message.threadId, Math.max(latest.get(message.threadId) ?? 0, message.date.getTime()));
    }
    return [...latest.entries()].sort((a, b) => b[1] - a[1]).map(([id]) => id);
  };

  const asThread = (threadId: string): gmail_v1.Schema$Thread => {
    const list = threadMessages(threadId);
    return {
      id: threadId,
      historyId: String(historyId),
      snippet: list.at(-1)?.text?.slice(0, 100) ?? '',
      messages: list.map((message) => toGmailMessage(message, historyId)),
    };
  };

  server.route(
    'GET',
    '/gmail/v1/users/:userId/profile',
    authorized(() => {
      const profile: gmail_v1.Schema$Profile = {
        emailAddress: mailbox,
        historyId: String(historyId),
        messagesTotal: messages.size,
        threadsTotal: new Set([...messages.values()].map((message) => message.threadId)).size,
      };
      return { json: profile };
    }),
  );

  server.route(
    'GET',
    '/gmail/v1/users/:userId/threads',
    authorized((request) => {
      const after = /after:(\d+)/.exec(request.query.get('q') ?? '')?.[1];
      const ids = listedThreads(
        new Date(after === undefined ? 0 : Number(after) * 1000),
        request.query.get('includeSpamTrash') === 'true',
      );
      const size = Math.min(Number(request.query.get('maxResults') ?? 100), pageSize);
      const start = decodeToken(request.query.get('pageToken'));
      const slice = ids.slice(start, start + size);
      const answer: gmail_v1.Schema$ListThreadsResponse = {
        threads: slice.map((id) => ({ id, historyId: String(historyId), snippet: '' })),
        resultSizeEstimate: ids.length,
        ...(start + size < ids.length ? { nextPageToken: encodeToken(start + size) } : {}),
      };
      return { json: answer };
    }),
  );

  server.route(
    'GET',
    '/gmail/v1/users/:userId/threads/:id',
    authorized((request) => {
      if (threadMessages(request.params.id ?? '').length === 0)
        return googleError(404, 'NOT_FOUND', 'notFound', 'Requested entity was not found.');
      return { json: asThread(request.params.id ?? '') };
    }),
  );

  server.route(
    'GET',
    '/gmail/v1/users/:userId/messages/:messageId/attachments/:id',
    authorized((request) => {
      const message = messages.get(request.params.messageId ?? '');
      const index = (message?.attachments ?? []).findIndex(
        (_, at) => attachmentId(message?.id ?? '', at) === request.params.id,
      );
      const attachment = message?.attachments?.[index];
      if (!attachment) return googleError(404, 'NOT_FOUND', 'notFound', 'Requested entity was not found.');
      const body: gmail_v1.Schema$MessagePartBody = {
        attachmentId: request.params.id,
        size: attachmentSize(attachment),
        data: Buffer.from(attachment.data ?? new Uint8Array()).toString('base64url'),
      };
      return { json: body };
    }),
  );

  server.route(
    'GET',
    '/gmail/v1/users/:userId/history',
    authorized((request) => {
      const start = Number(request.query.get('startHistoryId'));
      if (!Number.isInteger(start) || start < oldestHistoryId)
        return googleError(404, 'NOT_FOUND', 'notFound', 'Requested entity was not found.');
      const records = history.filter((entry) => entry.id > start).map((entry) => entry.record);
      const offset = decodeToken(request.query.get('pageToken'));
      const size = pageSize;
      const answer: gmail_v1.Schema$ListHistoryResponse = {
        history: records.slice(offset, offset + size),
        historyId: String(historyId),
        ...(offset + size < records.length ? { nextPageToken: encodeToken(offset + size) } : {}),
      };
      return { json: answer };
    }),
  );

  const fake: GmailFake = {
    server,
    mailbox,
    refreshToken: auth.refreshToken,
    accessToken: auth.accessToken,
    lapseAccessToken: auth.lapse,
    lapseAccessTokenAfter: auth.lapseAfter,
    addMessage(message) {
      const full: FakeMessage = { ...message, labels: message.labels ?? ['INBOX'] };
      messages.set(full.id, full);
      record({
        messagesAdded: [{ message: { id: full.id, threadId: full.threadId, labelIds: full.labels } }],
      });
    },
    deleteThread(threadId) {
      const gone = threadMessages(threadId);
      for (const message of gone) messages.delete(message.id);
      record({ messagesDeleted: gone.map((message) => ({ message: { id: message.id, threadId } })) });
    },
    trashThread(threadId) {
      const binned = threadMessages(threadId);
      for (const message of binned)
        message.labels = [...message.labels.filter((label) => label !== 'INBOX'), 'TRASH'];
      record({
        labelsAdded: binned.map((message) => ({
          labelIds: ['TRASH'],
          message: { id: message.id, threadId, labelIds: message.labels },
        })),
      });
    },
    expireHistory() {
      oldestHistoryId = historyId + 1;
    },
    visibleThreads(after) {
      return new Map(listedThreads(after, false).map((id) => [id, threadMessages(id)[0]?.subject ?? '']));
    },
    close: () => server.close(),
  };
  for (const message of seedMailbox(mailbox)) fake.addMessage(message);
  // The seed is the mailbox's past, not changes a sync should see as history.
  history.length = 0;
  return fake;
}
