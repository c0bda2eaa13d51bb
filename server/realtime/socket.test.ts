// The realtime socket on the real server and store, with the chat socket and an OpenAI-compatible test model: who
// may hold which channel, what a shared topic's readers see while another member asks, and the 50 KB framing.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REALTIME_CHUNK_BYTES } from '../../common/limits';
import { RealtimeCloseCode, topicChannel, type TopicEvent } from '../../common/api/realtime';
import { orgs, users, type User } from '../db/schema';
import type { RecordedRequest, ScriptedReply } from '../llm/testing/openai-server';
import { ID_TOKEN_TTL_SECONDS, signIdToken } from '../auth/tokens';
import { createUser, loginTokensFor } from '../testing/fixtures';
import { SUGGESTIONS_SYSTEM_PROMPT } from '../chat/related';
import { LEAVE_POLICY, startChatHarness, type ChatHarness } from '../chat/testing/harness';
import { RealtimeTestClient } from './testing/realtime-client';

const DOMAIN = 'realtime.test';
const ANSWER_WORDS = Array.from({ length: 12 }, (_, i) => `part${i} `);

function respond(request: RecordedRequest): ScriptedReply {
  if (request.messages[0]?.content === SUGGESTIONS_SYSTEM_PROMPT) return { text: 'TITLE: Leave' };
  return { chunks: [...ANSWER_WORDS, 'done.'], delayMs: 40 };
}

let h: ChatHarness;
let carol: User;
let carolToken: string;
/** Alice's topic, shared with Bob. */
let topicId: string;

async function call(method: 'POST' | 'PATCH', url: string, token: string, payload: unknown) {
  const response = await h.server.app.inject({
    method,
    url: `/api/v1${url}`,
    headers: { authorization: `Bearer ${token}` },
    payload: payload as Record<string, unknown>,
  });
  expect(response.statusCode).toBe(200);
  return response.json() as Record<string, unknown>;
}

/** Alice asks through the chat socket; answers the topic and the answer's message id once it is saved. */
async function aliceAsks(query: string, conversationId?: string) {
  const chat = await h.connect(h.aliceToken);
  chat.send({ type: 'QUERY', query, ...(conversationId ? { conversation_id: conversationId } : {}) });
  const accepted = await chat.next('QUERY_ACCEPTED');
  const rowId = await chat.next('ROW_ID');
  const saved = await chat.next('ANSWER_SAVED', () => true, 20_000);
  await chat.close();
  return { accepted, answerId: rowId.message_id, saved, text: chat.text() };
}

/** The answer's text as the chunk events spell it, checking each continues exactly where the last one ended. */
function joinedText(events: TopicEvent[], answerId: string): string {
  let text = '';
  for (const event of events) {
    if (event.type !== 'answer.chunk' || event.answerId !== answerId) continue;
    expect(event.offset).toBe(text.length);
    text += event.text;
  }
  return text;
}

beforeAll(async () => {
  h = await startChatHarness({
    respond,
    domain: DOMAIN,
    flags: { multiplayerEnabled: true, realtimeMultiplayer: true },
  });
  await h.index([
    LEAVE_POLICY,
    {
      source: 'gdrive',
      externalId: 'bonus',
      title: 'Quarterly bonus pool',
      body: 'The quarterly bonus pool is two percent of revenue.',
      acl: [`user:alice@${DOMAIN}`],
    },
  ]);
  carol = await createUser(h.server.store.db, h.org, { email: `carol@${DOMAIN}`, firstName: 'Carol' });
  carolToken = (await loginTokensFor(h.server.ctx, carol)).id_token;
  topicId = (await aliceAsks('How long is parental leave?')).accepted.conversation_id;
});

afterAll(async () => {
  await h?.close();
});

