// The signed-in shell and the chat flow (spec shell-and-account §2.8, §4.4, §4.6, §4.11, §5, §9; asking-questions
// §2, §4): the sidebar at phone, tablet and desktop widths, its topic lists, its Support menu, and 'New topic',
// 'Continue Topic' and Stop in the chat, in a real browser against the real server and an OpenAI-compatible test
// model on 127.0.0.1. One server and one browser for the file.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeatureRequestsResponse } from '../common/api/feature-requests';
import type { LoginTokens } from '../common/api/session';
import type { ChatHistoryResponse } from '../common/api/topics';
import { TOPICS_PAGE_SIZE } from '../common/api/topics';
import { SHARED_CONVERSATIONS_LOADED } from '../common/limits';
import { feedback, shell, topics as topicStrings } from '../common/strings';
import { SUGGESTIONS_SYSTEM_PROMPT } from '../server/chat/related';
import type { RecordedRequest, ScriptedReply } from '../server/llm/testing/openai-server';
import {
  callApi,
  type ChatScout,
  launchBrowser,
  seedSession,
  startChatScout,
  withSignedInPage,
} from './harness';

const WAIT_MS = 15_000;
const DOMAIN = 'shell.test';
/** More of Ada's topics than two pages of the sidebar hold. */
const TOPICS = 2 * TOPICS_PAGE_SIZE + 5;
const topicTitle = (n: number) => `Planning note ${String(n).padStart(2, '0')}`;

let scout: ChatScout;
let ada: LoginTokens;
let ben: LoginTokens;
let reply: ScriptedReply = { text: 'Noted.' };

function respond(request: RecordedRequest): ScriptedReply {
  const system = request.messages.find((message) => message.role === 'system')?.content ?? '';
  if (system === SUGGESTIONS_SYSTEM_PROMPT) return { text: 'TITLE: A question\nRELATED:\n- Another one' };
  return reply;
}

const api = <T>(tokens: LoginTokens, method: string, path: string, body?: unknown) =>
  callApi<T>(scout.baseUrl, tokens, method, path, body);

beforeAll(async () => {
  scout = await startChatScout(respond);
  ada = (
    await scout.createUser({
      email: `ada@${DOMAIN}`,
      admin: true,
      workspaceSetup: true,
      firstName: 'Ada',
      flags: { multiplayerEnabled: true },
    })
  ).tokens;
  ben = (await scout.createUser({ email: `ben@${DOMAIN}`, firstName: 'Ben' })).tokens;
  // Ada's topics, oldest first, each shared with Ben: hers under My topics, his under Shared with me.
  for (let n = 1; n <= TOPICS; n++) {
    await api(ada, 'POST', 'messages/create', {
      message: topicTitle(n),
      conversation_id: crypto.randomUUID(),
      tagged_emails: [`ben@${DOMAIN}`],
    });
  }
});
afterAll(async () => {
  await scout?.stop();
});

const sidebar = (page: Page) => page.getByTestId('sidebar');

/** Whether the sidebar is on screen (a closed one is moved out of the window to the left). */
const sidebarShown = (page: Page) =>
  sidebar(page).evaluate((element) => element.getBoundingClientRect().right > 0);

/**
 * How far the page scrolls sideways (0 when it fits the window), and the outermost elements reaching past its right
 * edge, to say what to fix.
 */
const sidewaysOverflow = (page: Page) =>
  page.evaluate(() => {
    const overflow = (document.scrollingElement?.scrollWidth ?? 0) - window.innerWidth;
    const past = [...document.querySelectorAll<HTMLElement>('body *')].filter(
      (node) =>
        node.getBoundingClientRect().right > window.innerWidth + 1 &&
        !(node.parentElement && node.parentElement.getBoundingClientRect().right > window.innerWidth + 1),
    );
    const names = past
      .slice(0, 5)
      .map((node) => `${node.tagName}.${node.className} "${node.textContent?.slice(0, 40) ?? ''}"`);
    return overflow > 0 ? `${overflow}px: ${names.join(' | ')}` : 'fits';
  });

/** Links, buttons and fields inside `root` shorter than 40 px, by name. */
const smallTapTargets = (page: Page, root: string) =>
  page
    .locator(root)
    .evaluate((element) =>
      [
        ...element.querySelectorAll<HTMLElement>(
          'a, button, textarea, input:not([type="hidden"]):not([type="file"]):not([type="radio"]), .mantine-SegmentedControl-label',
        ),
      ]
        .filter((node) => node.getClientRects().length > 0 && node.getBoundingClientRect().height < 40)
        .map((node) => node.getAttribute('aria-label') ?? node.textContent?.trim() ?? node.tagName),
    );

async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
}

