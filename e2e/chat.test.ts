// Asking questions (spec asking-questions §2–§5, §8; shell-and-account §7.5) in a real browser against the real
// server and its chat socket, with an OpenAI-compatible test model on 127.0.0.1 behind OPENAI_COMPATIBLE_BASE_URL
// (or none at all: the extractive answer), and documents indexed through the search store.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { BrowserContext, Page, WebSocketRoute } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LoginTokens } from '../common/api/session';
import {
  chat as chatStrings,
  feedback as feedbackStrings,
  scopeNotices,
  topics as topicStrings,
  validation,
} from '../common/strings';
import { SUGGESTIONS_SYSTEM_PROMPT } from '../server/chat/related';
import {
  type OpenAiTestServer,
  type RecordedRequest,
  type ScriptedReply,
} from '../server/llm/testing/openai-server';
import { startChatScout, withSignedInPage, type ChatScout } from './harness';

const WAIT_MS = 15_000;
const SCREENSHOTS = path.join(process.cwd(), 'test-results', 'screens');
const DOMAIN = 'answers.test';
const STAGE_LABELS: readonly string[] = [
  chatStrings.UNDERSTANDING_QUESTION,
  chatStrings.GATHERING_DATA,
  chatStrings.BUILDING_PROMPT,
  chatStrings.ANSWERING,
];

const ANSWER =
  'Employees get **sixteen weeks** of paid parental leave [1]. Leave on a public holiday is not deducted [2].\n\n' +
  '- Request it in the HR portal [1]\n- Tell your manager early';

let scout: ChatScout;
let model: OpenAiTestServer;
let alice: LoginTokens;
/** What the test model answers to the question itself (titles and related searches have their own reply). */
let reply: ScriptedReply;

function respond(request: RecordedRequest): ScriptedReply {
  const system = request.messages.find((message) => message.role === 'system')?.content ?? '';
  if (system === SUGGESTIONS_SYSTEM_PROMPT) {
    return {
      text: 'TITLE: Parental leave policy\nRELATED:\n- How long is paternity leave?\n- Leave request form',
    };
  }
  return reply;
}

beforeAll(async () => {
  await mkdir(SCREENSHOTS, { recursive: true });
  scout = await startChatScout(respond);
  model = scout.model;
  alice = (
    await scout.createUser({
      email: `alice@${DOMAIN}`,
      firstName: 'Alice',
      lastName: 'Asker',
      workspaceSetup: true,
    })
  ).tokens;
  await scout.indexDocuments(DOMAIN, [
    {
      source: 'notion',
      externalId: 'leave',
      title: 'Parental leave policy for all employees',
      body: 'Employees get sixteen weeks of paid parental leave. Request parental leave in the HR portal.',
      url: 'https://notion.example/leave',
      author: 'Hannah HR',
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
});

function withPage(run: (page: Page, context: BrowserContext) => Promise<void>): Promise<void> {
  return withSignedInPage(alice, run);
}

async function snap(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
}

/** Records every stage label the page shows, however briefly. */
async function watchStages(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { __stages: string[] }).__stages = seen;
    const record = () => {
      for (const node of document.querySelectorAll('[data-testid="stage-label"]')) {
        const text = node.textContent ?? '';
        if (text && seen.at(-1) !== text) seen.push(text);
      }
    };
    new MutationObserver(record).observe(document.body, {
      subtree: true,
      childList: true,
      characterData: true,
    });
  });
}

async function stagesSeen(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __stages: string[] }).__stages);
}

async function ask(page: Page, question: string): Promise<void> {
  const box = page.getByTestId('question-textarea');
  await box.fill(question);
  await box.press('Enter');
}

const lastAnswer = (page: Page) => page.getByTestId('assistant-message').last();