describe('authentication', () => {
  it('closes a socket whose first message is not AUTH, or whose token is bad, with 4401', async () => {
    const silent = await RealtimeTestClient.open(h.url);
    silent.send({ type: 'SUBSCRIBE', channel: 'user' });
    expect((await silent.closed).code).toBe(RealtimeCloseCode.unauthorized);

    const forged = await RealtimeTestClient.open(h.url);
    forged.send({ type: 'AUTH', token: `${h.aliceToken}x` });
    expect(await forged.closed).toEqual({ code: RealtimeCloseCode.unauthorized, reason: 'Invalid token' });
  });

  it('answers bad input with an ERROR and stays usable', async () => {
    const client = await RealtimeTestClient.open(h.url, h.bobToken);
    client.send('not json');
    expect(await client.next('ERROR')).toMatchObject({ code: 'INVALID_MESSAGE' });
    client.send({ type: 'SUBSCRIBE', channel: 'topic:not-a-uuid' as never });
    expect(await client.subscribe('user')).toEqual({ type: 'SUBSCRIBED', channel: 'user' });
    const errors = client.messages.filter((message) => message.type === 'ERROR');
    expect(errors.map((error) => error.type === 'ERROR' && error.code)).toEqual([
      'INVALID_MESSAGE',
      'INVALID_MESSAGE',
    ]);
    await client.close();
  });

  it('AUTH again with another member’s token, or after the member was blocked, closes the socket', async () => {
    const client = await RealtimeTestClient.open(h.url, h.bobToken);
    client.send({ type: 'AUTH', token: h.aliceToken });
    expect((await client.closed).code).toBe(RealtimeCloseCode.unauthorized);

    const dave = await createUser(h.server.store.db, h.org, { email: `dave@${DOMAIN}` });
    const daveToken = (await loginTokensFor(h.server.ctx, dave)).id_token;
    const daves = await RealtimeTestClient.open(h.url, daveToken);
    await h.server.store.db.update(users).set({ status: 'BLOCKED' }).where(eq(users.id, dave.id));
    daves.send({ type: 'AUTH', token: daveToken });
    expect((await daves.closed).code).toBe(RealtimeCloseCode.unauthorized);
  });
  it('closes the socket when its token runs out', async () => {
    const { token } = await signIdToken(
      h.server.ctx.tokenKey,
      { userId: h.bob.id, orgId: h.org.id, email: h.bob.email, sessionId: randomUUID() },
      new Date(Date.now() - (ID_TOKEN_TTL_SECONDS - 1) * 1000),
    );
    const client = await RealtimeTestClient.open(h.url, token);
    expect(await client.closed).toEqual({ code: RealtimeCloseCode.unauthorized, reason: 'Token expired' });
  });
});