describe('the shell on a 390 px phone', () => {
  it('fits the sign-in and sign-up pages without sideways scrolling', async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.context.newPage();
      await seedSession(page, null);
      await page.setViewportSize({ width: 390, height: 844 });
      for (const path of ['/login', '/signup']) {
        await page.goto(`${scout.baseUrl}${path}`);
        await page.getByRole('heading').first().waitFor({ timeout: WAIT_MS });
        await settle(page);
        expect(await sidewaysOverflow(page), path).toBe('fits');
      }
    } finally {
      await browser.close();
    }
  });

  it('fits every signed-in screen, and opens the sidebar as a drawer that closes', async () => {
    await withSignedInPage(ada, async (page) => {
      await page.setViewportSize({ width: 390, height: 844 });
      // Every screen with content of its own; the screens that show only their title yet are represented by the
      // one the sidebar links to (Install Extension). A topic's page is visited below.
      const screens = [
        '/',
        '/search',
        '/files',
        '/apps/org',
        '/integrations',
        '/browser-extension',
        '/my-settings',
        '/admin/members',
        '/admin/api-keys',
        '/chat',
      ];
      for (const path of screens) {
        await page.goto(`${scout.baseUrl}${path}`);
        await page.getByTestId('sidebar-open').waitFor({ timeout: WAIT_MS });
        await settle(page);
        expect(await sidewaysOverflow(page), path).toBe('fits');
        expect(await sidebarShown(page), path).toBe(false);
      }

      await page.getByTestId('question-textarea').waitFor({ timeout: WAIT_MS });
      expect(await smallTapTargets(page, '[data-testid="question-input"]')).toEqual([]);

      // The drawer: opened by the bar's control, closed by its own, by a tap beside it, and by going somewhere.
      await page.getByTestId('sidebar-open').click();
      await expect.poll(() => sidebarShown(page)).toBe(true);
      expect(await smallTapTargets(page, '[data-testid="sidebar"]')).toEqual([]);
      expect(await sidewaysOverflow(page)).toBe('fits');
      await page.getByTestId('sidebar-close').click();
      await expect.poll(() => sidebarShown(page)).toBe(false);

      await page.getByTestId('sidebar-open').click();
      await expect.poll(() => sidebarShown(page)).toBe(true);
      await page.getByTestId('sidebar-backdrop').click({ position: { x: 370, y: 400 } });
      await expect.poll(() => sidebarShown(page)).toBe(false);

      await page.getByTestId('sidebar-open').click();
      await sidebar(page).getByTestId('sidebar-topic').first().click();
      await expect.poll(() => new URL(page.url()).pathname).toMatch(/^\/topic\//);
      await expect.poll(() => sidebarShown(page)).toBe(false);
      await settle(page);
      expect(await sidewaysOverflow(page)).toBe('fits');
    });
  });
});

