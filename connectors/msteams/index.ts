// Microsoft Teams: the channel conversations of the teams the connecting account has joined, through Graph. A thread
// (a root message and its replies) is one document, read by who may read the channel in Teams: a standard channel
// by the team's members, a private or shared channel by its own members. Both are groups synced by `permissions`,
// so removing someone from a channel in Teams removes it from their search at the next permission sync.
//
// Graph's channel message delta gives root messages only and only for the last eight months, so it cannot carry a
// three-year window or see a new reply. Each sync lists a channel's root messages with their replies expanded and
// delivers the threads modified (root or any reply) since the channel's last listing began: the
// lastModifiedDateTime filter, applied here because the delegated listing takes no $filter. A renamed channel
// delivers all its threads again, since each names its channel. Deleted roots come back with deletedDateTime set.
//
// Connected org-wide on the tenant's admin consent, an app-only token reads every team (GET /teams) and all their
// channels, private and shared ones included, with the same readers, and the chats of every enabled user of the
// tenant (GET /users/{id}/chats, which Graph serves to Chat.Read.All as an application permission), each once.
//
// Each chat the account is in is one document (its messages of the window, in order), read by its participants by
// address; the permission sync re-reads them (documentAcls), so someone who leaves a chat stops finding it. A chat
// is re-read when its newest change (Graph lists chat messages by lastModifiedDateTime) is newer than its last read.
import { z } from 'zod';
import { CREDENTIAL_NAMES, microsoft } from '../../common/strings';
import {
  FatalSourceError,
  NotFoundError,
  defineConnector,
  groupPrincipal,
  paginateByNextLink,
  userPrincipal,
  type DocumentAcl,
  type GroupMembership,
  type GroupPrincipal,
  type HttpClient,
  type SourceDocument,
  type ConnectorContext,
  type SyncBatch,
} from '../sdk';
import {
  appOnlyClient,
  tenantConfigSchema,
  tenantCredentialsSchema,
  tenantUsers,
  type TenantConfig,
  type TenantContext,
} from '../microsoft/app-only';
import { htmlToDocument } from '../sdk/html';
import {
  MICROSOFT_LOGIN_URL,
  accountEmail,
  graphClient,
  graphCredentialsSchema,
  graphUserSchema,
  microsoftOAuth,
  odataPageSchema,
  timestamp,
  type GraphCredentials,
} from '../microsoft/graph';

/** Delegated read access to the account's teams, their channels, messages and members (admin consent). */
export const TEAMS_SCOPES = [
  'Team.ReadBasic.All',
  'Channel.ReadBasic.All',
  'ChannelMessage.Read.All',
  'TeamMember.Read.All',
  'ChannelMember.Read.All',
  'Chat.Read',
] as const;

const SHORTNAME = 'msteams';
/** Graph's most root messages per page of a channel listing. */
const PAGE_SIZE = 50;

const teamSchema = z.object({ id: z.string(), displayName: z.string().nullish() });
const channelSchema = z.object({
  id: z.string(),
  displayName: z.string().nullish(),
  membershipType: z.string().nullish(),
  webUrl: z.string().nullish(),
});
type Channel = z.output<typeof channelSchema>;
const chatMessageFields = {
  id: z.string(),
  subject: z.string().nullish(),
  body: z.object({ contentType: z.string().nullish(), content: z.string().nullish() }).nullish(),
  from: z
    .object({ user: z.object({ id: z.string().nullish(), displayName: z.string().nullish() }).nullish() })
    .nullish(),
  createdDateTime: timestamp.nullish(),
  lastModifiedDateTime: timestamp.nullish(),
  deletedDateTime: timestamp.nullish(),
  messageType: z.string().nullish(),
  webUrl: z.string().nullish(),
};
const replySchema = z.object(chatMessageFields);
const rootSchema = z.object({ ...chatMessageFields, replies: z.array(replySchema).nullish() });
type Root = z.output<typeof rootSchema>;
type Reply = z.output<typeof replySchema>;
const memberSchema = z.object({ email: z.string().nullish(), displayName: z.string().nullish() });
const chatSchema = z.object({ id: z.string(), topic: z.string().nullish(), webUrl: z.string().nullish() });
type Chat = z.output<typeof chatSchema>;
/** Prefix of a chat's external id; channel threads start with their team's id, a GUID. */
const CHAT_PREFIX = 'chat/';