describe('a shared topic', () => {
  it('refuses a topic the member may not view exactly as one that does not exist', async () => {
    const client = await RealtimeTestClient.open(h.url, carolToken);
    const refused = await client.subscribe(topicChannel(topicId));
    const missing = await client.subscribe(topicChannel('00000000-0000-4000-8000-000000000000'));
    expect(refused).toMatchObject({ type: 'ERROR', code: 'NOT_FOUND' });
    expect({ ...missing, channel: null }).toEqual({ ...refused, channel: null });
    await client.close();
  });

  it('tells a member added to the topic on their user channel, and no one else', async () => {
    const bob = await RealtimeTestClient.open(h.url, h.bobToken);
    const carols = await RealtimeTestClient.open(h.url, carolToken);
    await bob.subscribe('user');
    await carols.subscribe('user');
    await call('POST', '/topics/topic/member', h.aliceToken, {
      conversation_id: topicId,
      user_email: `bob@${DOMAIN}`,
    });
    expect((await bob.next('EVENT')).event).toEqual({ type: 'topics.changed' });
    // Carol's socket was asked for by the same org at the same time: a round trip on it proves nothing was queued
    await carols.subscribe('notifications');
    expect(carols.events('user')).toEqual([]);
    await Promise.all([bob.close(), carols.close()]);
  });

  it('tells a colleague tagged in a message, and then shows them the messages posted there', async () => {
    const fay = await createUser(h.server.store.db, h.org, { email: `fay@${DOMAIN}`, firstName: 'Fay' });
    const fays = await RealtimeTestClient.open(h.url, (await loginTokensFor(h.server.ctx, fay)).id_token);
    await fays.subscribe('user');
    const newTopic = randomUUID();
    await call('POST', '/messages/create', h.aliceToken, {
      message: 'Fay, have a look at this',
      conversation_id: newTopic,
      tagged_emails: [`fay@${DOMAIN}`],
    });
    expect((await fays.next('EVENT')).event).toEqual({ type: 'topics.changed' });
    expect(await fays.subscribe(topicChannel(newTopic))).toMatchObject({ type: 'SUBSCRIBED' });
    const posted = await call('POST', '/messages/create', h.aliceToken, {
      message: 'Did you see it?',
      conversation_id: newTopic,
    });
    const added = await fays.next('EVENT', (message) => message.event.type === 'message.added');
    expect(added.event).toEqual({
      type: 'message.added',
      topicId: newTopic,
      messageId: (posted.message as { message_id: string }).message_id,
    });
    await fays.close();
  });

  it('pushes a new inbox item to the member’s notifications channel with their unread count', async () => {
    const flags = { multiplayerEnabled: true, realtimeMultiplayer: true };
    const setFlags = (value: Record<string, boolean>) =>
      h.server.store.db.update(orgs).set({ flags: value }).where(eq(orgs.id, h.org.id));
    await setFlags({ ...flags, notifications: true });
    try {
      const gus = await createUser(h.server.store.db, h.org, { email: `gus@${DOMAIN}`, firstName: 'Gus' });
      const guss = await RealtimeTestClient.open(h.url, (await loginTokensFor(h.server.ctx, gus)).id_token);
      await guss.subscribe('notifications');
      await call('POST', '/messages/create', h.aliceToken, {
        message: 'Gus, a question for you',
        conversation_id: randomUUID(),
        tagged_emails: [`gus@${DOMAIN}`],
      });
      const pushed = await guss.next('EVENT', (message) => message.channel === 'notifications');
      expect(pushed.event).toEqual({ type: 'notification.created', unreadCount: 1 });
      await guss.close();
    } finally {
      await setFlags(flags);
    }
  });

  it('streams another member’s question and answer to a member who has it open; a non-member gets nothing', async () => {
    const bob = await RealtimeTestClient.open(h.url, h.bobToken);
    expect(await bob.subscribe(topicChannel(topicId))).toMatchObject({ type: 'SUBSCRIBED' });
    const carols = await RealtimeTestClient.open(h.url, carolToken);
    await carols.subscribe('user');

    const asked = await aliceAsks('And is it paid?', topicId);
    const finished = await bob.next('EVENT', (message) => message.event.type === 'answer.finished');
    const events = bob.events(topicChannel(topicId)) as TopicEvent[];
    expect(events[0]).toEqual({ type: 'message.added', topicId, messageId: asked.accepted.message_id });
    expect(finished.event).toEqual({
      type: 'answer.finished',
      topicId,
      answerId: asked.answerId,
      status: 'SUCCESS',
    });
    const chunks = events.filter((event) => event.type === 'answer.chunk');
    expect(chunks.length).toBeGreaterThan(1);
    expect(joinedText(events, asked.answerId)).toBe(asked.text);
    // per-reader parts never go over the topic channel
    expect(JSON.stringify(events)).not.toMatch(/references|relatedSearches|skillRetrieved/);
    expect(carols.messages.filter((message) => message.type === 'EVENT')).toEqual([]);
    await Promise.all([bob.close(), carols.close()]);
  });

  it('sends a member no text of an answer built from a document they may not read', async () => {
    const bob = await RealtimeTestClient.open(h.url, h.bobToken);
    await bob.subscribe(topicChannel(topicId));
    const asked = await aliceAsks('How big is the quarterly bonus pool?', topicId);
    expect(asked.text.length).toBeGreaterThan(0);
    await bob.next('EVENT', (message) => message.event.type === 'answer.finished');
    const events = bob.events(topicChannel(topicId)) as TopicEvent[];
    expect(events.map((event) => event.type)).toEqual(['message.added', 'answer.finished']);
    await bob.close();
  });

  it('stops a reader’s events once the topic is no longer theirs to view', async () => {
    await call('PATCH', `/topics/topic/${topicId}`, h.aliceToken, { visibility: 'ORG' });
    const carols = await RealtimeTestClient.open(h.url, carolToken);
    expect(await carols.subscribe(topicChannel(topicId))).toMatchObject({ type: 'SUBSCRIBED' });
    await call('PATCH', `/topics/topic/${topicId}`, h.aliceToken, { visibility: 'PRIVATE' });
    expect(await carols.next('UNSUBSCRIBED')).toEqual({
      type: 'UNSUBSCRIBED',
      channel: topicChannel(topicId),
      reason: 'ACCESS_LOST',
    });
    await aliceAsks('Does it start at birth?', topicId);
    expect(carols.events(topicChannel(topicId))).toEqual([]);
    // and she cannot take it back
    expect(await carols.subscribe(topicChannel(topicId))).toMatchObject({ type: 'ERROR', code: 'NOT_FOUND' });
    await carols.close();
  });
});

