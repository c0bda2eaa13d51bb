import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  ChatHistoryResponse,
  CreateMessageResponse,
  MessageByIdResponse,
  TopicsResponse,
} from '../../../common/api/topics';
import { newId } from '../../db/ids';
import { messages, topicMembers, topics, uploads, type Org, type User } from '../../db/schema';
import { createExchange, createMessage, createTopic } from '../../testing/chat-fixtures';
import { createOrg, createUser, loginTokensFor } from '../../testing/fixtures';
import { createTestServer, type TestServer } from '../../testing/server';
import { SHARED_TOPICS_OFF } from '../../topics/members';

let server: TestServer;
let acme: Org;
let owen: User;
let mia: User;
let cora: User;
let olga: User;
const tokens = new Map<User, string>();

beforeAll(async () => {
  server = await createTestServer();
  const { db } = server.store;
  acme = await createOrg(db, { domain: 'acme.test', flags: { multiplayerEnabled: true } });
  const other = await createOrg(db, { domain: 'other.test' });
  owen = await createUser(db, acme, { email: 'owen@acme.test', firstName: 'Owen' });
  mia = await createUser(db, acme, { email: 'mia@acme.test', firstName: 'Mia' });
  cora = await createUser(db, acme, { email: 'cora@acme.test', firstName: 'Cora' });
  olga = await createUser(db, other, { email: 'olga@other.test' });
  for (const user of [owen, mia, cora, olga])
    tokens.set(user, (await loginTokensFor(server.ctx, user)).id_token);
});
afterAll(() => server.close());

type Method = 'GET' | 'POST' | 'PATCH';
const call = (user: User | null, method: Method, url: string, payload?: object) =>
  server.app.inject({
    method,
    url: `/api/v1${url}`,
    headers: user ? { authorization: `Bearer ${tokens.get(user)}` } : {},
    ...(payload ? { payload } : {}),
  });

describe('GET /_chatHistory', () => {
  it('pages the viewer’s messages newest first by scroll_timestamp, with each topic’s files', async () => {
    const { db } = server.store;
    const historian = await createUser(db, acme, { email: 'historian@acme.test' });
    tokens.set(historian, (await loginTokensFor(server.ctx, historian)).id_token);
    const first = await createTopic(db, historian, { topicTitle: 'First' });
    const second = await createTopic(db, historian, { topicTitle: 'Second' });
    const sharedWithThem = await createTopic(db, owen, { topicTitle: 'Shared', members: [historian] });
    const notTheirs = await createTopic(db, owen, { topicTitle: 'Owen only', visibility: 'ORG' });
    await db
      .insert(uploads)
      .values({ orgId: acme.id, creatorId: historian.id, fileName: 'notes.txt', conversationId: second.id });

    const base = Date.UTC(2024, 5, 1);
    // 24 messages a second apart, alternating topics; three more share one millisecond at the page boundary
    for (let i = 0; i < 24; i++) {
      const topic = [first, second, sharedWithThem][i % 3]!;
      await createMessage(db, topic, {
        authorId: historian.id,
        messageText: `m${i}`,
        at: new Date(base + i * 1000),
      });
    }
    await createMessage(db, notTheirs, {
      authorId: owen.id,
      messageText: 'hidden',
      at: new Date(base + 5500),
    });
    const tie = new Date(base + 4000);
    for (const text of ['tie-a', 'tie-b']) {
      await createMessage(db, first, { authorId: historian.id, messageText: text, at: tie });
    }

    const page1 = await call(historian, 'GET', '/_chatHistory?api_version=2');
    expect(page1.statusCode, page1.body).toBe(200);
    const body1 = page1.json<ChatHistoryResponse>();
    // the 20th newest is tie-b at base+4s; the page takes everything of that millisecond (tie-a and m4 too)
    expect(body1.history.map((m) => m.messageText)).toEqual([
      ...Array.from({ length: 19 }, (_, k) => `m${23 - k}`),
      'tie-b',
      'tie-a',
      'm4',
    ]);
    expect(body1.has_more).toBe(true);
    expect(Object.keys(body1.conversation_files_map).sort()).toEqual(
      [first.id, second.id, sharedWithThem.id].sort(),
    );
    expect(body1.conversation_files_map[second.id]).toEqual([
      expect.objectContaining({ title: 'notes.txt', total_chunks: -1 }),
    ]);
    expect(body1.conversation_files_map[first.id]).toEqual([]);

    const oldest = body1.history.at(-1)!.tsSentAt;
    const page2 = await call(
      historian,
      'GET',
      `/_chatHistory?scroll_timestamp=${encodeURIComponent(oldest)}&api_version=2`,
    );
    expect(page2.statusCode, page2.body).toBe(200);
    const body2 = page2.json<ChatHistoryResponse>();
    expect(body2.history.map((m) => m.messageText)).toEqual(['m3', 'm2', 'm1', 'm0']);
    expect(body2.has_more).toBe(false);

    // the same point in time as milliseconds since the epoch
    const byMs = await call(historian, 'GET', `/_chatHistory?scroll_timestamp=${Date.parse(oldest)}`);
    expect(byMs.json<ChatHistoryResponse>().history.map((m) => m.messageText)).toEqual([
      'm3',
      'm2',
      'm1',
      'm0',
    ]);

    const none = await call(historian, 'GET', `/_chatHistory?scroll_timestamp=${base}`);
    expect(none.json()).toEqual({ history: [], conversation_files_map: {}, has_more: false });
  });

  it('refuses other API versions and malformed timestamps', async () => {
    expect((await call(owen, 'GET', '/_chatHistory?api_version=1')).statusCode).toBe(400);
    expect((await call(owen, 'GET', '/_chatHistory?scroll_timestamp=yesterday')).statusCode).toBe(400);
    expect((await call(null, 'GET', '/_chatHistory')).statusCode).toBe(401);
  });

  it('never shows another org’s messages', async () => {
    const topic = await createTopic(server.store.db, olga, { visibility: 'ORG' });
    await createMessage(server.store.db, topic, { authorId: olga.id, messageText: 'olga’s' });
    const texts = (await call(owen, 'GET', '/_chatHistory'))
      .json<ChatHistoryResponse>()
      .history.map((m) => m.messageText);
    expect(texts).not.toContain('olga’s');
  });
});

