// A fake Slack Web API on 127.0.0.1 for the connector's tests: a workspace of users and channels, messages with
// threads and files, and the methods the connector calls, answering as Slack documents them (HTTP 200 with
// `ok: false` and an error code, cursor pagination in `response_metadata.next_cursor`, `oldest`/`latest`
// exclusive bounds, newest-first history). Every answer is typed with @slack/web-api's response types, so a shape
// Slack does not have cannot compile. Tests change the workspace (edits, deletes, renames, membership, expired
// tokens) and inject 429s and 5xx through the SDK's fake-server.
import type {
  AuthTestResponse,
  ConversationsHistoryResponse,
  ConversationsInfoResponse,
  ConversationsListResponse,
  ConversationsMembersResponse,
  ConversationsRepliesResponse,
  FilesInfoResponse,
  OauthV2AccessResponse,
  UsersInfoResponse,
  UsersListResponse,
} from '@slack/web-api';
import {
  startFakeServer,
  type FakeHandler,
  type FakeRequest,
  type FakeResponse,
  type FakeServer,
} from '../sdk/fake-server';

export type SlackUser = NonNullable<UsersListResponse['members']>[number];
export type SlackMessage = NonNullable<ConversationsHistoryResponse['messages']>[number];
export type SlackChannel = NonNullable<ConversationsListResponse['channels']>[number];
export type SlackFileInfo = NonNullable<FilesInfoResponse['file']>;

export interface FakeChannel {
  channel: SlackChannel;
  /** Member user ids; the app's bot is a member when `channel.is_member`. */
  members: string[];
  /** Top-level messages, oldest first. */
  messages: SlackMessage[];
  /** Replies by thread ts, oldest first (the parent is in `messages`). */
  replies: Map<string, SlackMessage[]>;
}

export interface SlackFakeOptions {
  /** The most items any page holds, whatever `limit` asks, to force pagination. */
  readonly pageSize?: number;
}

export interface PostInput {
  user: string;
  text: string;
  /** How long ago, in seconds (default: now). */
  ageSeconds?: number;
  files?: NonNullable<SlackMessage['files']>;
}

export interface SlackFake {
  readonly server: FakeServer;
  /** Ends with '/', as WebClient's slackApiUrl. */
  readonly apiUrl: string;
  readonly token: string;
  readonly teamUrl: string;
  readonly users: Map<string, SlackUser>;
  readonly channels: Map<string, FakeChannel>;
  /** The token Slack answers `token_expired` for from now on. */
  expireToken(): void;
  /** What the token endpoint answers a refresh: new tokens, or Slack's refusal. */
  setRefresh(answer: 'rotate' | 'refuse'): void;
  addUser(user: SlackUser): void;
  /** A Slack Connect member of another organisation: users.info knows them, users.list does not. */
  addExternalUser(user: SlackUser): void;
  addChannel(channel: SlackChannel, members: string[]): FakeChannel;
  post(channelId: string, input: PostInput): SlackMessage;
  reply(channelId: string, threadTs: string, input: PostInput): SlackMessage;
  edit(channelId: string, ts: string, text: string): void;
  remove(channelId: string, ts: string): void;
  /** Deletes a thread's reply, as its author would: the parent's reply count and latest reply follow. */
  removeReply(channelId: string, ts: string): void;
  /** Deletes a file: every message that shared it keeps a tombstone in its place, as Slack shows them. */
  deleteFile(fileId: string): void;
  /** What files.info answers for a file (a Slack Connect file's messages carry only a stub of it). */
  describeFile(file: SlackFileInfo): void;
  rename(channelId: string, name: string): void;
  makePrivate(channelId: string): void;
  removeMember(channelId: string, userId: string): void;
  deleteChannel(channelId: string): void;
  /** Stores a file's bytes and answers its url_private_download, which serves them to the bot's token. */
  storeFile(fileId: string, name: string, bytes: Uint8Array): string;
  close(): Promise<void>;
}

const SECOND_MS = 1000;
const DEFAULT_LIMIT = 100;

let tsCounter = 0;

/** Slack's ts: epoch seconds with a six-digit suffix unique within the channel. */
function newTs(ageSeconds: number): string {
  tsCounter = (tsCounter + 1) % 1_000_000;
  const seconds = Math.floor(Date.now() / SECOND_MS - ageSeconds);
  return `${seconds}.${String(tsCounter).padStart(6, '0')}`;
}

