// The chat's notifications, through the real socket: a question in a shared topic tells its other members, and
// research tells its asker when it is ready or could not be finished.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { NotificationsResponse } from '../../common/api/notifications';
import { topics as topicStrings } from '../../common/strings';
import { PLAN_SYSTEM_PROMPT } from '../chat/research';
import { SUGGESTIONS_SYSTEM_PROMPT } from '../chat/related';
import { LEAVE_POLICY, startChatHarness, waitFor, type ChatHarness } from '../chat/testing/harness';
import { botAdmins, bots, notifications, type User } from '../db/schema';
import type { RecordedRequest, ScriptedReply } from '../llm/testing/openai-server';
import { createTopic } from '../testing/chat-fixtures';

let h: ChatHarness;
let failReports = false;

function respond(request: RecordedRequest): ScriptedReply {
  const system = request.messages[0]?.content ?? '';
  if (system === SUGGESTIONS_SYSTEM_PROMPT) return { text: 'TITLE: Leave' };
  if (system === PLAN_SYSTEM_PROMPT) return { text: 'NONE' };
  if (failReports) return { error: { status: 500, message: 'model down' } };
  return { text: 'Sixteen weeks [1].' };
}

beforeAll(async () => {
  h = await startChatHarness({
    respond,
    domain: 'notify-chat.test',
    flags: { deepresearch: true, notifications: true, multiplayerEnabled: true },
  });
  await h.index([LEAVE_POLICY]);
});
afterAll(() => h.close());
beforeEach(async () => {
  failReports = false;
  await h.server.store.db.delete(notifications);
});

async function inboxOf(user: User): Promise<NotificationsResponse> {
  const token = user.id === h.alice.id ? h.aliceToken : h.bobToken;
  const res = await h.server.app.inject({
    method: 'GET',
    url: '/api/v1/notifications',
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.statusCode).toBe(200);
  return res.json<NotificationsResponse>();
}

const arrived = (user: User, n = 1) =>
  waitFor(
    () => inboxOf(user),
    (inbox) => inbox.items.length >= n,
  );

describe('notifications from the chat', () => {
  it("tell a shared topic's other members of a question asked in it, not its asker", async () => {
    const topic = await createTopic(h.server.store.db, h.alice, {
      topicTitle: 'Leave questions',
      isMultiplayer: true,
      members: [h.bob],
    });
    const client = await h.connect(h.aliceToken);
    client.send({ type: 'QUERY', query: 'How long is parental leave?', conversation_id: topic.id });
    const accepted = await client.next('QUERY_ACCEPTED');
    await client.next('ANSWER_COMPLETE', undefined, 15_000);

    const { items } = await arrived(h.bob);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      actors: [{ name: 'Alice' }],
      data: {
        type: 'notify-new-msgs-in-shared-topics',
        topic_id: topic.id,
        message_id: accepted.message_id,
        message_slice: 'How long is parental leave?',
      },
    });
    expect((await inboxOf(h.alice)).items).toEqual([]);
    await client.close();
  });

  it("tell a managed bot's admins of a question asked to it", async () => {
    const { db } = h.server.store;
    const [bot] = await db
      .insert(bots)
      .values({ orgId: h.org.id, botName: 'HR *helper*', isManaged: true, authorId: h.alice.id, icon: '🧑‍💼' })
      .returning();
    await db.insert(botAdmins).values({ orgId: h.org.id, botId: bot!.id, email: h.bob.email.toUpperCase() });
    const client = await h.connect(h.aliceToken);
    client.send({ type: 'QUERY', query: 'How long is parental leave?', bot_id: bot!.id });
    const accepted = await client.next('QUERY_ACCEPTED');
    await client.next('ANSWER_COMPLETE', undefined, 15_000);

    const { items } = await arrived(h.bob);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      markdown: '**Alice** asked **HR \\*helper\\*** a question',
      data: {
        type: 'notify-bot-admins',
        topic_id: accepted.conversation_id,
        bot_id: bot!.id,
        managed_bot_details: { icon: '🧑‍💼', bot_name: 'HR *helper*' },
      },
    });
    expect((await inboxOf(h.alice)).items).toEqual([]);
    await client.close();
  });

  it('tell the asker when research is ready, and when it could not be finished', async () => {
    const client = await h.connect(h.aliceToken);
    client.send({ type: 'QUERY', query: 'What leave do employees get?', deepresearch: true });
    const complete = await client.next('ANSWER_COMPLETE', undefined, 15_000);
    const ready = (await arrived(h.alice)).items[0];
    expect(ready).toMatchObject({
      actors: [],
      data: { type: 'notify-research', success: true, message_id: complete.message_id },
      markdown: topicStrings.researchReady('**Leave**'),
    });

    failReports = true;
    client.send({
      type: 'QUERY',
      query: 'And in Germany?',
      deepresearch: true,
      conversation_id: complete.conversation_id,
    });
    const saved = await client.next('ANSWER_SAVED', (message) => message.status === 'FAILED', 15_000);
    const failed = (await arrived(h.alice, 2)).items[0];
    expect(failed).toMatchObject({
      data: { type: 'notify-research', success: false, message_id: saved.message_id },
      markdown: topicStrings.researchFailed('**Leave**'),
    });
    // nobody else hears of it
    expect((await inboxOf(h.bob)).items).toEqual([]);
    await client.close();
  });
});
