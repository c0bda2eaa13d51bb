import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  CHAT_MESSAGE_MAX_BYTES,
  CHAT_SOCKETS_PER_USER_MAX,
  ChatCloseCode,
  STAGE_LABELS,
  type ServerMessage,
} from '../../common/api/chat';
import type { Reference } from '../../common/api/messages';
import { topicMessages, type MessageByIdResponse } from '../../common/api/topics';
import { chat as chatStrings, validation } from '../../common/strings';
import { bots, messages, orgs, topicMembers, topics } from '../db/schema';
import type { RecordedRequest, ScriptedReply } from '../llm/testing/openai-server';
import { PLAN_SYSTEM_PROMPT } from './research';
import { SUGGESTIONS_SYSTEM_PROMPT } from './related';
import { startChatHarness, waitFor, type ChatHarness } from './testing/harness';

/** What the test model says next; reset before each test. */
let answer: ScriptedReply;
let suggestions =
  'TITLE: Parental leave policy\nRELATED:\n- How long is paternity leave?\n- Leave request form';

function respond(request: RecordedRequest): ScriptedReply {
  const system = request.messages.find((message) => message.role === 'system')?.content ?? '';
  if (system === SUGGESTIONS_SYSTEM_PROMPT) return { text: suggestions };
  if (system === PLAN_SYSTEM_PROMPT) return { text: 'NONE' };
  return answer;
}

let h: ChatHarness;
let leaveId: string;
let holidayId: string;

beforeAll(async () => {
  h = await startChatHarness({ respond });
  [leaveId, holidayId] = (await h.index([
    {
      source: 'notion',
      externalId: 'leave',
      title: 'Parental leave policy',
      body: 'Employees get sixteen weeks of paid parental leave. Request it in the HR portal.',
      url: 'https://notion.example/leave',
      author: 'Hannah HR',
      authorEmail: 'hannah@chat.test',
      acl: ['org'],
    },
    {
      source: 'gdrive',
      externalId: 'holidays',
      title: 'Public holidays 2025',
      body: 'The office is closed on public holidays. Leave on a public holiday is not deducted.',
      url: 'https://drive.example/holidays',
      acl: ['org'],
    },
  ])) as [string, string];
});
afterAll(() => h.close());
beforeEach(() => {
  answer = { text: 'You get sixteen weeks of paid leave [2]. Public holidays are not deducted [1].' };
  suggestions =
    'TITLE: Parental leave policy\nRELATED:\n- How long is paternity leave?\n- Leave request form';
});

const ask = (query: string, extra: Record<string, unknown> = {}) => ({
  type: 'QUERY' as const,
  query,
  ...extra,
});

describe('AUTH', () => {
  it('closes with 4401 Tokens not found when the first message is not AUTH', async () => {
    const client = await h.connect();
    client.send(ask('hello'));
    expect(await client.closed).toEqual({ code: ChatCloseCode.unauthorized, reason: 'Tokens not found' });
  });

  it('closes with 4401 when the first message is not even JSON', async () => {
    const client = await h.connect();
    client.send('{nope');
    expect((await client.closed).code).toBe(ChatCloseCode.unauthorized);
  });

  it('closes with 4401 Invalid token for a bad token', async () => {
    const client = await h.connect('not-a-token');
    expect(await client.closed).toEqual({ code: ChatCloseCode.unauthorized, reason: 'Invalid token' });
  });

  it('allows CHAT_SOCKETS_PER_USER_MAX sockets per member, and closes the next with 4429', async () => {
    const open = [];
    for (let i = 0; i < CHAT_SOCKETS_PER_USER_MAX; i++) {
      const client = await h.connect(h.bobToken);
      client.send({ type: 'STOP_GENERATION' });
      await client.next('ERROR');
      open.push(client);
    }
    const extra = await h.connect(h.bobToken);
    expect((await extra.closed).code).toBe(ChatCloseCode.tooManySockets);
    await Promise.all(open.map((client) => client.close()));
  });
});