describe('GET /messages/message/{id}', () => {
  it('answers a message of a topic the viewer sees, with its text and status', async () => {
    const { db } = server.store;
    const topic = await createTopic(db, owen);
    const { answer } = await createExchange(db, topic, owen, { answer: 'Saved answer' });
    const res = await call(owen, 'GET', `/messages/message/${answer.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<MessageByIdResponse>()).toMatchObject({
      data: {
        status: 'SUCCESS',
        message_data: { message_text: 'Saved answer' },
        message: { message_id: answer.id },
      },
    });
    const pending = await createMessage(db, topic, {
      sender: 'ASSISTANT',
      status: 'PENDING',
      messageText: 'Half',
    });
    expect((await call(owen, 'GET', `/messages/message/${pending.id}`)).json()).toMatchObject({
      data: { status: 'PENDING', message: { isPreFinalGeneration: true } },
    });
  });

  it('answers 404 for a message of a topic the viewer cannot see', async () => {
    const { answer } = await createExchange(server.store.db, await createTopic(server.store.db, owen), owen);
    expect((await call(cora, 'GET', `/messages/message/${answer.id}`)).statusCode).toBe(404);
    expect((await call(olga, 'GET', `/messages/message/${answer.id}`)).statusCode).toBe(404);
    expect((await call(owen, 'GET', `/messages/message/${newId()}`)).statusCode).toBe(404);
  });
});

describe('POST /messages/create', () => {
  const create = (user: User, body: object) => call(user, 'POST', '/messages/create', body);

  it('starts a shared topic by tagging colleagues, who become editors', async () => {
    const { db } = server.store;
    const conversationId = newId();
    const res = await create(owen, {
      message: '@Mia @Cora can you check the Q3 numbers?\nThanks',
      conversation_id: conversationId,
      sender: { id: owen.id, email: owen.email, name: 'Owen', avatar: null },
      tagged_users: [{ id: mia.id, name: 'Mia', email: 'mia@acme.test', avatar: null }],
      tagged_emails: ['cora@acme.test'],
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<CreateMessageResponse>();
    expect(body.topic_title).toBe('@Mia @Cora can you check the Q3 numbers?');
    expect(body.message).toMatchObject({
      conversation_id: conversationId,
      sender: 'USER',
      status: 'SUCCESS',
      author: { email: 'owen@acme.test' },
      topicAccess: { isMultiplayer: true },
    });
    const [topic] = await db.select().from(topics).where(eq(topics.id, conversationId));
    expect(topic).toMatchObject({ authorId: owen.id, isMultiplayer: true, orgId: acme.id });
    const members = await db.select().from(topicMembers).where(eq(topicMembers.topicId, conversationId));
    expect(members.map((m) => [m.userId, m.role]).sort()).toEqual(
      [
        [mia.id, 'EDITOR'],
        [cora.id, 'EDITOR'],
      ].sort(),
    );
    const shared = (await call(mia, 'GET', '/topics?topic_type=SHARED_WITH_ME')).json<TopicsResponse>();
    expect(shared.topics.map((t) => t.topicId)).toContain(conversationId);

    // Mia answers in the shared topic without tagging anyone
    const reply = await create(mia, { message: 'Looking now', conversation_id: conversationId });
    expect(reply.statusCode, reply.body).toBe(200);
    expect(reply.json<CreateMessageResponse>().topic_title).toBe('@Mia @Cora can you check the Q3 numbers?');
  });

  it('tags into an existing topic of the viewer and makes it shared', async () => {
    const { db } = server.store;
    const topic = await createTopic(db, owen, { topicTitle: 'Budget' });
    const res = await create(owen, {
      message: 'thoughts?',
      conversation_id: topic.id,
      tagged_emails: ['Mia@acme.test'],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<CreateMessageResponse>().topic_title).toBe('Budget');
    const [row] = await db.select().from(topics).where(eq(topics.id, topic.id));
    expect(row?.isMultiplayer).toBe(true);
  });

  it('refuses a message nobody is tagged in outside a shared topic, and unknown people (400)', async () => {
    const { db } = server.store;
    const topic = await createTopic(db, owen);
    const cases = [
      { message: 'hello?', conversation_id: topic.id },
      { message: 'hello?', conversation_id: newId() },
      { message: 'me', conversation_id: topic.id, tagged_emails: ['owen@acme.test'] },
      { message: 'hi', conversation_id: topic.id, tagged_emails: ['stranger@acme.test'] },
      { message: 'hi', conversation_id: topic.id, tagged_users: [{ id: olga.id, email: 'olga@other.test' }] },
      { message: '   ', conversation_id: topic.id, tagged_emails: ['mia@acme.test'] },
      { message: 'hi', tagged_emails: ['mia@acme.test'] },
    ];
    for (const body of cases) {
      expect((await create(owen, body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    expect(await db.select().from(messages).where(eq(messages.topicId, topic.id))).toEqual([]);
    const [row] = await db.select().from(topics).where(eq(topics.id, topic.id));
    expect(row?.isMultiplayer).toBe(false);
  });

  it('refuses tagging while the org has shared topics off (403), and writes nothing', async () => {
    const { db } = server.store;
    const solo = await createOrg(db, { domain: 'solo.test' });
    const sam = await createUser(db, solo, { email: 'sam@solo.test' });
    await createUser(db, solo, { email: 'tia@solo.test' });
    tokens.set(sam, (await loginTokensFor(server.ctx, sam)).id_token);
    const conversationId = newId();
    const res = await create(sam, {
      message: '@Tia have a look',
      conversation_id: conversationId,
      tagged_emails: ['tia@solo.test'],
    });
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json()).toEqual({ code: 'FORBIDDEN', message: SHARED_TOPICS_OFF });
    expect(await db.select().from(topics).where(eq(topics.id, conversationId))).toEqual([]);
    expect(await db.select().from(messages).where(eq(messages.orgId, solo.id))).toEqual([]);
  });

  it('refuses writing in a topic the viewer cannot see (404) or only reads (403)', async () => {
    const { db } = server.store;
    const secret = await createTopic(db, owen);
    const orgWide = await createTopic(db, owen, { visibility: 'ORG', members: [mia] });
    const olgas = await createTopic(db, olga);
    const body = (id: string) => ({ message: 'hi', conversation_id: id, tagged_emails: ['mia@acme.test'] });
    expect((await create(cora, body(secret.id))).statusCode).toBe(404);
    expect((await create(cora, body(orgWide.id))).statusCode).toBe(403);
    // another org's topic id stays unknown, and is not taken over
    expect((await create(owen, body(olgas.id))).statusCode).toBe(404);
    const [row] = await db.select().from(topics).where(eq(topics.id, olgas.id));
    expect(row?.orgId).toBe(olga.orgId);
  });
});

describe('PATCH /messages/mark_all_as_read', () => {
  it('marks every topic the viewer owns or is a member of as read', async () => {
    const { db } = server.store;
    const reader = await createUser(db, acme, { email: 'reader@acme.test' });
    tokens.set(reader, (await loginTokensFor(server.ctx, reader)).id_token);
    const own = await createTopic(db, reader, { topicTitle: 'Own', members: [mia] });
    const joined = await createTopic(db, mia, { topicTitle: 'Joined', members: [reader] });
    const earlier = new Date(Date.now() - 60_000);
    await createMessage(db, own, { authorId: mia.id, at: earlier });
    await createMessage(db, joined, { authorId: mia.id, at: earlier });
    const unread = async (type: string) =>
      (await call(reader, 'GET', `/topics?topic_type=${type}`))
        .json<TopicsResponse>()
        .topics.map((t) => t.unreadCount);
    expect(await unread('MY_TOPICS')).toEqual([1]);
    expect(await unread('SHARED_WITH_ME')).toEqual([1]);

    expect((await call(reader, 'PATCH', '/messages/mark_all_as_read')).statusCode).toBe(204);
    expect(await unread('MY_TOPICS')).toEqual([0]);
    expect(await unread('SHARED_WITH_ME')).toEqual([0]);
    const markers = await db
      .select()
      .from(topicMembers)
      .where(and(eq(topicMembers.userId, reader.id)));
    expect(markers.map((m) => m.role).sort()).toEqual(['CREATOR', 'EDITOR']);
    // Mia's own markers are untouched
    const [miaMarker] = await db
      .select()
      .from(topicMembers)
      .where(and(eq(topicMembers.userId, mia.id), eq(topicMembers.topicId, own.id)));
    expect(miaMarker?.lastReadAt).toBeNull();
  });
});
