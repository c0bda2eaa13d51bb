// Retrieval across apps, files and verified answers ranks them as one list: a short verified answer that shares
// only a common word with the question must not outrank the document that answers it.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentChunks, orgs } from '../db/schema';
import { MEMORY_DATA_DIR, openStore, type Store } from '../db/store';
import { DEMO_ADMIN_EMAIL, DEMO_DOMAIN, seedDemoContent, seedDemoWorkspace } from '../demo/seed';
import { estimateTokens, principalsFor, searchChunks, upsertDocuments, type IndexDocument } from '../search';
import { createOrg } from '../testing/fixtures';
import { seededRandom } from '../testing/random';
import { pick, sample } from '../search/testing';
import type { Passage } from './passages';
import { PASSAGE_SEPARATOR, retrieveFromApps } from './retrieval';
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

/** A page of sections, each about a thousand characters (one chunk each), of words no question here uses. */
function section(heading: string, lines: readonly string[], seed: number): string {
  const filler = [
    'The office opens at eight and the kitchen is restocked on Mondays.',
    'Desk bookings are made in the facilities tool a week ahead.',
    'Printers on each floor are serviced by the building team.',
    'Visitors sign in at reception and wear a badge at all times.',
    'Bicycles go in the basement racks, never in the corridors.',
    'The quiet room on the third floor has no calls and no music.',
    'Plants are watered by the cleaning crew every Thursday.',
    'Lost property is kept at reception for one month.',
  ];
  const rest = Array.from({ length: 12 }, (_, i) => filler[(seed + i * 3) % filler.length]!);
  return `## ${heading}\n\n${[...lines, ...rest].join(' ')}\n`;
}

/** The handbook page of the passage tests: its fact is in the fifth section, which says least about the topic. */
const LEAVE_TITLE = 'Leave handbook';
const LEAVE_FACT = 'Secondary caregivers receive eight weeks of paid time away.';
/** The page; another `variant` words its filler differently, so no chunk of one is a copy of another's. */
const leavePage = (title: string, variant = 0) =>
  [
    `# ${title}\n`,
    section(
      'Overview',
      ['Parental leave is for every parent.', 'Parental leave starts on the birth.'],
      variant,
    ),
    section(
      'Eligibility',
      ['Parental leave applies from day one.', 'Parental leave needs no tenure.'],
      variant + 1,
    ),
    section(
      'Planning',
      ['Plan parental leave with your manager.', 'Parental leave plans are private.'],
      variant + 2,
    ),
    section('Pay', ['Parental leave is paid in full.', 'Parental leave pay follows payroll.'], variant + 3),
    section('Secondary caregivers', [`${LEAVE_FACT} It counts as parental leave.`], variant + 4),
    section(
      'Returning',
      ['After parental leave, return gradually.', 'Parental leave ends on a Monday.'],
      variant + 5,
    ),
  ].join('\n');
const leaveBody = leavePage(LEAVE_TITLE);

const ALL_SOURCES = {
  is_base_llm: false,
  is_web: false,
  skills: { search_all: true, filters: [] },
  files: { search_all: true, filters: [] },
  answers: { search_all: true, filters: [] },
};

