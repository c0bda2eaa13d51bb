import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { responseIdOf, type FeedbackResponse } from '../../../common/api/feedback';
import type { TopicByIdResponse } from '../../../common/api/topics';
import { newId } from '../../db/ids';
import { feedback, type Message, type Topic, type User } from '../../db/schema';
import { createExchange, createTopic } from '../../testing/chat-fixtures';
import { createOrg, createUser, loginTokensFor } from '../../testing/fixtures';
import { createTestServer, type TestServer } from '../../testing/server';

let server: TestServer;
let owen: User;
let mia: User;
let cora: User;
let olga: User;
let topic: Topic;
let question: Message;
let answer: Message;
const tokens = new Map<User, string>();

beforeAll(async () => {
  server = await createTestServer();
  const { db } = server.store;
  const acme = await createOrg(db, { domain: 'acme.test' });
  const other = await createOrg(db, { domain: 'other.test' });
  owen = await createUser(db, acme, { email: 'owen@acme.test' });
  mia = await createUser(db, acme, { email: 'mia@acme.test' });
  cora = await createUser(db, acme, { email: 'cora@acme.test' });
  olga = await createUser(db, other, { email: 'olga@other.test' });
  for (const user of [owen, mia, cora, olga])
    tokens.set(user, (await loginTokensFor(server.ctx, user)).id_token);
  topic = await createTopic(db, owen, { members: [mia] });
  ({ question, answer } = await createExchange(db, topic, owen));
});
afterAll(() => server.close());

const send = (user: User, payload: object) =>
  server.app.inject({
    method: 'POST',
    url: '/api/v1/feedback',
    headers: { authorization: `Bearer ${tokens.get(user)}` },
    payload,
  });

const rowsOf = (user: User) =>
  server.store.db
    .select()
    .from(feedback)
    .where(and(eq(feedback.userId, user.id), eq(feedback.responseId, responseIdOf(answer.id))));

const ratingShown = async (user: User) => {
  const res = await server.app.inject({
    method: 'GET',
    url: `/api/v1/topics/topicById/${topic.id}`,
    headers: { authorization: `Bearer ${tokens.get(user)}` },
  });
  return res.json<TopicByIdResponse>().messages.find((m) => m.message_id === answer.id)?.extraData
    .messageFeedback;
};

describe('POST /feedback', () => {
  it('records, updates and removes one member’s feedback on an answer', async () => {
    const responseId = answer.id.replaceAll('-', '');
    const created = await send(owen, {
      query_id: 'q-1',
      response_id: responseId,
      rating: 1,
      references_feedback: {},
    });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json<FeedbackResponse>().feedback).toMatchObject({
      query_id: 'q-1',
      response_id: responseId,
      rating: 1,
      comment: null,
      references_feedback: {},
    });
    expect(await ratingShown(owen)).toEqual({ rating: 1 });
    // another member's thumb is theirs alone
    expect(await ratingShown(mia)).toBeUndefined();

    const updated = await send(owen, {
      query_id: 'q-1',
      response_id: responseId.toUpperCase(),
      rating: -1,
      comment: 'Outdated policy',
      references_feedback: { 'doc-1': -1, 'doc-2': 1 },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(await rowsOf(owen)).toEqual([
      expect.objectContaining({
        rating: -1,
        comment: 'Outdated policy',
        referencesFeedback: { 'doc-1': -1, 'doc-2': 1 },
      }),
    ]);
    expect(await ratingShown(owen)).toEqual({ rating: -1 });

    // the removal call: no rating, no reference votes
    const removed = await send(owen, { query_id: 'q-1', response_id: responseId, references_feedback: {} });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json<FeedbackResponse>()).toEqual({ feedback: null });
    expect(await rowsOf(owen)).toEqual([]);
    expect(await ratingShown(owen)).toBeUndefined();
  });

  it('keeps reference votes without a thumb, and names the question when the app does not', async () => {
    const res = await send(mia, {
      response_id: responseIdOf(answer.id),
      rating: 0,
      references_feedback: { 'doc-1': 1 },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<FeedbackResponse>().feedback).toMatchObject({
      rating: 0,
      query_id: responseIdOf(question.id),
      references_feedback: { 'doc-1': 1 },
    });
    expect(await rowsOf(mia)).toHaveLength(1);
  });

  it('answers 404 for answers the member cannot see, questions, and unknown ids', async () => {
    const responseId = responseIdOf(answer.id);
    for (const [user, id] of [
      [cora, responseId],
      [olga, responseId],
      [owen, responseIdOf(question.id)],
      [owen, responseIdOf(newId())],
    ] as const) {
      const res = await send(user, { response_id: id, rating: 1 });
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('Answer not found.');
    }
    expect(await rowsOf(cora)).toEqual([]);
  });

  it('refuses malformed feedback', async () => {
    const responseId = responseIdOf(answer.id);
    for (const payload of [
      { response_id: answer.id, rating: 1 },
      { response_id: responseId, rating: 2 },
      { response_id: responseId, rating: 1, references_feedback: { 'doc-1': 0 } },
      { response_id: responseId, rating: 1, comment: 'x'.repeat(5001) },
      { response_id: responseId, rating: 1, extra: true },
      { rating: 1 },
    ]) {
      expect((await send(owen, payload)).statusCode, JSON.stringify(payload)).toBe(400);
    }
  });
});
