import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  topicMessages,
  type PublicTopicResponse,
  type TopicByIdResponse,
  type TopicMembersResponse,
  type TopicShareCheckResponse,
  type TopicsResponse,
  type TopicSummary,
} from '../../../common/api/topics';
import { chat } from '../../../common/strings';
import {
  botAdmins,
  bots,
  messages,
  orgs,
  topicMembers,
  topics,
  uploads,
  type Org,
  type User,
} from '../../db/schema';
import { setDocumentAcl } from '../../search';
import {
  addTopicMemberRow,
  createDocument,
  createExchange,
  createMessage,
  createTopic,
  referenceTo,
} from '../../testing/chat-fixtures';
import { createOrg, createUser, loginTokensFor } from '../../testing/fixtures';
import { createTestServer, type TestServer } from '../../testing/server';
import { SHARED_TOPICS_OFF } from '../../topics/members';

let server: TestServer;
let acme: Org;
let other: Org;
let owen: User; // owns most topics
let mia: User; // member of owen's shared topics
let cora: User; // a colleague with no part in them
let olga: User; // another org
const tokens = new Map<User, string>();

beforeAll(async () => {
  server = await createTestServer();
  const { db } = server.store;
  acme = await createOrg(db, {
    domain: 'acme.test',
    flags: { publicTopics: true, multiplayerEnabled: true },
  });
  await db.update(orgs).set({ publicTopicsEnabled: true }).where(eq(orgs.id, acme.id));
  other = await createOrg(db, { domain: 'other.test', flags: { publicTopics: true } });
  await db.update(orgs).set({ publicTopicsEnabled: true }).where(eq(orgs.id, other.id));
  owen = await createUser(db, acme, { email: 'owen@acme.test', firstName: 'Owen' });
  mia = await createUser(db, acme, { email: 'mia@acme.test', firstName: 'Mia' });
  cora = await createUser(db, acme, { email: 'cora@acme.test', firstName: 'Cora' });
  olga = await createUser(db, other, { email: 'olga@other.test', firstName: 'Olga' });
  for (const user of [owen, mia, cora, olga])
    tokens.set(user, (await loginTokensFor(server.ctx, user)).id_token);
});
afterAll(() => server.close());

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const call = (user: User | null, method: Method, url: string, payload?: object) =>
  server.app.inject({
    method,
    url: `/api/v1${url}`,
    headers: user ? { authorization: `Bearer ${tokens.get(user)}` } : {},
    ...(payload ? { payload } : {}),
  });