describe('passages for the prompt', () => {
  let orgs = 0;
  const reader = 'reader@passages.test';

  /** A fresh org holding these documents, and what `reader` retrieves there for `q`. */
  async function setUp(docs: IndexDocument[]) {
    const { db } = h.server.store;
    const org = await createOrg(db, { domain: `passages-${++orgs}.test` });
    const ids = (await upsertDocuments(db, org.id, docs)).documentIds;
    const principals = await principalsFor(db, org.id, reader);
    const retrieve = (q: string, budgetTokens = 8000, limit = 8) =>
      retrieveFromApps(h.server.store, {
        orgId: org.id,
        principals,
        q,
        sources: ALL_SOURCES,
        attachedUploadIds: [],
        limit,
        budgetTokens,
      });
    return { org, ids, principals, retrieve };
  }

  const handbook: IndexDocument = {
    source: 'notion',
    externalId: 'leave-handbook',
    title: LEAVE_TITLE,
    body: leaveBody,
    acl: ['org'],
  };

  it('gives the model a long page’s fifth chunk when the budget has room for it', async () => {
    const { org, retrieve } = await setUp([handbook]);
    const chunks = await h.server.store.db
      .select({ ord: documentChunks.ord })
      .from(documentChunks)
      .where(eq(documentChunks.orgId, org.id));
    // the premise: the page is long enough that the fact sits past the two best chunks
    expect(chunks.length).toBeGreaterThanOrEqual(6);
    const passages = await retrieve('How does parental leave work?');
    expect(passages.map((passage) => passage.title)).toEqual([LEAVE_TITLE]);
    expect(passages[0]!.text).toContain(LEAVE_FACT);
  });

  it('joins adjacent chunks into one passage: the page’s own text under its title', async () => {
    const { retrieve } = await setUp([handbook]);
    const [passage] = await retrieve('How does parental leave work?');
    const sections = leaveBody.slice(leaveBody.indexOf('## Overview')).trimEnd();
    expect(passage!.text).toContain(sections);
    expect(passage!.text.startsWith(`${LEAVE_TITLE}\n`)).toBe(true);
    expect(passage!.text).not.toContain(PASSAGE_SEPARATOR);
  });

  it('reads on into the chunk after one that matched, though it shares no word with the question', async () => {
    const body = [
      '# Stays\n',
      section('Booking', ['Choose a hotel in the travel tool.'], 0),
      section('Limits', ['The most we cover is 180 euros a night, taxes included.'], 1),
      section('Loyalty', ['Points from stays are yours to keep.'], 2),
      section('Receipts', ['Keep the folio from the front desk.'], 3),
    ].join('\n');
    const { retrieve } = await setUp([
      { source: 'notion', externalId: 'stays', title: 'Stays', body, acl: ['org'] },
    ]);
    const [passage] = await retrieve('How do I choose a hotel?');
    expect(passage!.text).toContain('180 euros a night');
    // not every chunk of the page: only those around what matched
    expect(passage!.text).not.toContain('folio');
  });

  it('gives the chunk stating the figure a question asks for, though it shares none of the question’s words', async () => {
    // sections of about a thousand characters (a chunk each) whose filler states no figure at all
    const filler = [
      'Pack light and keep your documents together.',
      'Tell your manager where you will be staying.',
      'Keep your laptop with you rather than in checked luggage.',
      'Share your plans in the team channel before you leave.',
    ];
    const part = (heading: string, line: string) =>
      `## ${heading}\n\n${[line, ...Array.from({ length: 20 }, (_, i) => filler[i % filler.length]!)].join(' ')}\n`;
    const fact = 'Teammates may claim up to $80 per day for all three meals.';
    const body = [
      '# Trips\n',
      part('Booking', 'Book flights with the company card.'),
      part('Hotels', 'Choose somewhere central and quiet.'),
      part('Food', 'Breakfast is served at the hotel and team dinners are settled by the host.'),
      part('Trains', 'Trains are preferred for short journeys.'),
      part('Luggage', 'Bags are carried at your own risk.'),
      part('Per diem', fact),
      part('Visas', 'Apply for visas through the travel desk.'),
    ].join('\n');
    const { retrieve } = await setUp([
      { source: 'notion', externalId: 'trips', title: 'Trips', body, acl: ['org'] },
    ]);
    const text = async (q: string, budget: number) =>
      (await retrieve(q, budget)).map((p) => p.text).join('\n');
    // asked for an amount: the chunk stating one comes before the neighbours of the chunks that matched
    expect(await text('How much can I put on the company card for breakfast and dinner?', 1000)).toContain(
      fact,
    );
    // asked for no figure, it is not what the question is about: only what matched and the chunks around it
    expect(await text('What about breakfast and dinner with the company card?', 8000)).not.toContain(fact);
  });

  it('drops a chunk whose text another chosen chunk already gives', async () => {
    const copy = leaveBody.slice(
      leaveBody.indexOf('## Secondary caregivers'),
      leaveBody.indexOf('## Returning'),
    );
    const { retrieve } = await setUp([
      handbook,
      { source: 'gdrive', externalId: 'copy', title: 'Caregivers (copy)', body: copy, acl: ['org'] },
    ]);
    const passages = await retrieve('How does parental leave work?');
    const texts = passages.map((passage) => passage.text).join('\n');
    expect(texts.split(LEAVE_FACT)).toHaveLength(2);
  });

  it('keeps the passages within the token budget, best evidence first', async () => {
    const pages = ['Pay', 'Planning', 'Returning', 'Overview'].map((name, i) => ({
      source: 'notion',
      externalId: `page-${i}`,
      title: `Parental leave: ${name}`,
      body: leavePage(`Parental leave: ${name}`, i + 1),
      acl: ['org'],
    }));
    const { retrieve } = await setUp(pages);
    const roomy = await retrieve('How does parental leave work?', 8000);
    const tight = await retrieve('How does parental leave work?', 700);
    const tokens = (passages: Passage[]) =>
      passages.reduce((sum, passage) => sum + estimateTokens(passage.text), 0);
    expect(tokens(roomy)).toBeGreaterThan(700);
    expect(tokens(tight)).toBeLessThanOrEqual(700);
    expect(tight.length).toBeGreaterThan(0);
    // the tight budget keeps the strongest evidence: the same first source, and no source the roomy one lacks
    expect(tight[0]!.id).toBe(roomy[0]!.id);
    expect(roomy.map((passage) => passage.id)).toEqual(expect.arrayContaining(tight.map((p) => p.id)));
  });

  it('never gives the model a chunk of a document the asker cannot read', async () => {
    const { ids, retrieve } = await setUp([
      { ...handbook, externalId: 'secret', title: 'Board notes', acl: ['user:ceo@passages.test'] },
      {
        source: 'notion',
        externalId: 'open',
        title: 'Parental leave summary',
        body: 'Parental leave is paid in full.',
        acl: ['org'],
      },
    ]);
    const passages = await retrieve('How does parental leave work?');
    expect(passages.map((passage) => passage.id)).toEqual([ids[1]]);
    expect(passages.map((passage) => passage.text).join('\n')).not.toContain('Secondary caregivers');
  });

  it('gives each member passages of documents they can read only, chunks around and joins included (property)', async () => {
    const random = seededRandom(13);
    const vocabulary = 'budget travel hotel laptop payroll leave review launch office refund'.split(' ');
    const people = ['ana', 'ben', 'cy'].map((name) => `${name}@passages.test`);
    const acls = [
      ['org'],
      ...people.map((email) => [`user:${email}`]),
      [`user:${people[0]}`, `user:${people[1]}`],
    ];
    const docs = Array.from({ length: 40 }, (_, i) => ({
      source: 'notion',
      externalId: `doc-${i}`,
      title: `Page ${i}`,
      // every section names its page, so any text of it in a passage is traced back to it
      body: Array.from(
        { length: 4 },
        (_, s) =>
          `## Part ${s}\n\nSee page marker${i}x. ` +
          Array.from({ length: 90 }, () => pick(random, vocabulary)).join(' ') +
          '.',
      ).join('\n\n'),
      acl: pick(random, acls),
    }));
    const { org, ids } = await setUp(docs);
    for (const email of people) {
      const principals = await principalsFor(h.server.store.db, org.id, email);
      const readable = new Set(
        docs.flatMap((doc, i) => (doc.acl.some((p) => principals.includes(p)) ? [ids[i]!] : [])),
      );
      for (let round = 0; round < 6; round++) {
        const q = sample(random, vocabulary, 1 + Math.floor(random() * 3)).join(' ');
        const passages = await retrieveFromApps(h.server.store, {
          orgId: org.id,
          principals,
          q,
          sources: ALL_SOURCES,
          attachedUploadIds: [],
          limit: 8,
          budgetTokens: 1000 + Math.floor(random() * 8000),
        });
        expect(passages.length).toBeGreaterThan(0);
        for (const passage of passages) {
          expect(readable.has(passage.id)).toBe(true);
          for (const [, n] of passage.text.matchAll(/marker(\d+)x/g))
            expect(readable.has(ids[Number(n)]!)).toBe(true);
        }
      }
    }
  });

  it('cites first a verified answer that holds every word of the question, though a page outranks it', async () => {
    const question = 'How long do I have to submit an expense claim?';
    const { org, ids, principals, retrieve } = await setUp([
      {
        source: 'confluence',
        externalId: 'expenses',
        title: 'Expense claims: how long you have to submit an expense claim',
        body:
          '## Submitting an expense claim\n\nSubmit each expense claim in the expenses tool. An expense claim ' +
          'needs a receipt; an expense claim without one is returned. How long an expense claim takes to pay ' +
          'depends on payroll.',
        acl: ['org'],
      },
      {
        source: 'verified_answers',
        externalId: 'va-deadline',
        title: question,
        body: 'Within 30 days of the purchase.',
        acl: ['org'],
      },
    ]);
    // the premise: the search alone ranks the page above the verified answer
    const { hits } = await searchChunks(h.server.store, { orgId: org.id, principals, q: question });
    expect(hits.map((hit) => hit.documentId)).toEqual([ids[0], ids[1]]);
    const passages = await retrieve(question);
    expect(passages.map((passage) => passage.id)).toEqual([ids[1], ids[0]]);
  });
});

