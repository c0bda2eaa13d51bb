// More of asking questions in a real browser (spec asking-questions §4 Reconnect and Feedback, §7 the chat socket;
// shell-and-account §7.5): following a pending answer again after a reload with the chatReconnect flag, the pages
// a Web question read, the debug logs, and votes on single references. The model is the OpenAI-compatible test
// server on 127.0.0.1, the web search a Brave-style test server on 127.0.0.1.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LoginTokens } from '../common/api/session';
import type { QueryMessage } from '../common/api/chat';
import {
  chat as chatStrings,
  scopeNotices,
  settings as settingsStrings,
  validation,
} from '../common/strings';
import { SUGGESTIONS_SYSTEM_PROMPT } from '../server/chat/related';
import { ChatTestClient } from '../server/chat/testing/chat-client';
import { startWebSearchServer, type WebSearchTestServer } from '../server/chat/testing/web-search-server';
import { type RecordedRequest, type ScriptedReply } from '../server/llm/testing/openai-server';
import { aiControlsCopy, modelReasonCopy } from '../app/strings';
import { startChatScout, withSignedInPage, type ChatScout } from './harness';

const WAIT_MS = 20_000;
const DOMAIN = 'reconnect.test';

let scout: ChatScout;
let web: WebSearchTestServer;
let alice: LoginTokens;
let reply: ScriptedReply;

function respond(request: RecordedRequest): ScriptedReply {
  const system = request.messages.find((message) => message.role === 'system')?.content ?? '';
  if (system === SUGGESTIONS_SYSTEM_PROMPT) {
    return { text: 'TITLE: Leave questions\nRELATED:\n- How do I request leave?' };
  }
  return reply;
}

beforeAll(async () => {
  web = await startWebSearchServer();
  scout = await startChatScout(respond);
  vi.stubEnv('WEB_SEARCH_API_KEY', web.apiKey);
  vi.stubEnv('WEB_SEARCH_BASE_URL', web.url);
  alice = (
    await scout.createUser({
      email: `alice@${DOMAIN}`,
      firstName: 'Alice',
      lastName: 'Asker',
      admin: true,
      flags: { chatReconnect: true, debugLogs: true },
    })
  ).tokens;
  // A connected app for the Apps popover: an org-wide custom-api connection, installed as the admin would.
  const installed = await fetch(`${scout.baseUrl}/api/v1/app/install/custom-api`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${alice.id_token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      isOrg: true,
      options: { connection_name: 'Handbook', connection_id: 'handbook' },
    }),
  });
  if (!installed.ok)
    throw new Error(`custom-api install failed: ${installed.status} ${await installed.text()}`);
  await scout.indexDocuments(DOMAIN, [
    {
      source: 'notion',
      externalId: 'leave',
      title: 'Parental leave policy for all employees',
      body: 'Employees get sixteen weeks of paid parental leave. Request parental leave in the HR portal.',
      url: 'https://notion.example/leave',
      acl: ['org'],
    },
    {
      source: 'gdrive',
      externalId: 'holidays',
      title: 'Public holidays 2025',
      body: 'The office is closed on public holidays. Parental leave on a public holiday is not deducted.',
      url: 'https://drive.example/holidays',
      acl: ['org'],
    },
  ]);
});

afterAll(async () => {
  await scout?.stop();
  await web?.close();
});

function withPage(run: (page: Page) => Promise<void>): Promise<void> {
  return withSignedInPage(alice, async (page, context) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: scout.baseUrl });
    await run(page);
  });
}

async function ask(page: Page, question: string): Promise<void> {
  const box = page.getByTestId('question-textarea');
  await box.fill(question);
  await box.press('Enter');
}

const lastAnswer = (page: Page) => page.getByTestId('assistant-message').last();

/** Opens the chat screen; the returned list fills with every QUERY the page sends on its socket. */
async function openChatRecordingQueries(page: Page): Promise<QueryMessage[]> {
  const queries: QueryMessage[] = [];
  page.on('websocket', (socket) => {
    socket.on('framesent', (frame) => {
      const message = JSON.parse(String(frame.payload)) as { type: string };
      if (message.type === 'QUERY') queries.push(message as QueryMessage);
    });
  });
  await page.goto(`${scout.baseUrl}/chat`);
  await page.getByTestId('question-textarea').waitFor({ timeout: WAIT_MS });
  return queries;
}

