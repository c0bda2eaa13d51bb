import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { responseIdOf, type FeedbackResponse } from '../../../common/api/feedback';
import type { ChatHistoryResponse, MessageByIdResponse, TopicByIdResponse } from '../../../common/api/topics';
import { newId } from '../../db/ids';
import { feedback, type Message, type Org, type Topic, type User } from '../../db/schema';
import { createDocument, createExchange, createTopic, referenceTo } from '../../testing/chat-fixtures';
import { createOrg, createUser, loginTokensFor } from '../../testing/fixtures';
import { createTestServer, type TestServer } from '../../testing/server';

let server: TestServer;
let owen: User;
let mia: User;
let cora: User;
let olga: User;
let acme: Org;
let topic: Topic;
let question: Message;
let answer: Message;
const tokens = new Map<User, string>();

beforeAll(async () => {
  server = await createTestServer();
  const { db } = server.store;
  acme = await createOrg(db, { domain: 'acme.test' });
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
    expect(await ratingShown(owen)).toEqual({ rating: 1, references_feedback: {} });
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
    // votes are given back only on references the answer shows (this one cites none)
    expect(await ratingShown(owen)).toEqual({ rating: -1, references_feedback: {} });

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

  it('merges a new rating’s reference votes into the earlier ones; 0 clears one', async () => {
    const responseId = responseIdOf(answer.id);
    const first = await send(owen, {
      response_id: responseId,
      rating: 1,
      references_feedback: { 'doc-1': 1, 'doc-2': -1 },
    });
    expect(first.statusCode, first.body).toBe(200);
    // the modal opened again: a new thumb, one reference changed, one cleared, one new
    const second = await send(owen, {
      response_id: responseId,
      rating: -1,
      comment: 'Missed the newer doc',
      references_feedback: { 'doc-2': 0, 'doc-3': 1 },
    });
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json<FeedbackResponse>().feedback).toMatchObject({
      rating: -1,
      references_feedback: { 'doc-1': 1, 'doc-3': 1 },
    });
    // only a thumb: the reference votes stay
    const third = await send(owen, { response_id: responseId, rating: 1 });
    expect(third.json<FeedbackResponse>().feedback?.references_feedback).toEqual({ 'doc-1': 1, 'doc-3': 1 });
    expect(await rowsOf(owen)).toEqual([
      expect.objectContaining({ rating: 1, comment: null, referencesFeedback: { 'doc-1': 1, 'doc-3': 1 } }),
    ]);
    await send(owen, { response_id: responseId, references_feedback: {} });
  });

  it('gives the reader’s reference votes back with the answer, only on references they are shown', async () => {
    const { db } = server.store;
    const doc = await createDocument(db, acme, { acl: [`user:${owen.email}`] });
    const gone = await createDocument(db, acme, { acl: ['user:nobody@acme.test'] });
    const { answer: cited } = await createExchange(db, topic, owen, {
      references: [referenceTo(doc), referenceTo(gone)],
    });
    const responseId = responseIdOf(cited.id);
    const res = await send(owen, {
      response_id: responseId,
      rating: 1,
      references_feedback: { [doc.id]: -1, [gone.id]: 1 },
    });
    expect(res.statusCode, res.body).toBe(200);
    const shown = async <T>(url: string) =>
      (
        await server.app.inject({
          method: 'GET',
          url,
          headers: { authorization: `Bearer ${tokens.get(owen)}` },
        })
      ).json<T>();
    const byId = await shown<MessageByIdResponse>(`/api/v1/messages/message/${cited.id}`);
    expect(byId.data.message.extraData.messageFeedback).toEqual({
      rating: 1,
      references_feedback: { [doc.id]: -1 },
    });
    const history = await shown<ChatHistoryResponse>('/api/v1/_chatHistory?api_version=2');
    const inHistory = history.history.find((m) => m.message_id === cited.id);
    expect(inHistory?.extraData.messageFeedback).toEqual({
      rating: 1,
      references_feedback: { [doc.id]: -1 },
    });
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
      { response_id: responseId, rating: 1, references_feedback: { 'doc-1': 2 } },
      { response_id: responseId, rating: 1, references_feedback: { '': 1 } },
      { response_id: responseId, rating: 1, comment: 'x'.repeat(5001) },
      { response_id: responseId, rating: 1, extra: true },
      { rating: 1 },
    ]) {
      expect((await send(owen, payload)).statusCode, JSON.stringify(payload)).toBe(400);
    }
  });
});
