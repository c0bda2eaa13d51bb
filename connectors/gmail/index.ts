// Gmail: each member connects their own mailbox (OAuth, gmail.readonly) and Scout indexes its threads of the last
// three years, one document per thread, readable by that member alone. A full sync lists threads newest first
// (threads.list with `after:`), noting the mailbox's historyId before it starts; later syncs follow history.list
// from there, re-reading each thread that history names. Gmail keeps history for about a week: when it answers 404
// for our start, only a full sync can catch up, and pruning then drops what it no longer lists.
import { gmail, type gmail_v1 } from '@googleapis/gmail';
import { z } from 'zod';
import { CREDENTIAL_NAMES } from '../../common/strings';
import {
  FatalSourceError,
  NotFoundError,
  defineConnector,
  readAttachment,
  type ConnectorContext,
  type DownloadLimits,
  type SourceDocument,
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
import {
  attachmentKey,
  attachmentParts,
  threadDocument,
  threadTime,
  visibleMessages,
  type AttachmentTexts,
} from './thread';

export const GMAIL_ROOT_URL = 'https://gmail.googleapis.com/';
export const GMAIL_SCOPES = ['https://www.googleapis.com/auth/gmail.readonly'] as const;
/** threads.list answers at most 500; a page of 100 full threads keeps a batch (and a retry) small. */
const THREADS_PAGE_SIZE = 100;
const IDS_PAGE_SIZE = 500;
const HISTORY_PAGE_SIZE = 500;

type Context = ConnectorContext<
  z.output<typeof googleCredentialsSchema>,
  z.output<typeof googleConfigSchema>
>;

/** Versioned so a later shape can tell an old cursor from garbage. `mailbox` is the address the ACL names. */
const cursorSchema = z.discriminatedUnion('phase', [
  /** Listing threads; `historyId` is where history picks up once the listing is done. */
  z.object({
    v: z.literal(1),
    phase: z.literal('threads'),
    mailbox: z.email(),
    historyId: z.string().min(1),
    pageToken: z.string().nullable(),
  }),
  /** Following history from `historyId`, `pageToken` being the page of that listing still to fetch. */
  z.object({
    v: z.literal(1),
    phase: z.literal('history'),
    mailbox: z.email(),
    historyId: z.string().min(1),
    pageToken: z.string().nullable(),
  }),
]);
type ThreadsCursor = Extract<z.output<typeof cursorSchema>, { phase: 'threads' }>;
type HistoryCursor = Extract<z.output<typeof cursorSchema>, { phase: 'history' }>;

/** `download` replaces the caps on an answer's size and time, for an attachment the server parses. */
function api(ctx: Context, download?: DownloadLimits): gmail_v1.Gmail {
  return gmail({ version: 'v1', ...googleClientOptions(ctx, GMAIL_ROOT_URL, undefined, download) });
}

/** An attachment's JSON answer carries its bytes in base64url: four characters for three bytes, and the rest. */
const attachmentAnswerBytes = (maxBytes: number) => Math.ceil(maxBytes / 3) * 4 + 1024;

/** One attachment's text, or null (see readAttachment); the thread itself is re-read on its next change. */
async function attachmentText(
  ctx: Context,
  message: gmail_v1.Schema$Message,
  part: gmail_v1.Schema$MessagePart,
): Promise<string | null> {
  const body = part.body ?? {};
  return readAttachment(
    ctx.files,
    {
      name: part.filename ?? '',
      ...(part.mimeType ? { mimeType: part.mimeType } : {}),
      ...(typeof body.size === 'number' ? { size: body.size } : {}),
    },
    async (limits) => {
      // A small attachment comes inline with the message; a larger one by its own request.
      if (body.data || !body.attachmentId || !message.id) return Buffer.from(body.data ?? '', 'base64url');
      const answer = await call(
        api(ctx, {
          ...limits,
          maxBodyBytes: attachmentAnswerBytes(limits.maxBodyBytes),
        }).users.messages.attachments.get({
          userId: 'me',
          messageId: message.id,
          id: body.attachmentId,
        }),
      );
      return Buffer.from(answer.data ?? '', 'base64url');
    },
  );
}

/** The text of every attachment of the thread's visible messages that Scout's parsers read. */
async function attachmentTexts(ctx: Context, thread: gmail_v1.Schema$Thread): Promise<AttachmentTexts> {
  const attachments = visibleMessages(thread).flatMap((message) =>
    attachmentParts(message).map((part) => ({ message, part })),
  );
  const texts = await Promise.all(attachments.map(({ message, part }) => attachmentText(ctx, message, part)));
  return new Map(
    attachments.flatMap(({ message, part }, index) => {
      const text = texts[index];
      return text ? [[attachmentKey(message, part), text] as const] : [];
    }),
  );
}

/** Gmail's search syntax takes epoch seconds for `after:`. */
function windowQuery(ctx: Context): string {
  return `after:${Math.floor(ctx.syncWindowStart.getTime() / 1000)}`;
}

async function profile(ctx: Context): Promise<{ mailbox: string; historyId: string }> {
  const answer = await call(api(ctx).users.getProfile({ userId: 'me' }));
  const mailbox = z.email().safeParse(answer.emailAddress?.toLowerCase());
  if (!mailbox.success || !answer.historyId)
    throw new FatalSourceError('Gmail answered a profile without an email address or a historyId');
  return { mailbox: mailbox.data, historyId: answer.historyId };
}

/** The thread as it is now, or null when it is gone (deleted, or every message binned or marked spam). */
async function fetchThread(ctx: Context, id: string): Promise<gmail_v1.Schema$Thread | null> {
  try {
    const thread = await call(api(ctx).users.threads.get({ userId: 'me', id, format: 'full' }));
    return visibleMessages(thread).length > 0 ? thread : null;
  } catch (error) {
    if (error instanceof NotFoundError) return null;
    throw error;
  }
}

interface Fetched {
  readonly id: string;
  readonly thread: gmail_v1.Schema$Thread | null;
  readonly attachments: AttachmentTexts;
}

/** Threads fetched side by side, with their attachments' text; the connection's limiter keeps Gmail's quota. */
async function fetchThreads(ctx: Context, ids: readonly string[]): Promise<Fetched[]> {
  return Promise.all(
    ids.map(async (id) => {
      const thread = await fetchThread(ctx, id);
      return { id, thread, attachments: thread ? await attachmentTexts(ctx, thread) : new Map() };
    }),
  );
}

function documentsOf(
  fetched: readonly Fetched[],
  mailbox: string,
): { documents: SourceDocument[]; gone: string[] } {
  const documents: SourceDocument[] = [];
  const gone: string[] = [];
  for (const { id, thread, attachments } of fetched) {
    const document = thread ? threadDocument(thread, mailbox, attachments) : null;
    if (document) documents.push(document);
    else gone.push(id);
  }
  return { documents, gone };
}

/** One page of the threads in the window, newest first; the bin and spam are left out, as Gmail's search does. */
function threadsPage(
  ctx: Context,
  pageToken: string | null,
  maxResults: number,
): Promise<gmail_v1.Schema$ListThreadsResponse> {
  return call(
    api(ctx).users.threads.list({
      userId: 'me',
      q: windowQuery(ctx),
      maxResults,
      ...(pageToken === null ? {} : { pageToken }),
    }),
  );
}

async function* listThreads(ctx: Context, cursor: ThreadsCursor): AsyncGenerator<SyncBatch> {
  let pageToken = cursor.pageToken;
  for (;;) {
    const page = await threadsPage(ctx, pageToken, THREADS_PAGE_SIZE);
    const ids = (page.threads ?? []).flatMap((thread) => thread.id ?? []);
    const fetched = await fetchThreads(ctx, ids);
    const { documents } = documentsOf(fetched, cursor.mailbox);
    const next = page.nextPageToken ?? null;
    // Newest first: the oldest thread of the page is how far back the window is covered.
    const oldest = fetched
      .flatMap(({ thread }) => (thread ? [threadTime(visibleMessages(thread))] : []))
      .reduce<Date | undefined>((min, at) => (min === undefined || at < min ? at : min), undefined);
    yield {
      documents,
      cursor:
        next === null
          ? { v: 1, phase: 'history', mailbox: cursor.mailbox, historyId: cursor.historyId, pageToken: null }
          : { ...cursor, pageToken: next },
      progress: { syncedFrom: next === null ? ctx.syncWindowStart : (oldest ?? ctx.syncWindowStart) },
    };
    if (next === null) return;
    pageToken = next;
  }
}

/** Every thread a history record touches: new or deleted messages, and labels (the bin and spam are labels). */
function touchedThreads(history: readonly gmail_v1.Schema$History[]): string[] {
  const ids = new Set<string>();
  for (const record of history) {
    const messages = [
      ...(record.messagesAdded ?? []),
      ...(record.messagesDeleted ?? []),
      ...(record.labelsAdded ?? []),
      ...(record.labelsRemoved ?? []),
    ].map((entry) => entry.message);
    for (const message of [...messages, ...(record.messages ?? [])])
      if (message?.threadId) ids.add(message.threadId);
  }
  return [...ids];
}

async function* followHistory(ctx: Context, cursor: HistoryCursor): AsyncGenerator<SyncBatch> {
  let pageToken = cursor.pageToken;
  for (;;) {
    const page = await call(
      api(ctx).users.history.list({
        userId: 'me',
        startHistoryId: cursor.historyId,
        maxResults: HISTORY_PAGE_SIZE,
        ...(pageToken === null ? {} : { pageToken }),
      }),
    );
    const fetched = await fetchThreads(ctx, touchedThreads(page.history ?? []));
    const { documents, gone } = documentsOf(fetched, cursor.mailbox);
    const next = page.nextPageToken ?? null;
    yield {
      documents,
      deletedExternalIds: gone,
      // Mid-listing the page token holds the place; at its end the mailbox's current historyId is the next start.
      cursor:
        next === null
          ? { ...cursor, historyId: page.historyId ?? cursor.historyId, pageToken: null }
          : { ...cursor, pageToken: next },
    };
    if (next === null) return;
    pageToken = next;
  }
}

async function* fullSync(ctx: Context): AsyncGenerator<SyncBatch> {
  const { mailbox, historyId } = await profile(ctx);
  yield* listThreads(ctx, { v: 1, phase: 'threads', mailbox, historyId, pageToken: null });
}

const mailboxConnector = defineConnector({
  shortname: 'gmail',
  installPayload: { individual: 'oauth' },
  credentialsSchema: googleCredentialsSchema,
  configSchema: googleConfigSchema,
  credentialFields: [],
  credentialName: CREDENTIAL_NAMES.credentials,
  // Gmail's usage limits page gives 6,000 quota units a minute per user (15,000 on older projects); threads.get
  // costs 10, so ten requests a second stay under it. Gmail's quota is its own, not Drive's or Calendar's, so it
  // keeps its own vendor; and it is each user's, so each connection has its own limiter (an org connection reads
  // its mailboxes within one user's allowance: slower than Gmail allows, never faster).
  limits: { concurrency: 4, rate: { requests: 10, intervalMs: 1000 } },
  limitScope: 'connection',
  oauth: googleOAuth(GMAIL_SCOPES),

  async validate(ctx) {
    const { mailbox } = await profile(ctx);
    return { email: mailbox, appUserId: mailbox, workspaceName: mailbox };
  },

  fullSync,

  async *incrementalSync(ctx, saved) {
    const cursor = cursorSchema.safeParse(saved);
    if (!cursor.success) {
      ctx.logger.warn({ connector: 'gmail' }, 'unreadable cursor, running a full sync');
      yield* fullSync(ctx);
      return;
    }
    if (cursor.data.phase === 'threads') {
      yield* listThreads(ctx, cursor.data);
      yield* followHistory(ctx, { ...cursor.data, phase: 'history', pageToken: null });
      return;
    }
    try {
      yield* followHistory(ctx, cursor.data);
    } catch (error) {
      // history.list answers 404 for a start older than the history Gmail keeps.
      if (!(error instanceof NotFoundError)) throw error;
      ctx.logger.info({ connector: 'gmail' }, 'history expired, running a full sync');
      yield* fullSync(ctx);
    }
  },

  async *listIds(ctx) {
    let pageToken: string | null = null;
    do {
      const page = await threadsPage(ctx, pageToken, IDS_PAGE_SIZE);
      yield (page.threads ?? []).flatMap((thread) => thread.id ?? []);
      pageToken = page.nextPageToken ?? null;
    } while (pageToken !== null);
  },
});

/** A member's own mailbox, or (org connection) every member's, each thread readable by its mailbox's owner. */
export const gmailConnector = withWorkspaceOrgConnection(mailboxConnector, GMAIL_SCOPES);
