import { afterAll, beforeAll, expect, it } from 'vitest';
import { NO_MODEL_AI_ONLY, NO_MODEL_NOTICE } from '../llm/extractive';
import { startChatHarness, type ChatHarness } from './testing/harness';

let h: ChatHarness;
let ids: string[];

beforeAll(async () => {
  h = await startChatHarness({ model: 'none', domain: 'extractive.test' });
  ids = await h.index([
    {
      source: 'notion',
      externalId: 'vpn',
      title: 'VPN setup guide',
      body: 'To set up the VPN, install the client and sign in with your work account.',
      acl: ['org'],
    },
    {
      source: 'slack',
      externalId: 'vpn-thread',
      title: 'VPN troubleshooting thread',
      body: 'If the VPN client fails to connect, restart it and check the VPN status page.',
      acl: ['org'],
    },
    {
      source: 'gdrive',
      externalId: 'lunch',
      title: 'Lunch menu',
      body: 'Soup on Mondays.',
      acl: ['org'],
    },
    {
      source: 'notion',
      externalId: 'leave',
      title: 'Leave policy',
      body: [
        '# Leave policy',
        'Everyone at Acme can take leave when needed. Ask your manager first.',
        '## Parental leave',
        'Teammates get **16 weeks** of paid parental leave, taken within a year of the birth. Parental leave for new parents matters to us, and parental leave can start before the birth.',
        '## Sick leave',
        'Sick leave is paid for up to 4 weeks a year.',
      ].join('\n\n'),
      acl: ['org'],
    },
    {
      source: 'gdrive',
      externalId: 'benefits',
      title: 'Benefits overview',
      body: 'Benefits include parental leave and a wellness stipend. The leave policy says how many weeks.',
      acl: ['org'],
    },
  ]);
});
afterAll(() => h.close());

it('with no model configured, answers from the best passages with citations, references and the notice', async () => {
  const client = await h.connect(h.aliceToken);
  client.send({ type: 'QUERY', query: 'How do I set up the VPN?', isNewTopic: true });
  const complete = await client.next('ANSWER_COMPLETE');
  expect(client.all('SET_STAGE').map((stage) => stage.stage)).toEqual([
    'SENDING_REQUEST',
    'GATHERING_DATA',
    'BUILDING_PROMPT',
    'STREAMING_ANSWER',
  ]);
  expect(client.all('CHUNK').length).toBeGreaterThan(2);
  const text = client.text();
  expect(text).toBe(complete.messageText);
  expect(
    text.startsWith('Here are the 2 most relevant passages I found for “How do I set up the VPN?”'),
  ).toBe(true);
  expect(text).toContain(
    '**VPN setup guide**\n> To set up the VPN, install the client and sign in with your work account. [',
  );
  expect(text.trim().endsWith(NO_MODEL_NOTICE)).toBe(true);
  expect(complete.references.map((reference) => reference.id).sort()).toEqual([ids[0], ids[1]].sort());
  // each source's title heads its quote, whose sentences cite the reference it is listed as
  for (const [k, reference] of complete.references.entries()) {
    expect(text).toMatch(new RegExp(`\\*\\*${reference.title}\\*\\*\\n> [^\\n]+ \\[${k + 1}\\]\\n`));
  }
  expect(complete.llm).toBe('extractive');
  expect(complete.relatedSearches).toEqual(
    expect.arrayContaining(['VPN setup guide', 'VPN troubleshooting thread']),
  );
  expect(complete.topic_title).toBe('How do I set up the VPN?');
  await client.close();
});

it('quotes the sentences that answer, under bold lead-ins for their headings, one slot per document', async () => {
  const client = await h.connect(h.aliceToken);
  client.send({
    type: 'QUERY',
    query: 'How many weeks of parental leave do teammates get?',
    isNewTopic: true,
  });
  const complete = await client.next('ANSWER_COMPLETE');
  await client.close();
  const text = complete.messageText;
  expect(text).not.toMatch(/^(?:> )*#/m);
  expect(text).toContain(
    '**Leave policy**\n> **Parental leave:** Teammates get 16 weeks of paid parental leave, taken within a year of the birth. [1]',
  );
  expect(text.split('**Leave policy**')).toHaveLength(2);
  expect(complete.references.map((reference) => reference.id)).toEqual([ids[3], ids[4]]);
  expect(text.trim().endsWith(NO_MODEL_NOTICE)).toBe(true);
});

it('in AI Only mode with no model, says plainly that it cannot answer', async () => {
  const client = await h.connect(h.aliceToken);
  client.send({ type: 'QUERY', query: 'Write me a haiku', sources: { is_base_llm: true } });
  const complete = await client.next('ANSWER_COMPLETE');
  expect(complete.messageText).toBe(NO_MODEL_AI_ONLY);
  expect(complete.references).toEqual([]);
  await client.close();
});

it('GET /api/v1/llms lists every model as not configured', async () => {
  const res = await h.server.app.inject({
    method: 'GET',
    url: '/api/v1/llms',
    headers: { authorization: `Bearer ${h.aliceToken}` },
  });
  expect(res.statusCode).toBe(200);
  const body = res.json<{
    generative: boolean;
    webSearch: boolean;
    llms: { enabled: boolean; reason: string }[];
  }>();
  expect(body.generative).toBe(false);
  // the question box says so before a Web question is sent (app/chat/sources.ts scopeNotice)
  expect(body.webSearch).toBe(false);
  expect(body.llms).toHaveLength(20);
  expect(body.llms.every((llm) => !llm.enabled && llm.reason === 'NOT_CONFIGURED')).toBe(true);
});
