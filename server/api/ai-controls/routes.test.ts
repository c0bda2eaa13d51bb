// AI controls through the real server on the real store, and into the prompt the OpenAI-compatible test model
// receives over the chat socket.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AiControls, PersonalAiControls } from '../../../common/api/ai-controls';
import type { LlmListResponse } from '../../../common/api/llms';
import { DISCLAIMER_MAX_CHARS, PERSONAL_BACKGROUND_MAX_CHARS } from '../../../common/limits';
import { SUGGESTIONS_SYSTEM_PROMPT } from '../../chat/related';
import { startChatHarness, type ChatHarness } from '../../chat/testing/harness';
import { orgs } from '../../db/schema';
import { createOrg, createUser, loginTokensFor } from '../../testing/fixtures';

let h: ChatHarness;
let adminToken: string;

beforeAll(async () => {
  h = await startChatHarness({ domain: 'aicontrols.test' });
  const admin = await createUser(h.server.store.db, h.org, { email: 'ada@aicontrols.test', admin: true });
  adminToken = (await loginTokensFor(h.server.ctx, admin)).id_token;
});
afterAll(() => h.close());

const call = (method: 'GET' | 'POST', url: string, token: string, payload?: object) =>
  h.server.app.inject({
    method,
    url: `/api/v1${url}`,
    headers: { authorization: `Bearer ${token}` },
    ...(payload ? { payload } : {}),
  });

async function storedOrg() {
  const [row] = await h.server.store.db.select().from(orgs).where(eq(orgs.id, h.org.id));
  return row!;
}

/** Asks as `token` in AI Only scope and answers the system prompt the model was given for the answer. */
async function answerPromptFor(token: string, question: string): Promise<string> {
  const client = await h.connect(token);
  client.send({ type: 'QUERY', query: question, sources: { is_base_llm: true } });
  await client.next('ANSWER_COMPLETE');
  await client.close();
  const request = h.model!.requests.find(
    (recorded) =>
      recorded.stream &&
      recorded.messages.at(-1)?.content === question &&
      recorded.messages[0]?.content !== SUGGESTIONS_SYSTEM_PROMPT,
  );
  return request?.messages.find((message) => message.role === 'system')?.content ?? '';
}

describe('org AI controls', () => {
  it('lets an admin set the disclaimer and custom instructions, trimmed, and every member read them', async () => {
    const disclaimer = await call('POST', '/ai_controls/disclaimer', adminToken, {
      disclaimer: '  AI answers can be wrong: check the sources.  ',
    });
    expect(disclaimer.statusCode).toBe(200);
    expect(disclaimer.json<AiControls>().disclaimer).toBe('AI answers can be wrong: check the sources.');
    const instructions = await call('POST', '/ai_controls/custom_instructions', adminToken, {
      custom_instructions: 'Answer in British English.\nKeep it short.',
    });
    expect(instructions.statusCode).toBe(200);

    const read = await call('GET', '/ai_controls', h.aliceToken);
    expect(read.statusCode).toBe(200);
    expect(read.json<AiControls>()).toEqual({
      disclaimer: 'AI answers can be wrong: check the sources.',
      custom_instructions: 'Answer in British English.\nKeep it short.',
    });
    expect((await h.server.app.inject({ method: 'GET', url: '/api/v1/ai_controls' })).statusCode).toBe(401);
  });

  it('refuses a member, and bad input, changing nothing', async () => {
    const before = await storedOrg();
    const member = await call('POST', '/ai_controls/disclaimer', h.aliceToken, { disclaimer: 'Mine now' });
    expect(member.statusCode).toBe(403);
    expect(member.json()).toMatchObject({ code: 'ADMIN_REQUIRED' });
    expect(
      (await call('POST', '/ai_controls/custom_instructions', h.aliceToken, { custom_instructions: 'x' }))
        .statusCode,
    ).toBe(403);
    for (const payload of [
      { disclaimer: 'x'.repeat(DISCLAIMER_MAX_CHARS + 1) },
      { disclaimer: 42 },
      {},
      { disclaimer: 'ok', extra: true },
      { disclaimer: 'bell\u0007' },
    ]) {
      const res = await call('POST', '/ai_controls/disclaimer', adminToken, payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 60)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: expect.any(String) });
    }
    const after = await storedOrg();
    expect(after.disclaimer).toBe(before.disclaimer);
    expect(after.customInstructions).toBe(before.customInstructions);
  });

  it('gates each setting by its plan: custom instructions on BUSINESS, the disclaimer on ENTERPRISE', async () => {
    const { db } = h.server.store;
    const business = await createOrg(db, { domain: 'business.aicontrols.test', plan: 'BUSINESS' });
    const admin = await createUser(db, business, { email: 'bo@business.aicontrols.test', admin: true });
    const token = (await loginTokensFor(h.server.ctx, admin)).id_token;
    const refused = await call('POST', '/ai_controls/disclaimer', token, { disclaimer: 'Careful' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'PLAN_REQUIRED' });
    expect(
      (await call('POST', '/ai_controls/custom_instructions', token, { custom_instructions: 'Be brief.' }))
        .statusCode,
    ).toBe(200);
    // A disclaimer stored under an earlier plan is not in force on this one.
    await db.update(orgs).set({ disclaimer: 'From the old plan' }).where(eq(orgs.id, business.id));
    expect((await call('GET', '/ai_controls', token)).json<AiControls>()).toEqual({
      disclaimer: null,
      custom_instructions: 'Be brief.',
    });
  });

  it('clears a setting saved blank', async () => {
    const { db } = h.server.store;
    const org = await createOrg(db, { domain: 'clear.aicontrols.test' });
    const admin = await createUser(db, org, { email: 'cy@clear.aicontrols.test', admin: true });
    const token = (await loginTokensFor(h.server.ctx, admin)).id_token;
    await call('POST', '/ai_controls/disclaimer', token, { disclaimer: 'Temporary' });
    const cleared = await call('POST', '/ai_controls/disclaimer', token, { disclaimer: '   ' });
    expect(cleared.json<AiControls>().disclaimer).toBeNull();
  });
});