/** A channel as the connector tracks it: its team, its name (a rename re-delivers) and its listing's place. */
const channelStateSchema = z.object({
  teamId: z.string(),
  channelId: z.string(),
  name: z.string(),
  /** Threads modified at or after this instant are delivered; null delivers every thread in the window. */
  since: z.string().nullable(),
  /** The next page of a listing under way, and when that listing began (the next `since`). */
  next: z.string().nullable(),
  startedAt: z.string().nullable(),
});
type ChannelState = z.output<typeof channelStateSchema>;
/** A chat: delivered again when a message in it changed at or after `since` (null: never delivered). */
const chatStateSchema = z.object({ chatId: z.string(), since: z.string().nullable() });
type ChatState = z.output<typeof chatStateSchema>;
const cursorSchema = z.object({
  v: z.literal(1),
  channels: z.array(channelStateSchema),
  chats: z.array(chatStateSchema).default([]),
  /**
   * Channels (`teamId/channelId`) and chats (`chat/<id>`) the pass under way has finished, empty once a pass ends.
   * A sync resumed mid-pass (the engine's next slice, or after a crash) skips them: with no change feed, walking a
   * finished channel again lists all its threads to deliver none, so every slice would re-read the workspace.
   */
  done: z.array(z.string()).default([]),
});
type TeamsCursor = z.output<typeof cursorSchema>;

interface TeamChannel {
  readonly teamId: string;
  readonly teamName: string;
  readonly channel: Channel;
}

/** A member's OAuth tokens (individual connection), or the tenant's admin consent (org connection). */
const teamsCredentialsSchema = z.union([graphCredentialsSchema, tenantCredentialsSchema]);
type TeamsContext = ConnectorContext<z.output<typeof teamsCredentialsSchema>, TenantConfig>;

const isOrg = (ctx: TeamsContext): ctx is TenantContext => 'marketplace' in ctx.credentials;
const isMember = (ctx: TeamsContext): ctx is ConnectorContext<GraphCredentials, TenantConfig> =>
  !('marketplace' in ctx.credentials);

/** What a connection reads through, and where its teams and chats are listed. */
interface Reach {
  readonly client: HttpClient;
  readonly org: boolean;
}

function api(ctx: TeamsContext): Reach {
  if (isMember(ctx)) return { client: graphClient(ctx, microsoft.TEAMS_ACCESS_NEEDED), org: false };
  if (isOrg(ctx))
    return {
      client: appOnlyClient(ctx, SHORTNAME, { credentialName: CREDENTIAL_NAMES.accessToken }),
      org: true,
    };
  throw new FatalSourceError('msteams: credentials of neither a member nor a tenant');
}

async function* listAll<T extends z.ZodType>(
  client: HttpClient,
  path: string,
  item: T,
): AsyncGenerator<z.output<T>> {
  const pages = paginateByNextLink(client, {
    path,
    schema: odataPageSchema(item),
    items: (page) => page.value,
    nextLink: (page) => page['@odata.nextLink'],
  });
  for await (const page of pages) yield* page.items;
}

/** The member's joined teams, or every team of the tenant for an org connection. */
async function teamChannels({ client, org }: Reach): Promise<TeamChannel[]> {
  const found: TeamChannel[] = [];
  for await (const team of listAll(client, org ? '/teams' : '/me/joinedTeams', teamSchema)) {
    for await (const channel of listAll(
      client,
      `/teams/${encodeURIComponent(team.id)}/channels`,
      channelSchema,
    ))
      found.push({ teamId: team.id, teamName: team.displayName ?? '', channel });
  }
  return found;
}

/** Standard channels belong to the team; private and shared ones (and any kind Graph adds later) to their members. */
function channelReaders(teamId: string, channel: Pick<Channel, 'id' | 'membershipType'>): GroupPrincipal {
  return channel.membershipType === 'standard'
    ? groupPrincipal(SHORTNAME, `team:${teamId}`)
    : groupPrincipal(SHORTNAME, `channel:${channel.id}`);
}

