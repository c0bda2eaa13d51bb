// Sharing a topic (spec asking-questions §2 Share settings, §6; shell-and-account §4.6, §7.3, §7.6, §8) in a real
// browser against the real server: the access level, adding a colleague as an editor, copying the link, the
// colleague opening the shared topic, and watching another member's question and answer arrive live.
import type { BrowserContext, Page, WebSocketRoute } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoginTokens } from '../common/api/session';
import { topics as topicStrings } from '../common/strings';
import { chatCopy } from '../app/strings';
import { REALTIME_SOCKET_PATH, topicChannel } from '../common/api/realtime';
import { SUGGESTIONS_SYSTEM_PROMPT } from '../server/chat/related';
import type { RecordedRequest, ScriptedReply } from '../server/llm/testing/openai-server';
import { callApi } from '../server/testing/server';
import { launchBrowser, seedSession, startChatScout, withSignedInPage, type ChatScout } from './harness';

const WAIT_MS = 20_000;
const DOMAIN = 'sharing.test';

let scout: ChatScout;
let alice: LoginTokens;
let bob: LoginTokens;

/** The answer about parking overnight streams slowly, a word at a time, so another member's page can catch it. */
const PARKING_WORDS = ['Visitors ', 'park ', 'in ', 'the ', 'north ', 'lot, ', 'all ', 'day ', 'long.'];

function respond(request: RecordedRequest): ScriptedReply {
  const system = request.messages.find((message) => message.role === 'system')?.content ?? '';
  const asked = JSON.stringify(request.messages);
  if (system === SUGGESTIONS_SYSTEM_PROMPT) {
    if (asked.includes('bonus')) return { text: 'TITLE: Bonus pool' };
    if (asked.includes('park')) return { text: 'TITLE: Parking' };
    return { text: 'TITLE: Office hours\nRELATED:\n- Lunch hours' };
  }
  // the question is the last message; earlier ones are the topic's history
  if (JSON.stringify(request.messages.at(-1)).includes('overnight'))
    return { chunks: PARKING_WORDS, delayMs: 250 };
  if (asked.includes('park')) return { text: 'Visitors park in the north lot.' };
  return { text: 'The office opens at nine.' };
}

beforeAll(async () => {
  scout = await startChatScout(respond);
  alice = (
    await scout.createUser({
      email: `alice@${DOMAIN}`,
      firstName: 'Alice',
      lastName: 'Owner',
      // live topics too, for the question and answer that stream into another member's page
      flags: { multiplayerEnabled: true, realtimeMultiplayer: true },
    })
  ).tokens;
  bob = (await scout.createUser({ email: `bob@${DOMAIN}`, firstName: 'Bob', lastName: 'Colleague' })).tokens;
  await scout.createUser({
    email: `bobby@${DOMAIN}`,
    firstName: 'Bobby',
    lastName: 'Blocked',
    status: 'BLOCKED',
  });
});

afterAll(async () => {
  await scout?.stop();
});

function withPage(
  tokens: LoginTokens,
  run: (page: Page, context: BrowserContext) => Promise<void>,
): Promise<void> {
  return withSignedInPage(tokens, async (page, context) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: scout.baseUrl });
    await run(page, context);
  });
}

async function openShare(page: Page) {
  await page.getByRole('button', { name: 'Topic actions' }).click();
  await page.getByRole('menuitem', { name: 'Share' }).click();
  const dialog = page.getByRole('dialog', { name: 'Share settings' });
  await dialog.waitFor({ timeout: WAIT_MS });
  return dialog;
}

