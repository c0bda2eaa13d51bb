// A fake Microsoft Graph for the Teams connector's tests, on 127.0.0.1: the joined teams, their channels (standard,
// private, shared), root messages with replies expanded (paginated with opaque skip tokens), team and channel
// members, and the identity platform's token endpoint. Answers are typed with @microsoft/microsoft-graph-types.
// Posting, editing and deleting messages, renaming channels and changing membership are scriptable.
import type {
  AadUserConversationMember,
  Channel,
  Chat,
  ChatMessage,
  Team,
  User,
} from '@microsoft/microsoft-graph-types';
import { startFakeServer, type FakeRequest, type FakeResponse, type FakeServer } from '../sdk/fake-server';
import { fakeIdentityPlatform, graphError, type FakeIdentity } from '../microsoft/fake-identity';
import type { ODataPage } from '../outlook/fake';

export const ME = { id: 'u-ada', name: 'Ada Lovelace', email: 'ada@contoso.com' };
export const PEOPLE = {
  ada: ME.email,
  grace: 'grace@contoso.com',
  linus: 'linus@contoso.com',
  bob: 'bob@contoso.com',
} as const;

export const TEAMS = {
  eng: '7d9c1b2a-0000-4000-8000-000000000001',
  sales: '7d9c1b2a-0000-4000-8000-000000000002',
};
export const CHANNELS = {
  engGeneral: '19:eng-general@thread.tacv2',
  incidents: '19:incidents@thread.tacv2',
  partners: '19:partners@thread.tacv2',
  salesGeneral: '19:sales-general@thread.tacv2',
} as const;

const DAY_MS = 24 * 60 * 60 * 1000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString();

type StoredChannel = Channel & { id: string; teamId: string; members: string[] };
export type StoredMessage = ChatMessage & { id: string; replies: ChatMessage[] };

export function post(
  id: string,
  days: number,
  text: string,
  from = 'Grace Hopper',
  extra: ChatMessage = {},
): ChatMessage {
  return {
    id,
    messageType: 'message',
    createdDateTime: daysAgo(days),
    lastModifiedDateTime: daysAgo(days),
    deletedDateTime: null,
    subject: null,
    body: { contentType: 'html', content: `<p>${text}</p>` },
    from: { user: { id: `u-${from}`, displayName: from } },
    webUrl: `https://teams.microsoft.com/l/message/${encodeURIComponent(id)}`,
    ...extra,
  };
}

function thread(root: ChatMessage, replies: ChatMessage[] = []): StoredMessage {
  return {
    ...root,
    id: root.id as string,
    replies: replies.map((reply) => ({ ...reply, replyToId: root.id })),
  };
}

/** The threads of each channel; the one in Sales is older than the three-year window. */
function seedThreads(): Map<string, StoredMessage[]> {
  return new Map([
    [
      CHANNELS.engGeneral,
      [
        thread(post('1001', 2, 'Deploy freeze starts Friday', 'Grace Hopper', { subject: 'Deploy freeze' }), [
          post('1002', 2, 'Noted, moving the release to Thursday', 'Linus Torvalds'),
        ]),
        thread(post('1003', 10, 'Lunch and learn: compilers'), []),
        thread(
          post('1004', 12, 'Welcome to the team', 'Ada Lovelace', { messageType: 'systemEventMessage' }),
        ),
      ],
    ],
    [
      CHANNELS.incidents,
      [
        thread(post('2001', 1, 'Database failover postmortem draft'), [
          post('2002', 1, 'Root cause was the replica lag alarm', 'Ada Lovelace'),
          post('2003', 1, 'retracted', 'Grace Hopper', { deletedDateTime: daysAgo(1) }),
        ]),
      ],
    ],
    [CHANNELS.partners, [thread(post('3001', 4, 'Partner pricing sheet for Initech', 'Bob Builder'))]],
    [
      CHANNELS.salesGeneral,
      [thread(post('4001', 5, 'Pipeline review'), []), thread(post('4002', 1300, 'Ancient deal'))],
    ],
  ]);
}

/** External ids a full sync indexes from the seed. */
export const SEEDED_THREADS = [
  `${TEAMS.eng}/${CHANNELS.engGeneral}/1001`,
  `${TEAMS.eng}/${CHANNELS.engGeneral}/1003`,
  `${TEAMS.eng}/${CHANNELS.incidents}/2001`,
  `${TEAMS.eng}/${CHANNELS.partners}/3001`,
  `${TEAMS.sales}/${CHANNELS.salesGeneral}/4001`,
];

