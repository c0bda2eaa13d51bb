// The apps screens (spec apps-and-connections §2, §4, §8) in a real browser against the real server, its job worker
// and the real website crawler: an admin finds Website in the app store, connects a small site served on
// 127.0.0.1, watches the badge go from 'syncing (N%)' to 'Connected', finds a page of the site on /search, then
// disconnects it after confirming and sees its pages leave the search.
import { mkdir } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoginTokens } from '../common/api/session';
import { startBackgroundWork, type BackgroundWork } from '../server/background';
import { createLogger } from '../server/logger';
import { createOrg, createUser, loginTokensFor } from '../server/testing/fixtures';
import { createTestServer, type TestServer } from '../server/testing/server';
import { openSignedIn } from './browser';

const WAIT_MS = 15_000;
/** The crawl waits 500 ms between pages, so the first batch of 25 takes a while on a loaded machine. */
const SYNC_WAIT_MS = 90_000;
const SCREENSHOTS = path.join(process.cwd(), 'test-results', 'screens');

/** Pages of the site; the crawler commits its first batch after 25 requests (the start page and 24 pages). */
const PAGE_COUNT = 30;
const FIRST_BATCH_PAGES = 24;
const DISTINCTIVE = 'quokkaflange';
const DISTINCTIVE_PAGE = 3;
const DISTINCTIVE_TITLE = 'Marsupial hardware catalogue';

/**
 * A small website on 127.0.0.1. Pages after the crawler's first batch wait until `release()`, so the connection
 * is seen mid-sync with a percentage rather than racing past it.
 */
function startSite(): Promise<{ url: string; release(): void; close(): Promise<void> }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const html = (title: string, body: string) =>
    `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;
  const pageTitle = (n: number) => (n === DISTINCTIVE_PAGE ? DISTINCTIVE_TITLE : `Garden journal ${n}`);
  const pageBody = (n: number) =>
    n === DISTINCTIVE_PAGE
      ? `<p>Every ${DISTINCTIVE} in the catalogue is forged from recycled wombat brass.</p>`
      : `<p>Entry ${n}: the tomatoes grew another ${n} centimetres this week.</p>`;
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const send = (status: number, body: string) => {
      response.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
      response.end(body);
    };
    const match = /^\/page-(\d+)$/.exec(request.url ?? '');
    if (request.url === '/') {
      const links = Array.from(
        { length: PAGE_COUNT },
        (_, i) => `<li><a href="/page-${i + 1}">${pageTitle(i + 1)}</a></li>`,
      ).join('');
      send(200, html('Scout test site', `<ul>${links}</ul>`));
    } else if (match) {
      const n = Number(match[1]);
      if (n < 1 || n > PAGE_COUNT) return send(404, html('Not found', ''));
      if (n <= FIRST_BATCH_PAGES) return send(200, html(pageTitle(n), pageBody(n)));
      void released.then(() => send(200, html(pageTitle(n), pageBody(n))));
    } else send(404, html('Not found', ''));
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}/`,
        release,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}

let scout: TestServer;
let work: BackgroundWork;
let baseUrl: string;
let site: Awaited<ReturnType<typeof startSite>>;
let adminTokens: LoginTokens;
let memberTokens: LoginTokens;
const previousAllowPrivate = process.env.SCOUT_CRAWL_ALLOW_PRIVATE;