describe('the sidebar on wider screens', () => {
  it('closes under 1175 px, and keeps the member’s choice across reloads at 1440 px', async () => {
    await withSignedInPage(ada, async (page) => {
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.goto(`${scout.baseUrl}/chat`);
      await page.getByTestId('question-textarea').waitFor({ timeout: WAIT_MS });
      expect(await sidebarShown(page)).toBe(true);
      expect(await page.getByTestId('sidebar-open').count()).toBe(0);

      await page.getByTestId('sidebar-close').click();
      await expect.poll(() => sidebarShown(page)).toBe(false);
      await page.reload();
      await page.getByTestId('sidebar-open').waitFor({ timeout: WAIT_MS });
      expect(await sidebarShown(page)).toBe(false);
      await page.getByTestId('sidebar-open').click();
      await expect.poll(() => sidebarShown(page)).toBe(true);
      await page.reload();
      await page.getByTestId('question-textarea').waitFor({ timeout: WAIT_MS });
      expect(await sidebarShown(page)).toBe(true);

      // Narrowing to a tablet closes it, with no sideways scrolling; widening again gives it back.
      await page.setViewportSize({ width: 768, height: 900 });
      await expect.poll(() => sidebarShown(page)).toBe(false);
      await page.getByTestId('sidebar-open').waitFor();
      expect(await sidewaysOverflow(page)).toBe('fits');
      await page.getByTestId('sidebar-open').click();
      await expect.poll(() => sidebarShown(page)).toBe(true);
      expect(await sidewaysOverflow(page)).toBe('fits');
      await page.setViewportSize({ width: 1440, height: 900 });
      await expect.poll(() => sidebarShown(page)).toBe(true);
    });
  });

  it('reads My topics page after page as it scrolls, and lists Shared with me', async () => {
    await withSignedInPage(ada, async (page) => {
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.goto(`${scout.baseUrl}/chat`);
      const mine = page.getByTestId('my-topics');
      await mine.getByText(topicTitle(TOPICS)).waitFor({ timeout: WAIT_MS });
      expect(await mine.getByText(topicTitle(1)).count()).toBe(0);
      // Scrolling to the end of the list reads the next pages: the oldest topic, beyond the second page.
      await expect
        .poll(
          async () => {
            await page
              .getByTestId('sidebar-topic-lists')
              .evaluate((list) => list.scrollTo(0, list.scrollHeight));
            return mine.getByText(topicTitle(1)).count();
          },
          { timeout: WAIT_MS },
        )
        .toBe(1);
      expect(await mine.getByTestId('sidebar-topic').count()).toBeGreaterThanOrEqual(TOPICS);
      // Far down the list, a way back to its top.
      const lists = page.getByTestId('sidebar-topic-lists');
      await page.getByTestId('sidebar-scroll-top').click();
      await expect.poll(() => lists.evaluate((list) => list.scrollTop)).toBe(0);
      await page.getByTestId('sidebar-scroll-top').waitFor({ state: 'detached' });
      await mine.getByText(topicTitle(1)).click();
      await page.getByTestId('user-message').getByText(topicTitle(1)).waitFor({ timeout: WAIT_MS });
      // Ada shares these topics; she has none shared with her.
      expect(await page.getByTestId('shared-topics').count()).toBe(0);
    });

    await withSignedInPage(ben, async (page) => {
      await page.goto(`${scout.baseUrl}/chat`);
      const shared = page.getByTestId('shared-topics');
      await shared.getByText(shell.SHARED_WITH_ME).waitFor({ timeout: WAIT_MS });
      await expect
        .poll(() =>
          shared
            .getByTestId('shared-topic')
            .evaluateAll((links) => links.map((link) => link.getAttribute('title'))),
        )
        .toEqual(
          Array.from({ length: SHARED_CONVERSATIONS_LOADED }, (_, index) => topicTitle(TOPICS - index)),
        );
    });
    // Without the multiplayer flag the section is gone.
    await scout.setOrgFlags(DOMAIN, {});
    try {
      await withSignedInPage(ben, async (page) => {
        await page.goto(`${scout.baseUrl}/chat`);
        await page.getByTestId('my-topics').waitFor({ timeout: WAIT_MS });
        await settle(page);
        expect(await page.getByTestId('shared-topics').count()).toBe(0);
      });
    } finally {
      await scout.setOrgFlags(DOMAIN, { multiplayerEnabled: true });
    }
  });

  it('sends a feature request from the Support menu, and links Install Extension', async () => {
    await withSignedInPage(ben, async (page) => {
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.goto(`${scout.baseUrl}/chat`);
      await page.getByTestId('sidebar-install-extension').click({ timeout: WAIT_MS });
      await expect.poll(() => new URL(page.url()).pathname).toBe('/browser-extension');

      await page.getByTestId('sidebar-support').click();
      await page.getByTestId('support-request-feature').click();
      const text = page.getByTestId('feature-request-text');
      const submit = page.getByTestId('feature-request-submit');
      await text.waitFor();
      expect(await submit.isDisabled()).toBe(true);
      await text.fill('   ');
      expect(await submit.isDisabled()).toBe(true);
      // 4 rows when empty, growing to 6 at most.
      const empty = await text.evaluate((area) => area.getBoundingClientRect().height);
      await text.fill(Array.from({ length: 12 }, (_, line) => `line ${line}`).join('\n'));
      const full = await text.evaluate((area) => area.getBoundingClientRect().height);
      expect(full).toBeGreaterThan(empty);
      expect(full).toBeLessThanOrEqual(empty * 1.6);

      await text.fill('Let me pin a topic to the top of the sidebar');
      await submit.click();
      await page.getByText(feedback.FEATURE_REQUEST_SENT).waitFor({ timeout: WAIT_MS });
      await text.waitFor({ state: 'hidden' });
    });
    const stored = await api<FeatureRequestsResponse>(ada, 'GET', 'feature_requests');
    expect(stored.feature_requests[0]).toMatchObject({
      text: 'Let me pin a topic to the top of the sidebar',
      author: { email: `ben@${DOMAIN}` },
    });
  });
});

