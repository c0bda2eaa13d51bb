import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import type { MessageByIdResponse } from '../../common/api/topics';
import { chat as chatStrings } from '../../common/strings';
import { messages } from '../db/schema';
import { WEB_SEARCH_NOT_CONFIGURED } from './web-search';
import { startChatHarness, type ChatHarness } from './testing/harness';
import { startWebSearchServer, type WebSearchTestServer } from './testing/web-search-server';

let h: ChatHarness;
let web: WebSearchTestServer;
const webQuery = { type: 'QUERY' as const, query: 'node 20 release date', sources: { is_web: true } };

beforeAll(async () => {
  h = await startChatHarness({
    domain: 'web.test',
    respond: (request) =>
      request.stream ? { text: 'Node 20 was released in April 2023 [2].' } : { text: 'TITLE: Node 20' },
  });
  web = await startWebSearchServer();
});
afterAll(async () => {
  await h.close();
  await web.close();
});
beforeEach(() => {
  web.delayMs = 0;
  web.results = [
    {
      title: 'Node.js releases',
      url: 'https://nodejs.org/en/about/releases',
      description: 'Release <strong>schedule</strong>',
    },
    {
      title: 'Node 20 announcement',
      url: 'https://nodejs.org/blog/node-20',
      description: 'Node 20 is out &amp; ready.',
    },
  ];
  vi.stubEnv('WEB_SEARCH_API_KEY', web.apiKey);
  vi.stubEnv('WEB_SEARCH_BASE_URL', web.url);
});

it('refuses Web mode with a clear message when no web search is configured', async () => {
  vi.stubEnv('WEB_SEARCH_API_KEY', '');
  const client = await h.connect(h.aliceToken);
  client.send(webQuery);
  expect(await client.next('ERROR')).toMatchObject({
    code: 'WEB_SEARCH_UNAVAILABLE',
    message: WEB_SEARCH_NOT_CONFIGURED,
  });
  await client.close();
});

it('answers from web results, with their URLs and web references', async () => {
  const client = await h.connect(h.aliceToken);
  client.send(webQuery);
  const complete = await client.next('ANSWER_COMPLETE');
  expect(web.queries.at(-1)).toMatchObject({ q: 'node 20 release date', token: web.apiKey });
  expect(await client.next('WEB_VIEW_URLS')).toMatchObject({
    urls: [
      { url: 'https://nodejs.org/en/about/releases', title: 'Node.js releases' },
      { url: 'https://nodejs.org/blog/node-20', title: 'Node 20 announcement' },
    ],
  });
  expect(await client.next('ALL_WEB_VIEW_URLS_SUMMARY')).toMatchObject({ count: 2, domains: ['nodejs.org'] });
  expect(client.all('SKILL_RETRIEVED')).toEqual([{ type: 'SKILL_RETRIEVED', appName: 'web', numDocs: 2 }]);
  expect(complete.messageText).toBe('Node 20 was released in April 2023 [1].');
  expect(complete.references).toEqual([
    expect.objectContaining({
      source: 'web',
      url: 'https://nodejs.org/blog/node-20',
      snippet: 'Node 20 is out & ready.',
    }),
  ]);
  const prompt = h.model!.requests.filter((request) => request.stream).at(-1)!;
  expect(prompt.messages[0]!.content).toContain(
    '[1] Node.js releases (web, https://nodejs.org/en/about/releases)',
  );
  await client.close();
});

it('saves the web pages read and their summary with the answer, so they come back after a reload', async () => {
  const client = await h.connect(h.aliceToken);
  client.send(webQuery);
  const complete = await client.next('ANSWER_COMPLETE');
  const sent = await client.next('WEB_VIEW_URLS');
  const summary = await client.next('ALL_WEB_VIEW_URLS_SUMMARY');
  await client.close();
  const res = await h.server.app.inject({
    method: 'GET',
    url: `/api/v1/messages/message/${complete.message_id}`,
    headers: { authorization: `Bearer ${h.aliceToken}` },
  });
  expect(res.statusCode, res.body).toBe(200);
  const { extraData } = res.json<MessageByIdResponse>().data.message;
  expect(extraData.webViewUrls).toEqual(sent.urls);
  expect(extraData.allWebViewUrlsSummary).toEqual({ count: summary.count, domains: summary.domains });
  expect(extraData.allWebViewUrlsSummary).toEqual({ count: 2, domains: ['nodejs.org'] });
});

it('STOP_GENERATION while gathering data saves the static stopped answer, and the model is never asked', async () => {
  web.delayMs = 1500;
  const before = h.model!.requests.filter((request) => request.stream).length;
  const client = await h.connect(h.aliceToken);
  client.send(webQuery);
  await client.next('SET_STAGE', (stage) => stage.stage === 'GATHERING_DATA');
  client.send({ type: 'STOP_GENERATION' });
  const saved = await client.next('ANSWER_SAVED', undefined, 5000);
  expect(saved.status).toBe('CANCELLED');
  expect(client.all('CHUNK')).toEqual([]);
  const [row] = await h.server.store.db.select().from(messages).where(eq(messages.id, saved.message_id));
  expect(row).toMatchObject({ status: 'CANCELLED', messageText: chatStrings.STOPPED });
  expect(row?.extraData).toMatchObject({ staticAnswerType: 'stopped' });
  expect(h.model!.requests.filter((request) => request.stream)).toHaveLength(before);
  await client.close();
});