describe('answers', () => {
  it('follows a pending answer again after a reload and finishes it without doubling the text', async () => {
    const words = Array.from({ length: 60 }, (_, index) => `word${index}`);
    reply = { chunks: words.map((word) => `${word} `), delayMs: 150 };
    await withPage(async (page) => {
      await page.goto(`${scout.baseUrl}/chat`);
      await page.getByTestId('question-textarea').waitFor({ timeout: WAIT_MS });
      await ask(page, 'Count for me slowly');
      await expect
        .poll(async () => (await lastAnswer(page).getByTestId('answer-text').count()) > 0, {
          timeout: WAIT_MS,
        })
        .toBe(true);
      await expect.poll(() => lastAnswer(page).innerText(), { timeout: WAIT_MS }).toContain('word2 ');

      // The socket goes with the page; the server keeps writing the answer.
      await page.reload();
      const answer = lastAnswer(page);
      await answer.waitFor({ timeout: WAIT_MS });
      // Followed again: the stop button is back while it streams, and it finishes here without another reload.
      await page.getByTestId('stop').waitFor({ timeout: WAIT_MS });
      await expect.poll(() => answer.getAttribute('data-status'), { timeout: WAIT_MS }).toBe('SUCCESS');
      const text = await answer.getByTestId('answer-text').innerText();
      expect(text).toContain('word59');
      expect(text.match(/word0\b/g)).toHaveLength(1);
      expect(text.match(/word30\b/g)).toHaveLength(1);
      expect(await page.getByTestId('user-message').getByText('Count for me slowly').count()).toBe(1);
    });
  });

  it('shows the web pages a Web question read, and the debug logs of the answer', async () => {
    web.results = [
      {
        title: 'Parental leave around the world',
        url: 'https://leave.example/world',
        description: 'Sixteen weeks is common.',
      },
      {
        title: 'Leave statistics',
        url: 'https://stats.example/leave',
        description: 'Figures per country.',
      },
    ];
    reply = { text: 'Sixteen weeks is common [1].', firstDelayMs: 300 };
    await withPage(async (page) => {
      await page.goto(`${scout.baseUrl}/chat`);
      await page.getByTestId('question-textarea').waitFor({ timeout: WAIT_MS });
      await page.getByTestId('new-topic').click();
      await page.getByTestId('scope-tabs').getByText('Web', { exact: true }).click();
      // the box says what Web will do before anything is sent
      await expect.poll(() => page.getByTestId('scope-notice').innerText()).toBe(scopeNotices.WEB);
      await ask(page, 'How long is parental leave elsewhere?');
      const answer = lastAnswer(page);
      await expect.poll(() => answer.getAttribute('data-status'), { timeout: WAIT_MS }).toBe('SUCCESS');
      expect(web.queries.at(-1)?.q).toContain('parental leave');

      const pages = answer.getByTestId('web-page');
      expect(await pages.count()).toBe(2);
      expect(await pages.first().getAttribute('href')).toBe('https://leave.example/world');
      await expect
        .poll(() => answer.getByTestId('web-pages-summary').innerText())
        .toBe('Searched 2 web pages from leave.example, stats.example');

      const logs = answer.getByTestId('debug-logs');
      expect(await answer.getByTestId('debug-stage').first().isVisible()).toBe(false);
      await logs.getByRole('button').click();
      await answer.getByTestId('debug-stage').first().waitFor();
      const stages = (await answer.getByTestId('debug-stage').allInnerTexts()).join('\n');
      expect(stages).toContain('GATHERING_DATA');
      expect(stages).toContain('STREAMING_ANSWER');
    });
  });

  it('sends votes on single references with the feedback, a second click clearing one', async () => {
    reply = { text: 'Sixteen weeks [1], not deducted on holidays [2].' };
    await withPage(async (page) => {
      await page.goto(`${scout.baseUrl}/chat`);
      await page.getByTestId('question-textarea').waitFor({ timeout: WAIT_MS });
      await page.getByTestId('new-topic').click();
      await ask(page, 'How much parental leave, and on holidays?');
      const answer = lastAnswer(page);
      await expect.poll(() => answer.getAttribute('data-status'), { timeout: WAIT_MS }).toBe('SUCCESS');
      expect(await answer.getByTestId('reference').count()).toBe(2);

      await answer.getByTestId('thumbs-down').click();
      const rows = page.getByTestId('feedback-reference');
      await rows.first().waitFor();
      expect(await rows.count()).toBe(2);
      await rows.nth(0).getByTestId('feedback-reference-up').click();
      await rows.nth(1).getByTestId('feedback-reference-up').click();
      await rows.nth(1).getByTestId('feedback-reference-down').click();
      // The same rating again clears it.
      await rows.nth(0).getByTestId('feedback-reference-up').click();
      await rows.nth(0).getByTestId('feedback-reference-up').click();
      await rows.nth(0).getByTestId('feedback-reference-up').click();
      expect(await rows.nth(0).getByTestId('feedback-reference-up').getAttribute('aria-pressed')).toBe(
        'false',
      );
      await page.getByTestId('feedback-comment').fill('The second source is off topic.');

      const saved = page.waitForResponse(
        (response) => response.url().endsWith('/api/v1/feedback') && response.request().method() === 'POST',
      );
      await page.getByTestId('feedback-submit').click();
      const response = await saved;
      expect(response.status()).toBe(200);
      const body = (await response.json()) as {
        feedback: { rating: number; comment: string; references_feedback: Record<string, number> };
      };
      expect(body.feedback.rating).toBe(-1);
      expect(body.feedback.comment).toBe('The second source is off topic.');
      expect(Object.values(body.feedback.references_feedback)).toEqual([-1]);
      await expect.poll(() => answer.getByTestId('thumbs-down').getAttribute('aria-pressed')).toBe('true');

      // After a reload the saved votes come back with the answer: a new rating starts from them, and taking
      // one back clears it on the server.
      await page.reload();
      const reloaded = lastAnswer(page);
      await expect
        .poll(() => reloaded.getByTestId('thumbs-down').getAttribute('aria-pressed'), { timeout: WAIT_MS })
        .toBe('true');
      await reloaded.getByTestId('thumbs-up').click();
      await rows.first().waitFor();
      const secondDown = rows.nth(1).getByTestId('feedback-reference-down');
      expect(await secondDown.getAttribute('aria-pressed')).toBe('true');
      await secondDown.click();
      const updated = page.waitForResponse(
        (response) => response.url().endsWith('/api/v1/feedback') && response.request().method() === 'POST',
      );
      await page.getByTestId('feedback-submit').click();
      const second = (await (await updated).json()) as typeof body;
      expect(second.feedback.rating).toBe(1);
      expect(second.feedback.references_feedback).toEqual({});
    });
  });

  it('asks only the sources chosen in the Apps popover, and refuses when none is', async () => {
    reply = { text: 'From your files only.' };
    await withPage(async (page) => {
      const queries = await openChatRecordingQueries(page);
      await page.getByTestId('new-topic').click();

      const button = page.getByTestId('sources-button');
      await expect.poll(() => button.innerText(), { timeout: WAIT_MS }).toBe('All sources');
      await button.click();
      const popover = page.getByTestId('sources-popover');
      await popover.getByText('Custom API').waitFor({ timeout: WAIT_MS });
      // Every app the member can search is offered, with how many of its documents they may read: the connected
      // Custom API (nothing pushed yet), and Notion and Google Drive, whose documents answers cite.
      const countOf = (label: string) =>
        popover.getByTestId('source-row').filter({ hasText: label }).getByTestId('source-count').innerText();
      expect(await countOf('Custom API')).toBe('0');
      expect(await countOf('Notion')).toBe('1');
      expect(await countOf('Google Drive')).toBe('1');
      for (const app of ['Custom API', 'Notion', 'Google Drive']) await popover.getByLabel(app).uncheck();
      await expect.poll(() => button.innerText()).toBe('1 of 4 sources');
      await page.keyboard.press('Escape');
      await popover.waitFor({ state: 'hidden' });
      await ask(page, 'What do my files say?');
      await expect
        .poll(() => lastAnswer(page).getAttribute('data-status'), { timeout: WAIT_MS })
        .toBe('SUCCESS');
      expect(queries.at(-1)?.sources).toMatchObject({
        is_base_llm: false,
        is_web: false,
        skills: { search_all: false, filters: [] },
        files: { search_all: true },
      });

      // Nothing chosen: refused with the spec's words, nothing sent.
      await button.click();
      await popover.getByRole('button', { name: 'Clear all' }).click();
      await expect.poll(() => button.innerText()).toBe('0 of 4 sources');
      await page.keyboard.press('Escape');
      await popover.waitFor({ state: 'hidden' });
      const sent = queries.length;
      await ask(page, 'And now?');
      await page.getByText(validation.SELECT_SOURCES).first().waitFor({ timeout: WAIT_MS });
      expect(queries.length).toBe(sent);

      // Web clears the selection; the Apps tab brings everything back.
      await page.getByTestId('scope-tabs').getByText('Web', { exact: true }).click();
      await expect.poll(() => button.count()).toBe(0);
      await page.getByTestId('scope-tabs').getByText('Apps', { exact: true }).click();
      await expect.poll(() => button.innerText()).toBe('All sources');
    });
  });

  it('suggests prompts for the work role and connections in the onboarding message, and copies with references', async () => {
    const setup = await fetch(`${scout.baseUrl}/api/v1/users/setup_status`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${alice.id_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ work_role: 'sales', referral_source: 'newsletter' }),
    });
    expect(setup.status).toBe(200);
    reply = { text: 'Sixteen weeks [1].' };
    await withPage(async (page) => {
      await page.goto(`${scout.baseUrl}/chat`);
      const onboarding = page.getByTestId('onboarding-message');
      await onboarding.waitFor({ timeout: WAIT_MS });
      await onboarding.getByText('Find the latest sales deck').waitFor({ timeout: WAIT_MS });
      // The popular apps, an even count beside the extension row: Slack, Notion and Google Drive offer Connect;
      // Website, an org-only app, shows the blank placeholder.
      await expect
        .poll(() => onboarding.getByTestId('onboarding-connect').allInnerTexts(), { timeout: WAIT_MS })
        .toEqual(['Connect', 'Connect', 'Connect']);
      await onboarding.getByText('Website', { exact: true }).waitFor();
      expect(await onboarding.getByText('Salesforce', { exact: true }).count()).toBe(0);

      await ask(page, 'How long is parental leave?');
      const answer = lastAnswer(page);
      await expect.poll(() => answer.getAttribute('data-status'), { timeout: WAIT_MS }).toBe('SUCCESS');
      await answer.getByTestId('copy-answer').click();
      await page.getByText(chatStrings.COPIED_TEXT_AND_REFERENCES).waitFor({ timeout: WAIT_MS });
      await expect
        .poll(() => answer.getByTestId('copy-answer').getAttribute('aria-label'))
        .toBe(chatStrings.COPIED);
      const copied = await page.evaluate(() => navigator.clipboard.readText());
      expect(copied).toContain('Sixteen weeks [1].');
      expect(copied).toMatch(/References:\n\[1\] .+ - https:\/\/(notion|drive)\.example\//);
      // 'Copied' lasts 1.5 s, then the button reads Copy again.
      await expect
        .poll(() => answer.getByTestId('copy-answer').getAttribute('aria-label'), { timeout: WAIT_MS })
        .toBe('Copy');
    });
  });

  it('attaches files to a question: uploads them, refuses unsupported ones, sends their ids', async () => {
    reply = { text: 'The code name is in your file.' };
    await withPage(async (page) => {
      const queries = await openChatRecordingQueries(page);
      const picker = page.getByTestId('question-input').locator('input[type="file"]');

      await picker.setInputFiles({
        name: 'setup.exe',
        mimeType: 'application/octet-stream',
        buffer: Buffer.from('MZ'),
      });
      await page.getByText(validation.unsupportedFileTypes(['.exe'])).waitFor({ timeout: WAIT_MS });
      expect(await page.getByTestId('attachment').count()).toBe(0);

      await picker.setInputFiles({
        name: 'zephyr-notes.txt',
        mimeType: 'text/plain',
        buffer: Buffer.from('The Zephyr project code name is BLUE HERON. It ships in the spring.'),
      });
      const chip = page.getByTestId('attachment');
      await chip.waitFor({ timeout: WAIT_MS });
      expect(await chip.innerText()).toContain('zephyr-notes.txt');

      await ask(page, 'What is the Zephyr code name?');
      const question = page.getByTestId('user-message').last();
      await question.getByTestId('message-file').waitFor({ timeout: WAIT_MS });
      await expect.poll(() => page.getByTestId('attachment').count()).toBe(0);
      await expect
        .poll(() => lastAnswer(page).getAttribute('data-status'), { timeout: WAIT_MS })
        .toBe('SUCCESS');
      const sent = queries.at(-1);
      expect(sent?.uploaded_conversation_file_ids).toHaveLength(1);
      expect(sent?.uploaded_conversation_file_ids?.[0]).toMatch(/^[0-9a-f-]{36}$/);

      // The topic goes on with the file as context; after a reload the question still shows it.
      await ask(page, 'When does it ship?');
      await expect.poll(() => queries.length, { timeout: WAIT_MS }).toBeGreaterThan(1);
      expect(queries.at(-1)?.all_contextual_files).toEqual(sent?.uploaded_conversation_file_ids);
      expect(queries.at(-1)?.uploaded_conversation_file_ids).toEqual([]);
      await expect
        .poll(() => lastAnswer(page).getAttribute('data-status'), { timeout: WAIT_MS })
        .toBe('SUCCESS');
      await page.reload();
      await page
        .getByTestId('user-message')
        .filter({ hasText: 'What is the Zephyr code name?' })
        .getByTestId('message-file')
        .waitFor({ timeout: WAIT_MS });
    });
  });

  it('loads older history as the conversation scrolls up', async () => {
    reply = { text: 'Noted.' };
    // More than a page of history, asked over the chat socket as another tab would.
    const client = await ChatTestClient.open(scout.baseUrl, alice.id_token);
    try {
      for (let index = 1; index <= 12; index++) {
        client.send({ type: 'QUERY', query: `Old question ${index}`, isNewTopic: index === 1 });
        await client.next('ANSWER_COMPLETE', () => client.all('ANSWER_COMPLETE').length === index, WAIT_MS);
      }
    } finally {
      await client.close();
    }
    await withPage(async (page) => {
      await page.goto(`${scout.baseUrl}/chat`);
      const conversation = page.getByTestId('conversation');
      await page.getByTestId('user-message').getByText('Old question 12').waitFor({ timeout: WAIT_MS });
      expect(
        await page.getByTestId('user-message').getByText('Old question 1', { exact: true }).count(),
      ).toBe(0);
      expect(await page.getByTestId('onboarding-message').count()).toBe(0);

      // Scrolling to the top loads the page before, and keeps going until the start of the history.
      const oldest = page.getByTestId('user-message').getByText('Old question 1', { exact: true });
      await expect
        .poll(
          async () => {
            await conversation.evaluate((element) => element.scrollTo({ top: 0 }));
            return oldest.count();
          },
          { timeout: WAIT_MS, interval: 300 },
        )
        .toBe(1);
      await expect
        .poll(
          async () => {
            await conversation.evaluate((element) => element.scrollTo({ top: 0 }));
            return page.getByTestId('onboarding-message').count();
          },
          { timeout: WAIT_MS, interval: 300 },
        )
        .toBe(1);
    });
  });
});

