import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ServerMessage } from '../../common/api/chat';
import { chat } from '../../common/strings';
import { topicMembers, topics } from '../db/schema';
import { setDocumentAcl } from '../search';
import type { RecordedRequest, ScriptedReply } from '../llm/testing/openai-server';
import { SUGGESTIONS_SYSTEM_PROMPT } from './related';
import { startChatHarness, type ChatHarness } from './testing/harness';

let h: ChatHarness;
let orgWideId: string;
let privateId: string;

function respond(request: RecordedRequest): ScriptedReply {
  if (request.messages[0]?.content === SUGGESTIONS_SYSTEM_PROMPT) {
    // titles the topic after the first document it is shown, as a model may
    const shown = /^- (.+)$/m.exec(request.messages[1]?.content ?? '')?.[1];
    return { text: `TITLE: ${shown ?? 'Salary questions'}` };
  }
  // asked to quote, it repeats the first source it was given word for word, as a model may
  if (request.messages.at(-1)?.content.startsWith('Quote')) {
    const first = /^\[1\] .*\n([\s\S]*?)(?=\n\n\[2\] |$(?![\s\S]))/m.exec(request.messages[0]?.content ?? '');
    return { text: `${first?.[1]?.replace(/\s+/g, ' ') ?? 'Nothing'} [1]` };
  }
  // cites every number it could: only sources in the prompt may come back as references
  const reply = 'Salaries follow the published bands [1][2][3].';
  // a question asked 'slowly' streams slowly enough for a colleague to join while it is written
  return JSON.stringify(request.messages).includes('slowly')
    ? { text: reply, delayMs: 100 }
    : { text: reply };
}

beforeAll(async () => {
  h = await startChatHarness({ respond, domain: 'acl.test' });
  [orgWideId, privateId] = (await h.index([
    {
      source: 'confluence',
      externalId: 'bands',
      title: 'Salary bands',
      body: 'Salary bands for engineers are published every January.',
      acl: ['org'],
    },
    {
      source: 'gdrive',
      externalId: 'bob-review',
      title: 'Salary review for Bob',
      body: 'Salary review: Bob gets a zanzibar-confidential raise.',
      acl: ['user:bob@acl.test'],
    },
  ])) as [string, string];
});
afterAll(() => h.close());

it('never lets a document the asker cannot read into the prompt or the references', async () => {
  const alice = await h.connect(h.aliceToken);
  alice.send({ type: 'QUERY', query: 'salary review bands' });
  const complete = await alice.next('ANSWER_COMPLETE');
  const ids = complete.references.map((reference) => reference.id);
  expect(ids).toEqual([orgWideId]);
  expect(complete.allReferencesSummary.app_names).toEqual(['confluence']);
  expect(alice.all('SKILL_RETRIEVED').map((skill) => skill.appName)).toEqual(['confluence']);
  // [2] and [3] named no source the asker could read: they are dropped from the text
  expect(complete.messageText).toBe('Salaries follow the published bands [1].');
  const prompts = h.model!.requests.map((request) => JSON.stringify(request.messages));
  expect(prompts.length).toBeGreaterThan(0);
  for (const prompt of prompts) {
    expect(prompt).not.toContain('zanzibar');
    expect(prompt).not.toContain('Salary review for Bob');
  }
  await alice.close();

  // the same question from Bob, who may read both, uses both
  const before = h.model!.requests.length;
  const bob = await h.connect(h.bobToken);
  bob.send({ type: 'QUERY', query: 'salary review bands' });
  const bobs = await bob.next('ANSWER_COMPLETE');
  expect(bobs.references.map((reference) => reference.id).sort()).toEqual([orgWideId, privateId].sort());
  const bobPrompt = h.model!.requests.slice(before).find((request) => request.stream)!;
  expect(JSON.stringify(bobPrompt.messages)).toContain('zanzibar');
  await bob.close();
});

/** What of Bob's private review reached a socket: its title, its id, its app's count. */
function privateTraces(received: readonly ServerMessage[]): string[] {
  const text = JSON.stringify(received);
  return ['Salary review for Bob', privateId, 'gdrive', 'zanzibar'].filter((secret) => text.includes(secret));
}