export const CHATS = { grace: '19:ada-grace@unq.gbl.spaces', launch: '19:launch-squad@thread.v2' } as const;

/** External ids of the chats a full sync indexes. */
export const SEEDED_CHATS = [`chat/${CHATS.grace}`, `chat/${CHATS.launch}`];

export interface TeamsFake {
  readonly server: FakeServer;
  readonly graphUrl: string;
  readonly identity: FakeIdentity;
  /** A new thread, or a reply to one when `rootId` is given. */
  post(channelId: string, message: ChatMessage, rootId?: string): void;
  edit(channelId: string, messageId: string, text: string): void;
  /** Soft delete, as Teams does: the message stays listed with deletedDateTime set. */
  remove(channelId: string, messageId: string): void;
  rename(channelId: string, displayName: string): void;
  setChannelMembers(channelId: string, emails: string[]): void;
  setTeamMembers(teamId: string, emails: string[]): void;
  /** A message in a chat (one Ada is in). */
  chatPost(chatId: string, message: ChatMessage): void;
  setChatMembers(chatId: string, emails: string[]): void;
  close(): Promise<void>;
}

/** `tenant`: whose admin consent the client-credentials grant honours (the org admin's domain). */
export async function startTeamsFake(
  options: { pageSize?: number; tenant?: string } = {},
): Promise<TeamsFake> {
  const server = await startFakeServer();
  const identity = fakeIdentityPlatform(server, 'teams', options.tenant);
  const teams = new Map<string, { team: Team; members: string[] }>([
    [
      TEAMS.eng,
      {
        team: { id: TEAMS.eng, displayName: 'Engineering' },
        members: [PEOPLE.ada, PEOPLE.grace, PEOPLE.linus],
      },
    ],
    [TEAMS.sales, { team: { id: TEAMS.sales, displayName: 'Sales' }, members: [PEOPLE.ada, PEOPLE.bob] }],
  ]);
  const channel = (
    id: string,
    teamId: string,
    displayName: string,
    membershipType: Channel['membershipType'],
    members: string[] = [],
  ): StoredChannel => ({
    id,
    teamId,
    displayName,
    membershipType,
    webUrl: `https://teams.microsoft.com/l/channel/${encodeURIComponent(id)}`,
    members,
  });
  const channels: StoredChannel[] = [
    channel(CHANNELS.engGeneral, TEAMS.eng, 'General', 'standard'),
    channel(CHANNELS.incidents, TEAMS.eng, 'Incidents', 'private', [PEOPLE.ada, PEOPLE.grace]),
    channel(CHANNELS.partners, TEAMS.eng, 'Partners', 'shared', [PEOPLE.ada, PEOPLE.bob]),
    channel(CHANNELS.salesGeneral, TEAMS.sales, 'General', 'standard'),
  ];
  const threads = seedThreads();
  // Each channel's roots in listing order, kept until a message changes: sorting a channel of thousands of
  // threads for each page made listing it quadratic, and the benchmark's rows measured the fake.
  const listings = new Map<string, StoredMessage[]>();
  const newestFirst = (channelId: string): StoredMessage[] => {
    let roots = listings.get(channelId);
    if (!roots) {
      // Newest activity first, as Teams shows threads; ISO instants order as strings.
      roots = [...(threads.get(channelId) ?? [])].sort((a, b) => {
        const [x, y] = [String(a.lastModifiedDateTime), String(b.lastModifiedDateTime)];
        return x < y ? 1 : x > y ? -1 : 0;
      });
      listings.set(channelId, roots);
    }
    return roots;
  };
  const chats = new Map<string, { chat: Chat; members: string[]; messages: ChatMessage[] }>([
    [
      CHATS.grace,
      {
        chat: {
          id: CHATS.grace,
          chatType: 'oneOnOne',
          topic: null,
          webUrl: `https://teams.microsoft.com/l/chat/${CHATS.grace}`,
        },
        members: [PEOPLE.ada, PEOPLE.grace],
        messages: [
          post('5001', 3, 'Can you review my salary band proposal?'),
          post('5002', 3, 'Yes, tomorrow', 'Ada Lovelace'),
        ],
      },
    ],
    [
      CHATS.launch,
      {
        chat: {
          id: CHATS.launch,
          chatType: 'group',
          topic: 'Launch squad',
          webUrl: `https://teams.microsoft.com/l/chat/${CHATS.launch}`,
        },
        members: [PEOPLE.ada, PEOPLE.bob, PEOPLE.linus],
        messages: [post('6001', 6, 'Launch checklist v2 is up', 'Bob Builder')],
      },
    ],
  ]);

  const unauthorized = () =>
    graphError(401, 'InvalidAuthenticationToken', 'Access token has expired or is not yet valid.');
  // A member's delegated token reaches /me and what it may read; the tenant's app-only token (an org connection)
  // everything but /me, which Graph answers only for a signed-in user.
  const route = (path: string, handler: (request: FakeRequest) => FakeResponse) =>
    server.route('GET', path, (request) =>
      identity.authorized(request) || (!path.startsWith('/v1.0/me') && identity.appAuthorized(request))
        ? handler(request)
        : unauthorized(),
    );
  const appRoute = (path: string, handler: (request: FakeRequest) => FakeResponse) =>
    server.route('GET', path, (request) =>
      identity.appAuthorized(request) ? handler(request) : unauthorized(),
    );
  const users = (): User[] =>
    Object.values(PEOPLE).map((email) => ({
      id: `id-${email}`,
      displayName: email.split('@')[0],
      mail: email,
      userPrincipalName: email,
      accountEnabled: true,
    }));
  const notFound = () => graphError(404, 'NotFound', 'Resource not found.');

  /**
   * Pages of `items` by `$top` (capped at the fake's page size), continued by an opaque skip token; `shape` makes
   * the answer of a page's items only.
   */
  const paged = <T, U = T>(
    request: FakeRequest,
    items: T[],
    limit: number,
    shape?: (item: T) => U,
  ): FakeResponse => {
    const skip = Number(Buffer.from(request.query.get('$skiptoken') ?? '', 'base64url').toString() || 0);
    const size = Math.min(limit, Number(request.query.get('$top') ?? limit));
    const value = items.slice(skip, skip + size);
    const page: ODataPage<T | U> = { value: shape ? value.map(shape) : value };
    if (skip + size < items.length) {
      const next = new URL(request.path, request.origin);
      for (const [key, value] of request.query) if (key !== '$skiptoken') next.searchParams.set(key, value);
      next.searchParams.set('$skiptoken', Buffer.from(String(skip + size)).toString('base64url'));
      page['@odata.nextLink'] = next.toString();
    }
    return { json: page };
  };
  const member = (email: string): AadUserConversationMember => ({
    id: `member-${email}`,
    email,
    displayName: email.split('@')[0] ?? email,
    roles: [],
    userId: `id-${email}`,
  });
  const channelOf = (request: FakeRequest) =>
    channels.find((entry) => entry.id === request.params.channel && entry.teamId === request.params.team);

  route('/v1.0/me', () => {
    const me: User = { id: ME.id, displayName: ME.name, mail: ME.email, userPrincipalName: ME.email };
    return { json: me };
  });
  route('/v1.0/me/joinedTeams', (request) =>
    paged(
      request,
      [...teams.values()].filter((entry) => entry.members.includes(ME.email)).map((entry) => entry.team),
      10,
    ),
  );
  route('/v1.0/teams/:team/channels', (request) => {
    if (!teams.has(request.params.team ?? '')) return notFound();
    // A private or shared channel is listed only to its members, as Graph lists them to a delegated caller; an
    // app-only caller sees every channel.
    const app = identity.appAuthorized(request);
    const visible = channels
      .filter((entry) => entry.teamId === request.params.team)
      .filter((entry) => app || entry.membershipType === 'standard' || entry.members.includes(ME.email))
      .map(({ teamId: _team, members: _members, ...answer }): Channel => answer);
    return paged(request, visible, 10);
  });
  route('/v1.0/teams/:team/members', (request) => {
    const team = teams.get(request.params.team ?? '');
    return team ? paged(request, team.members.map(member), 2) : notFound();
  });
  route('/v1.0/teams/:team/channels/:channel/members', (request) => {
    const found = channelOf(request);
    if (!found) return notFound();
    const members =
      found.membershipType === 'standard' ? (teams.get(found.teamId)?.members ?? []) : found.members;
    return paged(request, members.map(member), 2);
  });
  route('/v1.0/teams/:team/channels/:channel/messages', (request) => {
    const found = channelOf(request);
    if (!found) return notFound();
    const expand = request.query.get('$expand') === 'replies';
    return paged(
      request,
      newestFirst(found.id),
      options.pageSize ?? 2,
      ({ replies, ...root }): ChatMessage => (expand ? { ...root, replies } : root),
    );
  });

  route('/v1.0/me/chats', (request) =>
    paged(
      request,
      [...chats.values()].filter((entry) => entry.members.includes(ME.email)).map((entry) => entry.chat),
      10,
    ),
  );
  appRoute('/v1.0/teams', (request) =>
    paged(
      request,
      [...teams.values()].map((entry) => entry.team),
      10,
    ),
  );
  appRoute('/v1.0/users', (request) => paged(request, users(), 2));
  appRoute('/v1.0/users/:user/chats', (request) => {
    const user = users().find((entry) => entry.id === request.params.user);
    if (!user) return notFound();
    return paged(
      request,
      [...chats.values()]
        .filter((entry) => entry.members.includes(user.mail ?? ''))
        .map((entry) => entry.chat),
      10,
    );
  });
  route('/v1.0/chats/:chat/members', (request) => {
    const found = chats.get(request.params.chat ?? '');
    return found ? paged(request, found.members.map(member), 2) : notFound();
  });
  route('/v1.0/chats/:chat/messages', (request) => {
    const found = chats.get(request.params.chat ?? '');
    if (!found) return notFound();
    // Graph takes `lastModifiedDateTime gt <instant>` with `$orderby=lastModifiedDateTime desc`.
    const after = /^lastModifiedDateTime gt (\S+)$/.exec(request.query.get('$filter') ?? '')?.[1];
    if (request.query.get('$orderby') !== 'lastModifiedDateTime desc' || after === undefined)
      return graphError(400, 'BadRequest', 'The filter or order is not supported.');
    const from = new Date(after).toISOString();
    const messages = found.messages
      .filter((message) => String(message.lastModifiedDateTime) > from)
      .sort((a, b) => String(b.lastModifiedDateTime).localeCompare(String(a.lastModifiedDateTime)));
    return paged(request, messages, options.pageSize ?? 2);
  });

  const now = () => new Date().toISOString();
  const threadsOf = (channelId: string) => {
    const list = threads.get(channelId);
    if (!list) throw new Error(`no channel ${channelId}`);
    return list;
  };
  const find = (channelId: string, messageId: string) => {
    for (const root of threadsOf(channelId)) {
      if (root.id === messageId) return { root, message: root as ChatMessage };
      const reply = root.replies.find((candidate) => candidate.id === messageId);
      if (reply) return { root, message: reply };
    }
    throw new Error(`no message ${messageId}`);
  };

  return {
    server,
    graphUrl: `${server.url}/v1.0`,
    identity,
    post(channelId, message, rootId) {
      listings.delete(channelId);
      const stamped = { ...message, createdDateTime: now(), lastModifiedDateTime: now() };
      if (rootId === undefined) threadsOf(channelId).push(thread(stamped));
      else find(channelId, rootId).root.replies.push({ ...stamped, replyToId: rootId });
    },
    edit(channelId, messageId, text) {
      listings.delete(channelId);
      const { message } = find(channelId, messageId);
      message.body = { contentType: 'html', content: `<p>${text}</p>` };
      message.lastModifiedDateTime = now();
      message.lastEditedDateTime = now();
    },
    remove(channelId, messageId) {
      listings.delete(channelId);
      const { message } = find(channelId, messageId);
      message.deletedDateTime = now();
      message.lastModifiedDateTime = now();
    },
    rename(channelId, displayName) {
      const found = channels.find((entry) => entry.id === channelId);
      if (!found) throw new Error(`no channel ${channelId}`);
      found.displayName = displayName;
    },
    setChannelMembers(channelId, emails) {
      const found = channels.find((entry) => entry.id === channelId);
      if (!found) throw new Error(`no channel ${channelId}`);
      found.members = emails;
    },
    setTeamMembers(teamId, emails) {
      const team = teams.get(teamId);
      if (!team) throw new Error(`no team ${teamId}`);
      team.members = emails;
    },
    chatPost(chatId, message) {
      const found = chats.get(chatId);
      if (!found) throw new Error(`no chat ${chatId}`);
      found.messages.push({ ...message, createdDateTime: now(), lastModifiedDateTime: now() });
    },
    setChatMembers(chatId, emails) {
      const found = chats.get(chatId);
      if (!found) throw new Error(`no chat ${chatId}`);
      found.members = emails;
    },
    close: () => server.close(),
  };
}