describe('sharing a topic', () => {
  it('sets the access level, adds a colleague as an editor and copies the link', async () => {
    let topicPath = '';
    await withPage(alice, async (page) => {
      await page.goto(`${scout.baseUrl}/chat`);
      const box = page.getByTestId('question-textarea');
      await box.waitFor({ timeout: WAIT_MS });
      await box.fill('When does the office open?');
      await box.press('Enter');
      const answer = page.getByTestId('assistant-message').last();
      await expect.poll(() => answer.getAttribute('data-status'), { timeout: WAIT_MS }).toBe('SUCCESS');
      await page.getByTestId('sidebar-topic').getByText('Office hours').click({ timeout: WAIT_MS });
      await expect.poll(() => new URL(page.url()).pathname).toMatch(/^\/topic\/[0-9a-f-]{36}$/);
      topicPath = new URL(page.url()).pathname;

      let dialog = await openShare(page);
      expect(await dialog.getByRole('radio', { name: 'Invite only' }).isChecked()).toBe(true);
      // Public needs the org's public topics and the publicTopics flag: neither is on.
      expect(await dialog.getByRole('radio', { name: 'Public' }).count()).toBe(0);

      const patched = page.waitForResponse(
        (response) => response.request().method() === 'PATCH' && response.url().includes('/topics/topic/'),
      );
      await dialog.getByText('Workspace', { exact: true }).click();
      expect((await patched).status()).toBe(200);
      await expect.poll(() => dialog.getByRole('radio', { name: 'Workspace' }).isChecked()).toBe(true);

      // The owner is listed; a blocked colleague is never offered; Bob is, and becomes an editor.
      await dialog.getByTestId('share-member').filter({ hasText: topicStrings.OWNER }).waitFor();
      await dialog.getByTestId('share-member-search').fill('bob');
      const suggestion = dialog.getByTestId('share-suggestion');
      await suggestion.first().waitFor({ timeout: WAIT_MS });
      expect(await suggestion.count()).toBe(1);
      expect(await suggestion.innerText()).toContain(`bob@${DOMAIN}`);
      await suggestion.click();
      const bobRow = dialog.getByTestId('share-member').filter({ hasText: `bob@${DOMAIN}` });
      await bobRow.waitFor({ timeout: WAIT_MS });
      expect(await bobRow.innerText()).toContain(topicStrings.CAN_EDIT);
      // Bob is in the topic now: the same search offers no one.
      await dialog.getByTestId('share-member-search').fill('bob');
      await dialog.getByTestId('share-no-match').waitFor({ timeout: WAIT_MS });
      expect(await dialog.getByTestId('share-suggestion').count()).toBe(0);

      await dialog.getByTestId('share-copy-link').click();
      await page.getByText(topicStrings.COPIED_LINK).waitFor({ timeout: WAIT_MS });
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${scout.baseUrl}${topicPath}`);
      await dialog.getByRole('button', { name: 'Done' }).click();

      // As saved: the level and the members come back after a reload.
      await page.reload();
      await page.getByTestId('topic-title').waitFor({ timeout: WAIT_MS });
      dialog = await openShare(page);
      await expect
        .poll(() => dialog.getByRole('radio', { name: 'Workspace' }).isChecked(), { timeout: WAIT_MS })
        .toBe(true);
      await dialog
        .getByTestId('share-member')
        .filter({ hasText: `bob@${DOMAIN}` })
        .waitFor({ timeout: WAIT_MS });
    });

    // Bob, now an editor, opens the topic by its link.
    await withPage(bob, async (page) => {
      await page.goto(`${scout.baseUrl}${topicPath}`);
      await page
        .getByTestId('user-message')
        .getByText('When does the office open?')
        .waitFor({ timeout: WAIT_MS });
      await page.getByTestId('assistant-message').getByText('The office opens at nine.').waitFor();
    });
  });
});

describe('widening a topic whose answers cite private sources', () => {
  it('warns before sharing, and shares only when the owner confirms', async () => {
    // a member with no topic yet, so the question starts one
    const carol = (await scout.createUser({ email: `carol@${DOMAIN}`, firstName: 'Carol' })).tokens;
    await scout.indexDocuments(DOMAIN, [
      {
        source: 'gdrive',
        externalId: 'bonus-pool',
        title: 'Quarterly bonus pool',
        body: 'The quarterly bonus pool is two percent of revenue.',
        acl: [`user:carol@${DOMAIN}`],
      },
    ]);
    await withPage(carol, async (page) => {
      await page.goto(`${scout.baseUrl}/chat`);
      const box = page.getByTestId('question-textarea');
      await box.waitFor({ timeout: WAIT_MS });
      await box.fill('How big is the quarterly bonus pool?');
      await box.press('Enter');
      const answer = page.getByTestId('assistant-message').last();
      await expect.poll(() => answer.getAttribute('data-status'), { timeout: WAIT_MS }).toBe('SUCCESS');
      await page.getByTestId('sidebar-topic').getByText('Bonus pool').click({ timeout: WAIT_MS });
      await expect.poll(() => new URL(page.url()).pathname).toMatch(/^\/topic\/[0-9a-f-]{36}$/);

      let patches = 0;
      page.on('request', (request) => {
        if (request.method() === 'PATCH' && /\/topics\/topic\/[0-9a-f-]{36}$/.test(request.url()))
          patches += 1;
      });
      const dialog = await openShare(page);
      await dialog.getByText('Workspace', { exact: true }).click();
      const warning = dialog.getByTestId('share-narrower-sources');
      await warning.waitFor({ timeout: WAIT_MS });
      expect(await warning.innerText()).toContain(chatCopy.SHARE_NARROWER_SOURCES_WARNING);
      expect(patches).toBe(0);

      await warning.getByRole('button', { name: chatCopy.CANCEL }).click();
      await warning.waitFor({ state: 'detached', timeout: WAIT_MS });
      expect(await dialog.getByRole('radio', { name: 'Invite only' }).isChecked()).toBe(true);
      expect(patches).toBe(0);

      await dialog.getByText('Workspace', { exact: true }).click();
      const patched = page.waitForResponse(
        (response) => response.request().method() === 'PATCH' && response.url().includes('/topics/topic/'),
      );
      await dialog.getByRole('button', { name: chatCopy.SHARE_ANYWAY }).click();
      expect((await patched).status()).toBe(200);
      await expect.poll(() => dialog.getByRole('radio', { name: 'Workspace' }).isChecked()).toBe(true);
    });
  });
});

/** Every frame of the page's realtime sockets, as they come, and a wait for one. */
function recordRealtime(page: Page) {
  const frames: { sent: boolean; payload: string }[] = [];
  page.on('websocket', (socket) => {
    if (!socket.url().endsWith(REALTIME_SOCKET_PATH)) return;
    socket.on('framereceived', ({ payload }) => frames.push({ sent: false, payload: String(payload) }));
    socket.on('framesent', ({ payload }) => frames.push({ sent: true, payload: String(payload) }));
  });
  const until = (test: (frame: { sent: boolean; payload: string }) => boolean, from = 0) =>
    expect.poll(() => frames.slice(from).some(test), { timeout: WAIT_MS }).toBe(true);
  return {
    frames,
    /** Waits for a frame from index `from` on that passes `test`. */
    until,
    /** Waits until the server confirmed `channel`. */
    subscribed: (channel: string) =>
      until(
        (frame) => !frame.sent && frame.payload.includes('"SUBSCRIBED"') && frame.payload.includes(channel),
      ),
  };
}

describe('a shared topic, live', () => {
  it('shows a member another member’s question and the answer streaming in, without a reload', async () => {
    const dana = (await scout.createUser({ email: `dana@${DOMAIN}`, firstName: 'Dana' })).tokens;
    const erin = (await scout.createUser({ email: `erin@${DOMAIN}`, firstName: 'Erin' })).tokens;
    const danas = await launchBrowser();
    const erins = await launchBrowser();
    try {
      const danaPage = await danas.context.newPage();
      await seedSession(danaPage, dana);
      await danaPage.goto(`${scout.baseUrl}/chat`);
      const box = danaPage.getByTestId('question-textarea');
      await box.waitFor({ timeout: WAIT_MS });
      await box.fill('Where do visitors park?');
      await box.press('Enter');
      await expect
        .poll(() => danaPage.getByTestId('assistant-message').last().getAttribute('data-status'), {
          timeout: WAIT_MS,
        })
        .toBe('SUCCESS');
      await danaPage.getByTestId('sidebar-topic').getByText('Parking').click({ timeout: WAIT_MS });
      await expect.poll(() => new URL(danaPage.url()).pathname).toMatch(/^\/topic\/[0-9a-f-]{36}$/);
      const topicPath = new URL(danaPage.url()).pathname;
      const topicId = topicPath.split('/').at(-1)!;

      // Erin has Scout open when Dana adds her: the topic appears under 'Shared with me' without a reload.
      const erinPage = await erins.context.newPage();
      await seedSession(erinPage, erin);
      // Erin's realtime sockets pass through the test, which can cut one as a network drop would
      const erinLinks: WebSocketRoute[] = [];
      await erinPage.routeWebSocket(/\/_realtime$/, (link) => {
        link.connectToServer();
        erinLinks.push(link);
      });
      const erinRealtime = recordRealtime(erinPage);
      await erinPage.goto(`${scout.baseUrl}/chat`);
      await erinRealtime.subscribed('"user"');
      const added = await callApi(scout.baseUrl, 'POST', '/topics/topic/member', dana.id_token, {
        conversation_id: topicId,
        user_email: `erin@${DOMAIN}`,
      });
      expect(added.status).toBe(200);
      await erinPage.getByTestId('shared-topic').getByText('Parking').waitFor({ timeout: WAIT_MS });

      // Erin opens the topic; Dana asks again there.
      await erinPage.goto(`${scout.baseUrl}${topicPath}`);
      await erinPage
        .getByTestId('user-message')
        .getByText('Where do visitors park?')
        .waitFor({ timeout: WAIT_MS });
      await erinRealtime.subscribed(topicChannel(topicId));
      const danaBox = danaPage.getByTestId('question-textarea');
      await danaBox.fill('Can they park overnight?');
      await danaBox.press('Enter');

      // Erin sees the question, then the answer while it is still being written, then finished
      await erinPage
        .getByTestId('user-message')
        .getByText('Can they park overnight?')
        .waitFor({ timeout: WAIT_MS });
      const streaming = erinPage.getByTestId('assistant-message').last();
      await erinPage.waitForFunction(
        () => {
          const answers = document.querySelectorAll('[data-testid="assistant-message"]');
          const last = answers[answers.length - 1];
          return (
            last?.getAttribute('data-status') === 'PENDING' &&
            (last.textContent ?? '').includes('Visitors park')
          );
        },
        undefined,
        { timeout: WAIT_MS },
      );
      await expect.poll(() => streaming.getAttribute('data-status'), { timeout: WAIT_MS }).toBe('SUCCESS');
      expect(await streaming.innerText()).toContain('Visitors park in the north lot, all day long.');
      expect(await erinPage.getByTestId('user-message').count()).toBe(2);

      // coming back to the tab sends the token again, for the server to check (spec §4.4)
      const before = erinRealtime.frames.length;
      await erinPage.evaluate(() => window.dispatchEvent(new Event('focus')));
      await erinRealtime.until((frame) => frame.sent && frame.payload.includes('"AUTH"'), before);

      // The link drops: the app opens another after a back-off, subscribes again, and the topic stays live.
      const links = erinLinks.length;
      const beforeDrop = erinRealtime.frames.length;
      await erinLinks.at(-1)!.close({ code: 1006 });
      await expect.poll(() => erinLinks.length, { timeout: WAIT_MS }).toBeGreaterThan(links);
      await erinRealtime.until(
        (frame) => !frame.sent && frame.payload.includes('"SUBSCRIBED"') && frame.payload.includes(topicId),
        beforeDrop,
      );
      await danaBox.fill('Is the lot open at weekends?');
      await danaBox.press('Enter');
      await erinPage
        .getByTestId('user-message')
        .getByText('Is the lot open at weekends?')
        .waitFor({ timeout: WAIT_MS });
    } finally {
      await Promise.all([danas.close(), erins.close()]);
    }
  });
});