describe('the relevance floor', () => {
  it('gives an off-topic question no references at all, and an on-topic one its sources', async () => {
    await h.index([
      {
        source: 'gdrive',
        externalId: 'brand',
        title: 'Brand guidelines',
        body: '## Name\n\nWrite "Acme". Never "ACME" in capitals.',
        url: 'https://gdrive.example/brand',
        acl: ['org'],
      },
    ]);
    const ask = async (query: string) => {
      const client = await h.connect(h.aliceToken);
      client.send({ type: 'QUERY', query, isNewTopic: true });
      const complete = await client.next('ANSWER_COMPLETE');
      await client.close();
      return complete;
    };
    // "capitals" is in the brand guidelines, "France" in nothing: the guidelines do not answer it
    const offTopic = await ask('Capital of France?');
    expect(offTopic.references).toEqual([]);
    expect(offTopic.messageText).not.toContain('Brand guidelines');
    const onTopic = await ask('How long is parental leave?');
    expect(onTopic.references.map((reference) => reference.id)).toContain(ids.pto);
  });

  describe('on the demo workspace', () => {
    let store: Store;
    let retrieve: (q: string) => Promise<Passage[]>;
    beforeAll(async () => {
      store = await openStore({ databaseUrl: null, dataDir: MEMORY_DATA_DIR });
      await seedDemoWorkspace(store);
      await seedDemoContent(store);
      const [org] = await store.db.select().from(orgs).where(eq(orgs.domain, DEMO_DOMAIN));
      const principals = await principalsFor(store.db, org!.id, DEMO_ADMIN_EMAIL);
      retrieve = (q) =>
        retrieveFromApps(store, {
          orgId: org!.id,
          principals,
          q,
          sources: ALL_SOURCES,
          attachedUploadIds: [],
          limit: 8,
          budgetTokens: 4000,
        });
    });
    afterAll(() => store.close());

    it('finds nothing for "Capital of France?"', async () => {
      expect(await retrieve('Capital of France?')).toEqual([]);
    });

    it('cites the demo’s verified answer first for its question', async () => {
      const passages = await retrieve('How long do I have to submit an expense claim?');
      expect(passages[0]?.source).toBe('verified_answers');
      expect(passages.length).toBeGreaterThan(1);
    });
  });
});
