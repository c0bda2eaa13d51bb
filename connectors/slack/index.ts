// The Slack connector (issue 12): public and private channels the Scout app was added to, their messages and
// threads, and the files shared in them (at a channel's top level or in a thread's replies), read with Slack's own WebClient (./client.ts) through an OAuth v2 bot
// token. Who may read a channel is mirrored as Slack decides it: a group per channel (its members) and, for a
// public channel, the group of the workspace's full members, since guests read only the channels they are in.
// Direct messages are not read: the spec offers no option to include them.
//
// Slack has no change feed for a bot's reads, so a sync walks channels one at a time, newest first, with
// conversations.history and a per-channel watermark (the latest Slack timestamp seen there): the next sync reads
// each channel from its watermark, less a week of look-back to see edits and new replies of recent messages, and
// delivers only what was posted or edited after it. A renamed channel, or one made private, is re-read whole so
// every title and reader list follows. Deleted messages and channels are pruned through listIds; a file deleted
// from a message or reply the sync reads again is removed by that sync, against the files its last read saw.
import { z } from 'zod';
import { CREDENTIAL_NAMES } from '../../common/strings';
import { connectFormCopy } from '../../common/connect-forms';
import {
  HttpStatusError,
  NotFoundError,
  PermissionMismatchError,
  defineConnector,
  groupPrincipal,
  userPrincipal,
  type ConnectorContext,
  type DocumentAcl,
  type GroupMembership,
  type SourceDocument,
  type SyncBatch,
} from '../sdk';
import { slackApi, type SlackApi } from './client';
import {
  FULL_MEMBERS_GROUP,
  SHORTNAME,
  changedSince,
  channelAcl,
  channelOfId,
  channelSchema,
  fileDocument,
  fileId,
  fileSchema,
  isFileStub,
  isThread,
  lastActivity,
  messageDocument,
  messageId,
  readableMessages,
  shownFiles,
  userIdsOf,
  type Person,
  type SlackChannel,
  type SlackFile,
  type SlackMessage,
  type Workspace,
} from './documents';

/** Slack's recommended page size for conversations.* and users.list (it allows up to 1,000). */
const PAGE_LIMIT = 200;
/** How far before a channel's watermark each sync looks again, for edits and replies to recent messages. */
const LOOKBACK_SECONDS = 7 * 24 * 60 * 60;
const ADMIN_ROLE = 'Workspace Admin';
const APP_NAME = 'Slack';

/** The bot scopes the reads need (Slack's method reference lists each). */
export const SLACK_SCOPES = [
  'channels:read',
  'channels:history',
  'groups:read',
  'groups:history',
  'files:read',
  'users:read',
  'users:read.email',
] as const;

/** oauth.v2.access's answer as the OAuth flow stores it; `authed_user` is the member who installed the app. */
const credentialsSchema = z.object({
  access_token: z.string().trim().min(1),
  /** With token rotation on, Slack's tokens last 12 hours and come with a refresh token. */
  refresh_token: z.string().min(1).optional(),
  expires_at: z.iso.datetime({ offset: true }).optional(),
  authed_user: z.object({ id: z.string().min(1) }).optional(),
});
const configSchema = z.object({ baseUrl: z.url().default('https://slack.com/api/') });
type Context = ConnectorContext<z.output<typeof credentialsSchema>, z.output<typeof configSchema>>;

const slackTs = z.string().regex(/^\d+(\.\d+)?$/);

/**
 * The file documents of each message (its own and its replies'), by the message's ts, for the messages the next
 * sync reads again: a file deleted on its own changes neither its message nor its thread, so only what was
 * there before tells that it went.
 */
const sharedFilesSchema = z.record(slackTs, z.array(z.string()));
type SharedFiles = z.output<typeof sharedFilesSchema>;

/** What the last finished read of a channel saw: its watermark, what its documents carry, their files. */
const channelStateSchema = z.object({
  since: slackTs,
  name: z.string(),
  private: z.boolean(),
  files: sharedFilesSchema.default({}),
});