beforeAll(async () => {
  await mkdir(SCREENSHOTS, { recursive: true });
  // The crawler reads this from the process it runs in (the worker below), refusing 127.0.0.1 otherwise.
  process.env.SCOUT_CRAWL_ALLOW_PRIVATE = '1';
  site = await startSite();
  scout = await createTestServer({ env: { SCOUT_CRAWL_ALLOW_PRIVATE: '1' } });
  await scout.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(scout.app.server.address() as AddressInfo).port}`;
  work = startBackgroundWork(scout.store, createLogger('silent'));
  const { db } = scout.store;
  const org = await createOrg(db, { domain: 'apps.test', name: 'Apps Co' });
  const admin = await createUser(db, org, { email: 'ada@apps.test', admin: true, firstName: 'Ada' });
  adminTokens = await loginTokensFor(scout.ctx, admin);
  const member = await createUser(db, org, { email: 'max@apps.test', firstName: 'Max' });
  memberTokens = await loginTokensFor(scout.ctx, member);
});

afterAll(async () => {
  site?.release();
  await work?.stop();
  await scout?.close();
  await site?.close();
  if (previousAllowPrivate === undefined) delete process.env.SCOUT_CRAWL_ALLOW_PRIVATE;
  else process.env.SCOUT_CRAWL_ALLOW_PRIVATE = previousAllowPrivate;
});

function openAs(tokens: LoginTokens, address: string) {
  return openSignedIn(baseUrl, tokens, address);
}

const websiteCard = (page: Page): Locator => page.locator('[data-testid="app-card"][data-app="website"]');
const orgBadgeText = async (card: Locator) =>
  (
    (await card
      .getByTestId('connection-badge')
      .first()
      .textContent({ timeout: 1000 })
      .catch(() => '')) ?? ''
  ).trim();

async function searchTitles(page: Page, q: string): Promise<string[]> {
  await page.goto(`${baseUrl}/search?q=${q}`);
  const screen = page.getByTestId('search-screen');
  await expect.poll(() => screen.getAttribute('data-load-state'), { timeout: WAIT_MS }).toBe('Loaded');
  return page
    .getByTestId('search-result')
    .evaluateAll((nodes) =>
      nodes.map((node) => node.querySelector('[data-testid="result-title"]')?.textContent ?? ''),
    );
}

describe('the apps screens', () => {
  it(
    'connects a website as an admin, follows its sync to Connected, searches it, and disconnects it',
    async () => {
      const { page, close } = await openAs(adminTokens, '/integrations');
      try {
        // the store: popular apps first, search narrows to Website
        await page.getByTestId('app-store').waitFor({ timeout: WAIT_MS });
        await page.getByTestId('app-card').first().waitFor({ timeout: WAIT_MS });
        const first = await page
          .getByTestId('app-card')
          .evaluateAll((cards) => cards.slice(0, 5).map((card) => card.getAttribute('data-app')));
        expect(first).toEqual(['slack', 'notion', 'gdrive', 'website', 'salesforce']);
        // an app this server has no connector for cannot be added, and says so
        const salesforce = page
          .locator('[data-testid="app-card"][data-app="salesforce"]')
          .getByTestId('connect-button');
        expect(await salesforce.isDisabled()).toBe(true);
        await salesforce.hover({ force: true });
        await page.getByText('You are unable to add this app.').waitFor({ timeout: WAIT_MS });
        await page.screenshot({ path: path.join(SCREENSHOTS, 'apps-store.png') });
        await page.getByTestId('app-store-search').fill('websi');
        await expect.poll(() => page.getByTestId('app-card').count()).toBe(1);
        const card = websiteCard(page);
        await card.waitFor({ timeout: WAIT_MS });

        // the connect dialog: instructions, the URL field, Connect disabled until the URL is there
        await card.getByTestId('connect-button').click();
        const dialog = page.getByTestId('connect-dialog');
        await dialog.waitFor({ timeout: WAIT_MS });
        expect(await dialog.getByTestId('connect-instructions').locator('li').count()).toBeGreaterThan(1);
        const submit = dialog.getByTestId('connect-submit');
        expect(await submit.isDisabled()).toBe(true);
        expect((await submit.boundingBox())?.width).toBe(130);
        const urlField = dialog.getByTestId('connect-field-url');
        await urlField.fill('   ');
        expect(await submit.isDisabled()).toBe(true);
        // a malformed address is refused in the dialog with the spec's words, and nothing is sent
        await urlField.fill('not a url');
        await urlField.press('Enter');
        await page.getByText('Please enter a valid URL.').waitFor({ timeout: WAIT_MS });
        await page.screenshot({ path: path.join(SCREENSHOTS, 'apps-connect-dialog.png') });
        // Enter submits from the keyboard
        await urlField.fill(site.url);
        await urlField.press('Enter');
        await page.getByText('Website connected. You can now search ...').waitFor({ timeout: WAIT_MS });
        await dialog.waitFor({ state: 'detached', timeout: WAIT_MS });

        // Syncing, then syncing (N%) while the rest of the site is held back, then Connected
        const seen = new Set<string>();
        let percent = 0;
        await expect
          .poll(
            async () => {
              const text = await orgBadgeText(card);
              seen.add(text);
              const match = /^syncing \((\d+)%\)$/.exec(text);
              if (match) percent = Number(match[1]);
              return percent;
            },
            { timeout: SYNC_WAIT_MS, interval: 500 },
          )
          .toBeGreaterThan(0);
        for (const text of seen) expect(text).toMatch(/^(|Syncing|syncing \(\d+%\))$/);
        expect(percent).toBeLessThan(100);
        await page.screenshot({ path: path.join(SCREENSHOTS, 'apps-syncing.png') });
        site.release();
        await expect
          .poll(() => orgBadgeText(card), { timeout: SYNC_WAIT_MS, interval: 500 })
          .toBe('Connected');

        // the management page lists it with its org column, and the individual column is blank (OrgOnly)
        await page.goto(`${baseUrl}/apps/org`);
        const row = page.locator('[data-testid="app-row"][data-app="website"]');
        await row.waitFor({ timeout: WAIT_MS });
        expect(await row.locator('[data-status="placeholder"]').count()).toBe(1);
        await page.screenshot({ path: path.join(SCREENSHOTS, 'apps-management.png') });

        // a page of the site is found by its distinctive word
        await expect
          .poll(() => searchTitles(page, DISTINCTIVE), { timeout: WAIT_MS })
          .toEqual([DISTINCTIVE_TITLE]);

        // the homepage's apps strip shows it, with the way to more apps
        await page.goto(`${baseUrl}/`);
        const strip = page.getByTestId('apps-strip');
        await strip.waitFor({ timeout: WAIT_MS });
        expect(await strip.getByTestId('apps-strip-icon').count()).toBe(1);
        expect(await strip.getByRole('link', { name: 'Connect more apps' }).getAttribute('href')).toBe(
          '/integrations',
        );

        // a member sees the admin's connection as Connected with its tooltip, and cannot disconnect or add it
        const member = await openAs(memberTokens, '/apps/individual/website');
        try {
          const memberRow = member.page.locator('[data-testid="app-row"][data-app="website"]');
          await memberRow.waitFor({ timeout: WAIT_MS });
          const memberBadge = memberRow.getByTestId('connection-badge').first();
          expect(await memberBadge.textContent()).toBe('Connected');
          expect(await memberBadge.evaluate((node) => node.tagName)).not.toBe('BUTTON');
          await memberBadge.hover();
          await member.page.getByText('Your admin has connected the app.').waitFor({ timeout: WAIT_MS });
          expect(await memberRow.getByTestId('connect-button').isDisabled()).toBe(true);
          expect(await memberRow.locator('[data-status="connect"]').count()).toBe(0);
        } finally {
          await member.close();
        }

        // disconnect: the Connected badge becomes Disconnect on hover, and asks first
        await page.goto(`${baseUrl}/apps/org/website`);
        const badge = page
          .locator('[data-testid="app-row"][data-app="website"] [data-testid="connection-badge"]')
          .first();
        await expect.poll(() => badge.textContent(), { timeout: WAIT_MS }).toBe('Connected');
        await badge.hover();
        await expect.poll(() => badge.textContent()).toBe('Disconnect');
        await badge.click();
        const confirm = page.getByTestId('disconnect-confirm');
        await confirm.waitFor({ timeout: WAIT_MS });
        // Cancel keeps the connection
        await page.keyboard.press('Escape');
        await confirm.waitFor({ state: 'detached', timeout: WAIT_MS });
        await badge.click();
        await page.getByTestId('disconnect-confirm-button').click();
        await page.getByText('Disconnected Website.').waitFor({ timeout: WAIT_MS });
        // Disabling while the documents are removed, then the org column offers Connect again
        await expect
          .poll(() => badge.getAttribute('data-status'), { timeout: SYNC_WAIT_MS, interval: 500 })
          .toBe('connect');
        await expect.poll(() => searchTitles(page, DISTINCTIVE), { timeout: WAIT_MS }).toEqual([]);
      } finally {
        await close();
      }
    },
    4 * SYNC_WAIT_MS,
  );
});
