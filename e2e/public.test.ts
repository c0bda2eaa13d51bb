// The public topic page (spec shell-and-account §2.6), the document preview opened from a reference (§7.4) and the
// offline and outage banners (§4.4, §8), in a real browser against the real server on a real store.
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Reference } from '../common/api/messages';
import type { LoginTokens } from '../common/api/session';
import { chat as chatStrings, shell } from '../common/strings';
import { formatTopicTimestamp } from '../app/screens/public/timestamp';
import { previewCopy, publicTopicCopy, tourCopy } from '../app/strings';
import { ONBOARDING_TOUR, tourDoneKey } from '../app/components/tour/tour';
import type { CurrentUser } from '../common/api/session';
import { messages, orgs, type Topic, type User } from '../server/db/schema';
import { upsertDocuments } from '../server/search';
import { createExchange, createTopic } from '../server/testing/chat-fixtures';
import { createOrg, createUser, loginTokensFor } from '../server/testing/fixtures';
import { createTestServer, type TestServer } from '../server/testing/server';
import { withSignedInPage } from './browser';

const WAIT_MS = 15_000;
const DOMAIN = 'public.test';
const STARTED = new Date(2024, 2, 7, 15, 4);

let scout: TestServer;
let baseUrl: string;
let owen: User;
let ownerTokens: LoginTokens;
let outsiderTokens: LoginTokens;
let touristTokens: LoginTokens;
let skipperTokens: LoginTokens;
let topic: Topic;
let privateTopic: Topic;
/** The answer deep in the topic that /topic/{id}/{msgId} focuses. */
let focusedAnswerId: string;

const reference = (id: string, title: string, source: string, url: string, snippet: string): Reference => ({
  id,
  url,
  title,
  source,
  snippet,
  author: { email: null, name: 'Owen Owner', photo: null },
  modified_time: null,
  object_type: null,
  extra_fields: {},
});