describe('malformed messages', () => {
  it('answers an ERROR for malformed JSON and a wrong shape, and the socket stays usable', async () => {
    const client = await h.connect(h.aliceToken);
    client.send('{"type":');
    expect(await client.next('ERROR')).toMatchObject({
      code: 'INVALID_MESSAGE',
      message: 'Messages must be JSON.',
    });
    client.send({ type: 'QUERY', query: '   ' } as never);
    expect(await client.next('ERROR', (error) => error.message.includes('query'))).toMatchObject({
      code: 'INVALID_MESSAGE',
    });
    client.send(JSON.stringify({ type: 'DANCE' }));
    await client.next('ERROR', (error) => error.message.includes('type'));
    client.send(ask('How long is parental leave?'));
    await client.next('ANSWER_COMPLETE');
    await client.close();
  });

  it('refuses NUL and control characters and ids that are not UUIDs as INVALID_MESSAGE, never INTERNAL', async () => {
    const client = await h.connect(h.aliceToken);
    const bad = [
      { type: 'QUERY', query: 'parental\u0000leave' },
      { type: 'QUERY', query: 'leave', llm_preference: 'gpt\u0007' },
      { type: 'RECONNECT', message_id: 'not-a-uuid' },
      { type: 'STOP_GENERATION', message_id: 'not-a-uuid' },
    ];
    for (const message of bad) {
      client.messages.length = 0;
      client.send(JSON.stringify(message));
      const error = await client.next('ERROR');
      expect(error, JSON.stringify(message)).toMatchObject({ code: 'INVALID_MESSAGE' });
      expect(error.message.length).toBeLessThan(200);
    }
    await client.close();
  });

  it('closes with 1009 on a message over 64 KB', async () => {
    const client = await h.connect(h.aliceToken);
    client.send(ask('x'.repeat(CHAT_MESSAGE_MAX_BYTES + 10)));
    expect((await client.closed).code).toBe(1009);
  });
});