/** The channel being read: fixed when it starts, so a saved history page token stays valid on resume. */
const currentSchema = z.object({
  id: z.string(),
  oldest: slackTs,
  /** Deliver every message (a new, renamed or re-scoped channel) rather than those changed since the mark. */
  whole: z.boolean(),
  since: slackTs,
  page: z.string().nullable(),
  /** The latest Slack timestamp seen so far in this read. */
  mark: slackTs,
  /** The files seen so far in this read, of the messages the next sync reads again. */
  files: sharedFilesSchema.default({}),
});

const cursorSchema = z.object({
  v: z.literal(1),
  channels: z.record(z.string(), channelStateSchema),
  /** A sync in progress: the channel in hand and those still to read. Null when caught up. */
  run: z
    .object({ pending: z.array(z.string()), total: z.number().int(), current: currentSchema.nullable() })
    .nullable(),
});
type SyncCursor = z.output<typeof cursorSchema>;
type Current = z.output<typeof currentSchema>;

const START: SyncCursor = { v: 1, channels: {}, run: null };

interface Session {
  readonly ctx: Context;
  readonly api: SlackApi;
  readonly workspace: Workspace;
  /** Users by id, looked up once per sync; null for an id Slack no longer knows. */
  readonly people: Map<string, Person | null>;
}

function api(ctx: Context): SlackApi {
  return slackApi(ctx.http, ctx.config.baseUrl, ctx.credentials.access_token, ctx.logger);
}

const personSchema = z.object({
  id: z.string(),
  name: z.string().optional(),
  real_name: z.string().optional(),
  deleted: z.boolean().optional(),
  is_bot: z.boolean().optional(),
  is_app_user: z.boolean().optional(),
  is_restricted: z.boolean().optional(),
  is_ultra_restricted: z.boolean().optional(),
  is_admin: z.boolean().optional(),
  is_owner: z.boolean().optional(),
  is_primary_owner: z.boolean().optional(),
  profile: z
    .object({
      email: z.string().optional(),
      real_name: z.string().optional(),
      display_name: z.string().optional(),
    })
    .optional(),
});
type SlackPerson = z.output<typeof personSchema>;

/** An email only when it is one: users:read.email may be missing, and bots have none. */
function emailOf(user: SlackPerson): string | undefined {
  const email = user.profile?.email?.trim().toLowerCase();
  return email && z.email().safeParse(email).success ? email : undefined;
}

function personOf(user: SlackPerson): Person {
  const name =
    user.profile?.real_name || user.real_name || user.profile?.display_name || user.name || user.id;
  const email = emailOf(user);
  return email ? { name, email } : { name };
}

async function lookUpUser(slack: SlackApi, id: string): Promise<SlackPerson | null> {
  try {
    const answer = await slack.call('users.info', (client) => client.users.info({ user: id }));
    const parsed = personSchema.safeParse(answer.user);
    return parsed.success ? parsed.data : null;
  } catch (error) {
    if (error instanceof NotFoundError) return null;
    throw error;
  }
}

async function resolvePeople(session: Session, ids: readonly string[]): Promise<void> {
  for (const id of ids) {
    if (session.people.has(id)) continue;
    const user = await lookUpUser(session.api, id);
    session.people.set(id, user ? personOf(user) : null);
  }
}

async function openSession(ctx: Context): Promise<Session> {
  const slack = api(ctx);
  const auth = await slack.call('auth.test', (client) => client.auth.test());
  const url = z.url().safeParse(auth.url);
  return {
    ctx,
    api: slack,
    workspace: { url: url.success ? url.data : 'https://app.slack.com/' },
    people: new Map(),
  };
}

/** Where Slack serves files' bytes, to a request bearing a token that may read them. */
const FILES_ORIGIN = 'https://files.slack.com';

/**
 * A shared file's text as Scout's parsers read it (url_private_download with the bot token), or null. The token
 * goes to Slack's file host only (or, pointed at a fake, to the API's own origin), and without following redirects:
 * Slack answers a token that may not read the file with a redirect to its sign-in page, whose text is no file's.
 */
