// The homepage (spec shell-and-account §2.7, §5, §8): asking from it, the bookmark rows and their limits, its
// layout on a phone, and workflows (recommended chips, 'View workflows', 'Save as workflow', /workflows), in a real browser against the real server and an OpenAI-compatible test model on 127.0.0.1.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOOKMARK_LINK_FORMAT, type Bookmark } from '../common/api/bookmarks';
import type { PromptResponse, PromptsResponse } from '../common/api/prompts';
import type { CurrentUser, LoginTokens } from '../common/api/session';
import { BOOKMARKS_PER_LIST_MAX } from '../common/limits';
import {
  apps as appStrings,
  bookmarks as spec,
  homeBookmarks,
  shell,
  validation,
  workflows as workflowStrings,
} from '../common/strings';
import { workflowsCopy } from '../app/strings';
import { callApi, type ChatScout, startChatScout, withSignedInPage } from './harness';

const WAIT_MS = 15_000;
const DOMAIN = 'home.test';
const ANSWER = 'The office opens at nine on weekdays and closes at six.';

let scout: ChatScout;
let admin: LoginTokens;
let member: LoginTokens;

beforeAll(async () => {
  scout = await startChatScout(() => ({
    chunks: ANSWER.match(/.{1,5}/gs) ?? [],
    firstDelayMs: 300,
    delayMs: 40,
  }));
  admin = (await scout.createUser({ email: `ada@${DOMAIN}`, admin: true, workspaceSetup: true })).tokens;
  member = (await scout.createUser({ email: `ben@${DOMAIN}`, firstName: 'Ben' })).tokens;
});
afterAll(async () => {
  await scout?.stop();
});

const api = <T>(tokens: LoginTokens, method: string, path: string, body?: unknown) =>
  callApi<T>(scout.baseUrl, tokens, method, path, body);

const setPersonal = async (tokens: LoginTokens, bookmarks: Bookmark[]) => {
  const me = await api<CurrentUser>(tokens, 'GET', '_fetchData/user');
  await api(tokens, 'PATCH', `users/${me.userId}/bookmarks`, { bookmarks });
};

const titlesOf = (page: Page, kind: 'personal' | 'company') =>
  page.getByTestId(`bookmarks-${kind}`).getByTestId('bookmark').allInnerTexts();

const toast = (page: Page, text: string) => page.locator('.mantine-Notification-root', { hasText: text });

