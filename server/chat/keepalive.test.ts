import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { ServerMessage } from '../../common/api/chat';
import { chat as chatStrings } from '../../common/strings';
import { users } from '../db/schema';
import type { RecordedRequest, ScriptedReply } from '../llm/testing/openai-server';
import { PLAN_SYSTEM_PROMPT } from './research';
import { SUGGESTIONS_SYSTEM_PROMPT } from './related';
import { LEAVE_POLICY, startChatHarness, type ChatHarness } from './testing/harness';

/** Far below the default, so a model slow by a second or two shows several repeats. */
const REPEAT_MS = 200;
let answer: ScriptedReply;
let plan: ScriptedReply;

function respond(request: RecordedRequest): ScriptedReply {
  const system = request.messages[0]?.content ?? '';
  if (system === SUGGESTIONS_SYSTEM_PROMPT) return { text: 'TITLE: Leave' };
  if (system === PLAN_SYSTEM_PROMPT) return plan;
  return answer;
}

let h: ChatHarness;
beforeAll(async () => {
  h = await startChatHarness({
    respond,
    plan: 'ENTERPRISE',
    flags: { deepresearch: true, debugLogs: true },
    env: { CHAT_STAGE_REPEAT_MS: String(REPEAT_MS) },
  });
  // the stages are read from the debug logs, which only admins see
  await h.server.store.db.update(users).set({ admin: true }).where(eq(users.id, h.alice.id));
  await h.index([LEAVE_POLICY]);
});
afterAll(() => h.close());
beforeEach(() => {
  answer = { text: 'Sixteen weeks [1].' };
  plan = { text: 'NONE' };
});

/** The SET_STAGE messages before the first CHUNK. */
function stagesBeforeText(messages: readonly ServerMessage[]) {
  const firstChunk = messages.findIndex((message) => message.type === 'CHUNK');
  return messages
    .slice(0, firstChunk < 0 ? messages.length : firstChunk)
    .filter(
      (message): message is Extract<ServerMessage, { type: 'SET_STAGE' }> => message.type === 'SET_STAGE',
    );
}

it('says the stage again while the model is slow to its first token, without logging the repeats', async () => {
  answer = { text: 'Sixteen weeks [1].', firstDelayMs: REPEAT_MS * 8 };
  const client = await h.connect(h.aliceToken);
  client.send({ type: 'QUERY', query: 'How long is parental leave?' });
  await client.next('ANSWER_COMPLETE', () => true, 30_000);
  const answering = stagesBeforeText(client.messages).filter((stage) => stage.stage === 'STREAMING_ANSWER');
  expect(answering.length).toBeGreaterThanOrEqual(2);
  for (const stage of answering) expect(stage.label).toBe(chatStrings.ANSWERING);
  expect(client.text()).toBe('Sixteen weeks [1].');
  const logged = (await client.next('DEBUG_LOGS')).debugLogs.stages.map((stage) => stage.stage);
  expect(logged.filter((stage) => stage === 'STREAMING_ANSWER')).toHaveLength(1);
  await client.close();
});

it('in deep research, repeats the research stage with the server progress while planning is slow', async () => {
  plan = { text: 'NONE', firstDelayMs: REPEAT_MS * 8 };
  const client = await h.connect(h.aliceToken);
  client.send({ type: 'QUERY', query: 'What leave do employees get?', deepresearch: true });
  await client.next('ANSWER_COMPLETE', () => true, 30_000);
  const planning = stagesBeforeText(client.messages).filter(
    (stage) => stage.stage === 'MULTI_STEP_THOUGHT' && stage.progressBar === 5,
  );
  expect(planning.length).toBeGreaterThanOrEqual(2);
  for (const stage of planning) expect(stage.label).toBe(chatStrings.RESEARCHING);
  await client.close();
});
