// The route table of spec shell-and-account §2.1–2.3 in a real browser against the real server: every
// redirect and guard, the loading splash and the crash screen.
import type { Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_TOKENS_STORAGE_KEY } from '../common/api/session';
import type { LoginTokens } from '../common/api/session';
import { auth, shell } from '../common/strings';
import { launchBrowser, seedSession, startScout } from './harness';
import { publicTopicCopy, workspaceSettingsCopy } from '../app/strings';

type Scout = Awaited<ReturnType<typeof startScout>>;
type Browser = Awaited<ReturnType<typeof launchBrowser>>;
type CreateUserOptions = Parameters<Scout['createUser']>[0];

const WAIT_MS = 10_000;

const USERS = {
  member: { email: 'member@acme.test', orgDomain: 'acme.test', workspaceSetup: true },
  admin: { email: 'admin@acme.test', orgDomain: 'acme.test', admin: true, workspaceSetup: true },
  flaggedMember: {
    email: 'member@flags.test',
    orgDomain: 'flags.test',
    workspaceSetup: true,
    flags: { answers: true, adminAnalytics: true },
  },
  flaggedAdmin: {
    email: 'admin@flags.test',
    orgDomain: 'flags.test',
    admin: true,
    workspaceSetup: true,
    flags: { answers: true, adminAnalytics: true },
  },
  newcomer: { email: 'admin@fresh.test', orgDomain: 'fresh.test', admin: true, workspaceSetup: false },
  setupSkipper: {
    email: 'admin@skip.test',
    orgDomain: 'skip.test',
    admin: true,
    workspaceSetup: false,
    flags: { workspaceSetupDisabled: true },
  },
} satisfies Record<string, CreateUserOptions>;

type UserName = keyof typeof USERS;

const ADMIN_SCREENS: Array<[path: string, heading: string]> = [
  ['/admin/appearance', workspaceSettingsCopy.TITLE],
  ['/admin/members', 'Members'],
  ['/admin/members/invited', 'Members'],
  ['/admin/directory-sync', 'Directory Sync'],
  ['/admin/billing', 'Billing'],
  ['/admin/ai-controls', 'AI Controls'],
  ['/admin/sso', 'Security'],
  ['/admin/api-keys', 'API Keys'],
];

let scout: Scout;
let browser: Browser;
const tokens = {} as Record<UserName, LoginTokens>;

beforeAll(async () => {
  scout = await startScout();
  browser = await launchBrowser();
  for (const [name, options] of Object.entries(USERS)) {
    tokens[name as UserName] = (await scout.createUser(options)).tokens;
  }
});

afterAll(async () => {
  await browser?.close();
  await scout?.stop();
});

/**
 * A tab signed in as `as` (or signed out with null). All tabs of the context share localStorage, so each
 * test closes its tab before the next seeds its own tokens. Seeding happens once per tab: reloads must
 * see what the app itself did to the tokens (a sign-out included).
 */
async function withPage(as: LoginTokens | null, run: (page: Page) => Promise<void>): Promise<void> {
  const page = await browser.context.newPage();
  await seedSession(page, as);
  try {
    await run(page);
  } finally {
    await page.close();
  }
}

function here(page: Page): string {
  const url = new URL(page.url());
  return `${url.pathname}${url.search}`;
}

function loginWithRedirect(target: string): string {
  return `/login?${new URLSearchParams({ redirect: target }).toString()}`;
}

async function visit(page: Page, path: string): Promise<void> {
  await page.goto(`${scout.baseUrl}${path}`);
}

/** Waits until the address is `path` (path and query) and the screen shows `heading`. */
async function expectScreen(page: Page, path: string, heading: string): Promise<void> {
  await expect.poll(() => here(page), { timeout: WAIT_MS }).toBe(path);
  await page.getByRole('heading', { name: heading, exact: true }).waitFor({ timeout: WAIT_MS });
  expect(here(page)).toBe(path);
}

async function expectHome(page: Page, query = ''): Promise<void> {
  await expectScreen(page, `/${query}`, shell.HOME_HEADING);
}