const listOf = async (user: User, query = '') => {
  const res = await call(user, 'GET', `/topics${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TopicsResponse>().topics;
};

describe('GET /topics', () => {
  it('lists the viewer’s own topics, most recent activity first, filtered by title', async () => {
    const { db } = server.store;
    const lister = await createUser(db, acme, { email: 'lister@acme.test' });
    tokens.set(lister, (await loginTokensFor(server.ctx, lister)).id_token);
    const old = await createTopic(db, lister, {
      topicTitle: 'Budget 2023',
      createdAt: new Date('2024-01-01T00:00:00Z'),
      updatedAt: new Date('2024-01-01T00:00:00Z'),
    });
    const recent = await createTopic(db, lister, {
      topicTitle: 'Hiring plan',
      createdAt: new Date('2024-02-01T00:00:00Z'),
      updatedAt: new Date('2024-02-01T00:00:00Z'),
    });
    await createTopic(db, owen, { topicTitle: 'Not theirs' });
    expect((await listOf(lister)).map((t) => t.topicId)).toEqual([recent.id, old.id]);

    // a new message in the old topic brings it to the top
    await createMessage(db, old, { authorId: lister.id, at: new Date('2024-03-01T00:00:00Z') });
    const listed = await listOf(lister);
    expect(listed.map((t) => t.topicTitle)).toEqual(['Budget 2023', 'Hiring plan']);
    expect(listed[0]).toEqual({
      topicId: old.id,
      topicTitle: 'Budget 2023',
      createdAt: '2024-01-01T00:00:00.000Z',
      unreadCount: 0,
    });
    expect((await listOf(lister, '?query=hIrInG')).map((t) => t.topicId)).toEqual([recent.id]);
    expect(await listOf(lister, '?query=%25')).toEqual([]);
  });

  it('pages by 20', async () => {
    const { db } = server.store;
    const busy = await createUser(db, acme, { email: 'busy@acme.test' });
    tokens.set(busy, (await loginTokensFor(server.ctx, busy)).id_token);
    for (let i = 0; i < 23; i++) {
      const at = new Date(Date.UTC(2024, 0, 1, 0, i));
      await createTopic(db, busy, { topicTitle: `T${i}`, createdAt: at, updatedAt: at });
    }
    const first = await listOf(busy);
    const second = await listOf(busy, '?page=2');
    expect(first).toHaveLength(20);
    expect(first[0]?.topicTitle).toBe('T22');
    expect(second.map((t) => t.topicTitle)).toEqual(['T2', 'T1', 'T0']);
    expect((await call(busy, 'GET', '/topics?page=0')).statusCode).toBe(400);
    expect((await call(busy, 'GET', '/topics?topic_type=ALL')).statusCode).toBe(400);
  });

  it('SHARED_WITH_ME lists shared topics the viewer was added to, not their own', async () => {
    const { db } = server.store;
    const shared = await createTopic(db, owen, { topicTitle: 'Shared plan', members: [mia] });
    const notShared = await createTopic(db, owen, { topicTitle: 'Private plan' });
    // a stray member row of a topic that is not shared grants nothing
    await addTopicMemberRow(db, notShared, mia);
    const listed = await listOf(mia, '?topic_type=SHARED_WITH_ME');
    expect(listed.map((t) => t.topicId)).toContain(shared.id);
    expect(listed.map((t) => t.topicId)).not.toContain(notShared.id);
    expect((await listOf(owen, '?topic_type=SHARED_WITH_ME')).map((t) => t.topicId)).not.toContain(shared.id);
  });

  it('SHARED_WITH_ME is empty while the org has multiplayer off, and lists again once it is on', async () => {
    const { db } = server.store;
    const shared = await createTopic(db, owen, { topicTitle: 'Shared while it was on', members: [mia] });
    const flags = (await db.select({ flags: orgs.flags }).from(orgs).where(eq(orgs.id, acme.id)))[0]!.flags;
    await db
      .update(orgs)
      .set({ flags: { ...flags, multiplayerEnabled: false } })
      .where(eq(orgs.id, acme.id));
    try {
      expect(await listOf(mia, '?topic_type=SHARED_WITH_ME')).toEqual([]);
      // the topic itself is still hers to open
      expect((await call(mia, 'GET', `/topics/topicById/${shared.id}`)).statusCode).toBe(200);
    } finally {
      await db.update(orgs).set({ flags }).where(eq(orgs.id, acme.id));
    }
    expect((await listOf(mia, '?topic_type=SHARED_WITH_ME')).map((t) => t.topicId)).toContain(shared.id);
  });

  it('MANAGED_BOTS lists conversations of the managed bots the viewer administers', async () => {
    const { db } = server.store;
    const [helpdesk] = await db
      .insert(bots)
      .values({ orgId: acme.id, botName: 'Helpdesk', isManaged: true })
      .returning();
    const [unmanaged] = await db.insert(bots).values({ orgId: acme.id, botName: 'Notes' }).returning();
    if (!helpdesk || !unmanaged) throw new Error('bot insert failed');
    await db.insert(botAdmins).values([
      { orgId: acme.id, botId: helpdesk.id, email: 'cora@acme.test' },
      { orgId: acme.id, botId: unmanaged.id, email: 'cora@acme.test' },
    ]);
    const asked = await createTopic(db, owen, { topicTitle: 'Laptop broken', botId: helpdesk.id });
    await createTopic(db, owen, { topicTitle: 'My notes', botId: unmanaged.id });

    const listed = await listOf(cora, '?topic_type=MANAGED_BOTS');
    expect(listed.map((t) => t.topicTitle)).toEqual(['Laptop broken']);
    expect(await listOf(cora, `?topic_type=MANAGED_BOTS&managed_bot_id=${unmanaged.id}`)).toEqual([]);
    expect(await listOf(mia, '?topic_type=MANAGED_BOTS')).toEqual([]);

    // the bot's admins read the conversation and are listed with its members
    const res = await call(cora, 'GET', `/topics/topicById/${asked.id}`);
    expect(res.statusCode).toBe(200);
    const members = (
      await call(owen, 'GET', `/topics/topic/members/${asked.id}`)
    ).json<TopicMembersResponse>();
    expect(members.managed_bot_admins).toEqual([
      expect.objectContaining({
        bot_id: helpdesk.id,
        bot_name: 'Helpdesk',
        members: [expect.objectContaining({ email: 'cora@acme.test', role: 'EDITOR' })],
      }),
    ]);
  });
});

describe('GET /topics/topicById/{id}', () => {
  it('answers the owner the topic with its author, messages oldest first, files and rights', async () => {
    const { db } = server.store;
    const topic = await createTopic(db, owen, { topicTitle: 'Travel' });
    const { question, answer } = await createExchange(db, topic, owen, {
      at: new Date('2024-05-01T10:00:00Z'),
    });
    await db.insert(uploads).values({
      orgId: acme.id,
      creatorId: owen.id,
      fileName: 'policy.pdf',
      conversationId: topic.id,
      totalChunks: 4,
    });

    const res = await call(owen, 'GET', `/topics/topicById/${topic.id}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<TopicByIdResponse>();
    expect(body).toMatchObject({
      conversation_id: topic.id,
      topic_title: 'Travel',
      visibility: 'INVITE_ONLY',
      topicAccess: { isMultiplayer: false, isOrgWide: false, isPublic: false },
      isEditable: true,
      isDeletable: true,
      author: { email: 'owen@acme.test', display_name: 'Owen', icon: null },
      topic_files: [{ title: 'policy.pdf', total_chunks: 4 }],
    });
    expect(body.messages.map((m) => [m.message_id, m.sender])).toEqual([
      [question.id, 'USER'],
      [answer.id, 'ASSISTANT'],
    ]);
    expect(body.messages[0]).toMatchObject({
      conversation_id: topic.id,
      topic_title: 'Travel',
      tsSentAt: '2024-05-01T10:00:00.000Z',
      author: { email: 'owen@acme.test', display_name: 'Owen' },
      messageEncoding: 'PLAIN_TEXT',
      status: 'SUCCESS',
    });
    expect(body.messages[1]).toMatchObject({
      author: null,
      reply_to_id: question.id,
      messageText: 'Book economy [1].',
    });
  });

  it('answers 404, not 403, to colleagues and other orgs for a private topic, and for an unknown id', async () => {
    const topic = await createTopic(server.store.db, owen, { topicTitle: 'Secret' });
    const unknown = await call(cora, 'GET', '/topics/topicById/00000000-0000-7000-8000-000000000000');
    expect(unknown.statusCode).toBe(404);
    for (const user of [cora, mia, olga]) {
      const res = await call(user, 'GET', `/topics/topicById/${topic.id}`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(unknown.json());
    }
    expect((await call(cora, 'GET', '/topics/topicById/not-a-uuid')).statusCode).toBe(400);
    expect((await call(null, 'GET', `/topics/topicById/${topic.id}`)).statusCode).toBe(401);
  });

  it('lets members of a shared topic read and edit it, but not delete it', async () => {
    const topic = await createTopic(server.store.db, owen, { members: [mia] });
    const res = await call(mia, 'GET', `/topics/topicById/${topic.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      isEditable: true,
      isDeletable: false,
      topicAccess: { isMultiplayer: true },
    });
  });

  it('lets anyone in the org read a workspace-wide topic, read-only, and nobody outside it', async () => {
    const topic = await createTopic(server.store.db, owen, { visibility: 'ORG' });
    const res = await call(cora, 'GET', `/topics/topicById/${topic.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      isEditable: false,
      isDeletable: false,
      topicAccess: { isOrgWide: true },
    });
    expect((await call(olga, 'GET', `/topics/topicById/${topic.id}`)).statusCode).toBe(404);
  });

  it('drops references to documents the reader cannot read, now', async () => {
    const { db } = server.store;
    const owensDoc = await createDocument(db, acme, { title: 'Owen’s notes', acl: ['user:owen@acme.test'] });
    const handbook = await createDocument(db, acme, { title: 'Handbook', acl: ['org'] });
    const othersDoc = await createDocument(db, other, { title: 'Other org', acl: ['org'] });
    const topic = await createTopic(db, owen, { visibility: 'ORG' });
    const references = [
      referenceTo(owensDoc),
      referenceTo(handbook),
      referenceTo({ webUrl: 'https://example.com/' }),
      referenceTo(othersDoc),
    ];
    const { answer } = await createExchange(db, topic, owen, { references });
    await db
      .update(messages)
      .set({
        debugLogs: {
          stages: [],
          execution_time: 10,
          doc_data: [owensDoc, handbook].map((d) => ({
            id: d.id,
            title: d.title,
            source: d.source,
            score: 1,
          })),
        },
      })
      .where(eq(messages.id, answer.id));

    const seenBy = async (user: User) => {
      const body = (await call(user, 'GET', `/topics/topicById/${topic.id}`)).json<TopicByIdResponse>();
      const reply = body.messages.find((m) => m.message_id === answer.id);
      return {
        references: reply?.references.map((r) => r.title),
        retrieved: reply?.debugLogs?.doc_data.map((d) => d.title),
      };
    };
    // debug logs are for admins where the org's flag is on (server/chat/debug-logs.test.ts): members get none
    expect(await seenBy(owen)).toEqual({
      references: ['Owen’s notes', 'Handbook', 'https://example.com/'],
      retrieved: undefined,
    });
    expect(await seenBy(cora)).toEqual({
      references: ['Handbook', 'https://example.com/'],
      retrieved: undefined,
    });

    // the handbook's ACL changes in its source: the stored answer no longer shows it to Cora
    await setDocumentAcl(db, acme.id, { source: handbook.source, externalId: handbook.externalId }, [
      'group:gdrive:hr',
    ]);
    expect((await seenBy(cora)).references).toEqual(['https://example.com/']);
    expect((await seenBy(owen)).references).toEqual(['Owen’s notes', 'https://example.com/']);
  });
});