describe('personal AI controls', () => {
  it('keeps a member’s background to themselves, and refuses one too long', async () => {
    const saved = await call('POST', '/ai_controls/personal', h.aliceToken, {
      personal_background: 'I run payroll in the Lisbon office. I like answers as bullet points.',
    });
    expect(saved.statusCode).toBe(200);
    expect((await call('GET', '/ai_controls/personal', h.aliceToken)).json<PersonalAiControls>()).toEqual({
      personal_background: 'I run payroll in the Lisbon office. I like answers as bullet points.',
    });
    expect((await call('GET', '/ai_controls/personal', h.bobToken)).json<PersonalAiControls>()).toEqual({
      personal_background: null,
    });
    const tooLong = await call('POST', '/ai_controls/personal', h.aliceToken, {
      personal_background: 'x'.repeat(PERSONAL_BACKGROUND_MAX_CHARS + 1),
    });
    expect(tooLong.statusCode).toBe(400);
    expect((await call('GET', '/ai_controls/personal', h.aliceToken)).json<PersonalAiControls>()).toEqual({
      personal_background: 'I run payroll in the Lisbon office. I like answers as bullet points.',
    });
  });
});

describe('the prompt', () => {
  it('carries the org’s instructions and disclaimer and the asker’s own background, never another’s', async () => {
    const alicePrompt = await answerPromptFor(h.aliceToken, 'What is our leave policy?');
    expect(alicePrompt).toContain('Answer in British English.\nKeep it short.');
    expect(alicePrompt).toContain('AI answers can be wrong: check the sources.');
    expect(alicePrompt).toContain('I run payroll in the Lisbon office.');

    await call('POST', '/ai_controls/personal', h.bobToken, {
      personal_background: 'I am a designer in Berlin.',
    });
    const bobPrompt = await answerPromptFor(h.bobToken, 'How many holidays do I get?');
    expect(bobPrompt).toContain('I am a designer in Berlin.');
    expect(bobPrompt).toContain('AI answers can be wrong: check the sources.');
    expect(bobPrompt).not.toContain('Lisbon');
  });
});

describe('model switches', () => {
  it('lets an admin turn a model off and on for the workspace, and the list says why it is off', async () => {
    const off = await call('POST', '/ai_controls/models', adminToken, {
      model_id: 'openai-gpt-4.1',
      enabled: false,
    });
    expect(off.statusCode).toBe(200);
    const offModel = off.json<LlmListResponse>().llms.find((llm) => llm.id === 'openai-gpt-4.1');
    expect(offModel).toMatchObject({
      enabled: false,
      reason: 'DISABLED_FOR_ORG',
      reasons: ['DISABLED_FOR_ORG'],
    });
    const listed = (await call('GET', '/llms', h.aliceToken)).json<LlmListResponse>();
    expect(listed.llms.find((llm) => llm.id === 'openai-gpt-4.1')?.enabled).toBe(false);

    const on = await call('POST', '/ai_controls/models', adminToken, {
      model_id: 'openai-gpt-4.1',
      enabled: true,
    });
    expect(on.json<LlmListResponse>().llms.find((llm) => llm.id === 'openai-gpt-4.1')).toMatchObject({
      enabled: true,
      reasons: [],
    });
  });

  it('refuses a member, an unknown model and a plan without custom LLM selection', async () => {
    expect(
      (
        await call('POST', '/ai_controls/models', h.aliceToken, {
          model_id: 'openai-gpt-4.1',
          enabled: false,
        })
      ).statusCode,
    ).toBe(403);
    const unknown = await call('POST', '/ai_controls/models', adminToken, {
      model_id: 'gpt-99',
      enabled: false,
    });
    expect(unknown.statusCode).toBe(400);
    const { db } = h.server.store;
    const business = await createOrg(db, { domain: 'business.aicontrols.test', plan: 'BUSINESS' });
    const admin = await createUser(db, business, { email: 'bea@business.aicontrols.test', admin: true });
    const token = (await loginTokensFor(h.server.ctx, admin)).id_token;
    const refused = await call('POST', '/ai_controls/models', token, {
      model_id: 'openai-gpt-4.1',
      enabled: false,
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'PLAN_REQUIRED' });
    const [stored] = await db.select({ flags: orgs.flags }).from(orgs).where(eq(orgs.id, business.id));
    expect(stored?.flags).toEqual({});
  });
});