async function fileText(session: Session, file: SlackFile): Promise<string | null> {
  const { ctx } = session;
  const url = file.url_private_download;
  if (!url || !URL.canParse(url)) return null;
  const origin = new URL(url).origin;
  if (origin !== FILES_ORIGIN && origin !== new URL(ctx.config.baseUrl).origin) return null;
  const files = ctx.http.with({
    baseUrl: origin,
    headers: { authorization: `Bearer ${ctx.credentials.access_token}` },
    credentialName: CREDENTIAL_NAMES.credentials,
    // One file refused is that file's matter; a token gone is found by the next API call.
    classifyAuthFailure: () => ({ kind: 'httpError' }),
  });
  try {
    return await ctx.files.parse(
      {
        name: file.name || file.title || file.id,
        ...(file.mimetype ? { mimeType: file.mimetype } : {}),
        ...(file.size === undefined ? {} : { size: file.size }),
      },
      async (limits) => {
        const response = await files.request(url, { ...limits, redirect: 'manual' });
        if (response.status !== 200)
          throw new HttpStatusError(response.status, 'GET', new URL(url).pathname, '');
        return response.body;
      },
    );
  } catch (error) {
    if (error instanceof HttpStatusError) return null;
    throw error;
  }
}

/**
 * The message with each Slack Connect stub among its files completed by files.info; a stub whose file Slack no
 * longer has, or will not describe, is left out, so no document is made of a file nobody can open.
 */
async function withCompleteFiles(slack: SlackApi, message: SlackMessage): Promise<SlackMessage> {
  if (!message.files?.some(isFileStub)) return message;
  const files: SlackFile[] = [];
  for (const file of message.files) {
    if (!isFileStub(file)) {
      files.push(file);
      continue;
    }
    try {
      const answer = await slack.call('files.info', (client) => client.files.info({ file: file.id }));
      const complete = fileSchema.safeParse(answer.file);
      if (complete.success && complete.data.permalink !== undefined) files.push(complete.data);
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
    }
  }
  return { ...message, files };
}

/** Every page of a Slack cursor-paginated method, from `start`; Slack ends a listing with an empty cursor. */
async function* slackPages<T extends { response_metadata?: { next_cursor?: string } }>(
  fetchPage: (cursor: string | undefined) => Promise<T>,
  start?: string,
): AsyncGenerator<{ page: T; next: string | null }> {
  let cursor = start;
  for (;;) {
    const page = await fetchPage(cursor);
    const next = page.response_metadata?.next_cursor || null;
    yield { page, next };
    if (next === null || next === cursor) return;
    cursor = next;
  }
}

/** The channels the app is in, public and private. */
async function memberChannels(slack: SlackApi): Promise<Map<string, SlackChannel>> {
  const channels = new Map<string, SlackChannel>();
  const pages = slackPages((cursor) =>
    slack.call('conversations.list', (client) =>
      client.conversations.list({
        types: 'public_channel,private_channel',
        exclude_archived: false,
        limit: PAGE_LIMIT,
        ...(cursor ? { cursor } : {}),
      }),
    ),
  );
  for await (const { page } of pages) {
    for (const raw of page.channels ?? []) {
      const channel = channelSchema.safeParse(raw);
      if (channel.success && channel.data.is_member) channels.set(channel.data.id, channel.data);
    }
  }
  return channels;
}

function historyPage(slack: SlackApi, channelId: string, oldest: string, cursor: string | null) {
  return slack.call('conversations.history', (client) =>
    client.conversations.history({
      channel: channelId,
      oldest,
      limit: PAGE_LIMIT,
      ...(cursor ? { cursor } : {}),
    }),
  );
}

/** A thread's parent and every reply, oldest first. */
async function threadOf(slack: SlackApi, channelId: string, parent: SlackMessage): Promise<SlackMessage[]> {
  const messages: SlackMessage[] = [];
  const pages = slackPages((cursor) =>
    slack.call('conversations.replies', (client) =>
      client.conversations.replies({
        channel: channelId,
        ts: parent.ts,
        limit: PAGE_LIMIT,
        ...(cursor ? { cursor } : {}),
      }),
    ),
  );
  for await (const { page } of pages) messages.push(...readableMessages(page.messages, { replies: true }));
  // A thread whose parent was deleted meanwhile still answers its replies; keep the parent we hold first.
  return messages[0]?.ts === parent.ts ? messages : [parent, ...messages];
}

