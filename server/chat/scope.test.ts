import { afterAll, beforeAll, expect, it } from 'vitest';
import type { QuerySourcesInput } from '../../common/api/chat';
import { uploads } from '../db/schema';
import type { RecordedRequest, ScriptedReply } from '../llm/testing/openai-server';
import { SUGGESTIONS_SYSTEM_PROMPT } from './related';
import { startChatHarness, type ChatHarness } from './testing/harness';

let h: ChatHarness;
const ids: Record<string, string> = {};
let keptUpload: string;
let otherUpload: string;

function respond(request: RecordedRequest): ScriptedReply {
  if (request.messages[0]?.content === SUGGESTIONS_SYSTEM_PROMPT) return { text: 'TITLE: Deploy freeze' };
  // cites every number it could: only sources in the prompt can come back as references
  return { text: 'The freeze starts on Friday [1][2][3][4][5][6][7][8].' };
}

/** Every document mentions the freeze; each carries a word no other has, to find it in a prompt. */
const docs = [
  { key: 'engChannel', source: 'slack', marker: 'alpaca', extra: { channel: ['C01', 'eng'] } },
  { key: 'randomChannel', source: 'slack', marker: 'bison', extra: { channel: ['C02', 'random'] } },
  { key: 'opsFile', source: 'gdrive', marker: 'cheetah', extra: { folder: ['F1', 'Ops', 'Shared'] } },
  { key: 'namedFile', source: 'gdrive', marker: 'dingo', title: 'Rollback runbook', extra: {} },
  { key: 'looseFile', source: 'gdrive', marker: 'emu', extra: { folder: 'Personal' } },
  { key: 'confluence', source: 'confluence', marker: 'ferret', extra: { space: 'ENG' } },
  { key: 'answerKept', source: 'verified_answers', marker: 'gecko', externalId: 'answer-kept', extra: {} },
  { key: 'answerOther', source: 'verified_answers', marker: 'hyena', externalId: 'answer-other', extra: {} },
  { key: 'uploadKept', source: 'files', marker: 'ibis', extra: {} },
  { key: 'uploadOther', source: 'files', marker: 'jackal', extra: {} },
] as const;

beforeAll(async () => {
  h = await startChatHarness({ respond, domain: 'scope.test' });
  const stored = await h.index(
    docs.map((doc) => ({
      source: doc.source,
      externalId: 'externalId' in doc ? doc.externalId : doc.key,
      title: 'title' in doc ? doc.title : `Deployment freeze (${doc.marker})`,
      body: `The deployment freeze starts on Friday. Code word ${doc.marker}.`,
      url: `https://${doc.source}.example/${doc.key}`,
      acl: ['org'],
      extra: doc.extra,
    })),
  );
  docs.forEach((doc, index) => (ids[doc.key] = stored[index]!));
  const [kept, other] = await h.server.store.db
    .insert(uploads)
    .values([
      { orgId: h.org.id, fileName: 'kept.pdf', creatorId: h.alice.id, documentId: ids.uploadKept },
      { orgId: h.org.id, fileName: 'other.pdf', creatorId: h.alice.id, documentId: ids.uploadOther },
    ])
    .returning();
  keptUpload = kept!.id;
  otherUpload = other!.id;
});
afterAll(() => h.close());

async function askWith(sources: QuerySourcesInput) {
  const before = h.model!.requests.length;
  const client = await h.connect(h.aliceToken);
  client.send({ type: 'QUERY', query: 'When does the deployment freeze start?', sources });
  const complete = await client.next('ANSWER_COMPLETE');
  const prompt = h.model!.requests.slice(before).find((request) => request.stream)!;
  const skills = client.all('SKILL_RETRIEVED').map((skill) => skill.appName);
  await client.close();
  return {
    references: complete.references.map((reference) => reference.id).sort(),
    summary: complete.allReferencesSummary.app_names.sort(),
    skills: skills.sort(),
    prompt: JSON.stringify(prompt.messages),
  };
}

function expectOnly(result: Awaited<ReturnType<typeof askWith>>, keys: (typeof docs)[number]['key'][]) {
  expect(result.references).toEqual(keys.map((key) => ids[key]).sort());
  for (const doc of docs) {
    if (keys.includes(doc.key)) expect(result.prompt).toContain(doc.marker);
    else expect(result.prompt).not.toContain(doc.marker);
  }
}

it("applies the apps' specify-sources details, the chosen files and the chosen verified answers", async () => {
  const result = await askWith({
    skills: {
      search_all: false,
      filters: [
        { app_name: 'slack', app_details: { channels: [' eng '] } },
        { app_name: 'gdrive', app_details: { folders: ['ops'], files: ['Rollback runbook'] } },
      ],
    },
    files: { search_all: false, filters: [keptUpload] },
    answers: { search_all: false, filters: ['answer-kept'] },
  });
  expectOnly(result, ['engChannel', 'opsFile', 'namedFile', 'answerKept', 'uploadKept']);
  expect(result.summary).toEqual(['files', 'gdrive', 'slack', 'verified_answers']);
  expect(result.skills).toEqual(['files', 'gdrive', 'slack', 'verified_answers']);
});

it('matches a file by its URL and a container by its id, and blank details restrict nothing', async () => {
  const result = await askWith({
    skills: {
      search_all: false,
      filters: [
        { app_name: 'slack', app_details: { channels: ['C02'] } },
        { app_name: 'gdrive', app_details: { files: ['https://gdrive.example/looseFile'] } },
        { app_name: 'confluence', app_details: { spaces: [' ', ''] } },
      ],
    },
  });
  expectOnly(result, ['randomChannel', 'looseFile', 'confluence']);
});

it('searches nothing of an app whose details name nothing it has', async () => {
  const result = await askWith({
    skills: { search_all: false, filters: [{ app_name: 'slack', app_details: { channels: ['no-such'] } }] },
    files: { search_all: false, filters: [otherUpload] },
  });
  expectOnly(result, ['uploadOther']);
  expect(result.skills).toEqual(['files']);
});
