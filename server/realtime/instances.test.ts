// Realtime across two `scout serve` instances on one PostgreSQL server (TEST_DATABASE_URL): what is published on
// instance A reaches sockets on instance B through LISTEN/NOTIFY, large events included.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { topicChannel, type TopicEvent } from '../../common/api/realtime';
import { openStore } from '../db/store';
import type { RecordedRequest, ScriptedReply } from '../llm/testing/openai-server';
import { openServerTestStore, testDatabaseUrl } from '../testing/database';
import { SUGGESTIONS_SYSTEM_PROMPT } from '../chat/related';
import { LEAVE_POLICY, startChatHarness, type ChatHarness, type ChatInstance } from '../chat/testing/harness';
import { NOTIFY_PAYLOAD_MAX_BYTES } from './bridge';
import { RealtimeTestClient } from './testing/realtime-client';

const DOMAIN = 'realtime-instances.test';

function respond(request: RecordedRequest): ScriptedReply {
  if (request.messages[0]?.content === SUGGESTIONS_SYSTEM_PROMPT) return { text: 'TITLE: Leave' };
  return { chunks: Array.from({ length: 10 }, (_, i) => `piece${i} `), delayMs: 40 };
}

describe.skipIf(!testDatabaseUrl)('two instances on one PostgreSQL database (TEST_DATABASE_URL)', () => {
  let h: ChatHarness;
  let b: ChatInstance;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const database = await openServerTestStore('realtime');
    drop = database.drop;
    h = await startChatHarness({
      respond,
      domain: DOMAIN,
      store: database.store,
      flags: { multiplayerEnabled: true, realtimeMultiplayer: true },
    });
    b = await h.startInstance(await openStore({ databaseUrl: database.url }));
    await h.index([LEAVE_POLICY]);
  });
  afterAll(async () => {
    await h?.close();
    await drop?.();
  });

  it('a socket on B sees the question and the answer Alice asks on A stream in, and large events whole', async () => {
    // Alice starts a topic on A and adds Bob
    const chat = await h.connect(h.aliceToken);
    chat.send({ type: 'QUERY', query: 'How long is parental leave?' });
    const first = await chat.next('ANSWER_SAVED', () => true, 20_000);
    const topicId = first.conversation_id;
    const bobOnB = await RealtimeTestClient.open(b.url, b.bobToken);
    await bobOnB.subscribe('user');
    const added = await h.server.app.inject({
      method: 'POST',
      url: '/api/v1/topics/topic/member',
      headers: { authorization: `Bearer ${h.aliceToken}` },
      payload: { conversation_id: topicId, user_email: `bob@${DOMAIN}` },
    });
    expect(added.statusCode).toBe(200);
    expect((await bobOnB.next('EVENT', (message) => message.channel === 'user')).event).toEqual({
      type: 'topics.changed',
    });

    expect(await bobOnB.subscribe(topicChannel(topicId))).toMatchObject({ type: 'SUBSCRIBED' });
    const asking = await h.connect(h.aliceToken);
    asking.send({ type: 'QUERY', query: 'Is it paid?', conversation_id: topicId });
    const accepted = await asking.next('QUERY_ACCEPTED');
    const rowId = await asking.next('ROW_ID');
    await asking.next('ANSWER_SAVED', () => true, 20_000);
    await bobOnB.next('EVENT', (message) => message.event.type === 'answer.finished', 20_000);
    const events = bobOnB.events(topicChannel(topicId)) as TopicEvent[];
    expect(events[0]).toEqual({ type: 'message.added', topicId, messageId: accepted.message_id });
    let text = '';
    for (const event of events) {
      if (event.type !== 'answer.chunk') continue;
      expect(event.offset).toBe(text.length);
      text += event.text;
    }
    const answerText = asking.text();
    expect(text).toBe(answerText);
    expect(events.at(-1)).toEqual({
      type: 'answer.finished',
      topicId,
      answerId: rowId.message_id,
      status: 'SUCCESS',
    });

    // an event far over NOTIFY's 8000 bytes crosses in pieces and arrives whole, in order with a small one
    const large = `${'"\\'.repeat(NOTIFY_PAYLOAD_MAX_BYTES)}${'€'.repeat(NOTIFY_PAYLOAD_MAX_BYTES)}`;
    for (const piece of [large, 'after']) {
      h.server.app.realtime.publish(
        h.org.id,
        { kind: 'topic', topicId },
        { type: 'answer.chunk', topicId, answerId: rowId.message_id, offset: 0, text: piece },
      );
    }
    await bobOnB.next(
      'EVENT',
      (message) => message.event.type === 'answer.chunk' && message.event.text === 'after',
    );
    const tail = (bobOnB.events(topicChannel(topicId)) as TopicEvent[]).slice(-2);
    expect(tail.map((event) => (event.type === 'answer.chunk' ? event.text : null))).toEqual([
      large,
      'after',
    ]);

    // Alice's own channel on A is hers: Bob's socket on B hears nothing of it
    const before = bobOnB.events('user').length;
    h.server.app.realtime.publish(h.org.id, { kind: 'user', userId: h.alice.id }, { type: 'topics.changed' });
    h.server.app.realtime.publish(h.org.id, { kind: 'user', userId: h.bob.id }, { type: 'topics.changed' });
    await bobOnB.nextOf(() => bobOnB.events('user').length > before);
    expect(bobOnB.events('user').length).toBe(before + 1);
    await Promise.all([chat.close(), asking.close(), bobOnB.close()]);
  });
});