describe('signed out (spec §2.1)', () => {
  it('sends any other path to /login carrying path and query, and the root to a bare /login', async () => {
    await withPage(null, async (page) => {
      await visit(page, '/chat?x=1');
      await expectScreen(page, loginWithRedirect('/chat?x=1'), auth.SIGN_IN_HEADING);

      await visit(page, '/admin/members/invited?tab=2');
      await expectScreen(page, loginWithRedirect('/admin/members/invited?tab=2'), auth.SIGN_IN_HEADING);

      await visit(page, '/nope?q=1');
      await expectScreen(page, loginWithRedirect('/nope?q=1'), auth.SIGN_IN_HEADING);

      await visit(page, '/');
      await expectScreen(page, '/login', auth.SIGN_IN_HEADING);
    });
  });

  it('reaches /login, /signup and the public topic page', async () => {
    await withPage(null, async (page) => {
      await visit(page, '/login');
      await expectScreen(page, '/login', auth.SIGN_IN_HEADING);
      await page.getByText(auth.TAGLINE).waitFor();
      await page.getByLabel(auth.WORK_EMAIL).waitFor();

      await page.getByRole('link', { name: auth.NO_ACCOUNT_SIGN_UP }).click();
      await expectScreen(page, '/signup', auth.SIGN_UP_HEADING);

      await visit(page, '/signup');
      await expectScreen(page, '/signup', auth.SIGN_UP_HEADING);

      await visit(page, '/topic/some-topic/some-message');
      await expectScreen(page, '/topic/some-topic/some-message', publicTopicCopy.NOT_FOUND_HEADING);
    });
  });

  it('treats tokens the server refuses as signed out, forgetting them and keeping the redirect', async () => {
    const stale: LoginTokens = { ...tokens.member, id_token: 'not-a-token' };
    await withPage(stale, async (page) => {
      await visit(page, '/chat?z=1');
      await expectScreen(page, loginWithRedirect('/chat?z=1'), auth.SIGN_IN_HEADING);
      expect(await page.evaluate((key) => localStorage.getItem(key), LOGIN_TOKENS_STORAGE_KEY)).toBeNull();
    });
  });
});

describe('signed in (spec §2.2)', () => {
  it('sends /login and /signup home, or to a same-origin redirect parameter', async () => {
    await withPage(tokens.member, async (page) => {
      await visit(page, '/login');
      await expectHome(page);
      await page.getByTestId('workspace-name').waitFor();

      await visit(page, '/signup');
      await expectHome(page);

      await visit(page, loginWithRedirect('/chat?x=1'));
      await expectScreen(page, '/chat?x=1', 'Chat');

      await visit(page, loginWithRedirect('https://elsewhere.example/steal'));
      await expectHome(page);

      await visit(page, loginWithRedirect('//elsewhere.example/steal'));
      await expectHome(page);
    });
  });

  it('follows the old aliases and moved addresses', async () => {
    await withPage(tokens.member, async (page) => {
      await visit(page, '/dash-ai?x=1');
      await expectScreen(page, '/chat?x=1', 'Chat');

      await visit(page, '/dashchat');
      await expectScreen(page, '/chat', 'Chat');

      await visit(page, '/admin/hris');
      await expectScreen(page, '/apps/org/finch', 'Apps');

      await visit(page, '/admin/browser-extension');
      await expectScreen(page, '/my-settings', 'Personal settings');

      await visit(page, '/apps');
      await expectScreen(page, '/apps/org', 'Apps');

      await visit(page, '/apps/org/slack');
      await expectScreen(page, '/apps/org/slack', 'Apps');

      await visit(page, '/nope?q=1');
      await expectHome(page, '?q=1');

      await visit(page, '/admin');
      await expectHome(page);
    });
  });

  it('shows every member screen at its address', async () => {
    const screens: Array<[string, string]> = [
      ['/', shell.HOME_HEADING],
      ['/chat', 'Chat'],
      ['/workflows', 'Workflows'],
      ['/bots', 'Bots'],
      ['/files', 'Files'],
      ['/integrations', 'Apps store'],
      ['/browser-extension', 'Browser Extension'],
      ['/my-settings', 'Personal settings'],
      ['/my-ai-controls', 'My AI Controls'],
      ['/notification-preferences', 'Notification preferences'],
    ];
    await withPage(tokens.member, async (page) => {
      for (const [path, heading] of screens) {
        await visit(page, path);
        await expectScreen(page, path, heading);
      }
      // A topic that cannot be loaded returns to /chat (spec shell-and-account §8).
      for (const path of ['/topic/t1', '/topic/t1/m1']) {
        await visit(page, path);
        await expectScreen(page, '/chat', 'Chat');
      }
    });
  });

  it('sends a member away from every admin screen', async () => {
    await withPage(tokens.member, async (page) => {
      for (const path of [...ADMIN_SCREENS.map(([adminPath]) => adminPath), '/admin/analytics']) {
        await visit(page, path);
        await expectHome(page);
      }
    });
  });

  it('lets an admin stay on the admin screens', async () => {
    await withPage(tokens.admin, async (page) => {
      for (const [path, heading] of ADMIN_SCREENS) {
        await visit(page, path);
        await expectScreen(page, path, heading);
      }
    });
  });

  it('hides /answers and /admin/analytics while their flags are off', async () => {
    await withPage(tokens.admin, async (page) => {
      await visit(page, '/answers');
      await expectHome(page);
      await visit(page, '/answers/a1');
      await expectHome(page);
      await visit(page, '/admin/analytics');
      await expectHome(page);
    });
  });

  it('shows /answers and, to admins only, /admin/analytics when their flags are on', async () => {
    await withPage(tokens.flaggedAdmin, async (page) => {
      await visit(page, '/answers');
      await expectScreen(page, '/answers', 'Answers');
      await visit(page, '/answers/a1');
      await expectScreen(page, '/answers/a1', 'Answers');
      await visit(page, '/admin/analytics');
      await expectScreen(page, '/admin/analytics', 'Analytics');
    });
    await withPage(tokens.flaggedMember, async (page) => {
      await visit(page, '/answers');
      await expectScreen(page, '/answers', 'Answers');
      await visit(page, '/admin/analytics');
      await expectHome(page);
    });
  });

  it('opens /side-panel only inside a frame', async () => {
    await withPage(tokens.member, async (page) => {
      await visit(page, '/side-panel');
      await expectHome(page);

      await page.evaluate(() => {
        const frame = document.createElement('iframe');
        frame.src = '/side-panel';
        document.body.appendChild(frame);
      });
      await page
        .frameLocator('iframe')
        .getByRole('heading', { name: 'Side panel' })
        .waitFor({ timeout: WAIT_MS });
      const frame = page.frames().find((candidate) => candidate !== page.mainFrame());
      expect(new URL(frame!.url()).pathname).toBe('/side-panel');
    });
  });

  it("shows 'Redirecting..' on /uninstall, then leaves for the uninstall page", async () => {
    await withPage(tokens.member, async (page) => {
      await visit(page, '/uninstall');
      await page.getByText(shell.REDIRECTING, { exact: true }).waitFor({ timeout: WAIT_MS });
      // A build without VITE_UNINSTALL_URL sends the browser to Scout's own homepage.
      await expectHome(page);
    });
  });

  it('sends everyone of an org not set up to /workspace-setup, unless workspaceSetupDisabled is on', async () => {
    await withPage(tokens.newcomer, async (page) => {
      for (const path of ['/', '/chat?x=1', '/admin/members', '/side-panel', '/nope']) {
        await visit(page, path);
        await expectScreen(page, '/workspace-setup', 'Set up your workspace');
      }
      await visit(page, '/workspace-setup');
      await expectScreen(page, '/workspace-setup', 'Set up your workspace');
    });
    await withPage(tokens.setupSkipper, async (page) => {
      await visit(page, '/chat');
      await expectScreen(page, '/chat', 'Chat');
    });
  });

  it('reloads into /login when another tab signs out (spec §4.4)', async () => {
    await withPage(tokens.member, async (page) => {
      await visit(page, '/chat');
      await expectScreen(page, '/chat', 'Chat');

      const other = await browser.context.newPage();
      try {
        await other.goto(`${scout.baseUrl}/signup`);
        await other.evaluate((key) => localStorage.removeItem(key), LOGIN_TOKENS_STORAGE_KEY);
      } finally {
        await other.close();
      }
      await expectScreen(page, loginWithRedirect('/chat'), auth.SIGN_IN_HEADING);
    });
  });
});