const nowTs = () => newTs(0);

function paramsOf(request: FakeRequest): URLSearchParams {
  const params = new URLSearchParams(request.query);
  for (const [key, value] of new URLSearchParams(request.body)) params.set(key, value);
  return params;
}

function page<T>(items: readonly T[], params: URLSearchParams, pageSize: number) {
  const start = Number(Buffer.from(params.get('cursor') ?? '', 'base64url').toString('utf8') || '0');
  const limit = Math.min(Number(params.get('limit') ?? DEFAULT_LIMIT) || DEFAULT_LIMIT, pageSize);
  const end = start + limit;
  const next = end < items.length ? Buffer.from(String(end)).toString('base64url') : '';
  return { items: items.slice(start, end), next, hasMore: next !== '' };
}

const tsNumber = (ts: string | undefined) => Number(ts ?? '0');

/** Within Slack's exclusive `oldest`/`latest` bounds (inclusive when asked). */
function inRange(ts: string | undefined, params: URLSearchParams): boolean {
  const value = tsNumber(ts);
  const inclusive = params.get('inclusive') === 'true' || params.get('inclusive') === '1';
  const oldest = params.get('oldest');
  const latest = params.get('latest');
  if (oldest !== null && (inclusive ? value < Number(oldest) : value <= Number(oldest))) return false;
  if (latest !== null && (inclusive ? value > Number(latest) : value >= Number(latest))) return false;
  return true;
}