beforeAll(async () => {
  scout = await createTestServer();
  await scout.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(scout.app.server.address() as AddressInfo).port}`;
  const { db } = scout.store;
  const org = await createOrg(db, { domain: DOMAIN, flags: { publicTopics: true } });
  await db.update(orgs).set({ publicTopicsEnabled: true }).where(eq(orgs.id, org.id));
  owen = await createUser(db, org, { email: `owen@${DOMAIN}`, firstName: 'Owen', lastName: 'Owner' });
  ownerTokens = await loginTokensFor(scout.ctx, owen);
  const elsewhere = await createOrg(db, { domain: 'elsewhere.test', flags: { outageBanner: true } });
  outsiderTokens = await loginTokensFor(
    scout.ctx,
    await createUser(db, elsewhere, { email: 'olga@elsewhere.test', firstName: 'Olga' }),
  );

  const tourOrg = await createOrg(db, { domain: 'tour.test', flags: { inAppTour: true } });
  touristTokens = await loginTokensFor(scout.ctx, await createUser(db, tourOrg, { email: 'tia@tour.test' }));
  skipperTokens = await loginTokensFor(scout.ctx, await createUser(db, tourOrg, { email: 'sam@tour.test' }));

  const [travel, expenses, salaries] = (
    await upsertDocuments(db, org.id, [
      {
        source: 'notion',
        externalId: 'travel',
        title: 'Travel policy',
        body: 'Travel policy.\nBook economy class for flights under six hours.\nTrains are preferred in Europe.',
        url: 'https://acme.example/notion/travel',
        acl: ['public'],
      },
      {
        source: 'confluence',
        externalId: 'expenses',
        title: 'Expense guide',
        body: 'Expenses are filed within thirty days with receipts attached.',
        url: 'https://wiki.scout-customer.com/expenses',
        acl: ['public'],
      },
      {
        source: 'gdrive',
        externalId: 'salaries',
        title: 'Salary bands 2024',
        body: 'Confidential salary bands for every level.',
        url: 'https://drive.google.com/salaries',
        acl: [`user:owen@${DOMAIN}`],
      },
    ])
  ).documentIds;

  topic = await createTopic(db, owen, {
    topicTitle: 'How we travel',
    visibility: 'PUBLIC',
    createdAt: STARTED,
  });
  const first = await createExchange(db, topic, owen, {
    question: 'How do we book flights?',
    answer: 'Book economy for flights under six hours [1], and file expenses within thirty days [2].',
    references: [
      reference(
        travel!,
        'Travel policy',
        'notion',
        'https://acme.example/notion/travel',
        'Book economy class',
      ),
      reference(
        expenses!,
        'Expense guide',
        'confluence',
        'https://wiki.scout-customer.com/expenses',
        'thirty days',
      ),
    ],
    at: new Date(STARTED.getTime() + 60_000),
  });
  await db
    .update(messages)
    .set({ relatedSearches: ['Travel expenses'] })
    .where(eq(messages.id, first.answer.id));
  // an answer drawn from a document only Owen may read: withheld from everyone else, its source not named
  await createExchange(db, topic, owen, {
    question: 'What are the salary bands?',
    answer: 'The bands are in the salary document [1].',
    references: [
      reference(
        salaries!,
        'Salary bands 2024',
        'gdrive',
        'https://drive.google.com/salaries',
        'salary bands',
      ),
    ],
    at: new Date(STARTED.getTime() + 120_000),
  });
  // enough further exchanges that the focused one is out of sight until scrolled to
  for (let i = 0; i < 8; i++) {
    const { answer } = await createExchange(db, topic, owen, {
      question: `Follow-up question ${i}?`,
      answer: `Follow-up answer ${i}.`,
      at: new Date(STARTED.getTime() + (3 + i) * 60_000),
    });
    if (i === 6) focusedAnswerId = answer.id;
  }
  privateTopic = await createTopic(db, owen, { topicTitle: 'Owen only', visibility: 'INVITE_ONLY' });
});

afterAll(async () => {
  await scout?.close();
});

describe('the public topic page', () => {
  it('shows a visitor the title, the time, the messages read-only and the Sign Up promotion', async () => {
    await withSignedInPage(null, async (page) => {
      await page.goto(`${baseUrl}/topic/${topic.id}`);
      await page.getByRole('heading', { name: 'How we travel', level: 1 }).waitFor({ timeout: WAIT_MS });
      expect(await page.getByTestId('public-topic-time').innerText()).toBe(
        formatTopicTimestamp(STARTED.toISOString()),
      );
      expect(formatTopicTimestamp(STARTED.toISOString())).toBe('Mar 7, 3:04 pm');

      const answers = page.getByTestId('assistant-message');
      expect(await answers.count()).toBe(10);
      expect(await answers.first().getByTestId('answer-text').innerText()).toContain('Book economy');
      // read-only: no question box, no rating
      expect(await page.getByTestId('question-textarea').count()).toBe(0);
      expect(await page.getByTestId('thumbs-up').count()).toBe(0);
      // nothing of the document only Owen may read, not even its title
      expect(await answers.nth(1).innerText()).toContain(chatStrings.ANSWER_WITHHELD);
      expect(await page.locator('body').innerText()).not.toContain('Salary bands');
      // no raw id anywhere
      expect(await page.locator('body').innerText()).not.toContain(topic.id);

      const promo = page.getByTestId('public-topic-promo');
      await promo.getByRole('link', { name: shell.PUBLIC_TOPIC_SIGN_UP }).waitFor();
      expect(await promo.getByTestId('promo-customers').locator('p').count()).toBe(5);
      expect(await promo.getByTestId('promo-apps').getByRole('img').count()).toBe(5);
      await promo.getByRole('img', { name: 'Slack' }).waitFor();

      // a related search is a new question: asked after signing in
      await page.getByTestId('related-searches').getByText('Travel expenses').click();
      await page.waitForURL((url) => url.pathname === '/login', { timeout: WAIT_MS });
      expect(new URL(page.url()).searchParams.get('redirect')).toBe('/chat?q=Travel+expenses');
    });
  });

  it('scrolls to the message the address names', async () => {
    await withSignedInPage(null, async (page) => {
      await page.goto(`${baseUrl}/topic/${topic.id}/${focusedAnswerId}`);
      const focused = page.locator(`#message-${focusedAnswerId}`);
      await focused.waitFor({ timeout: WAIT_MS });
      expect(await focused.getAttribute('data-focused')).toBe('true');
      await expect
        .poll(() =>
          focused.evaluate((element) => {
            const box = element.getBoundingClientRect();
            return box.top >= 0 && box.bottom <= window.innerHeight;
          }),
        )
        .toBe(true);
    });
  });

  it('says so, the same way, for a topic that is not public and for none at all', async () => {
    await withSignedInPage(null, async (page) => {
      for (const id of [privateTopic.id, '00000000-0000-7000-8000-000000000000', 'not-a-topic']) {
        await page.goto(`${baseUrl}/topic/${id}`);
        await page
          .getByRole('heading', { name: publicTopicCopy.NOT_FOUND_HEADING })
          .waitFor({ timeout: WAIT_MS });
        expect(await page.locator('body').innerText()).not.toContain('Owen only');
        await page.getByRole('link', { name: shell.PUBLIC_TOPIC_SIGN_UP }).waitFor();
      }
    });
  });

  it('offers a member of another workspace Start a chat, under the outage banner their flag turns on', async () => {
    await withSignedInPage(outsiderTokens, async (page) => {
      await page.goto(`${baseUrl}/topic/${topic.id}`);
      await page.getByRole('heading', { name: 'How we travel', level: 1 }).waitFor({ timeout: WAIT_MS });
      await page.getByRole('link', { name: shell.PUBLIC_TOPIC_START_CHAT }).waitFor();
      expect(await page.getByRole('link', { name: shell.PUBLIC_TOPIC_SIGN_UP }).count()).toBe(0);
      await page.getByTestId('outage-banner').getByText(shell.OUTAGE_BANNER).waitFor();
    });
  });
});

