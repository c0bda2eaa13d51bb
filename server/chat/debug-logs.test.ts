// Debug logs (DEBUG_LOGS on the socket, a stored message's debugLogs) reach admins only, where the org turned the
// debugLogs flag on, and carry ranks rather than scores: a score's idf counts documents the reader may not read.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ServerMessage } from '../../common/api/chat';
import type { ChatMessage } from '../../common/api/messages';
import { orgs, topics, users } from '../db/schema';
import type { RecordedRequest, ScriptedReply } from '../llm/testing/openai-server';
import { setDocumentAcl } from '../search';
import { SUGGESTIONS_SYSTEM_PROMPT } from './related';
import { LEAVE_POLICY, startChatHarness, type ChatHarness } from './testing/harness';

/** How long the model waits before its first token: long enough for a colleague to join the live answer. */
let firstDelayMs = 0;
function respond(request: RecordedRequest): ScriptedReply {
  if (request.messages[0]?.content === SUGGESTIONS_SYSTEM_PROMPT) return { text: 'TITLE: Parental leave' };
  return { text: 'Parental leave is sixteen weeks [1].', firstDelayMs };
}

let h: ChatHarness;
beforeAll(async () => {
  h = await startChatHarness({ respond, flags: { debugLogs: true }, domain: 'debug.test' });
  await h.server.store.db.update(users).set({ admin: true }).where(eq(users.id, h.alice.id));
  await h.index([
    LEAVE_POLICY,
    {
      source: 'confluence',
      externalId: 'leave-faq',
      title: 'Parental leave questions',
      body: 'Parental leave can be split into two blocks. Ask HR about parental leave pay.',
      acl: ['org'],
    },
  ]);
});
afterAll(() => h.close());

async function ask(token: string, query: string) {
  const client = await h.connect(token);
  client.send({ type: 'QUERY', query });
  const complete = await client.next('ANSWER_COMPLETE');
  const live = client.messages.filter(
    (message): message is Extract<ServerMessage, { type: 'DEBUG_LOGS' }> => message.type === 'DEBUG_LOGS',
  );
  await client.close();
  return { complete, live };
}

async function storedAs(token: string, topicId: string, messageId: string): Promise<ChatMessage | undefined> {
  const res = await h.server.app.inject({
    method: 'GET',
    url: `/api/v1/topics/topicById/${topicId}`,
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ messages: ChatMessage[] }>().messages.find((m) => m.message_id === messageId);
}

it('a member gets no debug logs, live or stored', async () => {
  const { complete, live } = await ask(h.bobToken, 'How long is parental leave?');
  expect(complete.references.length).toBeGreaterThan(0);
  expect(live).toEqual([]);
  expect((await h.storedMessage(complete.message_id)).debugLogs).not.toBeNull();
  const stored = await storedAs(h.bobToken, complete.conversation_id, complete.message_id);
  expect(stored?.debugLogs).toBeNull();
});

it('an admin gets them where the flag is on, with ranks in place of scores', async () => {
  const { complete, live } = await ask(h.aliceToken, 'How long is parental leave?');
  expect(live).toHaveLength(1);
  const docData = live[0]!.debugLogs.doc_data;
  expect(docData.length).toBeGreaterThan(1);
  expect(docData.map((doc) => doc.score)).toEqual(docData.map((_, i) => i + 1));
  const stored = await storedAs(h.aliceToken, complete.conversation_id, complete.message_id);
  expect(stored?.debugLogs?.doc_data).toEqual(docData);

  await h.server.store.db.update(orgs).set({ flags: {} }).where(eq(orgs.id, h.org.id));
  try {
    const off = await ask(h.aliceToken, 'How long is parental leave?');
    expect(off.live).toEqual([]);
    expect(
      (await storedAs(h.aliceToken, off.complete.conversation_id, off.complete.message_id))?.debugLogs,
    ).toBeNull();
  } finally {
    await h.server.store.db
      .update(orgs)
      .set({ flags: { debugLogs: true } })
      .where(eq(orgs.id, h.org.id));
  }
});

it('stored debug logs name only the documents the admin may read now', async () => {
  const [memoId] = await h.index([
    {
      source: 'gdrive',
      externalId: 'leave-memo',
      title: 'Parental leave memo for Alice',
      body: 'Parental leave memo: Alice plans parental leave in spring.',
      acl: [`user:${h.alice.email}`],
    },
  ]);
  const { complete, live } = await ask(h.aliceToken, 'parental leave memo');
  expect(live[0]!.debugLogs.doc_data.map((doc) => doc.id)).toContain(memoId);
  await setDocumentAcl(h.server.store.db, h.org.id, { source: 'gdrive', externalId: 'leave-memo' }, [
    `user:${h.bob.email}`,
  ]);
  const stored = await storedAs(h.aliceToken, complete.conversation_id, complete.message_id);
  expect(stored?.debugLogs?.doc_data.length).toBeGreaterThan(0);
  expect(stored?.debugLogs?.doc_data.map((doc) => doc.id)).not.toContain(memoId);
});

it('a member who joins an admin’s live answer gets none of its debug logs', async () => {
  firstDelayMs = 1500;
  try {
    const alice = await h.connect(h.aliceToken);
    alice.send({ type: 'QUERY', query: 'How long is parental leave?' });
    const rows = await alice.next('ROW_ID');
    await h.server.store.db
      .update(topics)
      .set({ visibility: 'ORG' })
      .where(eq(topics.id, rows.conversation_id));
    const bob = await h.connect(h.bobToken);
    bob.send({ type: 'RECONNECT', message_id: rows.message_id });
    await Promise.all([alice.next('ANSWER_COMPLETE'), bob.next('ANSWER_COMPLETE')]);
    await bob.next('ANSWER_SAVED');
    expect(alice.all('DEBUG_LOGS')).toHaveLength(1);
    expect(bob.all('DEBUG_LOGS')).toEqual([]);
    await Promise.all([alice.close(), bob.close()]);
  } finally {
    firstDelayMs = 0;
  }
});