describe('the homepage', () => {
  it('asks the question typed on it in /chat, with the scope chosen there, and streams the answer', async () => {
    await withSignedInPage(member, async (page) => {
      await page.goto(`${scout.baseUrl}/`);
      await page.getByRole('heading', { name: shell.HOME_HEADING }).waitFor({ timeout: WAIT_MS });
      await page.getByTestId('workflow-chips').getByText(homeBookmarks.WORKFLOWS_EMPTY).waitFor();
      await page.getByTestId('scope-tabs').getByText(appStrings.SCOPE_AI_ONLY).click();
      const box = page.getByTestId('question-textarea');
      await box.fill('When does the office open?');
      await box.press('Enter');

      await page.waitForURL((url) => url.pathname === '/chat' && !url.searchParams.has('q'), {
        timeout: WAIT_MS,
      });
      await page.getByTestId('user-message').getByText('When does the office open?').waitFor();
      const answer = page.getByTestId('assistant-message').last();
      await answer.getByTestId('answer-text').waitFor({ timeout: WAIT_MS });
      await expect.poll(() => answer.getAttribute('data-status'), { timeout: WAIT_MS }).toBe('SUCCESS');
      expect((await answer.getByTestId('answer-text').innerText()).replace(/\s+/g, ' ')).toContain(
        'opens at nine',
      );
      // the choice made on the homepage is the one the chat asked with
      expect(await page.getByRole('radio', { name: appStrings.SCOPE_AI_ONLY }).isChecked()).toBe(true);
      // asked once: a reload does not ask again
      await page.reload();
      await page.getByTestId('user-message').first().waitFor({ timeout: WAIT_MS });
      expect(await page.getByTestId('user-message').getByText('When does the office open?').count()).toBe(1);
    });
  });

  it('adds, reorders (undone when the save fails) and deletes personal bookmarks, up to the limit', async () => {
    await setPersonal(member, [
      { title: 'Handbook', link: 'https://handbook.example/' },
      { title: 'Wiki', link: 'https://wiki.example/' },
    ]);
    await withSignedInPage(member, async (page) => {
      await page.goto(`${scout.baseUrl}/`);
      const row = page.getByTestId('bookmarks-personal');
      await row.getByTestId('bookmark').first().waitFor({ timeout: WAIT_MS });
      const link = row.getByRole('link', { name: 'Handbook' });
      expect(await link.getAttribute('href')).toBe('https://handbook.example/');
      expect(await link.getAttribute('rel')).toContain('noopener');

      // The dialog: Save stays disabled until both fields are valid, with the spec's messages.
      await page.getByTestId('bookmarks-personal-add').click();
      const save = page.getByTestId('bookmark-save');
      await page.getByTestId('bookmark-title').fill('wiki');
      await page.getByTestId('bookmark-link').fill('javascript:alert(1)');
      await page.getByText(validation.DUPLICATE_BOOKMARK_TITLE).waitFor();
      await page.getByText(validation.invalidUrl(BOOKMARK_LINK_FORMAT)).waitFor();
      expect(await save.isDisabled()).toBe(true);
      await page.getByTestId('bookmark-title').fill('Status');
      await page.getByTestId('bookmark-link').fill('https://status.example/');
      await save.click();
      await toast(page, spec.PERSONAL_CREATED).waitFor();
      await expect.poll(() => titlesOf(page, 'personal')).toEqual(['Handbook', 'Wiki', 'Status']);

      // Drag Status to the front; the order survives a reload.
      const items = row.getByTestId('bookmark');
      await items.nth(2).dragTo(items.nth(0));
      await expect.poll(() => titlesOf(page, 'personal')).toEqual(['Status', 'Handbook', 'Wiki']);
      await page.reload();
      await expect
        .poll(() => titlesOf(page, 'personal'), { timeout: WAIT_MS })
        .toEqual(['Status', 'Handbook', 'Wiki']);

      // The keyboard moves a bookmark too, and focus goes with it.
      await row.getByRole('link', { name: 'Wiki' }).focus();
      await page.keyboard.press('Alt+ArrowLeft');
      await expect.poll(() => titlesOf(page, 'personal')).toEqual(['Status', 'Wiki', 'Handbook']);
      await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Wiki');
      await page.keyboard.press('Alt+ArrowRight');
      await expect.poll(() => titlesOf(page, 'personal')).toEqual(['Status', 'Handbook', 'Wiki']);

      // A reorder the server does not take goes back, with the spec's message.
      await page.route('**/api/v1/users/*/bookmarks', (route) =>
        route.fulfill({ status: 500, body: '{"code":"INTERNAL","message":"x"}' }),
      );
      await items.nth(2).dragTo(items.nth(0));
      await toast(page, spec.REORDER_ERROR).waitFor({ timeout: WAIT_MS });
      await expect.poll(() => titlesOf(page, 'personal')).toEqual(['Status', 'Handbook', 'Wiki']);
      await page.unroute('**/api/v1/users/*/bookmarks');

      await row.getByRole('button', { name: homeBookmarks.deleteLabel('Handbook') }).click();
      await toast(page, spec.PERSONAL_DELETED).waitFor();
      await expect.poll(() => titlesOf(page, 'personal')).toEqual(['Status', 'Wiki']);

      // Filling the list to the limit hides the add button.
      await setPersonal(
        member,
        Array.from({ length: BOOKMARKS_PER_LIST_MAX - 1 }, (_, i) => ({
          title: `Link ${i + 1}`,
          link: `https://l${i + 1}.example/`,
        })),
      );
      await page.reload();
      await page.getByTestId('bookmarks-personal-add').click();
      await page.getByTestId('bookmark-title').fill('Last one');
      await page.getByTestId('bookmark-link').fill('https://last.example/');
      await page.getByTestId('bookmark-save').click();
      await expect.poll(() => titlesOf(page, 'personal')).toHaveLength(BOOKMARKS_PER_LIST_MAX);
      expect(await page.getByTestId('bookmarks-personal-add').count()).toBe(0);
    });
  });

  it('shows members the company row only once an admin has filled it, and never lets them edit it', async () => {
    await api(admin, 'PATCH', 'orgs/bookmarks', { bookmarks: [] });
    await withSignedInPage(member, async (page) => {
      await page.goto(`${scout.baseUrl}/`);
      await page.getByTestId('bookmarks-personal').waitFor({ timeout: WAIT_MS });
      expect(await page.getByTestId('bookmarks-company').count()).toBe(0);
    });
    await withSignedInPage(admin, async (page) => {
      await page.goto(`${scout.baseUrl}/`);
      await page.getByTestId('bookmarks-company-add').click({ timeout: WAIT_MS });
      await page.getByTestId('bookmark-title').fill('Benefits');
      await page.getByTestId('bookmark-link').fill('https://benefits.example/');
      await page.getByTestId('bookmark-save').click();
      await toast(page, spec.COMPANY_CREATED).waitFor();
    });
    await withSignedInPage(member, async (page) => {
      await page.goto(`${scout.baseUrl}/`);
      const row = page.getByTestId('bookmarks-company');
      await row.getByRole('link', { name: 'Benefits' }).waitFor({ timeout: WAIT_MS });
      expect(await page.getByTestId('bookmarks-company-add').count()).toBe(0);
      expect(await row.getByTestId('bookmark-delete').count()).toBe(0);
    });
  });

  it('fits a 390 px wide phone without sideways scrolling', async () => {
    await setPersonal(member, [
      { title: 'A very long bookmark title '.repeat(9).trim(), link: 'https://a.example/' },
    ]);
    await withSignedInPage(member, async (page) => {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`${scout.baseUrl}/`);
      await page.getByTestId('question-textarea').waitFor({ timeout: WAIT_MS });
      await page.getByTestId('bookmarks-personal').getByTestId('bookmark').waitFor();
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBe(0);
      // The page's own content, laid out behind the shell's sidebar at this width, ends inside the window.
      const rightmost = await page
        .getByTestId('home')
        .evaluate((home) =>
          Math.max(...[...home.querySelectorAll('*')].map((node) => node.getBoundingClientRect().right)),
        );
      expect(rightmost).toBeLessThanOrEqual(390);
    });
  });

  it('makes a workflow on /workflows, shows it recommended on the homepage, and uses it from the input and a message', async () => {
    const MODEL = 'GPT-4.1 Mini';
    const cardOf = (page: Page, title: string) =>
      page.getByTestId('workflow-card').filter({ has: page.getByText(title, { exact: true }) });
    const box = (page: Page) => page.getByTestId('question-textarea');

    // A member makes one, shared with the workspace; only admins are offered the recommendation.
    await withSignedInPage(member, async (page) => {
      await page.goto(`${scout.baseUrl}/workflows`);
      await page.getByTestId('workflows-empty').getByText(workflowsCopy.EMPTY).waitFor({ timeout: WAIT_MS });
      await page.getByTestId('workflow-new').click();
      await page.getByTestId('workflow-title').fill('Office hours');
      await page.getByTestId('workflow-template').fill('When does the office open?');
      await page.getByTestId('workflow-model').click();
      await page.getByRole('option', { name: MODEL, exact: true }).click();
      await page.getByLabel(workflowsCopy.SHARE_LABEL).check();
      expect(await page.getByLabel(workflowsCopy.RECOMMEND_LABEL).count()).toBe(0);
      await page.getByTestId('workflow-save').click();
      await toast(page, workflowsCopy.SAVED).waitFor();
      await cardOf(page, 'Office hours').getByText(MODEL).waitFor();
    });

    // An admin recommends it from the Organisation list.
    await withSignedInPage(admin, async (page) => {
      await page.goto(`${scout.baseUrl}/workflows`);
      await page
        .getByTestId('workflow-filter')
        .getByText(workflowsCopy.FILTER_ORG)
        .click({ timeout: WAIT_MS });
      const card = cardOf(page, 'Office hours');
      // Edit reads the stored workflow first; when that fails, the spec's message and no dialog.
      await page.route('**/api/v1/prompts/promptsById/*', (route) =>
        route.fulfill({ status: 500, body: '{"code":"INTERNAL","message":"x"}' }),
      );
      await card.getByTestId('workflow-edit').click({ timeout: WAIT_MS });
      await toast(page, workflowStrings.FETCH_ONE_ERROR).waitFor({ timeout: WAIT_MS });
      expect(await page.getByTestId('workflow-title').count()).toBe(0);
      await page.unroute('**/api/v1/prompts/promptsById/*');
      await card.getByTestId('workflow-edit').click();
      await page.getByLabel(workflowsCopy.RECOMMEND_LABEL).check();
      await page.getByTestId('workflow-save').click();
      await card.getByTestId('workflow-recommended').waitFor({ timeout: WAIT_MS });
    });

    await withSignedInPage(member, async (page) => {
      // The homepage's chip fills the box and picks the workflow's model; nothing is asked yet.
      await page.goto(`${scout.baseUrl}/`);
      await page.getByTestId('workflow-chip').filter({ hasText: 'Office hours' }).click({ timeout: WAIT_MS });
      await expect.poll(() => box(page).inputValue()).toBe('When does the office open?');
      expect(await page.getByTestId('llm-picker').innerText()).toContain(MODEL);
      expect(new URL(page.url()).pathname).toBe('/');

      // 'View workflows' in the chat's input does the same; the question is then asked as typed.
      await page.goto(`${scout.baseUrl}/chat`);
      // the question asked from the homepage earlier is in the history: counted once it has loaded
      await page.getByTestId('user-message').first().waitFor({ timeout: WAIT_MS });
      const asked = await page.getByTestId('user-message').count();
      await page.getByTestId('view-workflows').click();
      await page
        .getByTestId('workflow-picker')
        .getByTestId('workflow-option')
        .filter({ hasText: 'Office hours' })
        .click();
      await expect.poll(() => box(page).inputValue()).toBe('When does the office open?');
      expect(await page.getByTestId('llm-picker').innerText()).toContain(MODEL);
      await box(page).press('Enter');
      await expect.poll(() => page.getByTestId('user-message').count(), { timeout: WAIT_MS }).toBe(asked + 1);
      const answer = page.getByTestId('assistant-message').last();
      await expect.poll(() => answer.getAttribute('data-status'), { timeout: WAIT_MS }).toBe('SUCCESS');

      // 'Save as workflow' on the question: a new workflow with the question as its template.
      await page.getByTestId('user-message').last().getByTestId('save-as-workflow').click();
      expect(await page.getByTestId('workflow-template').inputValue()).toBe('When does the office open?');
      await page.getByTestId('workflow-title').fill('Opening time');
      await page.getByTestId('workflow-save').click();
      await toast(page, workflowsCopy.SAVED).waitFor();

      // On /workflows, 'Use' opens the chat with it in the box, unsent; then it is deleted after a confirmation.
      await page.goto(`${scout.baseUrl}/workflows`);
      await page
        .getByTestId('workflow-filter')
        .getByText(workflowsCopy.FILTER_MINE)
        .click({ timeout: WAIT_MS });
      await page.getByTestId('workflow-search').fill('opening');
      await expect.poll(() => page.getByTestId('workflow-card').count(), { timeout: WAIT_MS }).toBe(1);
      await cardOf(page, 'Opening time').getByTestId('workflow-use').click();
      await page.waitForURL((url) => url.pathname === '/chat', { timeout: WAIT_MS });
      // in the box, not asked: the history has loaded and sending would have emptied the box
      await page.getByTestId('user-message').first().waitFor({ timeout: WAIT_MS });
      expect(await box(page).inputValue()).toBe('When does the office open?');
      expect(await page.getByTestId('user-message').count()).toBe(asked + 1);

      await page.goto(`${scout.baseUrl}/workflows`);
      await cardOf(page, 'Opening time').getByTestId('workflow-delete').click({ timeout: WAIT_MS });
      await page.getByTestId('workflow-delete-confirm').click();
      await toast(page, workflowsCopy.DELETED).waitFor();
      await cardOf(page, 'Opening time').waitFor({ state: 'detached' });
      expect(await page.getByText(workflowStrings.FETCH_ALL_ERROR).count()).toBe(0);
    });

    // Each pick was counted: the homepage chip and 'View workflows'.
    const listed = await api<PromptsResponse>(member, 'GET', 'prompts?filter=recommended');
    const office = listed.prompts.find((prompt) => prompt.title === 'Office hours');
    await expect
      .poll(
        async () =>
          (await api<PromptResponse>(member, 'GET', `prompts/promptsById/${office?.id}`)).prompt.use_count,
      )
      .toBe(2);
  });
});