describe('the chat flow', () => {
  const lastAnswer = (page: Page) => page.getByTestId('assistant-message').last();
  async function ask(page: Page, question: string): Promise<void> {
    const box = page.getByTestId('question-textarea');
    await box.fill(question);
    await box.press('Enter');
  }
  const topicOf = async (question: string) => {
    const history = await api<ChatHistoryResponse>(ada, 'GET', '_chatHistory?api_version=2');
    return history.history.find((message) => message.messageText === question)?.conversation_id;
  };

  it('clears the screen for a new topic, asks the next question there, and continues an earlier topic', async () => {
    reply = { text: 'Noted.' };
    await withSignedInPage(ada, async (page) => {
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.goto(`${scout.baseUrl}/chat`);
      await page.getByTestId('user-message').first().waitFor({ timeout: WAIT_MS });
      const newTopic = page.getByTestId('new-topic');

      // Pressed, the screen clears at once; pressed again before asking, the previous topic comes back.
      await newTopic.click();
      await expect.poll(() => page.getByTestId('user-message').count()).toBe(0);
      expect(await newTopic.getAttribute('aria-pressed')).toBe('true');
      await newTopic.click();
      await expect.poll(() => page.getByTestId('user-message').count()).toBeGreaterThan(0);

      await newTopic.click();
      await ask(page, 'Where is the parking garage?');
      await expect
        .poll(() => lastAnswer(page).getAttribute('data-status'), { timeout: WAIT_MS })
        .toBe('SUCCESS');
      expect(await page.getByTestId('user-message').allInnerTexts()).toEqual([
        expect.stringContaining('Where is the parking garage?'),
      ]);
      await ask(page, 'And the bike racks?');
      await expect
        .poll(() => page.getByTestId('assistant-message').nth(1).getAttribute('data-status'), {
          timeout: WAIT_MS,
        })
        .toBe('SUCCESS');

      await newTopic.click();
      await expect.poll(() => page.getByTestId('user-message').count()).toBe(0);
      await ask(page, 'Who approves travel?');
      await expect
        .poll(() => lastAnswer(page).getAttribute('data-status'), { timeout: WAIT_MS })
        .toBe('SUCCESS');
      expect(await page.getByTestId('user-message').count()).toBe(1);

      // The server agrees: the follow-up went to the first new topic, the next question to a topic of its own.
      const parking = await topicOf('Where is the parking garage?');
      expect(parking).toBeTruthy();
      expect(await topicOf('And the bike racks?')).toBe(parking);
      const travel = await topicOf('Who approves travel?');
      expect(travel).toBeTruthy();
      expect(travel).not.toBe(parking);

      // The whole history again: an answer of an earlier topic offers Continue Topic, the latest topic's do not.
      await page.reload();
      const parkingAnswer = page
        .getByTestId('assistant-message')
        .filter({ has: page.getByTestId('continue-topic') })
        .last();
      await parkingAnswer.waitFor({ timeout: WAIT_MS });
      expect(await lastAnswer(page).getByTestId('continue-topic').count()).toBe(0);
      expect(await parkingAnswer.getByTestId('continue-topic').innerText()).toBe(topicStrings.CONTINUE_TOPIC);
      await parkingAnswer.getByTestId('continue-topic').click();
      await expect.poll(() => new URL(page.url()).pathname).toBe(`/topic/${parking}`);
      await page.getByTestId('user-message').getByText('And the bike racks?').waitFor({ timeout: WAIT_MS });

      // New topic on a topic's page: /chat, cleared, and that stays a new topic.
      await page.getByTestId('new-topic').click();
      await expect.poll(() => new URL(page.url()).pathname).toBe('/chat');
      await expect.poll(() => page.getByTestId('user-message').count()).toBe(0);
      expect(await page.getByTestId('new-topic').getAttribute('aria-pressed')).toBe('true');
    });
  });

  it('keeps the same Stop button in place while the answer streams, and stops it', async () => {
    const words = Array.from({ length: 120 }, (_, index) => `word${index}`).join(' ');
    reply = { chunks: words.match(/.{1,8}/gs) ?? [], delayMs: 80 };
    await withSignedInPage(ada, async (page) => {
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.goto(`${scout.baseUrl}/chat`);
      await page.getByTestId('user-message').first().waitFor({ timeout: WAIT_MS });
      await page.getByTestId('new-topic').click();
      await ask(page, 'Tell me a long story');
      await page.getByTestId('stop').waitFor({ timeout: WAIT_MS });
      const stop = await page.getByTestId('stop').elementHandle();
      if (!stop) throw new Error('no Stop button');
      const before = await stop.boundingBox();
      await expect.poll(async () => lastAnswer(page).innerText(), { timeout: WAIT_MS }).toContain('word30');
      // Many streamed pieces later: the very same element, where it was, as large as it was.
      expect(await stop.evaluate((element) => element.isConnected)).toBe(true);
      expect(await stop.boundingBox()).toEqual(before);
      expect(before?.height).toBeGreaterThanOrEqual(40);
      await stop.click();
      await expect.poll(() => lastAnswer(page).getAttribute('data-status')).toBe('CANCELLED');
      expect(await lastAnswer(page).innerText()).not.toContain('word119');
    });
  });
});
