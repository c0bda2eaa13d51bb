import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { LOGIN_TOKENS_STORAGE_KEY, type LoginTokens } from '../common/api/session';

/** Debian's Chromium (DESIGN §10): Playwright never downloads a browser of its own here. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

let shared: Promise<Browser> | undefined;

/**
 * One Chromium per test file, launched on first use: launching one took ~2 s of CPU, about as much again as a whole
 * short test, and every test launched its own. Relaunched if it goes away.
 */
function sharedBrowser(): Promise<Browser> {
  shared ??= chromium
    .launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS })
    .then((browser) => {
      browser.on('disconnected', () => (shared = undefined));
      return browser;
    });
  return shared;
}

/** Closes the test file's Chromium (e2e/setup.ts, after the file's own hooks). */
export async function closeSharedBrowser(): Promise<void> {
  const browser = shared;
  shared = undefined;
  await (await browser)?.close();
}

/**
 * A fresh browser context: its own storage, cookies and cache, as a fresh profile had, so no test sees another's
 * storage.
 */
export async function launchBrowser(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const context = await (await sharedBrowser()).newContext({ viewport: { width: 1280, height: 800 } });
  return { context, close: () => context.close() };
}

/**
 * Signs the page in as `tokens` (or out, with null) on its first load only: later reloads must see what the app
 * itself did to the stored tokens, a sign-out included.
 */
export async function seedSession(page: Page, tokens: LoginTokens | null): Promise<void> {
  await page.addInitScript(
    ({ key, value }) => {
      try {
        if (sessionStorage.getItem('e2e.seeded')) return;
        sessionStorage.setItem('e2e.seeded', '1');
        if (value === null) localStorage.removeItem(key);
        else localStorage.setItem(key, value);
      } catch {
        // about:blank has no storage; the first real page load seeds it.
      }
    },
    { key: LOGIN_TOKENS_STORAGE_KEY, value: tokens ? JSON.stringify(tokens) : null },
  );
}

/** A fresh browser with one page signed in as `tokens` (signed out for null), closed after `run` whatever happens. */
export async function withSignedInPage(
  tokens: LoginTokens | null,
  run: (page: Page, context: BrowserContext) => Promise<void>,
): Promise<void> {
  const browser = await launchBrowser();
  try {
    const page = await browser.context.newPage();
    await seedSession(page, tokens);
    await run(page, browser.context);
  } finally {
    await browser.close();
  }
}

/** A fresh browser signed in as `tokens`, at `address`; the caller closes it. */
export async function openSignedIn(
  baseUrl: string,
  tokens: LoginTokens,
  address: string,
): Promise<{ page: Page; close: () => Promise<void> }> {
  const browser = await launchBrowser();
  const page = await browser.context.newPage();
  await seedSession(page, tokens);
  await page.goto(`${baseUrl}${address}`);
  return { page, close: browser.close };
}