function externalIdOf(teamId: string, channelId: string, rootId: string): string {
  return `${teamId}/${channelId}/${rootId}`;
}

function textOf(message: Reply): string {
  const content = message.body?.content ?? '';
  return message.body?.contentType === 'html' ? htmlToDocument(content).text.trim() : content.trim();
}

/** 'Name, time: text', one message of a thread or chat. */
function line(post: Reply): string {
  const who = post.from?.user?.displayName ?? '';
  const when = post.createdDateTime?.toISOString() ?? '';
  return `${[who, when].filter(Boolean).join(', ')}: ${textOf(post)}`;
}

function lastChange(root: Root): Date {
  let latest = root.lastModifiedDateTime ?? root.createdDateTime ?? new Date(0);
  for (const reply of root.replies ?? []) {
    const at = reply.lastModifiedDateTime ?? reply.createdDateTime;
    if (at && at > latest) latest = at;
  }
  return latest;
}

function toDocument(root: Root, where: TeamChannel): SourceDocument {
  const posts = [
    root,
    ...(root.replies ?? [])
      .filter((reply) => !reply.deletedDateTime && reply.messageType !== 'systemEventMessage')
      .sort((a, b) => (a.createdDateTime?.getTime() ?? 0) - (b.createdDateTime?.getTime() ?? 0)),
  ];
  const lines = posts.map(line);
  const firstLine = textOf(root).split('\n')[0]?.slice(0, 120).trim();
  const link = z.url({ protocol: /^https?$/ }).safeParse(root.webUrl ?? where.channel.webUrl);
  const created = root.createdDateTime ?? new Date(0);
  const author = root.from?.user?.displayName?.trim();
  return {
    externalId: externalIdOf(where.teamId, where.channel.id, root.id),
    title: root.subject?.trim() || firstLine || microsoft.NO_SUBJECT,
    url: link.success ? link.data : 'https://teams.microsoft.com/',
    body: lines.join('\n\n'),
    author: author ? { name: author } : {},
    objectType: 'Messages',
    fileType: 'message',
    createdTime: created,
    modifiedTime: lastChange(root),
    acl: [channelReaders(where.teamId, where.channel)],
    extra: {
      team: where.teamName,
      channel: where.channel.displayName ?? '',
      replies: posts.length - 1,
    },
  };
}

/** The pass's checkpoint; a copy, as the states move on after the batch that carries it. */
function checkpoint(
  channels: readonly ChannelState[],
  chats: readonly ChatState[],
  done: ReadonlySet<string>,
): TeamsCursor {
  return {
    v: 1,
    channels: channels.map((entry) => ({ ...entry })),
    chats: chats.map((entry) => ({ ...entry })),
    done: [...done],
  };
}

/** One channel's threads from where its state stands, one batch per page of root messages. */
async function* walkChannel(
  ctx: TeamsContext,
  client: HttpClient,
  where: TeamChannel,
  states: ChannelState[],
  index: number,
  progress: (done: number) => { share: number } | undefined,
  chats: readonly ChatState[],
  done: Set<string>,
): AsyncGenerator<SyncBatch> {
  const state = states[index] as ChannelState;
  const startedAt = state.startedAt ?? ctx.now().toISOString();
  const since =
    state.name === (where.channel.displayName ?? '') && state.since ? new Date(state.since) : null;
  const from = since && since > ctx.syncWindowStart ? since : ctx.syncWindowStart;
  const pages = paginateByNextLink(client, {
    path: `/teams/${encodeURIComponent(where.teamId)}/channels/${encodeURIComponent(where.channel.id)}/messages`,
    schema: odataPageSchema(rootSchema),
    items: (page) => page.value,
    nextLink: (page) => page['@odata.nextLink'],
    startUrl: state.next,
    request: { query: { $top: PAGE_SIZE, $expand: 'replies' } },
  });
  for await (const page of pages) {
    const documents: SourceDocument[] = [];
    const deleted: string[] = [];
    for (const root of page.items) {
      if (root.messageType === 'systemEventMessage' || lastChange(root) < from) continue;
      if (root.deletedDateTime) deleted.push(externalIdOf(where.teamId, where.channel.id, root.id));
      else documents.push(toDocument(root, where));
    }
    states[index] =
      page.next === null
        ? { ...state, name: where.channel.displayName ?? '', since: startedAt, next: null, startedAt: null }
        : { ...state, next: page.next, startedAt };
    if (page.next === null) done.add(`${where.teamId}/${where.channel.id}`);
    const cursor = checkpoint(states, chats, done);
    const share = progress(page.next === null ? index + 1 : index);
    yield { documents, deletedExternalIds: deleted, cursor, ...(share ? { progress: share } : {}) };
  }
}

