// @mention tagging in a shared topic (spec asking-questions §2 question box, §4 Topic access, §7 POST /messages/create,
// §8 'Error sending message. Please try again') in a real browser against the real server: typing @ suggests
// colleagues, picking one tags them, and the message goes to them instead of to the assistant.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoginTokens } from '../common/api/session';
import type { TopicsResponse } from '../common/api/topics';
import { chat as chatStrings } from '../common/strings';
import type { OpenAiTestServer } from '../server/llm/testing/openai-server';
import { startChatScout, withSignedInPage, type ChatScout } from './harness';

const WAIT_MS = 20_000;
const DOMAIN = 'mentions.test';

let scout: ChatScout;
let model: OpenAiTestServer;
let alice: LoginTokens;
let bob: LoginTokens;

beforeAll(async () => {
  scout = await startChatScout(() => ({ text: 'An answer nobody asked for.' }));
  model = scout.model;
  alice = (
    await scout.createUser({
      email: `alice@${DOMAIN}`,
      firstName: 'Alice',
      lastName: 'Writer',
      flags: { multiplayerEnabled: true },
    })
  ).tokens;
  bob = (await scout.createUser({ email: `bob@${DOMAIN}`, firstName: 'Bob', lastName: 'Colleague' })).tokens;
  await scout.createUser({ email: `bobby@${DOMAIN}`, firstName: 'Bobby', status: 'BLOCKED' });
});

afterAll(async () => {
  await scout?.stop();
});

async function sharedWith(tokens: LoginTokens): Promise<TopicsResponse['topics']> {
  const res = await fetch(`${scout.baseUrl}/api/v1/topics?topic_type=SHARED_WITH_ME`, {
    headers: { authorization: `Bearer ${tokens.id_token}` },
  });
  return ((await res.json()) as TopicsResponse).topics;
}

describe('@mention tagging', () => {
  it('suggests colleagues, tags the one picked and sends the message to them', async () => {
    await withSignedInPage(alice, async (page) => {
      await page.goto(`${scout.baseUrl}/chat`);
      const box = page.getByTestId('question-textarea');
      await box.waitFor({ timeout: WAIT_MS });
      await box.pressSequentially('@bo');
      const options = page.getByTestId('mention-option');
      await options.first().waitFor({ timeout: WAIT_MS });
      // the blocked colleague and the writer are never offered
      await expect.poll(() => options.count(), { timeout: WAIT_MS }).toBe(1);
      expect(await options.innerText()).toContain(`bob@${DOMAIN}`);
      await box.press('Enter');
      await expect.poll(() => box.inputValue(), { timeout: WAIT_MS }).toBe('@Bob Colleague ');
      expect(await page.getByTestId('mention-menu').count()).toBe(0);

      await box.pressSequentially('can you check the rota?');
      const created = page.waitForResponse((response) => response.url().endsWith('/api/v1/messages/create'));
      await box.press('Enter');
      expect((await created).status()).toBe(200);
      await page
        .getByTestId('user-message')
        .getByText('@Bob Colleague can you check the rota?')
        .waitFor({ timeout: WAIT_MS });
      await expect.poll(() => box.inputValue(), { timeout: WAIT_MS }).toBe('');
      // a message to colleagues is not a question: the assistant is not asked
      expect(await page.getByTestId('assistant-message').count()).toBe(0);
      expect(model.requests).toEqual([]);
    });
    const shared = await sharedWith(bob);
    expect(shared.map((topic) => topic.topicTitle)).toEqual(['@Bob Colleague can you check the rota?']);
  });

  it('shows the spec’s error and keeps the text when the message cannot be sent', async () => {
    await withSignedInPage(alice, async (page) => {
      await page.goto(`${scout.baseUrl}/chat`);
      const box = page.getByTestId('question-textarea');
      await box.waitFor({ timeout: WAIT_MS });
      // the workspace turns shared topics off while the page is open: the server refuses the message
      await scout.setOrgFlags(DOMAIN, {});
      await box.pressSequentially('@bob');
      await page.getByTestId('mention-option').first().waitFor({ timeout: WAIT_MS });
      await box.press('Enter');
      await box.pressSequentially('one more thing');
      const created = page.waitForResponse((response) => response.url().endsWith('/api/v1/messages/create'));
      await box.press('Enter');
      expect((await created).status()).toBe(403);
      await page.getByText(chatStrings.SEND_MESSAGE_ERROR).waitFor({ timeout: WAIT_MS });
      expect(await box.inputValue()).toBe('@Bob Colleague one more thing');
    });
    // Nothing was created: with shared topics on again, Bob still has the one topic of the test before.
    await scout.setOrgFlags(DOMAIN, { multiplayerEnabled: true });
    expect(await sharedWith(bob)).toHaveLength(1);
  });
});