describe('QUERY', () => {
  it('streams an answer through the stages, with references in citation order and a saved row', async () => {
    const client = await h.connect(h.aliceToken);
    client.send(ask('How long is parental leave?', { isNewTopic: true, tz_offset: 60 }));
    const complete = await client.next('ANSWER_COMPLETE');
    const saved = await client.next('ANSWER_SAVED');

    const types = client.messages.map((message) => message.type);
    const stages = client.all('SET_STAGE').map((stage) => stage.stage);
    expect(stages).toEqual(['SENDING_REQUEST', 'GATHERING_DATA', 'BUILDING_PROMPT', 'STREAMING_ANSWER']);
    expect(client.all('SET_STAGE').map((stage) => stage.label)).toEqual(
      stages.map((stage) => STAGE_LABELS[stage]),
    );
    const order = (type: ServerMessage['type']) => types.indexOf(type);
    expect(order('QUERY_ACCEPTED')).toBeLessThan(order('ROW_ID'));
    expect(order('ROW_ID')).toBeLessThan(types.lastIndexOf('SET_STAGE'));
    expect(order('SKILL_RETRIEVED')).toBeLessThan(order('CHUNK'));
    expect(types.slice(-2)).toEqual(['ANSWER_COMPLETE', 'ANSWER_SAVED']);
    expect(client.all('SKILL_RETRIEVED')).toEqual(
      expect.arrayContaining([
        { type: 'SKILL_RETRIEVED', appName: 'notion', numDocs: 1 },
        { type: 'SKILL_RETRIEVED', appName: 'gdrive', numDocs: 1 },
      ]),
    );

    // The model cited [2] first: it becomes [1], and the references follow the text's numbering.
    const prompt = h.model!.requests.find((request) => request.stream)!;
    const system = prompt.messages[0]!.content;
    const secondSource = system.includes('[2] Parental leave') ? leaveId : holidayId;
    const firstSource = secondSource === leaveId ? holidayId : leaveId;
    expect(complete.references.map((reference: Reference) => reference.id)).toEqual([
      secondSource,
      firstSource,
    ]);
    expect(client.text()).toBe(
      'You get sixteen weeks of paid leave [1]. Public holidays are not deducted [2].',
    );
    expect(complete.messageText).toBe(client.text());
    expect(complete.references[0]).toMatchObject({
      source: expect.any(String),
      url: expect.stringMatching(/^https/),
    });
    expect(complete.relatedSearches).toEqual(['How long is paternity leave?', 'Leave request form']);
    expect(complete.topic_title).toBe('Parental leave policy');
    expect(client.all('TOPIC_TITLE')).toHaveLength(1);
    expect(complete.allReferencesSummary.app_names.sort()).toEqual(['gdrive', 'notion']);
    expect(saved.status).toBe('SUCCESS');

    const row = await h.storedMessage(complete.message_id);
    expect(row).toMatchObject({ status: 'SUCCESS', messageText: client.text(), sender: 'ASSISTANT' });
    expect(row.references).toEqual(complete.references);
    const rowId = client.all('ROW_ID')[0]!;
    expect(rowId.row_id).toBe(row.rowId);
    expect((await h.storedMessage(rowId.query_message_id)).status).toBe('SUCCESS');
    const [topic] = await h.server.store.db
      .select()
      .from(topics)
      .where(eq(topics.id, complete.conversation_id));
    expect(topic?.topicTitle).toBe('Parental leave policy');
    await client.close();
  });

  it('continues a topic with its history, and refuses a topic the asker is not a member of', async () => {
    const client = await h.connect(h.aliceToken);
    client.send(ask('How long is parental leave?'));
    const first = await client.next('ANSWER_COMPLETE');
    await client.next('ANSWER_SAVED');
    const before = h.model!.requests.length;
    client.send(ask('And who do I ask?', { conversation_id: first.conversation_id }));
    const second = await client.next('ANSWER_COMPLETE', (message) => message.message_id !== first.message_id);
    expect(second.conversation_id).toBe(first.conversation_id);
    expect(client.all('TOPIC_TITLE')).toHaveLength(1);
    const prompt = h.model!.requests.slice(before).find((request) => request.stream)!;
    expect(prompt.messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(prompt.messages[2]!.content).not.toMatch(/\[\d\]/);

    // an invite-only topic of Alice's does not exist for Bob
    const bob = await h.connect(h.bobToken);
    bob.send(ask('Let me in', { conversation_id: first.conversation_id }));
    expect(await bob.next('ERROR')).toMatchObject({ code: 'NOT_FOUND', message: topicMessages.NOT_FOUND });
    bob.send({ type: 'RECONNECT', message_id: first.message_id });
    expect(await bob.next('ERROR', (error) => error.message_id === first.message_id)).toMatchObject({
      code: 'NOT_FOUND',
    });
    // workspace-wide: Bob may read it (and follow its answers) but not post to it
    const db = h.server.store.db;
    await db.update(topics).set({ visibility: 'ORG' }).where(eq(topics.id, first.conversation_id));
    bob.send(ask('Let me in', { conversation_id: first.conversation_id }));
    expect(await bob.next('ERROR', (error) => error.code === 'FORBIDDEN')).toMatchObject({
      message: topicMessages.EDIT_NOT_ALLOWED,
    });
    bob.send({ type: 'RECONNECT', message_id: first.message_id });
    expect((await bob.next('ANSWER_COMPLETE')).message_id).toBe(first.message_id);
    // shared with Bob as a member: he may post
    await db.update(topics).set({ isMultiplayer: true }).where(eq(topics.id, first.conversation_id));
    await db
      .insert(topicMembers)
      .values({ orgId: h.org.id, topicId: first.conversation_id, userId: h.bob.id });
    bob.send(ask('Thanks, and for fathers?', { conversation_id: first.conversation_id }));
    const bobs = await bob.next('ANSWER_COMPLETE', (message) => message.message_id !== first.message_id);
    expect(bobs.conversation_id).toBe(first.conversation_id);
    await Promise.all([client.close(), bob.close()]);
  });

  it('keeps the ids the client chose for a new topic and its message, and refuses a message id twice', async () => {
    const conversationId = '0190a0b0-0000-7000-8000-00000000c0de';
    const messageId = '0190a0b0-0000-7000-8000-00000000beef';
    const client = await h.connect(h.aliceToken);
    client.send(
      ask('How long is parental leave?', {
        conversation_id: conversationId,
        isNewTopic: true,
        message_id: messageId,
      }),
    );
    expect(await client.next('QUERY_ACCEPTED')).toEqual({
      type: 'QUERY_ACCEPTED',
      conversation_id: conversationId,
      message_id: messageId,
      isNewTopic: true,
    });
    await client.next('ANSWER_SAVED');
    client.send(ask('Again?', { conversation_id: conversationId, message_id: messageId }));
    expect(await client.next('ERROR')).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'This message was already sent.',
    });
    await client.close();
  });

  it('refuses a second QUERY while the answer is generating, on the socket and on the topic', async () => {
    answer = { text: 'A slow answer that takes a while to write out in full.', delayMs: 60 };
    const client = await h.connect(h.aliceToken);
    client.send(ask('How long is parental leave?'));
    const accepted = await client.next('QUERY_ACCEPTED');
    client.send(ask('Another question'));
    expect(await client.next('ERROR')).toEqual({
      type: 'ERROR',
      code: 'BUSY',
      message: validation.WAIT_FOR_PREVIOUS_ANSWER,
    });
    const other = await h.connect(h.aliceToken);
    other.send(ask('Same topic, other tab', { conversation_id: accepted.conversation_id }));
    expect(await other.next('ERROR')).toMatchObject({
      code: 'BUSY',
      message: validation.WAIT_FOR_PREVIOUS_ANSWER,
    });
    await client.next('ANSWER_COMPLETE');
    await Promise.all([client.close(), other.close()]);
  });

  it('saves a provider error as FAILED with the spec text', async () => {
    answer = { error: { status: 500, message: 'the model is down' } };
    const client = await h.connect(h.aliceToken);
    client.send(ask('How long is parental leave?'));
    expect(await client.next('ERROR')).toMatchObject({
      code: 'GENERATION_FAILED',
      message: chatStrings.GENERATION_FAILED,
    });
    const saved = await client.next('ANSWER_SAVED');
    expect(saved.status).toBe('FAILED');
    expect(await h.storedMessage(saved.message_id)).toMatchObject({
      status: 'FAILED',
      messageText: chatStrings.GENERATION_FAILED,
    });
    await client.close();
  });
});