async function* syncTeams(ctx: TeamsContext, saved: TeamsCursor | null): AsyncGenerator<SyncBatch> {
  const reach = api(ctx);
  const { client } = reach;
  const channels = await teamChannels(reach);
  const chats = await listChats(reach);
  const previous = new Map(
    (saved?.channels ?? []).map((state) => [`${state.teamId}/${state.channelId}`, state]),
  );
  const states: ChannelState[] = channels.map(
    ({ teamId, channel }) =>
      previous.get(`${teamId}/${channel.id}`) ?? {
        teamId,
        channelId: channel.id,
        name: channel.displayName ?? '',
        since: null,
        next: null,
        startedAt: null,
      },
  );
  const previousChats = new Map((saved?.chats ?? []).map((state) => [state.chatId, state]));
  const chatStates: ChatState[] = chats.map(
    (chat) => previousChats.get(chat.id) ?? { chatId: chat.id, since: null },
  );
  // Progress counts channels and chats while any of them is on its first listing (a full sync).
  const first =
    states.some((state) => state.since === null) || chatStates.some((state) => state.since === null);
  const total = Math.max(1, states.length + chatStates.length);
  const progress = (finished: number) => (first ? { share: finished / total } : undefined);
  const done = new Set(saved?.done ?? []);
  for (let index = 0; index < channels.length; index += 1) {
    ctx.signal.throwIfAborted();
    const where = channels[index] as TeamChannel;
    if (done.has(`${where.teamId}/${where.channel.id}`)) continue;
    yield* walkChannel(ctx, client, where, states, index, progress, chatStates, done);
  }
  for (let index = 0; index < chats.length; index += 1) {
    ctx.signal.throwIfAborted();
    const chat = chats[index] as Chat;
    if (done.has(`${CHAT_PREFIX}${chat.id}`)) continue;
    const state = chatStates[index] as ChatState;
    const startedAt = ctx.now().toISOString();
    const document = await chatDocument(ctx, client, chat, state.since ? new Date(state.since) : null);
    chatStates[index] = { ...state, since: startedAt };
    done.add(`${CHAT_PREFIX}${chat.id}`);
    const share = progress(states.length + index + 1);
    yield {
      documents: document ? [document] : [],
      cursor: checkpoint(states, chatStates, done),
      ...(share ? { progress: share } : {}),
    };
  }
  // The pass is over: the next sync walks every channel and chat again.
  done.clear();
  const share = progress(total);
  yield {
    documents: [],
    cursor: checkpoint(states, chatStates, done),
    ...(share ? { progress: share } : {}),
  };
}

/** The member's chats, or (org connection) every enabled user's, each chat once however many of them are in it. */
async function listChats({ client, org }: Reach): Promise<Chat[]> {
  if (!org) {
    const chats: Chat[] = [];
    for await (const chat of listAll(client, '/me/chats', chatSchema)) chats.push(chat);
    return chats;
  }
  const chats = new Map<string, Chat>();
  for (const user of await tenantUsers(client)) {
    for await (const chat of listAll(client, `/users/${encodeURIComponent(user.id)}/chats`, chatSchema))
      if (!chats.has(chat.id)) chats.set(chat.id, chat);
  }
  return [...chats.values()];
}