describe('the realtimeMultiplayer flag', () => {
  it('off: a topic cannot be followed, and one followed stops at its next change', async () => {
    const setLive = (on: boolean) =>
      h.server.store.db
        .update(orgs)
        .set({ flags: { multiplayerEnabled: true, realtimeMultiplayer: on } })
        .where(eq(orgs.id, h.org.id));
    const bob = await RealtimeTestClient.open(h.url, h.bobToken);
    expect(await bob.subscribe(topicChannel(topicId))).toMatchObject({ type: 'SUBSCRIBED' });
    await setLive(false);
    try {
      await call('PATCH', `/topics/topic/${topicId}`, h.aliceToken, { topic_title: 'Leave, renamed' });
      expect(await bob.next('UNSUBSCRIBED')).toMatchObject({ reason: 'ACCESS_LOST' });
      expect(await bob.subscribe(topicChannel(topicId))).toMatchObject({
        type: 'ERROR',
        code: 'LIVE_TOPICS_OFF',
      });
      await aliceAsks('Is the flag off?', topicId);
      expect(bob.events(topicChannel(topicId))).toEqual([]);
    } finally {
      await setLive(true);
      await bob.close();
    }
  });
});

describe('framing', () => {
  it('sends an event under 50 KB whole and a larger one in 50 KB chunks the client joins by index', async () => {
    const { answerId } = await aliceAsks('How many weeks exactly?', topicId);
    const bob = await RealtimeTestClient.open(h.url, h.bobToken);
    await bob.subscribe(topicChannel(topicId));
    const small = 'é'.repeat(1000);
    const large = `${'ü'.repeat(REALTIME_CHUNK_BYTES)}${'x'.repeat(REALTIME_CHUNK_BYTES)}end`;
    for (const text of [small, large]) {
      h.server.app.realtime.publish(
        h.org.id,
        { kind: 'topic', topicId },
        { type: 'answer.chunk', topicId, answerId, offset: 0, text },
      );
    }
    const received = await bob.next(
      'EVENT',
      (message) => message.event.type === 'answer.chunk' && message.event.text === large,
    );
    expect(received.event).toMatchObject({ text: large });
    expect(bob.events(topicChannel(topicId)).map((event) => (event as { text: string }).text)).toEqual([
      small,
      large,
    ]);
    // the large event's JSON is over 150 KB: four frames of at most 50 KB of it each
    expect(bob.frames.map((frame) => frame.index)).toEqual([0, 1, 2, 3]);
    expect(new Set(bob.frames.map((frame) => frame.count))).toEqual(new Set([4]));
    for (const frame of bob.frames)
      expect(Buffer.byteLength(frame.data)).toBeLessThanOrEqual(REALTIME_CHUNK_BYTES);
    await bob.close();
  });
});