describe('the prompt', () => {
  it("carries the org's instructions and disclaimer and the bot's, with the sources numbered", async () => {
    const db = h.server.store.db;
    await db
      .update(orgs)
      .set({ customInstructions: 'Answer in British English.', disclaimer: 'Answers may be wrong.' })
      .where(eq(orgs.id, h.org.id));
    const [bot] = await db
      .insert(bots)
      .values({ orgId: h.org.id, botName: 'HR Helper', customInstructions: 'Always mention the HR portal.' })
      .returning();
    const client = await h.connect(h.aliceToken);
    const before = h.model!.requests.length;
    client.send(ask('How long is parental leave?', { bot_id: bot!.id }));
    await client.next('ANSWER_COMPLETE');
    const system = h.model!.requests.slice(before).find((request) => request.stream)!.messages[0]!.content;
    expect(system).toContain('You are HR Helper');
    expect(system).toContain('Instructions from the organisation:\nAnswer in British English.');
    expect(system).toContain('Instructions for HR Helper:\nAlways mention the HR portal.');
    expect(system).toContain('Answers may be wrong.');
    expect(system).toMatch(/\[1\] (Parental leave policy|Public holidays 2025) \((notion|gdrive)/);
    expect(system).toContain('Employees get sixteen weeks of paid parental leave.');
    await db.update(orgs).set({ customInstructions: null, disclaimer: null }).where(eq(orgs.id, h.org.id));
    await client.close();
  });
});

describe('STOP_GENERATION', () => {
  it('before any text has streamed: saves the static stopped answer as CANCELLED', async () => {
    // The model holds its first words back, so the stop lands before any text (web.test stops during retrieval).
    answer = { text: 'never shown', firstDelayMs: 2000 };
    const client = await h.connect(h.aliceToken);
    client.send(ask('How long is parental leave?'));
    const rowId = await client.next('ROW_ID');
    client.send({ type: 'STOP_GENERATION' });
    client.socket.close();
    const row = await waitFor(
      () => h.storedMessage(rowId.message_id),
      (message) => message.status !== 'PENDING',
    );
    expect(row).toMatchObject({ status: 'CANCELLED', messageText: chatStrings.STOPPED });
    expect(row.extraData).toMatchObject({ staticAnswerType: 'stopped' });
    expect((await h.storedMessage(rowId.query_message_id)).status).toBe('CANCELLED');
  });

  it('while streaming: saves the partial text as CANCELLED and aborts the model call', async () => {
    answer = { chunks: ['Sixteen ', 'weeks ', 'of ', 'paid ', 'leave ', 'in ', 'total.'], delayMs: 150 };
    const client = await h.connect(h.aliceToken);
    client.send(ask('How long is parental leave?'));
    await client.next('CHUNK', (chunk) => chunk.text.includes('weeks'));
    client.send({ type: 'STOP_GENERATION' });
    const saved = await client.next('ANSWER_SAVED');
    expect(saved.status).toBe('CANCELLED');
    const row = await h.storedMessage(saved.message_id);
    expect(row.status).toBe('CANCELLED');
    expect(row.messageText).toBe(client.text());
    expect(row.messageText.startsWith('Sixteen weeks')).toBe(true);
    expect(row.messageText).not.toContain('total.');
    const call = h.model!.requests.filter((request) => request.stream).at(-1)!;
    await waitFor(async () => call.aborted, Boolean);
    expect(call.aborted).toBe(true);
    await client.close();
  });

  it('answers an ERROR when there is nothing to stop', async () => {
    const client = await h.connect(h.aliceToken);
    client.send({ type: 'STOP_GENERATION' });
    expect(await client.next('ERROR')).toMatchObject({ code: 'NOTHING_TO_DO' });
    await client.close();
  });
});

describe('RECONNECT', () => {
  it('after a dropped socket: re-attaches to the live answer, gets what was said as one CHUNK, then the rest', async () => {
    answer = { chunks: ['One ', 'two ', 'three ', 'four ', 'five ', 'six.'], delayMs: 120 };
    const first = await h.connect(h.aliceToken);
    first.send(ask('How long is parental leave?'));
    const accepted = await first.next('QUERY_ACCEPTED');
    const rowId = await first.next('ROW_ID');
    await first.next('CHUNK', (chunk) => chunk.text.includes('two'));
    first.socket.terminate();
    // saved as it streams: the HTTP API already has the partial answer
    const readSaved = async () =>
      (
        await h.server.app.inject({
          method: 'GET',
          url: `/api/v1/messages/message/${rowId.message_id}`,
          headers: { authorization: `Bearer ${h.aliceToken}` },
        })
      ).json<MessageByIdResponse>().data.message;
    const partial = await waitFor(readSaved, (message) => message.messageText.startsWith('One two'));
    expect(partial).toMatchObject({ status: 'PENDING', messageText: expect.stringMatching(/^One two/) });

    const second = await h.connect(h.aliceToken);
    second.send({ type: 'RECONNECT', message_id: accepted.message_id });
    const stage = await second.next('SET_STAGE');
    expect(stage.stage).toBe('STREAMING_ANSWER');
    const complete = await second.next('ANSWER_COMPLETE');
    expect(complete.messageText).toBe('One two three four five six.');
    expect(second.text()).toBe(complete.messageText);
    expect(second.all('CHUNK')[0]!.text.startsWith('One two')).toBe(true);
    expect((await h.storedMessage(complete.message_id)).status).toBe('SUCCESS');
    await second.close();
  });

  it('after the answer finished: sends the saved answer', async () => {
    const first = await h.connect(h.aliceToken);
    first.send(ask('How long is parental leave?'));
    const done = await first.next('ANSWER_COMPLETE');
    await first.close();
    const second = await h.connect(h.aliceToken);
    second.send({ type: 'RECONNECT', message_id: done.message_id });
    const complete = await second.next('ANSWER_COMPLETE');
    expect(second.text()).toBe(done.messageText);
    expect(complete).toMatchObject({
      message_id: done.message_id,
      references: done.references,
      relatedSearches: done.relatedSearches,
    });
    expect(await second.next('ANSWER_SAVED')).toMatchObject({ status: 'SUCCESS' });
    await second.close();
  });

  it('when the process writing it died: finalises the PENDING answer FAILED', async () => {
    const client = await h.connect(h.aliceToken);
    client.send(ask('How long is parental leave?'));
    const done = await client.next('ANSWER_COMPLETE');
    const db = h.server.store.db;
    const orphan = await h.insertOrphanAnswer({ topicId: done.conversation_id, messageText: 'Half an ans' });
    client.send({ type: 'RECONNECT', message_id: orphan.id });
    expect(await client.next('ERROR', (error) => error.message_id === orphan.id)).toMatchObject({
      code: 'GENERATION_FAILED',
      message: chatStrings.GENERATION_FAILED,
    });
    expect(await client.next('ANSWER_SAVED', (saved) => saved.message_id === orphan.id)).toMatchObject({
      status: 'FAILED',
    });
    const [row] = await db
      .select()
      .from(messages)
      .where(and(eq(messages.id, orphan.id), eq(messages.orgId, h.org.id)));
    expect(row?.status).toBe('FAILED');
    await client.close();
  });
});
