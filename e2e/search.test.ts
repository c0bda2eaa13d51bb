// The search screen (spec shell-and-account §3 Search state and page-address state, §4.12) in a real browser
// against the real server: documents indexed through the store, results with highlighted snippets and facet
// counts, filters kept in the address, arrow-key navigation, and a member never sees another member's private
// document.
import { mkdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoginTokens } from '../common/api/session';
import { upsertDocuments, type IndexDocument } from '../server/search';
import { createOrg, createUser, loginTokensFor } from '../server/testing/fixtures';
import { createTestServer, type TestServer } from '../server/testing/server';
import { openSignedIn } from './browser';

const WAIT_MS = 10_000;
const SCREENSHOTS = path.join(process.cwd(), 'test-results', 'screens');

let server: TestServer;
let baseUrl: string;
const tokens = {} as { ben: LoginTokens; chloe: LoginTokens };

const doc = (
  externalId: string,
  source: string,
  title: string,
  body: string,
  acl: string[],
): IndexDocument => ({
  source,
  externalId,
  title,
  body,
  acl,
  objectType: source === 'slack' ? 'Messages' : 'Articles',
  fileType: source === 'slack' ? 'message' : 'md',
  url: `https://acme.example/${source}/${externalId}`,
  author: 'Ada Admin',
  authorEmail: 'admin@search.test',
  modifiedTime: new Date(Date.now() - Number(externalId.replace(/\D/g, '')) * 86_400_000),
});

beforeAll(async () => {
  await mkdir(SCREENSHOTS, { recursive: true });
  server = await createTestServer();
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
  const { db } = server.store;
  const org = await createOrg(db, { domain: 'search.test', name: 'Search Co' });
  const ben = await createUser(db, org, { email: 'ben@search.test', firstName: 'Ben', lastName: 'Baker' });
  const chloe = await createUser(db, org, {
    email: 'chloe@search.test',
    firstName: 'Chloe',
    lastName: 'Chen',
  });
  tokens.ben = await loginTokensFor(server.ctx, ben);
  tokens.chloe = await loginTokensFor(server.ctx, chloe);
  await upsertDocuments(db, org.id, [
    doc('n1', 'notion', 'Expense policy', 'Submit every expense receipt within 30 days of purchase.', [
      'org',
    ]),
    doc('n2', 'notion', 'Travel policy', 'Book travel early; the expense limit for hotels is 200 euros.', [
      'org',
    ]),
    doc(
      'c3',
      'confluence',
      'Release process',
      'Each release needs an expense-free rollback plan and a changelog.',
      ['org'],
    ),
    doc('s4', 'slack', '#finance', 'Reminder: expense reports close on Friday.', ['org']),
    doc('s5', 'slack', '#random', 'Lunch is on the roof today.', ['org']),
    doc('n6', 'notion', 'Ben 1:1 notes', 'Private: discussed the expense budget for the offsite.', [
      'user:ben@search.test',
    ]),
  ]);
});
afterAll(() => server?.close());

function openAs(tokens: LoginTokens, address: string) {
  return openSignedIn(baseUrl, tokens, address);
}

const titles = (page: Page) =>
  page
    .getByTestId('search-result')
    .evaluateAll((nodes) =>
      nodes.map((node) => node.querySelector('[data-testid="result-title"]')?.textContent),
    );
const here = (page: Page) => {
  const url = new URL(page.url());
  return `${url.pathname}${url.search}`;
};

describe('the search screen', () => {
  it('searches, highlights, counts by app, filters through the address and moves by keyboard', async () => {
    const { page, close } = await openAs(tokens.chloe, '/search');
    try {
      await page.getByTestId('sidebar-search').waitFor({ timeout: WAIT_MS });
      // '/' focuses the box from anywhere outside an input
      await page.locator('body').click();
      await page.keyboard.press('/');
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid')))
        .toBe('search-input');
      await page.keyboard.type('expense');
      await page.keyboard.press('Enter');
      await expect.poll(() => here(page), { timeout: WAIT_MS }).toBe('/search?q=expense');
      await page.getByTestId('search-results').waitFor({ timeout: WAIT_MS });
      await expect
        .poll(() => page.getByTestId('search-screen').getAttribute('data-load-state'))
        .toBe('Loaded');
      expect((await titles(page)).sort()).toEqual([
        '#finance',
        'Expense policy',
        'Release process',
        'Travel policy',
      ]);
      const marks = await page.locator('[data-testid="result-snippet"] mark').allTextContents();
      expect(marks.length).toBeGreaterThan(0);
      for (const mark of marks) expect(mark.toLowerCase()).toBe('expense');
      // facets: chloe's readable documents only (ben's private note is not counted)
      expect(await page.getByTestId('facet-app-notion').textContent()).toContain('2');
      expect(await page.getByTestId('facet-app-slack').textContent()).toContain('1');
      expect(await page.getByTestId('facet-app-all_apps').textContent()).toContain('4');
      await page.waitForTimeout(300);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'search-results.png') });

      await page.getByTestId('facet-app-notion').click();
      await expect.poll(() => here(page)).toBe('/search?q=expense&app=notion');
      await expect.poll(async () => (await titles(page)).sort()).toEqual(['Expense policy', 'Travel policy']);
      // the other apps keep their counts while one is selected
      expect(await page.getByTestId('facet-app-slack').textContent()).toContain('1');

      // arrow keys: from the box to the first result, then down and back up
      await page.getByTestId('search-input').focus();
      await page.keyboard.press('ArrowDown');
      const focusedId = () =>
        page.evaluate(() => document.activeElement?.getAttribute('data-object-id') ?? null);
      const ids = await page
        .getByTestId('search-result')
        .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-object-id')));
      await expect.poll(focusedId).toBe(ids[0]);
      await page.keyboard.press('ArrowDown');
      await expect.poll(focusedId).toBe(ids[1]);
      await page.keyboard.press('ArrowUp');
      await expect.poll(focusedId).toBe(ids[0]);
      // Enter opens the result in the preview panel and records the visit; its placeholder address (.example) is
      // no link out
      const firstTitle = (await titles(page))[0];
      const visit = page.waitForRequest((request) => request.url().endsWith('/_RecordRecentVisit'));
      await page.keyboard.press('Enter');
      await visit;
      const preview = page.getByTestId('preview-title');
      await preview.waitFor();
      expect(await preview.innerText()).toBe(firstTitle);
      const content = page.getByTestId('preview-content');
      await content.waitFor({ timeout: WAIT_MS });
      expect(await content.innerText()).toMatch(/expense/i);
      expect(await page.getByRole('link', { name: /^Open in/ }).count()).toBe(0);
      await page.keyboard.press('Escape');
      await preview.waitFor({ state: 'hidden' });
      // '/' typed in an input is text, not the shortcut
      await page.getByTestId('search-input').focus();
      await page.keyboard.press('End');
      await page.keyboard.type('/');
      expect(await page.getByTestId('search-input').inputValue()).toBe('expense/');
    } finally {
      await close();
    }
  });

  it('keeps a member’s private document from another member, and shows the owner theirs', async () => {
    const chloe = await openAs(tokens.chloe, '/search?q=offsite');
    try {
      await chloe.page.getByTestId('search-no-results').waitFor({ timeout: WAIT_MS });
    } finally {
      await chloe.close();
    }
    const ben = await openAs(tokens.ben, '/search?q=offsite');
    try {
      await ben.page.getByTestId('search-results').waitFor({ timeout: WAIT_MS });
      expect(await titles(ben.page)).toEqual(['Ben 1:1 notes']);
    } finally {
      await ben.close();
    }
  });
});