describe('GET /topics/publicTopicById/{id}', () => {
  it('answers a public topic to anyone, without emails, and only references anyone may read', async () => {
    const { db } = server.store;
    const open = await createDocument(db, acme, { title: 'Public page', acl: ['public'] });
    const internal = await createDocument(db, acme, { title: 'Internal', acl: ['org'] });
    const topic = await createTopic(db, owen, { topicTitle: 'Open question', visibility: 'PUBLIC' });
    const { answer } = await createExchange(db, topic, owen, {
      references: [referenceTo(open), referenceTo(internal)],
    });

    const res = await call(null, 'GET', `/topics/publicTopicById/${topic.id}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<PublicTopicResponse>();
    expect(body).toMatchObject({ conversation_id: topic.id, topic_title: 'Open question' });
    expect(body.messages).toHaveLength(2);
    expect(body.messages[0]?.author).toEqual({ email: null, display_name: 'Owen', icon: null });
    const reply = body.messages.find((m) => m.message_id === answer.id);
    expect(reply?.references.map((r) => r.title)).toEqual(['Public page']);
    expect(reply).toMatchObject({ topicAccess: { isPublic: true }, debugLogs: null, row_id: answer.rowId });
  });

  it('answers 404 for private, workspace-wide and unknown topics, and when the org turned public topics off', async () => {
    const { db } = server.store;
    const unknown = await call(null, 'GET', '/topics/publicTopicById/00000000-0000-7000-8000-000000000000');
    expect(unknown.statusCode).toBe(404);
    for (const visibility of ['INVITE_ONLY', 'ORG'] as const) {
      const topic = await createTopic(db, owen, { visibility });
      const res = await call(null, 'GET', `/topics/publicTopicById/${topic.id}`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(unknown.json());
      // signed in changes nothing: this call answers public topics only
      expect((await call(owen, 'GET', `/topics/publicTopicById/${topic.id}`)).statusCode).toBe(404);
    }
    const olgasTopic = await createTopic(db, olga, { visibility: 'PUBLIC' });
    expect((await call(null, 'GET', `/topics/publicTopicById/${olgasTopic.id}`)).statusCode).toBe(200);
    await db.update(orgs).set({ flags: {} }).where(eq(orgs.id, other.id));
    expect((await call(null, 'GET', `/topics/publicTopicById/${olgasTopic.id}`)).statusCode).toBe(404);
    // still readable in its org, as a workspace-wide topic
    const inOrg = await call(olga, 'GET', `/topics/topicById/${olgasTopic.id}`);
    expect(inOrg.json()).toMatchObject({ topicAccess: { isPublic: false, isOrgWide: true } });
    await db
      .update(orgs)
      .set({ flags: { publicTopics: true } })
      .where(eq(orgs.id, other.id));
  });
});

describe('topic members', () => {
  it('lists the owner as CREATOR and the members as EDITORs', async () => {
    const topic = await createTopic(server.store.db, owen, { members: [mia] });
    const res = await call(mia, 'GET', `/topics/topic/members/${topic.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json<TopicMembersResponse>()).toEqual({
      managed_bot_admins: [],
      members: [
        {
          user_id: owen.id,
          email: 'owen@acme.test',
          display_name: 'Owen',
          icon: null,
          role: 'CREATOR',
          conversation_id: topic.id,
        },
        {
          user_id: mia.id,
          email: 'mia@acme.test',
          display_name: 'Mia',
          icon: null,
          role: 'EDITOR',
          conversation_id: topic.id,
        },
      ],
    });
    expect((await call(cora, 'GET', `/topics/topic/members/${topic.id}`)).statusCode).toBe(404);
  });

  it('adds an org member by email as an editor and makes the topic shared', async () => {
    const topic = await createTopic(server.store.db, owen);
    const res = await call(owen, 'POST', '/topics/topic/member', {
      conversation_id: topic.id,
      user_email: ' Cora@Acme.test ',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<TopicMembersResponse>().members.map((m) => [m.email, m.role])).toEqual([
      ['owen@acme.test', 'CREATOR'],
      ['cora@acme.test', 'EDITOR'],
    ]);
    const [row] = await server.store.db.select().from(topics).where(eq(topics.id, topic.id));
    expect(row?.isMultiplayer).toBe(true);
    // Cora now reads and edits it, and finds it shared with her
    expect((await call(cora, 'GET', `/topics/topicById/${topic.id}`)).json()).toMatchObject({
      isEditable: true,
    });
    expect((await listOf(cora, '?topic_type=SHARED_WITH_ME')).map((t) => t.topicId)).toContain(topic.id);
    // adding again changes nothing
    const again = await call(owen, 'POST', '/topics/topic/member', {
      conversation_id: topic.id,
      user_email: 'cora@acme.test',
    });
    expect(again.json<TopicMembersResponse>().members).toHaveLength(2);
  });

  it('refuses addresses that are not active members of the org (400)', async () => {
    const { db } = server.store;
    const blocked = await createUser(db, acme, { email: 'gone@acme.test', status: 'BLOCKED' });
    expect(blocked.status).toBe('BLOCKED');
    const topic = await createTopic(db, owen);
    for (const email of ['nobody@acme.test', 'olga@other.test', 'gone@acme.test']) {
      const res = await call(owen, 'POST', '/topics/topic/member', {
        conversation_id: topic.id,
        user_email: email,
      });
      expect(res.statusCode, email).toBe(400);
      expect(res.json().message).toBe(`${email} is not a member of this workspace.`);
    }
    const rows = await db.select().from(topicMembers).where(eq(topicMembers.topicId, topic.id));
    expect(rows).toEqual([]);
  });

  it('refuses adding anyone while the org has shared topics off (403), and changes nothing', async () => {
    const { db } = server.store;
    const solo = await createOrg(db, { domain: 'solo.test', flags: { publicTopics: true } });
    const sam = await createUser(db, solo, { email: 'sam@solo.test' });
    await createUser(db, solo, { email: 'tia@solo.test' });
    tokens.set(sam, (await loginTokensFor(server.ctx, sam)).id_token);
    const topic = await createTopic(db, sam);
    const res = await call(sam, 'POST', '/topics/topic/member', {
      conversation_id: topic.id,
      user_email: 'tia@solo.test',
    });
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json()).toEqual({ code: 'FORBIDDEN', message: SHARED_TOPICS_OFF });
    expect(await db.select().from(topicMembers).where(eq(topicMembers.topicId, topic.id))).toEqual([]);
    const [row] = await db.select().from(topics).where(eq(topics.id, topic.id));
    expect(row?.isMultiplayer).toBe(false);
  });

  it('refuses adding to a topic the viewer cannot see (404) or only reads (403)', async () => {
    const { db } = server.store;
    const secret = await createTopic(db, owen);
    const orgWide = await createTopic(db, owen, { visibility: 'ORG' });
    const add = (user: User, topicId: string) =>
      call(user, 'POST', '/topics/topic/member', { conversation_id: topicId, user_email: 'mia@acme.test' });
    expect((await add(cora, secret.id)).statusCode).toBe(404);
    expect((await add(olga, secret.id)).statusCode).toBe(404);
    expect((await add(cora, orgWide.id)).statusCode).toBe(403);
  });
});

describe('PATCH /topics/topic/{id}', () => {
  const patch = (user: User, id: string, body: object) => call(user, 'PATCH', `/topics/topic/${id}`, body);

  it('renames, and a blank title keeps (and answers) the previous one', async () => {
    const topic = await createTopic(server.store.db, owen, { topicTitle: 'Old name' });
    const renamed = await patch(owen, topic.id, { topic_title: '  New name ' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json<TopicSummary>()).toMatchObject({
      conversation_id: topic.id,
      topic_title: 'New name',
    });
    const blank = await patch(owen, topic.id, { topic_title: '   ' });
    expect(blank.statusCode).toBe(200);
    expect(blank.json<TopicSummary>().topic_title).toBe('New name');
    const [row] = await server.store.db.select().from(topics).where(eq(topics.id, topic.id));
    expect(row?.topicTitle).toBe('New name');
  });

  it('lets members of a shared topic rename it; refuses readers (403) and strangers (404)', async () => {
    const { db } = server.store;
    const shared = await createTopic(db, owen, { members: [mia], visibility: 'ORG' });
    expect((await patch(mia, shared.id, { topic_title: 'By Mia' })).statusCode).toBe(200);
    expect((await patch(cora, shared.id, { topic_title: 'By Cora' })).statusCode).toBe(403);
    expect((await patch(olga, shared.id, { topic_title: 'By Olga' })).statusCode).toBe(404);
    const [row] = await db.select().from(topics).where(eq(topics.id, shared.id));
    expect(row?.topicTitle).toBe('By Mia');
  });

  it('refuses malformed changes', async () => {
    const topic = await createTopic(server.store.db, owen);
    for (const body of [
      {},
      { topic_title: 'x'.repeat(257) },
      { is_public: false },
      { visibility: 'PUBLIC' },
      { topic_title: 'A', visibility: 'ORG' },
    ]) {
      expect((await patch(owen, topic.id, body)).statusCode, JSON.stringify(body)).toBe(400);
    }
  });

  it('sets the access level: workspace, public (when the org allows it) and back to invite-only', async () => {
    const { db } = server.store;
    const topic = await createTopic(db, owen);
    const orgWide = await patch(owen, topic.id, { visibility: 'ORG' });
    expect(orgWide.json<TopicSummary>()).toMatchObject({
      visibility: 'ORG',
      topicAccess: { isOrgWide: true },
    });
    const open = await patch(owen, topic.id, { is_public: true });
    expect(open.json<TopicSummary>()).toMatchObject({
      visibility: 'PUBLIC',
      topicAccess: { isPublic: true },
    });
    expect((await call(null, 'GET', `/topics/publicTopicById/${topic.id}`)).statusCode).toBe(200);
    const closed = await patch(owen, topic.id, { visibility: 'PRIVATE' });
    expect(closed.json<TopicSummary>()).toMatchObject({
      visibility: 'INVITE_ONLY',
      topicAccess: { isPublic: false, isOrgWide: false },
    });
    expect((await call(null, 'GET', `/topics/publicTopicById/${topic.id}`)).statusCode).toBe(404);
  });

  it('refuses public topics (403) unless the org’s setting and the publicTopics flag are both on', async () => {
    const { db } = server.store;
    const quiet = await createOrg(db, { domain: 'quiet.test', flags: { publicTopics: true } });
    const quinn = await createUser(db, quiet, { email: 'quinn@quiet.test' });
    tokens.set(quinn, (await loginTokensFor(server.ctx, quinn)).id_token);
    const topic = await createTopic(db, quinn);
    const res = await patch(quinn, topic.id, { is_public: true });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Public topics are not enabled for this workspace.');
    await db.update(orgs).set({ publicTopicsEnabled: true, flags: {} }).where(eq(orgs.id, quiet.id));
    expect((await patch(quinn, topic.id, { is_public: true })).statusCode).toBe(403);
    await db
      .update(orgs)
      .set({ flags: { publicTopics: true } })
      .where(eq(orgs.id, quiet.id));
    expect((await patch(quinn, topic.id, { is_public: true })).statusCode).toBe(200);
  });
});

describe('DELETE /topics/topic/{id}', () => {
  it('lets only the owner delete, with its messages', async () => {
    const { db } = server.store;
    const topic = await createTopic(db, owen, { members: [mia], visibility: 'ORG' });
    await createExchange(db, topic, owen);
    expect((await call(mia, 'DELETE', `/topics/topic/${topic.id}`)).statusCode).toBe(403);
    expect((await call(cora, 'DELETE', `/topics/topic/${topic.id}`)).statusCode).toBe(403);
    expect((await call(olga, 'DELETE', `/topics/topic/${topic.id}`)).statusCode).toBe(404);
    const res = await call(owen, 'DELETE', `/topics/topic/${topic.id}`);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(await db.select().from(messages).where(eq(messages.topicId, topic.id))).toEqual([]);
    expect((await call(owen, 'GET', `/topics/topicById/${topic.id}`)).statusCode).toBe(404);
    expect((await call(owen, 'DELETE', `/topics/topic/${topic.id}`)).statusCode).toBe(404);
  });

  it('answers 404 to a colleague for a private topic, which stays', async () => {
    const topic = await createTopic(server.store.db, owen);
    expect((await call(cora, 'DELETE', `/topics/topic/${topic.id}`)).statusCode).toBe(404);
    expect(await server.store.db.select().from(topics).where(eq(topics.id, topic.id))).toHaveLength(1);
  });
});

describe('unread counts', () => {
  it('counts messages by others since the member last read the topic', async () => {
    const { db } = server.store;
    const topic = await createTopic(db, owen, { topicTitle: 'Unread test', members: [mia] });
    const unreadOf = async (user: User, type = 'MY_TOPICS') =>
      (await listOf(user, `?topic_type=${type}&query=Unread%20test`)).find((t) => t.topicId === topic.id)
        ?.unreadCount;

    // Owen's own question and its answer are not unread for him; Mia has read nothing yet
    await createExchange(db, topic, owen, { at: new Date(Date.now() - 60_000) });
    expect(await unreadOf(owen)).toBe(0);
    expect(await unreadOf(mia, 'SHARED_WITH_ME')).toBe(2);

    await createExchange(db, topic, mia, { at: new Date(Date.now() - 30_000) });
    expect(await unreadOf(owen)).toBe(2);
    expect(await unreadOf(mia, 'SHARED_WITH_ME')).toBe(2);

    expect((await call(owen, 'PATCH', `/topics/topic/${topic.id}/mark_as_read`)).statusCode).toBe(204);
    expect(await unreadOf(owen)).toBe(0);
    expect(await unreadOf(mia, 'SHARED_WITH_ME')).toBe(2);
    const [marker] = await db
      .select()
      .from(topicMembers)
      .where(and(eq(topicMembers.topicId, topic.id), eq(topicMembers.userId, owen.id)));
    expect(marker?.role).toBe('CREATOR');

    await createMessage(db, topic, {
      authorId: mia.id,
      messageText: 'Any news?',
      at: new Date(Date.now() + 1000),
    });
    expect(await unreadOf(owen)).toBe(1);

    expect((await call(mia, 'PATCH', `/topics/topic/${topic.id}/mark_as_read`)).statusCode).toBe(204);
    expect(await unreadOf(mia, 'SHARED_WITH_ME')).toBe(0);
  });

  it('gives a workspace reader no read marker (it would make them a member), and refuses strangers', async () => {
    const { db } = server.store;
    const topic = await createTopic(db, owen, { visibility: 'ORG', members: [mia] });
    expect((await call(cora, 'PATCH', `/topics/topic/${topic.id}/mark_as_read`)).statusCode).toBe(204);
    const rows = await db
      .select()
      .from(topicMembers)
      .where(and(eq(topicMembers.topicId, topic.id), eq(topicMembers.userId, cora.id)));
    expect(rows).toEqual([]);
    expect((await call(olga, 'PATCH', `/topics/topic/${topic.id}/mark_as_read`)).statusCode).toBe(404);
  });
});

describe('what a reader sees of a stored answer', () => {
  /**
   * An answer Owen got from his private memo and the org's handbook, stored as the pipeline leaves it: the text
   * quotes the memo, the related searches and counts come from both, and the memo is among its sources. Returns
   * everything any endpoint could leak of the memo.
   */
  async function answerFromPrivateMemo(visibility: 'ORG' | 'PUBLIC', members: User[] = []) {
    const { db } = server.store;
    const memo = await createDocument(db, acme, {
      title: 'Quokka merger memo',
      acl: ['user:owen@acme.test'],
    });
    const handbook = await createDocument(db, acme, { title: 'Handbook', acl: ['org', 'public'] });
    const topic = await createTopic(db, owen, { topicTitle: 'Plans', visibility, members });
    const attachment = await createDocument(db, acme, {
      title: 'quokka-terms.pdf',
      acl: ['user:owen@acme.test'],
      source: 'files',
    });
    const { question, answer } = await createExchange(db, topic, owen, {
      question: 'What are we buying?',
      answer: 'We are buying Quokka Ltd for 40M [1], as the handbook allows [2].',
      references: [referenceTo(memo), referenceTo(handbook)],
    });
    await db.insert(uploads).values({
      orgId: acme.id,
      creatorId: owen.id,
      fileName: 'quokka-terms.pdf',
      conversationId: topic.id,
      documentId: attachment.id,
      totalChunks: 1,
    });
    await db
      .update(messages)
      .set({
        relatedSearches: ['Quokka merger memo', 'Handbook'],
        allReferencesSummary: {
          app_references_count: [{ appName: 'gdrive', numDocs: 2 }],
          app_names: ['gdrive'],
        },
        skillRetrieved: [{ appName: 'gdrive', numDocs: 2 }],
        extraData: {
          llm: 'extractive',
          builtFrom: [memo, handbook].map((doc) => ({ id: doc.id, source: doc.source })),
        },
      })
      .where(eq(messages.id, answer.id));
    return { memo, handbook, topic, question, answer, secrets: ['quokka', memo.id, attachment.id] };
  }

  const leaks = (body: string, secrets: string[]) =>
    secrets.filter((secret) => body.toLowerCase().includes(secret.toLowerCase()));

  it('withholds the text, related searches and counts from a member who may not read a source', async () => {
    const { db } = server.store;
    const { topic, question, answer, secrets } = await answerFromPrivateMemo('ORG', [mia]);

    for (const reader of [mia, cora]) {
      const page = await call(reader, 'GET', `/topics/topicById/${topic.id}`);
      expect(page.statusCode, page.body).toBe(200);
      expect(leaks(page.body, secrets)).toEqual([]);
      const shown = page.json<TopicByIdResponse>().messages;
      expect(shown.find((m) => m.message_id === question.id)?.messageText).toBe('What are we buying?');
      expect(shown.find((m) => m.message_id === answer.id)).toMatchObject({
        messageText: chat.ANSWER_WITHHELD,
        references: [{ title: 'Handbook' }],
        relatedSearches: [],
        allReferencesSummary: null,
        skillRetrieved: null,
      });
      const one = await call(reader, 'GET', `/messages/message/${answer.id}`);
      expect(one.statusCode, one.body).toBe(200);
      expect(leaks(one.body, secrets)).toEqual([]);
      expect(one.json()).toMatchObject({ data: { message_data: { message_text: chat.ANSWER_WITHHELD } } });
    }
    const history = await call(mia, 'GET', '/_chatHistory');
    expect(history.statusCode, history.body).toBe(200);
    expect(history.body).toContain(answer.id);
    expect(leaks(history.body, secrets)).toEqual([]);

    // the owner reads every source: he sees it all
    const own = await call(owen, 'GET', `/topics/topicById/${topic.id}`);
    expect(own.json<TopicByIdResponse>().messages.find((m) => m.message_id === answer.id)).toMatchObject({
      messageText: 'We are buying Quokka Ltd for 40M [1], as the handbook allows [2].',
      relatedSearches: ['Quokka merger memo', 'Handbook'],
      skillRetrieved: [{ appName: 'gdrive', numDocs: 2 }],
    });
    expect(own.json<TopicByIdResponse>().topic_files.map((f) => f.title)).toEqual(['quokka-terms.pdf']);

    // a source the answer was built from but does not cite counts as much as a cited one
    const uncited = await createDocument(db, acme, { title: 'Board notes', acl: ['user:owen@acme.test'] });
    const { answer: second } = await createExchange(db, topic, owen, {
      answer: 'The board agreed.',
      references: [],
    });
    await db
      .update(messages)
      .set({ extraData: { builtFrom: [{ id: uncited.id, source: uncited.source }] } })
      .where(eq(messages.id, second.id));
    const page = (await call(mia, 'GET', `/topics/topicById/${topic.id}`)).json<TopicByIdResponse>();
    expect(page.messages.find((m) => m.message_id === second.id)?.messageText).toBe(chat.ANSWER_WITHHELD);
  });

  it('withholds the same from the asker once a source is revoked', async () => {
    const { db } = server.store;
    const { memo, topic, answer, secrets } = await answerFromPrivateMemo('ORG');
    await setDocumentAcl(db, acme.id, { source: memo.source, externalId: memo.externalId }, [
      'user:someone@acme.test',
    ]);
    const page = await call(owen, 'GET', `/topics/topicById/${topic.id}`);
    expect(leaks(page.body, secrets.slice(1, 2))).toEqual([]);
    expect(page.json<TopicByIdResponse>().messages.find((m) => m.message_id === answer.id)?.messageText).toBe(
      chat.ANSWER_WITHHELD,
    );
  });

  it('shows an anonymous reader of a public topic nothing of a source they may not read', async () => {
    const { topic, answer, secrets } = await answerFromPrivateMemo('PUBLIC');
    const res = await call(null, 'GET', `/topics/publicTopicById/${topic.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(leaks(res.body, secrets)).toEqual([]);
    expect(res.json<PublicTopicResponse>().messages.find((m) => m.message_id === answer.id)).toMatchObject({
      messageText: chat.ANSWER_WITHHELD,
      references: [{ title: 'Handbook' }],
      relatedSearches: [],
      files: [],
    });
  });

  it('shows everyone the whole answer when they may read every source', async () => {
    const { db } = server.store;
    const open = await createDocument(db, acme, { title: 'Open page', acl: ['public'] });
    const topic = await createTopic(db, owen, { visibility: 'PUBLIC' });
    const { answer } = await createExchange(db, topic, owen, {
      answer: 'See the open page [1].',
      references: [referenceTo(open)],
    });
    await db
      .update(messages)
      .set({
        relatedSearches: ['Open page'],
        extraData: { builtFrom: [{ id: open.id, source: open.source }] },
      })
      .where(eq(messages.id, answer.id));
    const body = (await call(null, 'GET', `/topics/publicTopicById/${topic.id}`)).json<PublicTopicResponse>();
    const shown = body.messages.find((m) => m.message_id === answer.id);
    expect(shown).toMatchObject({ messageText: 'See the open page [1].', relatedSearches: ['Open page'] });
    // what the answer was built from is never shown
    expect(shown?.extraData).not.toHaveProperty('builtFrom');
  });
});

describe('who may change who can open a topic', () => {
  const patch = (user: User, id: string, body: object) => call(user, 'PATCH', `/topics/topic/${id}`, body);

  it('refuses a tagged editor (403) and changes nothing; the owner and an admin may', async () => {
    const { db } = server.store;
    const topic = await createTopic(db, owen, { topicTitle: 'Owen’s plans', members: [mia] });
    for (const body of [{ is_public: true }, { visibility: 'ORG' }, { visibility: 'PRIVATE' }]) {
      const res = await patch(mia, topic.id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(403);
      expect(res.json()).toEqual({ code: 'FORBIDDEN', message: topicMessages.ONLY_OWNER_CAN_SHARE });
    }
    const [unchanged] = await db.select().from(topics).where(eq(topics.id, topic.id));
    expect(unchanged?.visibility).toBe('INVITE_ONLY');
    // editors keep renaming
    expect((await patch(mia, topic.id, { topic_title: 'Renamed by Mia' })).statusCode).toBe(200);

    expect((await patch(owen, topic.id, { visibility: 'ORG' })).statusCode).toBe(200);
    await db.update(topics).set({ visibility: 'ORG' }).where(eq(topics.id, topic.id));
    expect((await patch(mia, topic.id, { visibility: 'PRIVATE' })).statusCode).toBe(403);
    const admin = await createUser(db, acme, { email: 'ada@acme.test', admin: true });
    tokens.set(admin, (await loginTokensFor(server.ctx, admin)).id_token);
    expect((await patch(admin, topic.id, { visibility: 'PRIVATE' })).statusCode).toBe(200);
    const [closed] = await db.select().from(topics).where(eq(topics.id, topic.id));
    expect(closed?.visibility).toBe('INVITE_ONLY');
    // the admin can no longer see it, so cannot open it again either
    expect((await patch(admin, topic.id, { visibility: 'ORG' })).statusCode).toBe(404);
  });

  it('tells the owner whether the answers cite sources narrower than each audience', async () => {
    const { db } = server.store;
    const check = async (user: User, id: string) => {
      const res = await call(user, 'GET', `/topics/topic/${id}/share_check`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<TopicShareCheckResponse>();
    };
    const { topic } = await answerFromPrivateMemoFor(db);
    expect(await check(owen, topic.id)).toEqual({
      may_share: true,
      narrower_sources: { ORG: true, PUBLIC: true },
    });
    expect(await check(mia, topic.id)).toEqual({
      may_share: false,
      narrower_sources: { ORG: false, PUBLIC: false },
    });
    expect((await call(cora, 'GET', `/topics/topic/${topic.id}/share_check`)).statusCode).toBe(404);

    const orgOnly = await createDocument(db, acme, { title: 'Org page', acl: ['org'] });
    const plain = await createTopic(db, owen);
    await createExchange(db, plain, owen, { references: [referenceTo(orgOnly)] });
    expect(await check(owen, plain.id)).toEqual({
      may_share: true,
      narrower_sources: { ORG: false, PUBLIC: true },
    });
  });

  async function answerFromPrivateMemoFor(db: typeof server.store.db) {
    const memo = await createDocument(db, acme, { title: 'Memo', acl: ['user:owen@acme.test'] });
    const topic = await createTopic(db, owen, { members: [mia] });
    await createExchange(db, topic, owen, { references: [referenceTo(memo)] });
    return { topic };
  }
});
