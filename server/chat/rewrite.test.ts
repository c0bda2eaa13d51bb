// Multi-query: the model's rewrite of a question into keyword searches, fused with the question's own ranking. The
// model is the OpenAI-compatible test server; the question goes through the chat socket as a member asks it.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ServerMessage } from '../../common/api/chat';
import type { RecordedRequest, ScriptedReply } from '../llm/testing/openai-server';
import { principalsFor } from '../search';
import { SUGGESTIONS_SYSTEM_PROMPT } from './related';
import { retrieveFromApps } from './retrieval';
import { isKeywordQuery, parseRewrite, REWRITE_SYSTEM_PROMPT } from './rewrite';
import { startChatHarness, waitFor, type ChatHarness } from './testing/harness';

describe('parseRewrite', () => {
  const question = 'Can I do my job while visiting family overseas?';

  it('reads QUERY lines through code fences, numbering, bullets, bold and a preamble', () => {
    const reply = [
      'Sure, here are the searches:',
      '```',
      '1. QUERY: remote work abroad',
      '- **Query:** working from another country',
      'query 3: "travel policy"',
      '```',
    ].join('\n');
    expect(parseRewrite(reply, question)).toEqual([
      'remote work abroad',
      'working from another country',
      'travel policy',
    ]);
  });

  it('finds nothing in prose, JSON or an answer to the question', () => {
    expect(parseRewrite('The sources do not say.', question)).toEqual([]);
    expect(parseRewrite('```json\n{"queries": ["remote work abroad"]}\n```', question)).toEqual([]);
    expect(parseRewrite('Yes, for up to 30 days a year [1].', question)).toEqual([]);
    expect(parseRewrite('', question)).toEqual([]);
  });

  it('drops the question itself, repeats, empty lines, sentences, and anything past three', () => {
    const reply = [
      `QUERY: ${question}`,
      'QUERY: remote work abroad',
      'QUERY: Remote work abroad',
      'QUERY:',
      'QUERY: you should look in the handbook for the section about working from other countries please',
      'QUERY: working abroad',
      'QUERY: work from another country',
      'QUERY: travel policy',
    ].join('\n');
    expect(parseRewrite(reply, question)).toEqual([
      'remote work abroad',
      'working abroad',
      'work from another country',
    ]);
  });
});

it('takes a few words without a question for a keyword search, and anything else for a question', () => {
  expect(isKeywordQuery('parental leave')).toBe(true);
  expect(isKeywordQuery('VPN setup guide')).toBe(true);
  expect(isKeywordQuery('what is PTO')).toBe(false);
  expect(isKeywordQuery('parental leave?')).toBe(false);
  expect(isKeywordQuery('How long is parental leave for fathers')).toBe(false);
});