export async function startSlackFake(options: SlackFakeOptions = {}): Promise<SlackFake> {
  const pageSize = options.pageSize ?? 1000;
  const server = await startFakeServer();
  const apiUrl = `${server.url}/api/`;
  const teamUrl = 'https://acme.slack.com/';
  let token = 'xoxb-fake-token-1';
  let generation = 1;
  const expired = new Set<string>();
  let refresh: 'rotate' | 'refuse' = 'rotate';
  const users = new Map<string, SlackUser>();
  const externalUsers = new Map<string, SlackUser>();
  const channels = new Map<string, FakeChannel>();

  const error = (code: string) => ({ json: { ok: false, error: code } });
  const authed =
    (handler: (params: URLSearchParams) => { json: object }): FakeHandler =>
    (request) => {
      const presented = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
      if (presented === undefined) return error('not_authed');
      if (expired.has(presented)) return error('token_expired');
      if (presented !== token) return error('invalid_auth');
      return handler(paramsOf(request));
    };
  const channelFor = (params: URLSearchParams) => channels.get(params.get('channel') ?? '');
  const route = (method: string, handler: (params: URLSearchParams) => { json: object }) =>
    server.route('POST', `/api/${method}`, authed(handler));

  const fileBytes = new Map<string, Uint8Array>();
  const fileInfos = new Map<string, SlackFileInfo>();
  const deletedFiles = new Set<string>();
  // Slack sends a request without a token that may read the file to its sign-in page.
  server.route('GET', '/files-pri/:teamFile/download/:name', (request): FakeResponse => {
    const bytes = fileBytes.get(request.params.teamFile ?? '');
    if (request.headers.authorization !== `Bearer ${token}` || !bytes)
      return { status: 302, headers: { location: `${teamUrl}?redir=${encodeURIComponent(request.path)}` } };
    return { body: bytes, headers: { 'content-type': 'application/octet-stream' } };
  });

  route('auth.test', () => {
    const body: AuthTestResponse = {
      ok: true,
      url: teamUrl,
      team: 'Acme',
      team_id: 'T0ACME',
      user: 'scout',
      user_id: 'UBOT',
      bot_id: 'BSCOUT',
    };
    return { json: body };
  });

  route('users.info', (params) => {
    const id = params.get('user') ?? '';
    const user = users.get(id) ?? externalUsers.get(id);
    if (!user) return error('user_not_found');
    const body: UsersInfoResponse = { ok: true, user };
    return { json: body };
  });

  route('users.list', (params) => {
    const { items, next } = page([...users.values()], params, pageSize);
    const body: UsersListResponse = {
      ok: true,
      members: items,
      cache_ts: Math.floor(Date.now() / SECOND_MS),
      response_metadata: { next_cursor: next },
    };
    return { json: body };
  });

  route('conversations.list', (params) => {
    const types = (params.get('types') ?? 'public_channel').split(',');
    const excludeArchived = params.get('exclude_archived') === 'true';
    // A bot sees every public channel and the private ones it was added to.
    const visible = [...channels.values()]
      .map((entry) => entry.channel)
      .filter((channel) =>
        channel.is_private
          ? types.includes('private_channel') && channel.is_member
          : types.includes('public_channel'),
      )
      .filter((channel) => !(excludeArchived && channel.is_archived));
    const { items, next } = page(visible, params, pageSize);
    const body: ConversationsListResponse = {
      ok: true,
      channels: items,
      response_metadata: { next_cursor: next },
    };
    return { json: body };
  });

  route('conversations.info', (params) => {
    const entry = channelFor(params);
    if (!entry || (entry.channel.is_private && !entry.channel.is_member)) return error('channel_not_found');
    const body: ConversationsInfoResponse = { ok: true, channel: entry.channel };
    return { json: body };
  });

  route('conversations.members', (params) => {
    const entry = channelFor(params);
    if (!entry || (entry.channel.is_private && !entry.channel.is_member)) return error('channel_not_found');
    const { items, next } = page(entry.members, params, pageSize);
    const body: ConversationsMembersResponse = {
      ok: true,
      members: items,
      response_metadata: { next_cursor: next },
    };
    return { json: body };
  });

  route('conversations.history', (params) => {
    const entry = channelFor(params);
    if (!entry || (entry.channel.is_private && !entry.channel.is_member)) return error('channel_not_found');
    if (!entry.channel.is_member) return error('not_in_channel');
    const newestFirst = entry.messages.filter((message) => inRange(message.ts, params)).reverse();
    const { items, next, hasMore } = page(newestFirst, params, pageSize);
    const body: ConversationsHistoryResponse = {
      ok: true,
      messages: items,
      has_more: hasMore,
      pin_count: 0,
      response_metadata: { next_cursor: next },
    };
    return { json: body };
  });

  route('conversations.replies', (params) => {
    const entry = channelFor(params);
    if (!entry || (entry.channel.is_private && !entry.channel.is_member)) return error('channel_not_found');
    if (!entry.channel.is_member) return error('not_in_channel');
    const ts = params.get('ts') ?? '';
    const parent = entry.messages.find((message) => message.ts === ts);
    if (!parent) return error('thread_not_found');
    const thread = [parent, ...(entry.replies.get(ts) ?? [])].filter((message) =>
      inRange(message.ts, params),
    );
    const { items, next, hasMore } = page(thread, params, pageSize);
    const body: ConversationsRepliesResponse = {
      ok: true,
      messages: items,
      has_more: hasMore,
      response_metadata: { next_cursor: next },
    };
    return { json: body };
  });

  route('files.info', (params) => {
    const id = params.get('file') ?? '';
    if (deletedFiles.has(id)) return error('file_deleted');
    const file = fileInfos.get(id);
    if (!file) return error('file_not_found');
    const body: FilesInfoResponse = { ok: true, file, comments: [], response_metadata: { next_cursor: '' } };
    return { json: body };
  });

  // The token endpoint takes client credentials in the form, not a bearer token.
  server.route('POST', '/api/oauth.v2.access', (request) => {
    const params = paramsOf(request);
    if (params.get('grant_type') !== 'refresh_token' || refresh === 'refuse')
      return error('invalid_refresh_token');
    generation += 1;
    token = `xoxb-fake-token-${generation}`;
    const body: OauthV2AccessResponse = {
      ok: true,
      access_token: token,
      token_type: 'bot',
      refresh_token: `xoxe-1-refresh-${generation}`,
      expires_in: 43_200,
      scope: 'channels:history,channels:read',
      bot_user_id: 'UBOT',
      app_id: 'A0SCOUT',
      team: { id: 'T0ACME', name: 'Acme' },
    };
    return { json: body };
  });

  const entryOf = (channelId: string): FakeChannel => {
    const entry = channels.get(channelId);
    if (!entry) throw new Error(`no channel ${channelId} in the fake`);
    return entry;
  };
  const messageOf = (entry: FakeChannel, ts: string): SlackMessage | undefined =>
    entry.messages.find((message) => message.ts === ts) ??
    [...entry.replies.values()].flat().find((message) => message.ts === ts);

  return {
    server,
    apiUrl,
    teamUrl,
    storeFile(fileId, name, bytes) {
      fileBytes.set(`T0FAKE-${fileId}`, bytes);
      return `${server.url}/files-pri/T0FAKE-${fileId}/download/${encodeURIComponent(name)}`;
    },
    get token() {
      return token;
    },
    users,
    channels,
    expireToken() {
      expired.add(token);
    },
    setRefresh(answer) {
      refresh = answer;
    },
    addUser(user) {
      users.set(user.id ?? '', user);
    },
    addExternalUser(user) {
      externalUsers.set(user.id ?? '', user);
    },
    addChannel(channel, members) {
      const entry: FakeChannel = { channel, members: [...members], messages: [], replies: new Map() };
      channels.set(channel.id ?? '', entry);
      return entry;
    },
    post(channelId, input) {
      const entry = entryOf(channelId);
      const message: SlackMessage = {
        type: 'message',
        user: input.user,
        text: input.text,
        ts: newTs(input.ageSeconds ?? 0),
        ...(input.files ? { files: input.files } : {}),
      };
      entry.messages.push(message);
      entry.messages.sort((a, b) => tsNumber(a.ts) - tsNumber(b.ts));
      return message;
    },
    reply(channelId, threadTs, input) {
      const entry = entryOf(channelId);
      const parent = entry.messages.find((message) => message.ts === threadTs);
      if (!parent) throw new Error(`no message ${threadTs} in ${channelId}`);
      const message: SlackMessage = {
        type: 'message',
        user: input.user,
        text: input.text,
        ts: newTs(input.ageSeconds ?? 0),
        thread_ts: threadTs,
        parent_user_id: parent.user,
        ...(input.files ? { files: input.files } : {}),
      };
      const replies = [...(entry.replies.get(threadTs) ?? []), message];
      entry.replies.set(threadTs, replies);
      parent.thread_ts = threadTs;
      parent.reply_count = replies.length;
      parent.latest_reply = replies
        .map((r) => r.ts ?? '')
        .sort((a, b) => tsNumber(a) - tsNumber(b))
        .at(-1);
      parent.reply_users = [...new Set(replies.map((r) => r.user ?? ''))];
      return message;
    },
    edit(channelId, ts, text) {
      const message = messageOf(entryOf(channelId), ts);
      if (!message) throw new Error(`no message ${ts} in ${channelId}`);
      message.text = text;
      message.edited = { user: message.user, ts: nowTs() };
    },
    remove(channelId, ts) {
      const entry = entryOf(channelId);
      entry.messages = entry.messages.filter((message) => message.ts !== ts);
      entry.replies.delete(ts);
    },
    removeReply(channelId, ts) {
      const entry = entryOf(channelId);
      const threadTs = [...entry.replies].find(([, replies]) => replies.some((r) => r.ts === ts))?.[0];
      const parent = entry.messages.find((message) => message.ts === threadTs);
      if (threadTs === undefined || !parent) throw new Error(`no reply ${ts} in ${channelId}`);
      const replies = (entry.replies.get(threadTs) ?? []).filter((reply) => reply.ts !== ts);
      entry.replies.set(threadTs, replies);
      parent.reply_count = replies.length;
      parent.latest_reply = replies
        .map((r) => r.ts ?? '')
        .sort((a, b) => tsNumber(a) - tsNumber(b))
        .at(-1);
      parent.reply_users = [...new Set(replies.map((r) => r.user ?? ''))];
    },
    deleteFile(fileId) {
      fileBytes.delete(`T0FAKE-${fileId}`);
      fileInfos.delete(fileId);
      deletedFiles.add(fileId);
      for (const entry of channels.values())
        for (const message of [...entry.messages, ...[...entry.replies.values()].flat()])
          if (message.files)
            message.files = message.files.map((file) =>
              file.id === fileId ? { id: fileId, mode: 'tombstone' } : file,
            );
    },
    describeFile(file) {
      fileInfos.set(file.id ?? '', file);
    },
    rename(channelId, name) {
      entryOf(channelId).channel.name = name;
    },
    makePrivate(channelId) {
      entryOf(channelId).channel.is_private = true;
    },
    removeMember(channelId, userId) {
      const entry = entryOf(channelId);
      entry.members = entry.members.filter((member) => member !== userId);
    },
    deleteChannel(channelId) {
      channels.delete(channelId);
    },
    close: () => server.close(),
  };
}