/** The thread, or nothing when it was deleted since its channel's page was read (its files go with it). */
async function threadIfAny(
  slack: SlackApi,
  channelId: string,
  parent: SlackMessage,
): Promise<SlackMessage[]> {
  try {
    return await threadOf(slack, channelId, parent);
  } catch (error) {
    if (error instanceof NotFoundError) return [];
    throw error;
  }
}

const maxTs = (a: string, b: string) => (Number(b) > Number(a) ? b : a);

/** The files of the messages the sync after a read reaching `mark` reads again (see startChannel). */
function lookedBackOn(files: SharedFiles, mark: string): SharedFiles {
  const horizon = Math.floor(Number(mark)) - LOOKBACK_SECONDS;
  return Object.fromEntries(Object.entries(files).filter(([ts]) => Number(ts) > horizon));
}

/**
 * The documents of one history page, the files it found gone, the latest timestamp it showed and the files seen.
 * `known` is what the channel's last read saw of each message's files: one no longer shown (Slack's tombstone in
 * its place, or its entry gone) was deleted, and the message or thread that named it is delivered again without it.
 */
async function pageDocuments(
  session: Session,
  channel: SlackChannel,
  messages: readonly SlackMessage[],
  current: Current,
  known: SharedFiles,
): Promise<{ documents: SourceDocument[]; deleted: string[]; mark: string; files: SharedFiles }> {
  const documents: SourceDocument[] = [];
  const deleted: string[] = [];
  const files: SharedFiles = { ...current.files };
  let mark = current.mark;
  for (const message of messages) {
    // A thread deleted since the history page was read is skipped: listIds will not list it either.
    const thread = isThread(message) ? await threadIfAny(session.api, channel.id, message) : [message];
    if (thread.length === 0) continue;
    for (const part of thread) mark = maxTs(mark, lastActivity(part));
    const shown = thread.flatMap((part) => shownFiles(part).map((file) => fileId(channel.id, part.ts, file)));
    if (shown.length > 0) files[message.ts] = shown;
    const gone = (known[message.ts] ?? []).filter((id) => !shown.includes(id));
    deleted.push(...gone);
    if (!current.whole && gone.length === 0 && !changedSince(thread, current.since)) continue;
    const parts: SlackMessage[] = [];
    for (const part of thread) parts.push(await withCompleteFiles(session.api, part));
    await resolvePeople(session, userIdsOf(parts));
    documents.push(messageDocument(session.workspace, channel, parts, session.people));
    // A thread re-read for one new reply does not fetch again the files of the messages that did not change.
    for (const part of parts) {
      if (!current.whole && !changedSince([part], current.since)) continue;
      for (const file of shownFiles(part))
        documents.push(fileDocument(channel, part, file, session.people, await fileText(session, file)));
    }
  }
  return { documents, deleted, mark, files: lookedBackOn(files, mark) };
}

function startChannel(ctx: Context, cursor: SyncCursor, channel: SlackChannel): Current {
  const windowStart = String(Math.floor(ctx.syncWindowStart.getTime() / 1000));
  const known = cursor.channels[channel.id];
  const whole = !known || known.name !== channel.name || known.private !== channel.is_private;
  const since = known?.since ?? '0';
  const oldest = whole
    ? windowStart
    : maxTs(windowStart, String(Math.max(0, Math.floor(Number(since)) - LOOKBACK_SECONDS)));
  return { id: channel.id, oldest, whole, since, page: null, mark: since, files: {} };
}

/** How far a run is: channels done, plus the part of the window the channel in hand has covered. */
function shareOf(ctx: Context, run: NonNullable<SyncCursor['run']>, oldestSeen: string | undefined): number {
  const done = run.total - run.pending.length - (run.current ? 1 : 0);
  const now = ctx.now().getTime() / 1000;
  const from = ctx.syncWindowStart.getTime() / 1000;
  const part =
    run.current && oldestSeen ? Math.min(1, Math.max(0, (now - Number(oldestSeen)) / (now - from))) : 0;
  return run.total === 0 ? 1 : Math.min(1, (done + part) / run.total);
}