describe('through the chat', () => {
  /** Its words (job, visiting, family, overseas) are all in the org's pages, none in the one that answers it. */
  const PARAPHRASE = 'Can I do my job while visiting family overseas?';
  const FACT = 'up to 30 days a year';
  const PRIVATE_FACT = 'ninety days for directors';
  const TIMEOUT_MS = 1500;

  let h: ChatHarness;
  let ids: Record<'abroad' | 'visitors' | 'jobs' | 'directors', string>;
  let rewrite: ScriptedReply;

  function respond(request: RecordedRequest): ScriptedReply {
    const system = request.messages[0]?.content;
    if (system === SUGGESTIONS_SYSTEM_PROMPT) return { text: 'TITLE: Working abroad' };
    if (system === REWRITE_SYSTEM_PROMPT) return rewrite;
    // cites nothing, so the references are the first passages retrieval gave, in its order
    return { text: 'Here is what the sources say.' };
  }

  beforeAll(async () => {
    h = await startChatHarness({
      respond,
      domain: 'rewrite.test',
      env: { CHAT_REWRITE_TIMEOUT_MS: String(TIMEOUT_MS) },
    });
    const [abroad, visitors, jobs, directors] = await h.index([
      {
        source: 'notion',
        externalId: 'abroad',
        title: 'Remote work abroad',
        body: `Staff may work remotely from another country for ${FACT}, with their manager's approval.`,
        acl: ['org'],
      },
      {
        source: 'notion',
        externalId: 'visitors',
        title: 'Office visitors',
        body: 'Family members visiting the office sign in at reception.',
        acl: ['org'],
      },
      {
        source: 'gdrive',
        externalId: 'jobs',
        title: 'Job openings',
        body: 'Open job positions at home and in our overseas offices are posted every Monday.',
        acl: ['org'],
      },
      {
        source: 'gdrive',
        externalId: 'directors',
        title: 'Remote work abroad: directors',
        body: `Directors may work remotely from another country for ${PRIVATE_FACT}.`,
        acl: [`user:${h.bob.email}`],
      },
    ]);
    ids = { abroad: abroad!, visitors: visitors!, jobs: jobs!, directors: directors! };
  });
  afterAll(() => h.close());
  beforeEach(() => {
    rewrite = { text: 'QUERY: remote work abroad\nQUERY: work from another country' };
  });

  /** Asks as `token`, and returns the answer and the model's calls for it. */
  async function ask(token: string, query: string, conversationId?: string) {
    const before = h.model!.requests.length;
    const client = await h.connect(token);
    client.send({
      type: 'QUERY',
      query,
      ...(conversationId ? { conversation_id: conversationId } : { isNewTopic: true }),
    });
    const complete = await client.next('ANSWER_COMPLETE', () => true, 20_000);
    await client.next('ANSWER_SAVED');
    await client.close();
    const calls = h.model!.requests.slice(before);
    return {
      complete,
      references: complete.references.map((reference) => reference.id),
      rewriteCall: calls.find((call) => call.messages[0]?.content === REWRITE_SYSTEM_PROMPT),
      prompt: JSON.stringify(calls.find((call) => call.stream)?.messages),
      calls,
    };
  }

  /** What the question's own searches give, with no rewrite: the documents retrieval picks for the asker. */
  async function withoutRewrite(email: string, q: string): Promise<string[]> {
    const principals = await principalsFor(h.server.store.db, h.org.id, email);
    const passages = await retrieveFromApps(h.server.store, {
      orgId: h.org.id,
      principals,
      q,
      sources: {
        is_base_llm: false,
        is_web: false,
        skills: { search_all: true, filters: [] },
        files: { search_all: true, filters: [] },
        answers: { search_all: true, filters: [] },
      },
      attachedUploadIds: [],
      limit: 8,
      budgetTokens: 8000,
    });
    return passages.map((passage) => passage.id);
  }

  it('finds the page a paraphrase misses through the model’s searches, showing the model only the question', async () => {
    // the premise: the question's own words find the pages that share them, not the one that answers it
    const own = await withoutRewrite(h.alice.email, PARAPHRASE);
    expect(own.sort()).toEqual([ids.visitors, ids.jobs].sort());

    const asked = await ask(h.aliceToken, PARAPHRASE);
    expect(asked.references).toContain(ids.abroad);
    expect(asked.prompt).toContain(FACT);
    // the question's own finds stay: the rewrite adds to them
    expect(asked.references).toEqual(expect.arrayContaining([ids.visitors, ids.jobs]));
    expect(asked.rewriteCall?.messages).toEqual([
      { role: 'system', content: REWRITE_SYSTEM_PROMPT },
      { role: 'user', content: `Question: ${PARAPHRASE}` },
    ]);
  });

  it('falls back to the question’s own results when the model answers junk', async () => {
    const expected = (await withoutRewrite(h.alice.email, PARAPHRASE)).slice(0, 3);
    for (const junk of [
      'The sources do not say.',
      '```json\n{"queries": ["remote work abroad"]}\n```',
      'QUERY:\nQUERY: ```',
    ]) {
      rewrite = { text: junk };
      const asked = await ask(h.aliceToken, PARAPHRASE);
      expect(asked.rewriteCall).toBeDefined();
      expect(asked.references).toEqual(expected);
      expect(asked.prompt).not.toContain(FACT);
    }
  });

  it('falls back to the question’s own results when the model fails', async () => {
    rewrite = { error: { status: 500, message: 'the model is down' } };
    const asked = await ask(h.aliceToken, PARAPHRASE);
    expect(asked.references).toEqual((await withoutRewrite(h.alice.email, PARAPHRASE)).slice(0, 3));
  });

  it('stops waiting for a model slower than the timeout, and answers from the question alone', async () => {
    rewrite = { text: 'QUERY: remote work abroad', firstDelayMs: TIMEOUT_MS * 4 };
    const asked = await ask(h.aliceToken, PARAPHRASE);
    expect(asked.references).not.toContain(ids.abroad);
    expect(asked.references).toEqual((await withoutRewrite(h.alice.email, PARAPHRASE)).slice(0, 3));
    const call = asked.rewriteCall!;
    expect(await waitFor(async () => call.aborted, Boolean)).toBe(true);
  });

  it('never brings in a document the asker cannot read, though the rewrite names it', async () => {
    rewrite = { text: 'QUERY: remote work abroad directors\nQUERY: directors work from another country' };
    const alice = await ask(h.aliceToken, PARAPHRASE);
    expect(alice.references).toContain(ids.abroad);
    expect(alice.references).not.toContain(ids.directors);
    for (const call of alice.calls) expect(JSON.stringify(call.messages)).not.toContain(PRIVATE_FACT);
    expect(JSON.stringify(alice.complete)).not.toContain(PRIVATE_FACT);
    // Bob may read it: the same rewrite finds it for him
    const bob = await ask(h.bobToken, PARAPHRASE);
    expect(bob.references).toContain(ids.directors);
    expect(bob.prompt).toContain(PRIVATE_FACT);
  });

  it('gives the model the conversation for a follow-up, and searches a keyword question as it is', async () => {
    const first = await ask(h.aliceToken, 'remote work');
    expect(first.rewriteCall).toBeUndefined();
    const followUp = await ask(h.aliceToken, 'For how long?', first.complete.conversation_id);
    const content = followUp.rewriteCall?.messages[1]?.content ?? '';
    expect(content).toContain('Asked: remote work');
    expect(content).toContain('Answered: Here is what the sources say.');
    expect(content.endsWith('Question: For how long?')).toBe(true);
  });

  it('streams nothing of the rewrite to the asker', async () => {
    rewrite = { text: 'QUERY: zebra crossing abroad' };
    const client = await h.connect(h.aliceToken);
    client.send({ type: 'QUERY', query: PARAPHRASE, isNewTopic: true });
    await client.next('ANSWER_COMPLETE', () => true, 20_000);
    await client.next('ANSWER_SAVED');
    const shown: ServerMessage[] = client.messages;
    expect(JSON.stringify(shown)).not.toContain('zebra');
    await client.close();
  });
});
