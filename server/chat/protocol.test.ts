import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { RELATED_SEARCHES_MAX } from '../../common/limits';
import { chat as chatStrings } from '../../common/strings';
import { messages } from '../db/schema';
import type { RecordedRequest, ScriptedReply } from '../llm/testing/openai-server';
import { SUGGESTIONS_SYSTEM_PROMPT } from './related';
import { LEAVE_POLICY, startChatHarness, waitFor, type ChatHarness } from './testing/harness';

const RELATED = Array.from({ length: 7 }, (_, i) => `Follow-up search ${i + 1}`);

function respond(request: RecordedRequest): ScriptedReply {
  if (request.messages[0]?.content === SUGGESTIONS_SYSTEM_PROMPT) {
    return { text: `TITLE: Leave\nRELATED:\n${RELATED.map((search) => `- ${search}`).join('\n')}` };
  }
  return { text: 'Sixteen weeks of paid leave [1].', delayMs: 20 };
}

let h: ChatHarness;
beforeAll(async () => {
  h = await startChatHarness({ respond, domain: 'protocol.test' });
  await h.index([LEAVE_POLICY]);
});
afterAll(() => h.close());

it('sends at most 5 related searches, before ANSWER_COMPLETE, and saves the same', async () => {
  const client = await h.connect(h.aliceToken);
  client.send({ type: 'QUERY', query: 'How long is parental leave?' });
  const complete = await client.next('ANSWER_COMPLETE');
  const related = await client.next('RELATED_SEARCHES');
  expect(related.relatedSearches).toEqual(RELATED.slice(0, RELATED_SEARCHES_MAX));
  expect(complete.relatedSearches).toEqual(related.relatedSearches);
  expect(client.messages.indexOf(related)).toBeLessThan(client.messages.indexOf(complete));
  const [row] = await h.server.store.db.select().from(messages).where(eq(messages.id, complete.message_id));
  expect(row?.relatedSearches).toEqual(related.relatedSearches);
  await client.close();
});

it('carries out a STOP_GENERATION sent with the QUERY just before the socket closes (the static stopped answer)', async () => {
  const queryId = randomUUID();
  const client = await h.connect(h.aliceToken);
  // As in the app, the socket is signed in long before: a reply only a signed-in socket gets proves AUTH is done
  // (a QUERY still queued behind AUTH when the socket closes is dropped: nobody is there to answer).
  client.send('not json');
  await client.next('ERROR', (error) => error.code === 'INVALID_MESSAGE');
  client.send({ type: 'QUERY', query: 'How long is parental leave?', message_id: queryId });
  client.send({ type: 'STOP_GENERATION' });
  client.socket.close();
  await client.closed;
  const db = h.server.store.db;
  const [answer] = await waitFor(
    () =>
      db
        .select()
        .from(messages)
        .where(and(eq(messages.replyToId, queryId), eq(messages.sender, 'ASSISTANT'))),
    ([row]) => row !== undefined && row.status !== 'PENDING',
  );
  expect(answer).toMatchObject({ status: 'CANCELLED', messageText: chatStrings.STOPPED });
  const [question] = await db.select().from(messages).where(eq(messages.id, queryId));
  expect(question?.status).toBe('CANCELLED');
});