async function* walk(ctx: Context, saved: SyncCursor): AsyncGenerator<SyncBatch> {
  const session = await openSession(ctx);
  const listed = await memberChannels(session.api);
  let cursor: SyncCursor = saved;
  if (cursor.run === null) {
    // Channels the app has left are forgotten; pruning removes their documents.
    const channels = Object.fromEntries(Object.entries(cursor.channels).filter(([id]) => listed.has(id)));
    cursor = { v: 1, channels, run: { pending: [...listed.keys()], total: listed.size, current: null } };
  }
  for (;;) {
    const run = cursor.run;
    if (run === null) break;
    if (run.current === null) {
      const [next, ...rest] = run.pending;
      if (next === undefined) break;
      const channel = listed.get(next);
      cursor = {
        ...cursor,
        run: { ...run, pending: rest, current: channel ? startChannel(ctx, cursor, channel) : null },
      };
      continue;
    }
    const current = run.current;
    const channel = listed.get(current.id);
    let answer: Awaited<ReturnType<typeof historyPage>> | null = null;
    try {
      answer = channel ? await historyPage(session.api, current.id, current.oldest, current.page) : null;
    } catch (error) {
      // Deleted, or the app was removed from it, since the listing: its documents go when pruning runs.
      if (!(error instanceof NotFoundError)) throw error;
    }
    if (!channel || !answer) {
      const channels = Object.fromEntries(
        Object.entries(cursor.channels).filter(([id]) => id !== current.id),
      );
      cursor = { ...cursor, channels, run: { ...run, current: null } };
      continue;
    }
    const messages = readableMessages(answer.messages);
    const known = cursor.channels[channel.id]?.files ?? {};
    const { documents, deleted, mark, files } = await pageDocuments(
      session,
      channel,
      messages,
      current,
      known,
    );
    const next = answer.response_metadata?.next_cursor || null;
    cursor =
      next !== null && next !== current.page
        ? { ...cursor, run: { ...run, current: { ...current, page: next, mark, files } } }
        : {
            ...cursor,
            channels: {
              ...cursor.channels,
              [channel.id]: { since: mark, name: channel.name, private: channel.is_private, files },
            },
            run: { ...run, current: null },
          };
    const share = cursor.run ? shareOf(ctx, cursor.run, messages.at(-1)?.ts) : 1;
    yield {
      documents,
      ...(deleted.length > 0 ? { deletedExternalIds: deleted } : {}),
      cursor,
      progress: { share },
    };
  }
  yield { documents: [], cursor: { ...cursor, run: null }, progress: { share: 1 } };
}