/** A chat is read by its participants, whoever connected it. */
async function chatReaders(
  client: HttpClient,
  chatId: string,
): Promise<{ acl: GroupMembership['members']; names: string[] }> {
  const acl: GroupMembership['members'] = [];
  const names: string[] = [];
  for await (const member of listAll(client, `/chats/${encodeURIComponent(chatId)}/members`, memberSchema)) {
    const email = z.email().safeParse(member.email?.trim());
    if (email.success) acl.push(userPrincipal(email.data));
    if (member.displayName) names.push(member.displayName);
  }
  return { acl, names };
}

/**
 * The chat as one document, its messages of the window in order, or null when nothing in it changed since `since`:
 * the listing is newest change first, so its first message says whether the chat moved at all.
 */
async function chatDocument(
  ctx: TeamsContext,
  client: HttpClient,
  chat: Chat,
  since: Date | null,
): Promise<SourceDocument | null> {
  const posts: Reply[] = [];
  const pages = paginateByNextLink(client, {
    path: `/chats/${encodeURIComponent(chat.id)}/messages`,
    schema: odataPageSchema(replySchema),
    items: (page) => page.value,
    nextLink: (page) => page['@odata.nextLink'],
    request: {
      query: {
        $top: PAGE_SIZE,
        $orderby: 'lastModifiedDateTime desc',
        $filter: `lastModifiedDateTime gt ${ctx.syncWindowStart.toISOString()}`,
      },
    },
  });
  for await (const page of pages) {
    if (posts.length === 0 && since !== null) {
      const newest = page.items[0]?.lastModifiedDateTime;
      if (!newest || newest < since) return null;
    }
    posts.push(...page.items);
  }
  const live = posts
    .filter((message) => !message.deletedDateTime && message.messageType !== 'systemEventMessage')
    .sort((a, b) => (a.createdDateTime?.getTime() ?? 0) - (b.createdDateTime?.getTime() ?? 0));
  const first = live[0];
  const last = live.at(-1);
  if (!first || !last) return null;
  const { acl, names } = await chatReaders(client, chat.id);
  const link = z.url({ protocol: /^https?$/ }).safeParse(chat.webUrl);
  return {
    externalId: `${CHAT_PREFIX}${chat.id}`,
    title: chat.topic?.trim() || microsoft.chatWith(names),
    url: link.success ? link.data : 'https://teams.microsoft.com/',
    body: live.map(line).join('\n\n'),
    author: first.from?.user?.displayName ? { name: first.from.user.displayName } : {},
    objectType: 'Messages',
    fileType: 'message',
    createdTime: first.createdDateTime ?? new Date(0),
    modifiedTime: last.lastModifiedDateTime ?? last.createdDateTime ?? new Date(0),
    acl,
    extra: { chat: chat.topic ?? '', participants: names },
  };
}

async function membersOf(client: HttpClient, path: string): Promise<GroupMembership['members']> {
  const members: GroupMembership['members'] = [];
  for await (const member of listAll(client, path, memberSchema)) {
    const email = z.email().safeParse(member.email?.trim());
    // A member without an address (a guest not yet redeemed) cannot be matched to a Scout user.
    if (email.success) members.push(userPrincipal(email.data));
  }
  return members;
}

