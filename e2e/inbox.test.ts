// The inbox (spec shell-and-account §2.8, §2.9, §4.7) in a real browser against the real server: a colleague tags a
// member, whose inbox shows it with the badge and the '(1) ' tab title; read in one tab, it is read in the other;
// 'Mark all as read' and the empty states; and the preferences screen saving what the member chose.
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NotificationPreferences } from '../common/api/notifications';
import type { LoginTokens } from '../common/api/session';
import { inbox, inboxCopy } from '../common/strings';
import {
  callApi,
  launchBrowser,
  type RunningScout,
  seedSession,
  startScout,
  withSignedInPage,
} from './harness';

const WAIT_MS = 15_000;
const DOMAIN = 'inbox.test';
const FLAGS = { notifications: true, multiplayerEnabled: true };

let scout: RunningScout;
let ann: LoginTokens; // tags and adds
let ben: LoginTokens; // is told
let dee: LoginTokens; // never told anything

beforeAll(async () => {
  scout = await startScout();
  const make = (name: string) =>
    scout.createUser({
      email: `${name.toLowerCase()}@${DOMAIN}`,
      firstName: name,
      lastName: 'Test',
      flags: FLAGS,
    });
  ann = (await make('Ann')).tokens;
  ben = (await make('Ben')).tokens;
  dee = (await make('Dee')).tokens;
});
afterAll(async () => {
  await scout?.stop();
});

const api = <T>(tokens: LoginTokens, method: string, path: string, body?: unknown) =>
  callApi<T>(scout.baseUrl, tokens, method, path, body);

/** Ann writes to colleagues in a new topic, tagging `emails`. */
async function annTags(emails: string[], message: string): Promise<void> {
  await api(ann, 'POST', 'messages/create', {
    conversation_id: randomUUID(),
    message,
    tagged_emails: emails,
  });
}

const toast = (page: Page, text: string) => page.locator('.mantine-Notification-root', { hasText: text });
const panel = (page: Page) => page.getByTestId('inbox-panel');
const items = (page: Page) => panel(page).getByTestId('inbox-item');
const badge = (page: Page) => page.getByTestId('inbox-badge');

async function openInbox(page: Page) {
  await page.getByTestId('sidebar-inbox').click({ timeout: WAIT_MS });
  await panel(page).getByTestId('inbox-filter').waitFor({ timeout: WAIT_MS });
}

async function chooseFilter(page: Page, label: string) {
  await panel(page).getByTestId('inbox-filter').getByText(label, { exact: true }).click();
}