export const slackConnector = defineConnector({
  shortname: SHORTNAME,
  installPayload: 'oauth',
  credentialsSchema,
  configSchema,
  credentialFields: [],
  credentialName: CREDENTIAL_NAMES.credentials,
  // Tier 3 (history, replies: 50+ a minute) bounds the whole connection, which keeps Tier 4 calls under theirs.
  limits: { concurrency: 2, rate: { requests: 50, intervalMs: 60_000 } },
  oauth: {
    authorizeUrl: 'https://slack.com/oauth/v2/authorize',
    tokenUrl: 'https://slack.com/api/oauth.v2.access',
    scopes: SLACK_SCOPES,
    pkce: true,
    // Slack documents its scope list as comma-separated; this replaces the flow's space-separated one.
    authorizeParams: { scope: SLACK_SCOPES.join(',') },
  },

  async validate(ctx) {
    const slack = api(ctx);
    const auth = await slack.call('auth.test', (client) => client.auth.test());
    const installer = ctx.credentials.authed_user?.id;
    const user = installer ? await lookUpUser(slack, installer) : null;
    // Spec §6: the dialog says the connecting user must be a Workspace Admin, so a member's install is refused.
    if (!user || !(user.is_admin || user.is_owner || user.is_primary_owner))
      throw new PermissionMismatchError(connectFormCopy.mustBeAdmin(ADMIN_ROLE, APP_NAME));
    const email = emailOf(user);
    return {
      ...(auth.team ? { workspaceName: auth.team } : {}),
      appUserId: user.id,
      ...(email ? { email } : {}),
    };
  },

  fullSync: (ctx) => walk(ctx, START),

  async *incrementalSync(ctx, saved) {
    const cursor = cursorSchema.safeParse(saved);
    if (!cursor.success) {
      ctx.logger.warn({ connector: SHORTNAME }, 'unreadable cursor, running a full sync');
      yield* walk(ctx, START);
      return;
    }
    yield* walk(ctx, cursor.data);
  },

  async *listIds(ctx) {
    const slack = api(ctx);
    const oldest = String(Math.floor(ctx.syncWindowStart.getTime() / 1000));
    for (const channel of (await memberChannels(slack)).values()) {
      try {
        for await (const { page } of slackPages((cursor) =>
          historyPage(slack, channel.id, oldest, cursor ?? null),
        )) {
          const ids: string[] = [];
          for (const message of readableMessages(page.messages)) {
            ids.push(messageId(channel.id, message.ts));
            for (const part of isThread(message) ? await threadIfAny(slack, channel.id, message) : [message])
              ids.push(...shownFiles(part).map((file) => fileId(channel.id, part.ts, file)));
          }
          yield ids;
        }
      } catch (error) {
        if (!(error instanceof NotFoundError)) throw error;
      }
    }
  },

  async *permissions(ctx) {
    const slack = api(ctx);
    const emails = new Map<string, string>();
    const fullMembers: string[] = [];
    const users = slackPages((cursor) =>
      slack.call('users.list', (client) =>
        client.users.list({ limit: PAGE_LIMIT, ...(cursor ? { cursor } : {}) }),
      ),
    );
    for await (const { page } of users) {
      for (const raw of page.members ?? []) {
        const user = personSchema.safeParse(raw);
        if (!user.success || user.data.deleted || user.data.is_bot) continue;
        const email = emailOf(user.data);
        if (!email) continue;
        emails.set(user.data.id, email);
        // Guests (single- and multi-channel) read only the channels they were invited to.
        if (!user.data.is_restricted && !user.data.is_ultra_restricted) fullMembers.push(email);
      }
    }
    yield [
      {
        group: groupPrincipal(SHORTNAME, FULL_MEMBERS_GROUP),
        members: fullMembers.map(userPrincipal),
      },
    ];

    for (const channel of (await memberChannels(slack)).values()) {
      const members: string[] = [];
      try {
        const pages = slackPages((cursor) =>
          slack.call('conversations.members', (client) =>
            client.conversations.members({
              channel: channel.id,
              limit: PAGE_LIMIT,
              ...(cursor ? { cursor } : {}),
            }),
          ),
        );
        for await (const { page } of pages) {
          for (const id of page.members ?? []) {
            // Members from other organisations (Slack Connect) are not in users.list.
            if (!emails.has(id)) {
              const user = await lookUpUser(slack, id);
              const email = user && !user.deleted ? emailOf(user) : undefined;
              if (email) emails.set(id, email);
            }
            const email = emails.get(id);
            if (email) members.push(email);
          }
        }
      } catch (error) {
        if (!(error instanceof NotFoundError)) throw error;
        continue;
      }
      const membership: GroupMembership = {
        group: groupPrincipal(SHORTNAME, channel.id),
        members: members.map(userPrincipal),
      };
      yield [membership];
    }
  },

  async documentAcls(ctx, externalIds) {
    const slack = api(ctx);
    const byChannel = new Map<string, string[]>();
    for (const id of externalIds)
      byChannel.set(channelOfId(id), [...(byChannel.get(channelOfId(id)) ?? []), id]);
    const answers: DocumentAcl[] = [];
    for (const [channelId, ids] of byChannel) {
      let channel: SlackChannel;
      try {
        const info = await slack.call('conversations.info', (client) =>
          client.conversations.info({ channel: channelId }),
        );
        const parsed = channelSchema.safeParse(info.channel);
        if (!parsed.success || !parsed.data.is_member) continue;
        channel = parsed.data;
      } catch (error) {
        if (error instanceof NotFoundError) continue;
        throw error;
      }
      for (const externalId of ids) answers.push({ externalId, acl: channelAcl(channel) });
    }
    return answers;
  },
});
