import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chat as chatStrings, validation } from '../../common/strings';
import { messages } from '../db/schema';
import { openStore } from '../db/store';
import type { RecordedRequest, ScriptedReply } from '../llm/testing/openai-server';
import { openServerTestStore, testDatabaseUrl } from '../testing/database';
import { SUGGESTIONS_SYSTEM_PROMPT } from './related';
import { recordStopRequest } from './rows';
import {
  LEAVE_POLICY,
  startChatHarness,
  waitFor,
  type ChatHarness,
  type ChatInstance,
} from './testing/harness';

/** A long, slow answer: a stop always lands before its last words. */
const SLOW: ScriptedReply = {
  chunks: [...Array.from({ length: 40 }, (_, i) => `word${i} `), 'THE END.'],
  delayMs: 200,
};
let answer: ScriptedReply;

function respond(request: RecordedRequest): ScriptedReply {
  if (request.messages[0]?.content === SUGGESTIONS_SYSTEM_PROMPT) return { text: 'TITLE: Leave' };
  return answer;
}

const ask = { type: 'QUERY' as const, query: 'How long is parental leave?' };

describe('one process', () => {
  let h: ChatHarness;
  beforeAll(async () => {
    h = await startChatHarness({ respond, domain: 'stop.test' });
  });
  afterAll(() => h.close());
  beforeEach(() => {
    answer = SLOW;
  });

  it('a stop recorded in the store, as another instance records it, stops the answer being written', async () => {
    const client = await h.connect(h.aliceToken);
    client.send(ask);
    const rowId = await client.next('ROW_ID');
    await client.next('CHUNK');
    expect(await recordStopRequest(h.server.store.db, h.org.id, rowId.message_id)).toBe(true);
    const saved = await client.next('ANSWER_SAVED');
    expect(saved).toMatchObject({ message_id: rowId.message_id, status: 'CANCELLED' });
    const row = await h.storedMessage(rowId.message_id);
    expect(row.status).toBe('CANCELLED');
    expect(row.messageText).toBe(client.text());
    expect(row.messageText).not.toContain('THE END.');
    expect(client.all('ANSWER_COMPLETE')).toEqual([]);
    // nothing left to stop
    expect(await recordStopRequest(h.server.store.db, h.org.id, rowId.message_id)).toBe(false);
    await client.close();
  });

  it('stops an answer whose writer died, for its asker only, as the static stopped answer', async () => {
    answer = { text: 'Sixteen weeks.' };
    const client = await h.connect(h.aliceToken);
    client.send(ask);
    const done = await client.next('ANSWER_COMPLETE');
    const db = h.server.store.db;
    const [question] = await db
      .insert(messages)
      .values({
        orgId: h.org.id,
        topicId: done.conversation_id,
        sender: 'USER',
        authorId: h.alice.id,
        status: 'PENDING',
        messageText: 'Still there?',
      })
      .returning();
    const orphan = await h.insertOrphanAnswer({ topicId: done.conversation_id, replyToId: question!.id });

    const bob = await h.connect(h.bobToken);
    bob.send({ type: 'STOP_GENERATION', message_id: question!.id });
    expect(await bob.next('ERROR')).toMatchObject({ code: 'NOTHING_TO_DO', message_id: question!.id });
    expect((await h.storedMessage(orphan.id)).status).toBe('PENDING');

    client.send({ type: 'STOP_GENERATION', message_id: question!.id });
    const row = await waitFor(
      () => h.storedMessage(orphan.id),
      (message) => message.status !== 'PENDING',
    );
    expect(row).toMatchObject({ status: 'CANCELLED', messageText: chatStrings.STOPPED });
    expect(row.extraData).toMatchObject({ staticAnswerType: 'stopped' });
    expect((await h.storedMessage(question!.id)).status).toBe('CANCELLED');
    expect(client.all('ERROR')).toEqual([]);
    await Promise.all([client.close(), bob.close()]);
  });
});