describe('the inbox', () => {
  it('shows a tagged member the item, the badge and the tab title; read in one tab, it is read in the other', async () => {
    // Ann tags Ben in her own browser
    let topicId = '';
    let messageId = '';
    await withSignedInPage(ann, async (page) => {
      await page.goto(`${scout.baseUrl}/chat`);
      const box = page.getByTestId('question-textarea');
      await box.waitFor({ timeout: WAIT_MS });
      await box.pressSequentially('@be');
      await page.getByTestId('mention-option').first().waitFor({ timeout: WAIT_MS });
      await box.press('Enter');
      await box.pressSequentially('can you review the launch plan?');
      const created = page.waitForResponse((response) => response.url().endsWith('/api/v1/messages/create'));
      await box.press('Enter');
      const body = (await (await created).json()) as {
        message: { conversation_id: string; message_id: string };
      };
      topicId = body.message.conversation_id;
      messageId = body.message.message_id;
    });

    const browser = await launchBrowser();
    try {
      await browser.context.grantPermissions(['notifications'], { origin: scout.baseUrl });
      // the browser's own Notification, recording what it is asked to show
      await browser.context.addInitScript(() => {
        const Real = window.Notification;
        const shown: Notification[] = [];
        Object.assign(window, { shownNotifications: shown });
        window.Notification = class extends Real {
          constructor(title: string, options?: NotificationOptions) {
            super(title, options);
            shown.push(this);
          }
        };
      });
      const first = await browser.context.newPage();
      await seedSession(first, ben);
      await first.goto(`${scout.baseUrl}/`);
      await expect.poll(() => badge(first).innerText(), { timeout: WAIT_MS }).toBe('1');
      await expect.poll(() => first.title()).toBe('(1) Scout');
      const favicon = (page: Page) => page.locator('link[rel="icon"]');
      await expect.poll(() => favicon(first).getAttribute('data-unread')).toBe('true');
      expect(await favicon(first).getAttribute('href')).toMatch(/^data:image\/svg\+xml,.*%3Ccircle/);

      // the second tab opens straight onto the inbox
      const second = await browser.context.newPage();
      await seedSession(second, ben);
      await second.goto(`${scout.baseUrl}/?open_inbox=1`);
      const item = items(second).first();
      await item.waitFor({ timeout: WAIT_MS });
      expect(await item.getAttribute('data-read')).toBe('false');
      expect(await item.innerText()).toContain(
        'Ann Test tagged you in @Ben Test can you review the launch plan?',
      );
      expect(await item.getByTestId('inbox-item-time').innerText()).toBe(inbox.JUST_NOW);
      expect(await item.getAttribute('href')).toBe(`/topic/${topicId}/${messageId}`);

      // back to the first tab (a tab in the background draws its transitions slowly)
      await first.bringToFront();
      await openInbox(first);
      await chooseFilter(first, inbox.UNREAD);
      await items(first).first().click();
      await first.waitForURL(`${scout.baseUrl}/topic/${topicId}/${messageId}`, { timeout: WAIT_MS });
      await first.getByTestId('user-message').getByText('can you review').waitFor({ timeout: WAIT_MS });
      await badge(first).waitFor({ state: 'detached', timeout: WAIT_MS });
      await expect.poll(() => first.title()).toBe('Scout');

      // the other tab hears of the read and shows it at once, without waiting for its next poll
      await expect.poll(() => item.getAttribute('data-read'), { timeout: 5_000 }).toBe('true');
      await badge(second).waitFor({ state: 'detached', timeout: 5_000 });
      await expect.poll(() => second.title()).toBe('Scout');
      await expect.poll(() => favicon(second).getAttribute('data-unread')).toBe('false');
      // everything read: the page's own icon is back
      expect(await favicon(second).getAttribute('href')).toBe('/favicon.svg');

      // With desktop notifications on, a new one shows on the desktop; its click opens the topic in a new tab.
      const prefs = await api<NotificationPreferences>(ben, 'GET', 'notifications/preferences');
      await api(ben, 'PUT', 'notifications/preferences', {
        ...prefs,
        desktop: { ...prefs.desktop, tagged_users: 'True' },
      });
      await annTags([`ben@${DOMAIN}`], 'A desktop ping');
      // the tab coming back into view asks at once rather than at its next poll
      await first.evaluate(() => window.dispatchEvent(new Event('visibilitychange')));
      const shownBodies = () =>
        first.evaluate(() =>
          (window as unknown as { shownNotifications: Notification[] }).shownNotifications.map((n) => n.body),
        );
      await expect.poll(shownBodies, { timeout: WAIT_MS }).toEqual(['Ann Test tagged you in A desktop ping']);
      const opened = browser.context.waitForEvent('page');
      await first.evaluate(() =>
        (window as unknown as { shownNotifications: Notification[] }).shownNotifications[0]!.dispatchEvent(
          new Event('click'),
        ),
      );
      const tab = await opened;
      await tab.waitForURL(/\/topic\/[0-9a-f-]{36}\/[0-9a-f-]{36}$/, { timeout: WAIT_MS });
      expect(new URL(first.url()).pathname).toBe(`/topic/${topicId}/${messageId}`);
      // viewing that topic in the new tab reads it, here too
      await badge(first).waitFor({ state: 'detached', timeout: WAIT_MS });
    } finally {
      await browser.close();
    }
  });

  it('marks all as read, and says so when a filter has nothing to show', async () => {
    await annTags([`ben@${DOMAIN}`], 'First question for Ben');
    await annTags([`ben@${DOMAIN}`], 'Second question for Ben');
    await withSignedInPage(ben, async (page) => {
      await page.goto(`${scout.baseUrl}/`);
      await expect.poll(() => badge(page).innerText(), { timeout: WAIT_MS }).toBe('2');
      await openInbox(page);
      await chooseFilter(page, inbox.UNREAD);
      await expect.poll(() => items(page).count(), { timeout: WAIT_MS }).toBe(2);
      await panel(page).getByTestId('inbox-mark-all').click();
      await toast(page, inbox.MARKED_ALL_AS_READ).waitFor({ timeout: WAIT_MS });
      await panel(page).getByText(inbox.EMPTY_UNREAD).waitFor({ timeout: WAIT_MS });
      // nothing is unread, so there is nothing to mark
      expect(await panel(page).getByTestId('inbox-mark-all').count()).toBe(0);
      await badge(page).waitFor({ state: 'detached' });
      await chooseFilter(page, inbox.READ);
      // the two just read, and the two of the first test
      await expect.poll(() => items(page).count(), { timeout: WAIT_MS }).toBe(4);
    });

    await withSignedInPage(dee, async (page) => {
      await page.goto(`${scout.baseUrl}/?open_inbox=1`);
      await panel(page).getByText(inbox.EMPTY_ALL).waitFor({ timeout: WAIT_MS });
      await chooseFilter(page, inbox.READ);
      await panel(page).getByText(inbox.EMPTY_READ).waitFor({ timeout: WAIT_MS });
      expect(await page.title()).toBe('Scout');
    });
  });

  it('saves the preferences the member chooses', async () => {
    await withSignedInPage(dee, async (page) => {
      await page.goto(`${scout.baseUrl}/notification-preferences`);
      const email = page.getByRole('checkbox', {
        name: `${inboxCopy.KIND_USER_ADDED_TO_TOPIC}: ${inboxCopy.CHANNEL_EMAIL}`,
      });
      const inApp = page.getByRole('checkbox', {
        name: `${inboxCopy.KIND_NEW_MSGS}: ${inboxCopy.CHANNEL_IN_APP}`,
      });
      await email.waitFor({ timeout: WAIT_MS });
      // out of the box: in the inbox, not by email
      expect(await email.isChecked()).toBe(false);
      expect(await inApp.isChecked()).toBe(true);
      await email.check();
      await inApp.uncheck();
      await page.getByRole('switch', { name: inboxCopy.DESKTOP_PUSH_DISABLED }).check();
      await page.getByTestId('notification-preferences-save').click();
      await toast(page, inboxCopy.SAVED).waitFor({ timeout: WAIT_MS });

      const saved = await api<NotificationPreferences>(dee, 'GET', 'notifications/preferences');
      expect(saved.email.user_added_to_topic).toBe('True');
      expect(saved.in_app.new_msgs).toBe('False');
      expect(saved.desktop_push_disabled).toBe('True');
      await page.reload();
      await email.waitFor({ timeout: WAIT_MS });
      expect(await email.isChecked()).toBe(true);
      expect(await inApp.isChecked()).toBe(false);
    });
  });
});
