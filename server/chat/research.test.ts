import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RESEARCH_RATE_LIMIT, RESEARCH_RATE_WINDOW_MS } from '../../common/api/chat';
import { chat as chatStrings, validation } from '../../common/strings';
import { bots, messages, orgs, subscriptions, uploads } from '../db/schema';
import type { RecordedRequest, ScriptedReply } from '../llm/testing/openai-server';
import { PLAN_SYSTEM_PROMPT } from './research';
import { SUGGESTIONS_SYSTEM_PROMPT } from './related';
import { LEAVE_POLICY, startChatHarness, type ChatHarness } from './testing/harness';

let h: ChatHarness;

function respond(request: RecordedRequest): ScriptedReply {
  const system = request.messages[0]?.content ?? '';
  if (system === SUGGESTIONS_SYSTEM_PROMPT) return { text: 'TITLE: Leave research' };
  if (system === PLAN_SYSTEM_PROMPT) {
    const followUp = request.messages.at(-1)!.content.includes('still missing');
    return { text: followUp ? 'NONE' : '- parental leave weeks\n- public holiday calendar' };
  }
  return { text: '# Leave\n\nSixteen weeks [1], holidays not deducted [2].' };
}

const research = (extra: Record<string, unknown> = {}) => ({
  type: 'QUERY' as const,
  query: 'What leave do employees get?',
  deepresearch: true,
  ...extra,
});

beforeAll(async () => {
  h = await startChatHarness({ respond, domain: 'research.test', flags: { deepresearch: true } });
  await h.index([
    LEAVE_POLICY,
    {
      source: 'gdrive',
      externalId: 'holidays',
      title: 'Public holiday calendar',
      body: 'Public holidays are not deducted from annual leave.',
      acl: ['org'],
    },
  ]);
});
afterAll(() => h.close());

const db = () => h.server.store.db;
async function setFlags(flags: Record<string, boolean>) {
  await db().update(orgs).set({ flags }).where(eq(orgs.id, h.org.id));
}
async function setPlan(planType: 'TEAM' | 'BUSINESS' | 'ENTERPRISE') {
  await db().update(subscriptions).set({ planType }).where(eq(subscriptions.orgId, h.org.id));
}
beforeEach(async () => {
  await setFlags({ deepresearch: true });
  await setPlan('ENTERPRISE');
  await db().delete(messages).where(eq(messages.orgId, h.org.id));
});

describe('deep research', () => {
  it('runs several hops with the server progress, then writes the report', async () => {
    const client = await h.connect(h.aliceToken);
    client.send(research());
    const complete = await client.next('ANSWER_COMPLETE', undefined, 15_000);
    const stages = client.all('SET_STAGE');
    const thoughts = stages.filter((stage) => stage.stage === 'MULTI_STEP_THOUGHT');
    const hops = stages.filter((stage) => stage.stage === 'HOP_COMPLETED');
    expect(hops).toHaveLength(3);
    expect(thoughts.map((thought) => thought.detail)).toEqual([
      'Planning the research',
      'What leave do employees get?',
      'parental leave weeks',
      'public holiday calendar',
    ]);
    expect(
      stages.filter((stage) => stage.stage !== 'STREAMING_ANSWER').every((s) => s.label === 'Researching...'),
    ).toBe(true);
    const progress = stages.flatMap((stage) => (stage.progressBar == null ? [] : [stage.progressBar]));
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.at(-1)).toBeLessThan(100);
    expect(complete.deepresearch).toBe(true);
    expect(complete.references).toHaveLength(2);
    const [row] = await db().select().from(messages).where(eq(messages.id, complete.message_id));
    expect(row).toMatchObject({ status: 'SUCCESS', deepresearch: true, progressBar: 100 });
    const report = h.model!.requests.filter((request) => request.stream).at(-1)!;
    expect(report.messages[0]!.content).toContain('research request');
    await client.close();
  });

  it('is refused without the deepresearch flag, below the BUSINESS plan, with files, in AI-only mode and for AI-only bots', async () => {
    const client = await h.connect(h.aliceToken);
    const refusal = async (message: object) => {
      const before = client.all('ERROR').length;
      client.send(message as never);
      await client.next('ERROR', () => client.all('ERROR').length > before);
      return client.all('ERROR').at(-1)!;
    };
    await setFlags({});
    expect(await refusal(research())).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'Research is not enabled for this workspace.',
    });
    await setFlags({ deepresearch: true });
    await setPlan('TEAM');
    expect(await refusal(research())).toMatchObject({ code: 'PLAN_REQUIRED' });
    await setPlan('BUSINESS');
    const [upload] = await db()
      .insert(uploads)
      .values({ orgId: h.org.id, fileName: 'notes.txt', creatorId: h.alice.id })
      .returning();
    expect(await refusal(research({ uploaded_conversation_file_ids: [upload!.id] }))).toMatchObject({
      message: validation.RESEARCH_NO_ATTACHED_FILES,
    });
    expect(await refusal(research({ sources: { is_base_llm: true } }))).toMatchObject({
      message: validation.RESEARCH_NO_AI_ONLY,
    });
    const [bot] = await db()
      .insert(bots)
      .values({ orgId: h.org.id, botName: 'Poet', sources: { is_base_llm: true }, isDefault: true })
      .returning();
    expect(await refusal(research({ bot_id: bot!.id }))).toMatchObject({
      message: validation.RESEARCH_NO_AI_ONLY_BOT,
    });
    // nothing was written for a refused question
    expect(await db().select().from(messages).where(eq(messages.orgId, h.org.id))).toEqual([]);
    await client.close();
  });

  it(`allows ${RESEARCH_RATE_LIMIT} research requests per window, then answers RATE_LIMIT_REACHED and saves FAILED`, async () => {
    const client = await h.connect(h.aliceToken);
    client.send({ type: 'QUERY', query: 'warm up', isNewTopic: true });
    const first = await client.next('ANSWER_COMPLETE');
    const now = Date.now();
    const oldest = new Date(now - RESEARCH_RATE_WINDOW_MS + 10 * 60_000);
    await db()
      .insert(messages)
      .values(
        Array.from({ length: RESEARCH_RATE_LIMIT }, (_, index) => ({
          orgId: h.org.id,
          topicId: first.conversation_id,
          sender: 'USER' as const,
          authorId: h.alice.id,
          messageText: `research ${index}`,
          status: 'SUCCESS' as const,
          deepresearch: true,
          createdAt: index === 0 ? oldest : new Date(now - 60_000),
        })),
      );
    client.send(research({ tz_offset: 0 }));
    const limited = await client.next('RATE_LIMIT_REACHED');
    expect(limited.limit).toBe(RESEARCH_RATE_LIMIT);
    expect(new Date(limited.reset_at).getTime()).toBe(oldest.getTime() + RESEARCH_RATE_WINDOW_MS);
    const saved = await client.next('ANSWER_SAVED', (message) => message.message_id === limited.message_id);
    expect(saved.status).toBe('FAILED');
    const [row] = await db().select().from(messages).where(eq(messages.id, limited.message_id!));
    expect(row?.status).toBe('FAILED');
    expect(row?.messageText).toMatch(/^You've hit the limit of 10 Research requests for now\./);
    expect(row?.messageText).toBe(
      chatStrings.researchLimit(row!.messageText.split('after ')[1]!.replace('...', ''), 10),
    );

    // Bob has his own allowance
    const bob = await h.connect(h.bobToken);
    bob.send(research());
    expect((await bob.next('ANSWER_SAVED', undefined, 15_000)).status).toBe('SUCCESS');
    await Promise.all([client.close(), bob.close()]);
  });
});