/** Builds the connector; tests point the OAuth endpoints at a fake identity platform. */
export function createTeamsConnector(options: { loginUrl?: string } = {}) {
  return defineConnector({
    shortname: SHORTNAME,
    installPayload: { org: 'marketplace', individual: 'oauth' },
    credentialsSchema: teamsCredentialsSchema,
    configSchema: tenantConfigSchema,
    credentialFields: [],
    credentialName: CREDENTIAL_NAMES.accessToken,
    // Teams meters per app and tenant by request type, apart from Outlook and SharePoint (Graph's throttling page:
    // 20 requests a second reading channel or chat messages, 30 for other reads, 4 a second on one team or
    // channel), so it keeps its own vendor. No rate: 4 in flight stay under 20 a second unless Graph answers in
    // under 200 ms, and a 429's Retry-After pauses the connection's other requests.
    limits: { concurrency: 4 },
    oauth: microsoftOAuth(TEAMS_SCOPES, options.loginUrl ?? MICROSOFT_LOGIN_URL),

    async validate(ctx) {
      const { client } = api(ctx);
      if (isOrg(ctx)) {
        // Listing the tenant's teams and users proves the consent covers Team.ReadBasic.All and User.Read.All.
        await client.json('/teams', odataPageSchema(teamSchema), { query: { $top: 1 } });
        await client.json('/users', odataPageSchema(graphUserSchema), { query: { $select: 'id', $top: 1 } });
        const admin = ctx.credentials.email.toLowerCase();
        return { email: admin, workspaceName: admin.split('@')[1] };
      }
      const me = await client.json('/me', graphUserSchema, {
        query: { $select: 'id,displayName,mail,userPrincipalName' },
      });
      // Proves the Teams permissions were granted: /me alone answers with User.Read.
      await client.json('/me/joinedTeams', odataPageSchema(teamSchema));
      const email = accountEmail(me);
      return {
        appUserId: me.id,
        ...(email ? { email } : {}),
        ...(me.displayName ? { workspaceName: me.displayName } : {}),
      };
    },

    fullSync: (ctx) => syncTeams(ctx, null),

    async *incrementalSync(ctx, saved) {
      const cursor = cursorSchema.safeParse(saved);
      if (!cursor.success)
        ctx.logger.warn({ connector: SHORTNAME }, 'unreadable cursor, running a full sync');
      yield* syncTeams(ctx, cursor.success ? cursor.data : null);
    },

    async *listIds(ctx) {
      const reach = api(ctx);
      const { client } = reach;
      for (const { teamId, channel } of await teamChannels(reach)) {
        const pages = paginateByNextLink(client, {
          path: `/teams/${encodeURIComponent(teamId)}/channels/${encodeURIComponent(channel.id)}/messages`,
          schema: odataPageSchema(rootSchema),
          items: (page) => page.value,
          nextLink: (page) => page['@odata.nextLink'],
          request: { query: { $top: PAGE_SIZE } },
        });
        for await (const page of pages)
          yield page.items
            .filter((root) => !root.deletedDateTime)
            .map((root) => externalIdOf(teamId, channel.id, root.id));
      }
      yield (await listChats(reach)).map((chat) => `${CHAT_PREFIX}${chat.id}`);
    },

    async *permissions(ctx) {
      const reach = api(ctx);
      const { client } = reach;
      const teams = new Set<string>();
      for (const { teamId, channel } of await teamChannels(reach)) {
        if (!teams.has(teamId)) {
          teams.add(teamId);
          yield [
            {
              group: groupPrincipal(SHORTNAME, `team:${teamId}`),
              members: await membersOf(client, `/teams/${encodeURIComponent(teamId)}/members`),
            },
          ];
        }
        if (channel.membershipType !== 'standard') {
          yield [
            {
              group: groupPrincipal(SHORTNAME, `channel:${channel.id}`),
              members: await membersOf(
                client,
                `/teams/${encodeURIComponent(teamId)}/channels/${encodeURIComponent(channel.id)}/members`,
              ),
            },
          ];
        }
      }
    },

    async documentAcls(ctx, externalIds) {
      const reach = api(ctx);
      const { client } = reach;
      const channels = new Map(
        (await teamChannels(reach)).map((where) => [`${where.teamId}/${where.channel.id}`, where]),
      );
      const answers: DocumentAcl[] = [];
      for (const externalId of externalIds.filter((candidate) => candidate.startsWith(CHAT_PREFIX))) {
        try {
          const { acl } = await chatReaders(client, externalId.slice(CHAT_PREFIX.length));
          answers.push({ externalId, acl });
        } catch (error) {
          // A chat the account has left or that was deleted is pruning's business.
          if (!(error instanceof NotFoundError)) throw error;
        }
      }
      return answers.concat(
        externalIds
          .filter((candidate) => !candidate.startsWith(CHAT_PREFIX))
          .flatMap((externalId): DocumentAcl[] => {
            const [teamId = '', channelId = ''] = externalId.split('/');
            const where = channels.get(`${teamId}/${channelId}`);
            // A channel no longer listed is pruning's business.
            return where ? [{ externalId, acl: [channelReaders(teamId, where.channel)] }] : [];
          }),
      );
    },
  });
}

export const teamsConnector = createTeamsConnector();
