// Retrieval across apps, files and verified answers ranks them as one list: a short verified answer that shares
// only a common word with the question must not outrank the document that answers it.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startChatHarness, type ChatHarness } from './testing/harness';

let h: ChatHarness;
const ids: Record<string, string> = {};

const docs = [
  {
    key: 'pto',
    source: 'notion',
    title: 'Paid time off policy',
    body: '## Sick leave\nSick days are not paid time off.\n## Parental leave\nPrimary caregivers receive 20 weeks of parental leave at full pay, secondary caregivers eight weeks.',
  },
  {
    key: 'expenses',
    source: 'verified_answers',
    title: 'How long do I have to submit an expense claim?',
    body: 'Submit expense claims within 30 days of the purchase, with a photo of the receipt.',
  },
  {
    key: 'hotels',
    source: 'verified_answers',
    title: 'What is the hotel limit when travelling?',
    body: 'Hotels up to 180 euros a night; book through the travel tool at least 14 days ahead.',
  },
  {
    key: 'travel',
    source: 'gdrive',
    title: 'Travel policy',
    body: 'Book trains for journeys under four hours. If you feel unsafe, leave and book another hotel.',
  },
  {
    key: 'handbook',
    source: 'files',
    title: 'Employee handbook',
    body: 'Our values, how we work, and who to ask. The long version of the onboarding guide.',
  },
] as const;

beforeAll(async () => {
  // the extractive answer (no model): its references are the retrieved passages in rank order
  h = await startChatHarness({ model: 'none', domain: 'ranking.test' });
  const stored = await h.index(
    docs.map((doc) => ({
      source: doc.source,
      externalId: doc.key,
      title: doc.title,
      body: doc.body,
      url: `https://${doc.source}.example/${doc.key}`,
      acl: ['org'],
    })),
  );
  docs.forEach((doc, index) => (ids[doc.key] = stored[index]!));
});
afterAll(() => h.close());

async function firstReference(sources?: object): Promise<string | undefined> {
  const client = await h.connect(h.aliceToken);
  client.send({ type: 'QUERY', query: 'How long is parental leave?', ...(sources ? { sources } : {}) });
  const complete = await client.next('ANSWER_COMPLETE');
  await client.close();
  return complete.references[0]?.id;
}

it('puts the document that answers first, over a verified answer sharing a title word', async () => {
  expect(await firstReference()).toBe(ids.pto);
});

it('ranks as one list when the apps, files and answers are chosen one by one', async () => {
  const sources = {
    is_base_llm: false,
    is_web: false,
    skills: {
      search_all: false,
      filters: [
        { app_id: 'notion', app_name: 'notion' },
        { app_id: 'gdrive', app_name: 'gdrive' },
      ],
    },
    files: { search_all: true, filters: [] },
    answers: { search_all: true, filters: [] },
  };
  expect(await firstReference(sources)).toBe(ids.pto);
});