it('replays a saved answer to a colleague without anything of a source they may not read', async () => {
  const bob = await h.connect(h.bobToken);
  bob.send({ type: 'QUERY', query: 'salary review bands' });
  const answered = await bob.next('ANSWER_COMPLETE');
  expect(privateTraces([answered])).not.toEqual([]);
  await bob.close();
  const { db } = h.server.store;
  await db.update(topics).set({ visibility: 'ORG' }).where(eq(topics.id, answered.conversation_id));

  const alice = await h.connect(h.aliceToken);
  alice.send({ type: 'RECONNECT', message_id: answered.message_id });
  const complete = await alice.next('ANSWER_COMPLETE');
  await alice.next('ANSWER_SAVED');
  expect(complete).toMatchObject({
    messageText: chat.ANSWER_WITHHELD,
    references: [{ id: orgWideId }],
    relatedSearches: [],
    skillRetrieved: [],
    allReferencesSummary: { app_references_count: [], app_names: [] },
  });
  expect(alice.text()).toBe(chat.ANSWER_WITHHELD);
  expect(privateTraces(alice.messages)).toEqual([]);
  await alice.close();

  // Bob may read every source: his replay is the answer he got
  const again = await h.connect(h.bobToken);
  again.send({ type: 'RECONNECT', message_id: answered.message_id });
  expect((await again.next('ANSWER_COMPLETE')).messageText).toBe(answered.messageText);
  await again.close();
});

it('shows a colleague who joins a live answer nothing of a source they may not read', async () => {
  const { db } = h.server.store;
  const bob = await h.connect(h.bobToken);
  bob.send({ type: 'QUERY', query: 'salary review bands, slowly' });
  const rows = await bob.next('ROW_ID');
  await db.update(topics).set({ visibility: 'ORG' }).where(eq(topics.id, rows.conversation_id));
  await bob.next('CHUNK');

  const alice = await h.connect(h.aliceToken);
  alice.send({ type: 'RECONNECT', message_id: rows.message_id });
  const complete = await alice.next('ANSWER_COMPLETE');
  await alice.next('ANSWER_SAVED');
  expect(complete.messageText).toBe(chat.ANSWER_WITHHELD);
  expect(alice.text()).toBe(chat.ANSWER_WITHHELD);
  expect(privateTraces(alice.messages)).toEqual([]);
  expect((await bob.next('ANSWER_COMPLETE')).messageText).toBe('Salaries follow the published bands [1][2].');
  await Promise.all([alice.close(), bob.close()]);
});

it('titles a topic from its question, never from the documents found, which its readers may not read', async () => {
  const bob = await h.connect(h.bobToken);
  bob.send({ type: 'QUERY', query: 'salary review for bob' });
  const complete = await bob.next('ANSWER_COMPLETE');
  expect(complete.references.map((reference) => reference.id)).toContain(privateId);
  const title = (await bob.next('TOPIC_TITLE')).topic_title;
  expect(title).toBe('Salary questions');
  const [stored] = await h.server.store.db
    .select({ title: topics.topicTitle })
    .from(topics)
    .where(eq(topics.id, complete.conversation_id));
  expect(stored?.title).toBe('Salary questions');
  await bob.close();
});

it('never feeds the model an earlier answer of the topic drawn from a source the asker may not read now', async () => {
  const { db } = h.server.store;
  const offer = { source: 'gdrive', externalId: 'bob-offer' };
  await h.index([
    {
      ...offer,
      title: 'Offer for Bob',
      body: 'The offer grants Bob a quokka-class bonus.',
      acl: ['user:bob@acl.test'],
    },
  ]);
  const bob = await h.connect(h.bobToken);
  bob.send({ type: 'QUERY', query: 'Quote the offer for Bob' });
  const first = await bob.next('ANSWER_COMPLETE');
  await bob.next('ANSWER_SAVED');
  expect(first.messageText).toContain('quokka');
  await bob.close();
  const promptsSince = (before: number) =>
    h.model!.requests.slice(before).map((request) => JSON.stringify(request.messages));

  // Alice, made a member of Bob's topic, may post to it: its history must not carry what she may not read.
  await db.update(topics).set({ isMultiplayer: true }).where(eq(topics.id, first.conversation_id));
  await db
    .insert(topicMembers)
    .values({ orgId: h.org.id, topicId: first.conversation_id, userId: h.alice.id });
  let before = h.model!.requests.length;
  const alice = await h.connect(h.aliceToken);
  alice.send({ type: 'QUERY', query: 'And what about the bands?', conversation_id: first.conversation_id });
  expect((await alice.next('ANSWER_COMPLETE')).conversation_id).toBe(first.conversation_id);
  await alice.next('ANSWER_SAVED');
  await alice.close();
  expect(promptsSince(before).length).toBeGreaterThan(0);
  for (const prompt of promptsSince(before)) expect(prompt).not.toContain('quokka');

  // Bob himself once the offer is no longer shared with him: his own earlier answer is withheld from him too.
  await setDocumentAcl(db, h.org.id, offer, ['user:hr@acl.test']);
  before = h.model!.requests.length;
  const again = await h.connect(h.bobToken);
  again.send({ type: 'QUERY', query: 'And the salary bands?', conversation_id: first.conversation_id });
  expect((await again.next('ANSWER_COMPLETE')).conversation_id).toBe(first.conversation_id);
  await again.next('ANSWER_SAVED');
  await again.close();
  expect(promptsSince(before).length).toBeGreaterThan(0);
  for (const prompt of promptsSince(before)) expect(prompt).not.toContain('quokka');
});