describe.skipIf(!testDatabaseUrl)('two instances on one PostgreSQL database (TEST_DATABASE_URL)', () => {
  let h: ChatHarness;
  let b: ChatInstance;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const database = await openServerTestStore('chat');
    drop = database.drop;
    h = await startChatHarness({
      respond,
      domain: 'instances.test',
      store: database.store,
      env: { CHAT_STAGE_REPEAT_MS: '300' },
    });
    b = await h.startInstance(await openStore({ databaseUrl: database.url }));
    await h.index([LEAVE_POLICY]);
  });
  afterAll(async () => {
    await h?.close();
    await drop?.();
  });
  beforeEach(() => {
    answer = SLOW;
  });

  it('STOP_GENERATION on one instance stops the answer another is writing, and only for its asker', async () => {
    const onA = await h.connect(h.aliceToken);
    onA.send(ask);
    const rowId = await onA.next('ROW_ID');
    await onA.next('CHUNK');

    const bobOnB = await b.connect(b.bobToken);
    bobOnB.send({ type: 'STOP_GENERATION', message_id: rowId.message_id });
    expect(await bobOnB.next('ERROR')).toMatchObject({ code: 'NOTHING_TO_DO' });

    const aliceOnB = await b.connect(b.aliceToken);
    aliceOnB.send({ type: 'STOP_GENERATION', message_id: rowId.query_message_id });
    expect(await onA.next('ANSWER_SAVED')).toMatchObject({ status: 'CANCELLED' });
    const row = await h.storedMessage(rowId.message_id);
    expect(row.status).toBe('CANCELLED');
    expect(row.messageText).toBe(onA.text());
    expect(row.messageText).not.toContain('THE END.');
    const call = h.model!.requests.filter((request) => request.stream).at(-1)!;
    await waitFor(async () => call.aborted, Boolean);
    expect(call.aborted).toBe(true);
    expect(aliceOnB.all('ERROR')).toEqual([]);
    await Promise.all([onA.close(), bobOnB.close(), aliceOnB.close()]);
  });

  it('RECONNECT on another instance follows the answer, keeps the socket alive, and can stop it', async () => {
    answer = { ...SLOW, firstDelayMs: 1500 };
    const onA = await h.connect(h.aliceToken);
    onA.send(ask);
    const accepted = await onA.next('QUERY_ACCEPTED');
    const rowId = await onA.next('ROW_ID');
    onA.socket.terminate();

    const onB = await b.connect(b.aliceToken);
    onB.send({ type: 'RECONNECT', message_id: accepted.message_id });
    const first = await onB.next('CHUNK', () => true, 20_000);
    expect(first.text).toMatch(/^word0 /);
    const before = onB.messages.slice(0, onB.messages.indexOf(first));
    expect(before.filter((message) => message.type === 'SET_STAGE').length).toBeGreaterThanOrEqual(2);
    expect(before.at(-1)).toMatchObject({ type: 'SET_STAGE', stage: 'STREAMING_ANSWER' });

    onB.send({ type: 'STOP_GENERATION' });
    const saved = await onB.next('ANSWER_SAVED', () => true, 20_000);
    expect(saved).toMatchObject({ message_id: rowId.message_id, status: 'CANCELLED' });
    const row = await h.storedMessage(rowId.message_id);
    expect(row.status).toBe('CANCELLED');
    expect(onB.text()).toBe(row.messageText);
    expect(onB.all('ERROR')).toEqual([]);
    await onB.close();
  });

  it('refuses a QUERY on one instance to a topic another instance is answering', async () => {
    const onA = await h.connect(h.aliceToken);
    onA.send(ask);
    const accepted = await onA.next('QUERY_ACCEPTED');
    await onA.next('CHUNK');
    const onB = await b.connect(b.aliceToken);
    onB.send({ ...ask, conversation_id: accepted.conversation_id });
    expect(await onB.next('ERROR')).toMatchObject({
      code: 'BUSY',
      message: validation.WAIT_FOR_PREVIOUS_ANSWER,
    });
    const [answers] = await h.server.store.db
      .select({ count: sql<number>`count(*)::int` })
      .from(messages)
      .where(and(eq(messages.topicId, accepted.conversation_id), eq(messages.sender, 'ASSISTANT')));
    expect(answers?.count).toBe(1);
    onA.send({ type: 'STOP_GENERATION' });
    await onA.next('ANSWER_SAVED');
    await Promise.all([onA.close(), onB.close()]);
  });
});