describe('the document preview', () => {
  it('opens a reference in a panel, with Open in <app> only for a real address', async () => {
    await withSignedInPage(null, async (page) => {
      await page.goto(`${baseUrl}/topic/${topic.id}`);
      const refs = page.getByTestId('assistant-message').first().getByTestId('reference');
      await refs.first().waitFor({ timeout: WAIT_MS });
      // a document of the org is a button, not a link to its (placeholder) address
      expect(await refs.first().getAttribute('href')).toBeNull();

      await refs.nth(1).click();
      const panel = page.getByRole('dialog');
      await panel.getByTestId('preview-title').getByText('Expense guide').waitFor({ timeout: WAIT_MS });
      expect(await panel.getByTestId('preview-source').innerText()).toContain('Confluence');
      expect(await panel.getByTestId('preview-passage').innerText()).toBe('thirty days');
      const open = panel.getByRole('link', { name: previewCopy.openIn('Confluence') });
      expect(await open.getAttribute('href')).toBe('https://wiki.scout-customer.com/expenses');
      // signed out there is no document text to fetch: the server is not asked
      expect(await panel.getByTestId('preview-content').count()).toBe(0);
      await page.keyboard.press('Escape');
      await panel.waitFor({ state: 'hidden' });

      await refs.first().click();
      await panel.getByTestId('preview-title').getByText('Travel policy').waitFor();
      expect(await panel.getByRole('link', { name: previewCopy.openIn('Notion') }).count()).toBe(0);
    });
  });

  it('shows a member the document’s text around the cited passage, through their own access', async () => {
    await withSignedInPage(ownerTokens, async (page) => {
      await page.goto(`${baseUrl}/topic/${topic.id}`);
      const refs = page.getByTestId('assistant-message').first().getByTestId('reference');
      await refs.first().waitFor({ timeout: WAIT_MS });
      const previews: string[] = [];
      page.on('request', (request) => {
        if (new URL(request.url()).pathname === '/api/v1/preview') previews.push(request.url());
      });
      await refs.first().click();
      const panel = page.getByRole('dialog');
      const content = panel.getByTestId('preview-content');
      await content.waitFor({ timeout: WAIT_MS });
      expect(await content.innerText()).toContain('Trains are preferred in Europe.');
      expect(await panel.getByRole('link', { name: previewCopy.openIn('Notion') }).count()).toBe(0);

      // opened again within 2 minutes: from the cache, not the server
      await page.keyboard.press('Escape');
      await panel.waitFor({ state: 'hidden' });
      await refs.first().click();
      await content.waitFor();
      expect(previews).toHaveLength(1);
    });
  });
});

describe('the offline banner', () => {
  it('stays while the network is offline and goes once the server answers again', async () => {
    await withSignedInPage(null, async (page, context) => {
      await page.goto(`${baseUrl}/topic/${topic.id}`);
      await page.getByRole('heading', { name: 'How we travel', level: 1 }).waitFor({ timeout: WAIT_MS });
      expect(await page.getByTestId('offline-banner').count()).toBe(0);
      await context.setOffline(true);
      await page.getByTestId('offline-banner').getByText(shell.OFFLINE).waitFor({ timeout: WAIT_MS });
      await context.setOffline(false);
      await page.getByTestId('offline-banner').waitFor({ state: 'detached', timeout: WAIT_MS });
    });
  });
});

describe('the guided tour', () => {
  const userOf = async (tokens: LoginTokens) => {
    const res = await fetch(`${baseUrl}/api/v1/_fetchData/user`, {
      headers: { authorization: `Bearer ${tokens.id_token}` },
    });
    return (await res.json()) as CurrentUser;
  };
  const toursOf = async (tokens: LoginTokens) => (await userOf(tokens)).toursProgress;

  it('points at the connect-apps button, the query cards and the question box in turn, then records it', async () => {
    await withSignedInPage(touristTokens, async (page) => {
      await page.goto(`${baseUrl}/`);
      const step = page.getByTestId('tour-step');
      await step.getByText(tourCopy.steps.connectApps.title).waitFor({ timeout: WAIT_MS });
      expect(await step.getAttribute('data-step')).toBe('connectApps');
      await step.getByRole('button', { name: tourCopy.NEXT }).click();
      await step.getByText(tourCopy.steps.queryCards.title).waitFor();
      await step.getByRole('button', { name: tourCopy.NEXT }).click();
      await step.getByText(tourCopy.steps.questionInput.title).waitFor();
      await step.getByRole('button', { name: tourCopy.DONE }).click();
      await step.waitFor({ state: 'detached' });
      await expect.poll(() => toursOf(touristTokens)).toEqual({ [ONBOARDING_TOUR]: 'finished' });
      // remembered in this browser too
      const key = tourDoneKey((await userOf(touristTokens)).userId);
      expect(await page.evaluate((name) => localStorage.getItem(name), key)).toBe('1');
    });
  });

  it('records a skip', async () => {
    await withSignedInPage(skipperTokens, async (page) => {
      await page.goto(`${baseUrl}/`);
      const step = page.getByTestId('tour-step');
      await step.getByRole('button', { name: tourCopy.SKIP }).click({ timeout: WAIT_MS });
      await step.waitFor({ state: 'detached' });
      await expect.poll(() => toursOf(skipperTokens)).toEqual({ [ONBOARDING_TOUR]: 'skipped' });
    });
  });
});