describe('AI controls', () => {
  it('shows the disclaimer an admin sets on /admin/ai-controls under the next answer', async () => {
    const disclaimer = 'Answers are written by AI and can be wrong. Check the sources.';
    reply = { text: 'Sixteen weeks of paid parental leave [1].' };
    await withPage(async (page) => {
      await page.goto(`${scout.baseUrl}/admin/ai-controls`);
      const input = page.getByTestId('disclaimer-input');
      await input.waitFor({ timeout: WAIT_MS });
      await input.fill(`  ${disclaimer}  `);
      await page.getByTestId('disclaimer-save').click();
      await page.getByText(settingsStrings.UPDATED_DISCLAIMER).waitFor({ timeout: WAIT_MS });

      await page.goto(`${scout.baseUrl}/chat`);
      await page.getByTestId('question-textarea').waitFor({ timeout: WAIT_MS });
      await ask(page, 'How long is parental leave here?');
      const answer = lastAnswer(page);
      await expect.poll(() => answer.getAttribute('data-status'), { timeout: WAIT_MS }).toBe('SUCCESS');
      await expect.poll(() => answer.getByTestId('answer-disclaimer').innerText()).toBe(disclaimer);
    });
  });

  it('keeps what a member writes on /my-ai-controls and puts it in their next question’s prompt', async () => {
    const background = 'I run payroll in the Lisbon office.';
    reply = { text: 'Noted.' };
    await withPage(async (page) => {
      await page.goto(`${scout.baseUrl}/my-ai-controls`);
      const input = page.getByTestId('personal-background-input');
      await input.waitFor({ timeout: WAIT_MS });
      await input.fill(background);
      await page.getByTestId('personal-background-save').click();
      await page.getByText(aiControlsCopy.PERSONAL_SAVED).waitFor({ timeout: WAIT_MS });
      await page.reload();
      await expect.poll(() => input.inputValue(), { timeout: WAIT_MS }).toBe(background);

      await page.goto(`${scout.baseUrl}/chat`);
      await page.getByTestId('question-textarea').waitFor({ timeout: WAIT_MS });
      await ask(page, 'When is payday?');
      await expect
        .poll(() => lastAnswer(page).getAttribute('data-status'), { timeout: WAIT_MS })
        .toBe('SUCCESS');
      const asked = scout.model.requests.find(
        (request) => request.messages.at(-1)?.content === 'When is payday?',
      );
      expect(asked?.messages.find((message) => message.role === 'system')?.content).toContain(background);
    });
  });

  it('groups the models this server cannot run under why, and an admin turns a model off for everyone', async () => {
    // Only an OpenAI key on this server now: every other provider's models need a key.
    vi.stubEnv('OPENAI_COMPATIBLE_BASE_URL', '');
    vi.stubEnv('OPENAI_API_KEY', 'sk-test');
    vi.stubEnv('OPENAI_BASE_URL', scout.model.url);
    try {
      await withPage(async (page) => {
        await page.goto(`${scout.baseUrl}/admin/ai-controls`);
        const opus = page.getByTestId('ai-model-anthropic-claude-opus');
        await opus.waitFor({ timeout: WAIT_MS });
        expect(await opus.getByTestId('ai-model-blocker').innerText()).toBe(modelReasonCopy.NEEDS_KEY);
        expect(
          await page.getByTestId('ai-model-openai-gpt-4.1').getByTestId('ai-model-blocker').count(),
        ).toBe(0);
        const gpt41 = page.getByTestId('ai-model-switch-openai-gpt-4.1');
        expect(await gpt41.isChecked()).toBe(true);
        const switched = page.waitForResponse((response) =>
          response.url().endsWith('/api/v1/ai_controls/models'),
        );
        await gpt41.click({ force: true });
        expect((await switched).status()).toBe(200);
        await expect.poll(() => gpt41.isChecked()).toBe(false);

        await page.goto(`${scout.baseUrl}/chat`);
        await page.getByTestId('llm-picker').click();
        const needsKey = page.getByTestId('llm-group-needs-key');
        await needsKey.waitFor({ timeout: WAIT_MS });
        expect(await needsKey.innerText()).toContain(modelReasonCopy.NEEDS_KEY);
        expect(await needsKey.innerText()).toContain('Claude Opus');
        expect(await page.getByTestId('llm-group-turned-off').innerText()).toContain('GPT-4.1');
        // Only what can be picked is a menu entry: the OpenAI models still on, not twenty disabled rows.
        const names = (await page.getByRole('menuitem').allInnerTexts()).map((entry) =>
          entry.split('\n')[0]!.trim(),
        );
        expect(names).toContain('GPT-4.1 Mini');
        expect(names).not.toContain('GPT-4.1');
        expect(names.filter((name) => name.startsWith('Claude'))).toEqual([]);
      });
    } finally {
      vi.stubEnv('OPENAI_API_KEY', '');
      vi.stubEnv('OPENAI_BASE_URL', '');
      vi.stubEnv('OPENAI_COMPATIBLE_BASE_URL', scout.model.url);
    }
  });
});