describe('loading and crash screens (spec §2.3)', () => {
  it("shows 'Loading...', then 'Still loading...' after 5 s, then the failure text after 50 s", async () => {
    await withPage(tokens.member, async (page) => {
      // Hold the user fetch unanswered, and drive the splash's timers with Playwright's clock.
      const held: Route[] = [];
      await page.route('**/api/v1/_fetchData/user', (route) => {
        held.push(route);
      });
      await page.clock.install();
      try {
        await visit(page, '/chat');
        await page.getByText(shell.LOADING, { exact: true }).waitFor({ timeout: WAIT_MS });

        await page.clock.fastForward(5_000);
        await page.getByText(shell.STILL_LOADING, { exact: true }).waitFor({ timeout: WAIT_MS });

        await page.clock.fastForward(45_000);
        await page.getByText(shell.LOADING_FAILED, { exact: true }).waitFor({ timeout: WAIT_MS });
      } finally {
        await Promise.all(held.map((route) => route.abort().catch(() => undefined)));
      }
    });
  });

  it("shows the crash screen with a trace id; a second crash offers 'Go to homepage'", async () => {
    await withPage(tokens.member, async (page) => {
      await visit(page, '/__crash');
      await page.getByRole('heading', { name: shell.CRASH_TITLE }).waitFor({ timeout: WAIT_MS });
      await page.getByText(shell.CRASH_SUBTITLE).waitFor();
      await page.getByText(/^Trace ID:/).waitFor();
      const traceId = await page.getByTestId('trace-id').innerText();
      expect(traceId).toMatch(/^[0-9a-f]{32}$/);

      await page.getByRole('button', { name: shell.TRY_AGAIN }).click();
      await expect.poll(() => here(page), { timeout: WAIT_MS }).toBe('/__crash?crashCount=1');
      await page.getByRole('button', { name: shell.GO_TO_HOMEPAGE }).waitFor({ timeout: WAIT_MS });
      expect(await page.getByTestId('trace-id').innerText()).not.toBe(traceId);

      await page.getByRole('button', { name: shell.GO_TO_HOMEPAGE }).click();
      await expectHome(page);
    });
  });

  it('shows the crash screen to signed-out visitors too', async () => {
    await withPage(null, async (page) => {
      await visit(page, '/__crash');
      await page.getByRole('button', { name: shell.TRY_AGAIN }).waitFor({ timeout: WAIT_MS });
    });
  });
});