describe('asking a question', () => {
  it('streams the answer through the stages, with references, citations and related searches', async () => {
    reply = { chunks: ANSWER.match(/.{1,6}/gs) ?? [], firstDelayMs: 800, delayMs: 60 };
    await withPage(async (page) => {
      await page.goto(`${scout.baseUrl}/chat`);
      await page.getByTestId('onboarding-message').waitFor({ timeout: WAIT_MS });
      await page.getByText(chatStrings.ASK_QUESTIONS, { exact: true }).waitFor();
      await watchStages(page);

      // Shift+Enter is a new line, not a send; a blank question is not sent.
      const box = page.getByTestId('question-textarea');
      await box.fill('   ');
      await box.press('Enter');
      await box.press('Shift+Enter');
      expect(await page.getByTestId('user-message').count()).toBe(0);

      await ask(page, 'How long is parental leave?');
      await expect.poll(() => box.inputValue()).toBe('');
      await page.getByTestId('user-message').getByText('How long is parental leave?').waitFor();
      const answer = lastAnswer(page);
      await answer.getByTestId('answer-progress').waitFor({ timeout: WAIT_MS });
      await page.getByTestId('stop').waitFor();

      // Mid-stream: some text, still pending.
      await answer.getByTestId('answer-text').waitFor({ timeout: WAIT_MS });
      expect(await answer.getAttribute('data-status')).toBe('PENDING');
      await snap(page, 'chat-streaming');

      await expect.poll(() => answer.getAttribute('data-status'), { timeout: WAIT_MS }).toBe('SUCCESS');
      const stages = await stagesSeen(page);
      expect(stages[0]).toBe(chatStrings.UNDERSTANDING_QUESTION);
      expect(stages).toContain(chatStrings.ANSWERING);
      expect(stages.every((label) => STAGE_LABELS.includes(label))).toBe(true);

      // Markdown rendered (no raw markup), citations opening the references, references listed.
      await answer.locator('strong', { hasText: 'sixteen weeks' }).waitFor();
      expect(await answer.locator('li').count()).toBe(2);
      const text = (await answer.getByTestId('answer-text').innerText()).replace(/\s+/g, ' ');
      expect(text).not.toContain('**');
      const references = answer.getByTestId('reference');
      expect(await references.count()).toBe(2);
      const citations = answer.getByTestId('citation');
      expect(await citations.count()).toBe(3);
      // the documents' addresses are placeholders (.example): no dead links, the preview opens instead
      expect(await references.first().getAttribute('href')).toBeNull();
      const cited = (await citations.first().getAttribute('aria-label'))?.replace(/^1: /, '');
      await citations.first().click();
      const preview = page.getByTestId('preview-title');
      await preview.waitFor();
      expect(await preview.innerText()).toBe(cited);
      await page.keyboard.press('Escape');
      await preview.waitFor({ state: 'hidden' });
      // Titles are cut at 20 characters; the full title is the tooltip.
      const longTitle = 'Parental leave policy for all employees';
      await expect
        .poll(async () => (await references.allInnerTexts()).join('|'))
        .toContain('Parental leave polic...');
      expect((await references.allInnerTexts()).join('|')).not.toContain(longTitle);

      await answer.getByTestId('related-searches').getByText('Leave request form').waitFor();
      await page.getByTestId('topic-title').getByText('Parental leave policy').waitFor();
      // The sidebar lists the new topic.
      await page
        .getByTestId('sidebar-topic')
        .getByText('Parental leave policy')
        .waitFor({ timeout: WAIT_MS });
      await page.mouse.move(0, 0);
      await page.waitForTimeout(300);
      await snap(page, 'chat-finished');
    });
  });

  it('asks every question of a chat screen over one socket, and opens another when that one drops', async () => {
    reply = { text: 'Sixteen weeks [1].' };
    await withPage(async (page) => {
      // every chat socket the page opens, passed through to the server as it is
      const sockets: WebSocketRoute[] = [];
      await page.routeWebSocket(/\/_chat_ws$/, (route) => {
        route.connectToServer();
        sockets.push(route);
      });
      await page.goto(`${scout.baseUrl}/chat`);
      await page.getByTestId('question-textarea').waitFor({ timeout: WAIT_MS });
      for (const question of ['How long is parental leave?', 'Where do I request parental leave?']) {
        await ask(page, question);
        await expect
          .poll(() => lastAnswer(page).getAttribute('data-status'), { timeout: WAIT_MS })
          .toBe('SUCCESS');
      }
      expect(sockets.length).toBe(1);
      expect(await page.getByTestId('assistant-message').count()).toBeGreaterThanOrEqual(2);

      // The connection drops between questions: the page opens another, and the next question is answered on it.
      await sockets[0]!.close({ code: 1001, reason: 'going away' });
      await expect.poll(() => sockets.length, { timeout: WAIT_MS }).toBe(2);
      await ask(page, 'Do public holidays count against my leave?');
      await page
        .getByTestId('user-message')
        .getByText('Do public holidays count against my leave?')
        .waitFor();
      await expect
        .poll(() => lastAnswer(page).getAttribute('data-status'), { timeout: WAIT_MS })
        .toBe('SUCCESS');
      expect(await lastAnswer(page).getByTestId('answer-text').innerText()).toContain('Sixteen weeks');
      expect(sockets.length).toBe(2);
    });
  });

  it('stops an answer mid-stream and keeps it as cancelled, also after a reload', async () => {
    const words = Array.from({ length: 80 }, (_, index) => `word${index}`).join(' ');
    reply = { chunks: words.match(/.{1,8}/gs) ?? [], delayMs: 150 };
    await withPage(async (page) => {
      await page.goto(`${scout.baseUrl}/chat`);
      await page.getByTestId('question-textarea').waitFor({ timeout: WAIT_MS });
      await page.getByTestId('new-topic').click();
      await ask(page, 'Tell me everything');
      const answer = lastAnswer(page);
      await expect
        .poll(async () => (await answer.getByTestId('answer-text').count()) > 0 && answer.innerText(), {
          timeout: WAIT_MS,
        })
        .toContain('word3');
      // A second question while this one is answered is refused.
      await ask(page, 'Another question');
      await page.getByText(validation.WAIT_FOR_PREVIOUS_ANSWER).first().waitFor();
      await page.getByTestId('question-textarea').fill('');

      await page.getByTestId('stop').click();
      await expect.poll(() => answer.getAttribute('data-status')).toBe('CANCELLED');
      const kept = await answer.getByTestId('answer-text').innerText();
      expect(kept).toContain('word3');
      expect(kept).not.toContain('word79');
      await page.getByTestId('send').waitFor();

      // The server saved it as cancelled: the reloaded history shows the same.
      await page.waitForTimeout(500);
      await page.reload();
      const reloaded = page.locator('[data-testid="assistant-message"][data-status="CANCELLED"]');
      await reloaded.first().waitFor({ timeout: WAIT_MS });
      expect(await reloaded.first().innerText()).toContain('word3');
    });
  });

  it('shows the static stopped answer when stopped before streaming', async () => {
    reply = { text: 'Too late.', firstDelayMs: 4000 };
    await withPage(async (page) => {
      await page.goto(`${scout.baseUrl}/chat`);
      await page.getByTestId('question-textarea').waitFor({ timeout: WAIT_MS });
      await ask(page, 'Stop me early');
      await page.getByTestId('stop').click();
      const answer = lastAnswer(page);
      await answer.getByText(chatStrings.STOPPED).waitFor({ timeout: WAIT_MS });
      expect(await answer.getAttribute('data-status')).toBe('CANCELLED');
    });
  });

  it('saves feedback from the thumbs and the modal, and removes it on a second click', async () => {
    reply = { text: 'Sixteen weeks [1].' };
    await withPage(async (page) => {
      await page.goto(`${scout.baseUrl}/chat`);
      await page.getByTestId('question-textarea').waitFor({ timeout: WAIT_MS });
      await ask(page, 'How many weeks of leave?');
      const answer = lastAnswer(page);
      await expect.poll(() => answer.getAttribute('data-status'), { timeout: WAIT_MS }).toBe('SUCCESS');

      // Negative feedback needs a comment; positive does not.
      await answer.getByTestId('thumbs-down').click();
      await expect.poll(() => page.getByTestId('feedback-submit').isDisabled()).toBe(true);
      await page.getByRole('button', { name: 'Cancel' }).click();

      await answer.getByTestId('thumbs-up').click();
      await page.getByTestId('feedback-comment').fill('Clear and cited.');
      await snap(page, 'chat-feedback');
      await page.getByTestId('feedback-submit').click();
      await page.getByText(feedbackStrings.SAVED).waitFor({ timeout: WAIT_MS });
      await expect.poll(() => answer.getByTestId('thumbs-up').getAttribute('aria-pressed')).toBe('true');

      await page.reload();
      const again = lastAnswer(page);
      await expect
        .poll(() => again.getByTestId('thumbs-up').getAttribute('aria-pressed'), { timeout: WAIT_MS })
        .toBe('true');
      await again.getByTestId('thumbs-up').click();
      await page.getByText(feedbackStrings.UPVOTE_REMOVED).waitFor({ timeout: WAIT_MS });
      await page.reload();
      await expect
        .poll(() => lastAnswer(page).getByTestId('thumbs-up').getAttribute('aria-pressed'), {
          timeout: WAIT_MS,
        })
        .toBe('false');
    });
  });

  it('shows a topic at /topic/{id} after a reload, renames it, and deletes it', async () => {
    reply = { text: 'The office is closed on public holidays [1].' };
    await withPage(async (page) => {
      await page.goto(`${scout.baseUrl}/chat`);
      await page.getByTestId('question-textarea').waitFor({ timeout: WAIT_MS });
      await page.getByTestId('new-topic').click();
      await ask(page, 'Is the office open on public holidays?');
      await expect
        .poll(() => lastAnswer(page).getAttribute('data-status'), { timeout: WAIT_MS })
        .toBe('SUCCESS');

      await page.reload();
      await page.getByTestId('sidebar-topic').first().waitFor({ timeout: WAIT_MS });
      await page.getByTestId('sidebar-topic').first().click();
      await expect.poll(() => new URL(page.url()).pathname).toMatch(/^\/topic\/[0-9a-f-]{36}$/);
      await page.getByText('Is the office open on public holidays?').waitFor({ timeout: WAIT_MS });
      const answer = lastAnswer(page);
      await answer.getByText('The office is closed on public holidays').waitFor();
      expect(await answer.getByTestId('reference').count()).toBe(1);
      expect(await page.getByTestId('topic-divider').count()).toBe(1);

      // Click to edit; Enter saves; an empty title reverts.
      await page.getByTestId('topic-title').click();
      await page.getByTestId('topic-title-input').fill('Office holidays');
      await page.getByTestId('topic-title-input').press('Enter');
      await page.getByTestId('topic-title').getByText('Office holidays').waitFor();
      await page.getByTestId('sidebar-topic').getByText('Office holidays').waitFor({ timeout: WAIT_MS });
      await page.getByTestId('topic-title').click();
      await page.getByTestId('topic-title-input').fill('   ');
      await page.getByTestId('topic-title-input').press('Enter');
      await page.getByTestId('topic-title').getByText('Office holidays').waitFor();
      await page.reload();
      await page.getByTestId('topic-title').getByText('Office holidays').waitFor({ timeout: WAIT_MS });
      await snap(page, 'topic-page');

      await page.getByRole('button', { name: 'Topic actions' }).click();
      await page.getByRole('menuitem', { name: 'Delete topic' }).click();
      await page.getByTestId('confirm-delete').click();
      await page.getByText(topicStrings.DELETED).waitFor({ timeout: WAIT_MS });
      await expect.poll(() => new URL(page.url()).pathname).toBe('/chat');
      await expect.poll(() => page.getByTestId('sidebar-topic').getByText('Office holidays').count()).toBe(0);
    });
  });

  it('asks the q address parameter once and cleans the address', async () => {
    reply = { text: 'Sixteen weeks.' };
    await withPage(async (page) => {
      await page.goto(
        `${scout.baseUrl}/chat?q=${encodeURIComponent('What is the leave policy?')}&omnibox=true`,
      );
      await page
        .getByTestId('user-message')
        .getByText('What is the leave policy?')
        .waitFor({ timeout: WAIT_MS });
      await expect.poll(() => new URL(page.url()).search).toBe('');
      await expect
        .poll(() => lastAnswer(page).getAttribute('data-status'), { timeout: WAIT_MS })
        .toBe('SUCCESS');
      await page.reload();
      await lastAnswer(page).waitFor({ timeout: WAIT_MS });
      await page.waitForTimeout(500);
      expect(await page.getByTestId('user-message').getByText('What is the leave policy?').count()).toBe(1);
    });
  });

  it('streams the extractive answer with references when no model is configured', async () => {
    vi.stubEnv('OPENAI_COMPATIBLE_BASE_URL', '');
    try {
      await withPage(async (page) => {
        await page.goto(`${scout.baseUrl}/chat`);
        await page.getByTestId('question-textarea').waitFor({ timeout: WAIT_MS });
        await page.getByTestId('new-topic').click();
        const before = model.requests.length;
        await ask(page, 'parental leave HR portal');
        const answer = lastAnswer(page);
        await expect.poll(() => answer.getAttribute('data-status'), { timeout: WAIT_MS }).toBe('SUCCESS');
        expect((await answer.getByTestId('answer-text').innerText()).length).toBeGreaterThan(20);
        expect(await answer.getByTestId('reference').count()).toBeGreaterThan(0);
        expect(model.requests.length).toBe(before);
        await snap(page, 'chat-extractive');

        // AI Only cannot answer here: the box says so before sending, and does not send
        await page.getByTestId('scope-tabs').getByText('AI Only', { exact: true }).click();
        await expect
          .poll(() => page.getByTestId('scope-notice').innerText())
          .toBe(scopeNotices.NO_MODEL_FOR_AI_ONLY);
        await page.getByTestId('question-textarea').fill('What is a good team name?');
        expect(await page.getByTestId('send').isDisabled()).toBe(true);
      });
    } finally {
      vi.stubEnv('OPENAI_COMPATIBLE_BASE_URL', model.url);
    }
  });
});
