import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { LlmListResponse } from '../../common/api/llms';
import { modelDisabledFlag } from '../../common/flags';
import { DEFAULT_MODEL_ID } from '../../common/models';
import { messages, orgs } from '../db/schema';
import { startChatHarness, type ChatHarness } from './testing/harness';

let h: ChatHarness;

beforeAll(async () => {
  h = await startChatHarness({
    plan: 'BUSINESS',
    domain: 'models.test',
    flags: { [modelDisabledFlag('openai-gpt-4.1-nano')]: true },
  });
});
afterAll(() => h.close());

const written = () => h.server.store.db.select().from(messages).where(eq(messages.orgId, h.org.id));

it('refuses an enterprise-only model on a BUSINESS org, writing nothing', async () => {
  const client = await h.connect(h.aliceToken);
  client.send({ type: 'QUERY', query: 'Hello', llm_preference: 'anthropic-claude-opus' });
  expect(await client.next('ERROR')).toEqual({
    type: 'ERROR',
    code: 'PLAN_REQUIRED',
    message: 'Claude Opus needs the ENTERPRISE plan (feature: enterpriseModels).',
  });
  client.send({ type: 'QUERY', query: 'Hello', llm_preference: 'openai-gpt-4.1-nano' });
  expect(await client.next('ERROR', (error) => error.code !== 'PLAN_REQUIRED')).toMatchObject({
    code: 'MODEL_UNAVAILABLE',
    message: 'GPT-4.1 Nano is turned off for this workspace. Choose another model.',
  });
  expect(await written()).toEqual([]);
  expect(h.model!.requests).toEqual([]);
  await client.close();
});

it('answers with an open model the BUSINESS org chose, asking the provider for its model name', async () => {
  const client = await h.connect(h.aliceToken);
  client.send({
    type: 'QUERY',
    query: 'Hello',
    llm_preference: 'openai-gpt-4.1',
    sources: { is_base_llm: true },
  });
  const complete = await client.next('ANSWER_COMPLETE');
  expect(complete.llm).toBe('openai-gpt-4.1');
  expect(h.model!.requests.find((request) => request.stream)?.model).toBe('gpt-4.1');
  const [row] = await h.server.store.db.select().from(messages).where(eq(messages.id, complete.message_id));
  expect(row?.llm).toBe('openai-gpt-4.1');
  await client.close();
});

it('GET /api/v1/llms: the picker list for this org on this server', async () => {
  await h.server.store.db
    .update(orgs)
    .set({ preferredLlm: 'openai-gpt-4.1-mini' })
    .where(eq(orgs.id, h.org.id));
  const res = await h.server.app.inject({
    method: 'GET',
    url: '/api/v1/llms',
    headers: { authorization: `Bearer ${h.aliceToken}` },
  });
  expect(res.statusCode).toBe(200);
  const body = res.json<LlmListResponse>();
  expect(body.generative).toBe(true);
  const byId = new Map(body.llms.map((llm) => [llm.id, llm]));
  expect(byId.get('openai-gpt-4.1')).toMatchObject({ name: 'GPT-4.1', enabled: true, enterpriseOnly: false });
  expect(byId.get('anthropic-claude-opus')).toMatchObject({
    enabled: false,
    enterpriseOnly: true,
    reason: 'PLAN_REQUIRED',
  });
  expect(byId.get('openai-gpt-4.1-nano')).toMatchObject({ enabled: false, reason: 'DISABLED_FOR_ORG' });
  expect(body.llms.filter((llm) => llm.default).map((llm) => llm.id)).toEqual(['openai-gpt-4.1-mini']);
  expect(byId.get(DEFAULT_MODEL_ID)?.default).toBe(false);

  expect((await h.server.app.inject({ method: 'GET', url: '/api/v1/llms' })).statusCode).toBe(401);
});
