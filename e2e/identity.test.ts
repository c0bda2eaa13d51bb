// Sign-in, sign-up, the first-run setup, invites and the members screen (spec shell-and-account §2.4–2.5, §2.8,
// §4.1–4.5; asking-questions §2–§8) in a real browser against the real server, which mails through a real SMTP
// server on 127.0.0.1: every code and link a test uses is read from the mail Scout sent.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEMBERS_PAGE_SIZE } from '../common/api/members';
import { LOGIN_TOKENS_STORAGE_KEY } from '../common/api/session';
import type { LoginTokens } from '../common/api/session';
import { LOGO_MAX_BYTES } from '../common/limits';
import { auth, invites, shell, validation } from '../common/strings';
import { imageCopy, inviteCopy, membersCopy, mySettingsCopy, setupCopy, sidebarCopy } from '../app/strings';
import { pngBytes } from '../server/testing/images';
import { launchBrowser, seedSession, startScout } from './harness';
import type { RunningScout } from './harness';
import { startMailbox } from './mailbox';
import type { Mailbox, ReceivedMail } from './mailbox';

const WAIT_MS = 10_000;
const SCREENSHOTS = path.join(process.cwd(), 'test-results', 'screens');

const ACME = 'acme.test';
/** An org with more members than one page holds. */
const BIG = { domain: 'big.test', admin: 'boss@big.test', pending: 24 };
const ADMIN = { email: 'ada@acme.test', firstName: 'Ada', lastName: 'Admin', admin: true };
const MEMBER = { email: 'max@acme.test', firstName: 'Max', lastName: 'Member' };
/** Invited before, never signed in: what 'Resend invite' offers. */
const PENDING = { email: 'ivy@acme.test', status: 'INVITED' as const };

let scout: RunningScout;
let mailbox: Mailbox;
const seeded = {} as { admin: LoginTokens; bigAdmin: LoginTokens };

beforeAll(async () => {
  await mkdir(SCREENSHOTS, { recursive: true });
  mailbox = await startMailbox();
  scout = await startScout({ env: { SMTP_URL: mailbox.url } });
  seeded.admin = (await scout.createUser({ ...ADMIN, orgDomain: ACME })).tokens;
  await scout.createUser({ ...MEMBER, orgDomain: ACME });
  await scout.createUser({ ...PENDING, orgDomain: ACME });
  seeded.bigAdmin = (
    await scout.createUser({ email: BIG.admin, admin: true, firstName: 'Bo', lastName: 'Ss' })
  ).tokens;
  for (let i = 0; i < BIG.pending; i++) {
    await scout.createUser({ email: `p${String(i).padStart(2, '0')}@${BIG.domain}`, status: 'INVITED' });
  }
});

afterAll(async () => {
  await scout?.stop();
  await mailbox?.close();
});

/** A fresh browser context per test: nobody signed in, no stored flags, unless `as` seeds tokens. */
async function withBrowser(run: (context: BrowserContext) => Promise<void>): Promise<void> {
  const browser = await launchBrowser();
  try {
    await run(browser.context);
  } finally {
    await browser.close();
  }
}

async function openPage(context: BrowserContext, address: string, as?: LoginTokens): Promise<Page> {
  const page = await context.newPage();
  if (as) await seedSession(page, as);
  await page.goto(`${scout.baseUrl}${address}`);
  return page;
}

function here(page: Page): string {
  const url = new URL(page.url());
  return `${url.pathname}${url.search}`;
}

async function expectAt(page: Page, address: string): Promise<void> {
  await expect.poll(() => here(page), { timeout: WAIT_MS }).toBe(address);
}

async function heading(page: Page, name: string): Promise<void> {
  await page.getByRole('heading', { name, exact: true }).waitFor({ timeout: WAIT_MS });
}

async function storedTokens(page: Page): Promise<LoginTokens | null> {
  const raw = await page.evaluate((key) => localStorage.getItem(key), LOGIN_TOKENS_STORAGE_KEY);
  return raw ? (JSON.parse(raw) as LoginTokens) : null;
}

/** A screenshot for a person to look at, once dialogs and menus have finished sliding in. */
async function snap(page: Page, name: string): Promise<void> {
  await page.waitForTimeout(400);
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
}

function codeIn(mail: ReceivedMail): string {
  const code = /temporary login code is: ([A-Z0-9]{5}(?:-[A-Z0-9]{5}){3})/.exec(mail.text)?.[1];
  if (!code) throw new Error(`no login code in: ${mail.text}`);
  return code;
}

/** The sign-in link of a mail, on this test server (the mail names the configured public address). */
function linkIn(mail: ReceivedMail): string {
  const link = /(https?:\/\/\S+\/login\?\S+)/.exec(mail.text)?.[1];
  if (!link) throw new Error(`no sign-in link in: ${mail.text}`);
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
}

function loginAddress(params: Record<string, string>): string {
  return `/login?${new URLSearchParams(params).toString()}`;
}

async function openSettings(page: Page): Promise<void> {
  await page.getByTestId('sidebar-settings').click();
  await page.getByTestId('settings-panel').waitFor({ timeout: WAIT_MS });
}

describe('sign-in by email code (spec §2.4, §4.1, §5)', () => {
  it('walks every stage: validation, provider look-up, code request, a wrong code, the code from the mail', async () => {
    await withBrowser(async (context) => {
      const page = await openPage(context, '/chat?x=1');
      const redirect = '/chat?x=1';
      await expectAt(page, loginAddress({ redirect }));
      await heading(page, auth.SIGN_IN_HEADING);
      await page.getByText(auth.TAGLINE).waitFor();
      await expect.poll(() => page.getByPlaceholder(auth.EMAIL_PLACEHOLDER).count()).toBe(1);
      await page.getByTestId('auth-carousel').waitFor();
      await snap(page, '01-login-email');

      const cont = page.getByRole('button', { name: auth.CONTINUE, exact: true });
      await cont.click();
      await page.getByText(validation.EMAIL_REQUIRED).waitFor({ timeout: WAIT_MS });
      await page.getByLabel(auth.WORK_EMAIL).fill('not-an-address');
      await cont.click();
      await page.getByText(validation.INVALID_EMAIL, { exact: true }).waitFor({ timeout: WAIT_MS });

      await page.getByLabel(auth.WORK_EMAIL).fill(MEMBER.email);
      await cont.click();
      await page.getByRole('button', { name: auth.CONTINUE_WITH_EMAIL }).waitFor({ timeout: WAIT_MS });
      await expectAt(page, loginAddress({ loginEmail: MEMBER.email, loginProvider: 'email', redirect }));
      await page.getByRole('button', { name: auth.BACK }).waitFor();
      await snap(page, '02-login-provider');

      // Back resets the form to its first stage, keeping where the visitor was going.
      await page.getByRole('button', { name: auth.BACK }).click();
      await expectAt(page, loginAddress({ redirect }));
      await cont.waitFor();
      await cont.click();
      const since = mailbox.messages.length;
      await page.getByRole('button', { name: auth.CONTINUE_WITH_EMAIL }).click();
      await page.getByText(auth.CODE_SENT).waitFor({ timeout: WAIT_MS });
      await expectAt(
        page,
        loginAddress({ loginEmail: MEMBER.email, loginProvider: 'email', loginStage: '1', redirect }),
      );

      const login = page.getByRole('button', { name: auth.LOGIN });
      const codeField = page.getByPlaceholder(auth.CODE_PLACEHOLDER);
      expect(await login.isDisabled()).toBe(true);
      await codeField.fill('12345-12345');
      await page.getByText(auth.INVALID_CODE, { exact: true }).waitFor({ timeout: WAIT_MS });
      expect(await login.isDisabled()).toBe(true);
      await snap(page, '03-login-code-invalid');

      await codeField.fill('AAAAA-AAAAA-AAAAA-AAAAA');
      expect(await login.isDisabled()).toBe(false);
      await login.click();
      await page.getByText(auth.CODE_INVALID).waitFor({ timeout: WAIT_MS });

      const mail = await mailbox.waitFor(MEMBER.email, { since });
      await codeField.fill(codeIn(mail));
      await snap(page, '04-login-code');
      await login.click();
      await expectAt(page, redirect);
      await heading(page, 'Chat');
      expect((await storedTokens(page))?.username).toBe(MEMBER.email);
    });
  });

  it('signs in by itself from the link in the code mail', async () => {
    await withBrowser(async (context) => {
      const since = mailbox.messages.length;
      const answer = await fetch(`${scout.baseUrl}/api/v1/auth/code-request`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: MEMBER.email }),
      });
      expect(answer.status).toBe(204);
      const link = linkIn(await mailbox.waitFor(MEMBER.email, { since }));
      expect(new URL(link, scout.baseUrl).searchParams.get('loginCode')).toMatch(/^\w{5}(-\w{5}){3}$/);

      const page = await openPage(context, link);
      await expectAt(page, '/');
      await heading(page, shell.HOME_HEADING);
      expect((await storedTokens(page))?.username).toBe(MEMBER.email);
    });
  });

  it('shows the unknown-account notice for 8 s, with the way to sign up', async () => {
    await withBrowser(async (context) => {
      const page = await context.newPage();
      await page.clock.install();
      await page.goto(`${scout.baseUrl}/login`);
      // The page's clock keeps running while the test takes its snapshot, so the test notes, in the
      // page's own time, when the notice appeared and fast-forwards from there.
      await page.evaluate(() => {
        new MutationObserver((_, observer) => {
          if (!document.querySelector('[data-testid="unknown-account"]')) return;
          (window as unknown as { noticeShownAt: number }).noticeShownAt = Date.now();
          observer.disconnect();
        }).observe(document.body, { childList: true, subtree: true });
      });
      await page.getByLabel(auth.WORK_EMAIL).fill('someone@nowhere.test');
      await page.getByRole('button', { name: auth.CONTINUE, exact: true }).click();
      const notice = page.getByTestId('unknown-account');
      await notice.getByText(auth.UNKNOWN_ACCOUNT).waitFor({ timeout: WAIT_MS });
      await notice.getByText(auth.UNKNOWN_ACCOUNT_ADVICE).waitFor();
      await snap(page, '05-login-unknown-account');
      expect(await notice.getByRole('link').getAttribute('href')).toBe(
        '/signup?loginEmail=someone%40nowhere.test',
      );

      await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 500);
      const shownFor = await page.evaluate(
        () => Date.now() - (window as unknown as { noticeShownAt: number }).noticeShownAt,
      );
      await page.clock.fastForward(7_500 - shownFor);
      expect(await notice.isVisible()).toBe(true);
      await page.clock.fastForward(1_000);
      await notice.waitFor({ state: 'detached', timeout: WAIT_MS });
    });
  });

  it('shows the unauthorized state the identity-provider callbacks lead to, and refuses a bad grant', async () => {
    await withBrowser(async (context) => {
      const page = await openPage(context, '/login?unauthorized=true&message=No%20account%20for%20you');
      await heading(page, auth.ACCOUNT_DOES_NOT_EXIST);
      await page.getByText(auth.INTERESTED_IN_DEMO).waitFor();
      await page.getByRole('link', { name: auth.FIND_A_TIME }).waitFor();
      await snap(page, '06-login-unauthorized');

      await page.goto(
        `${scout.baseUrl}/login?unauthorized=true&message=Scout%20is%20not%20configured%20for%20you`,
      );
      await page.getByRole('link', { name: auth.BOOK_A_DEMO }).waitFor({ timeout: WAIT_MS });

      await page.goto(`${scout.baseUrl}/login?loginGrant=not-a-grant`);
      await page.getByText(auth.INVALID_CREDENTIALS).waitFor({ timeout: WAIT_MS });
      expect(await storedTokens(page)).toBeNull();
    });
  });
});

describe('tokens (spec §4.4)', () => {
  /** A real session: the code asked for and confirmed through the API, as the login screen does. */
  async function realSession(email: string): Promise<LoginTokens> {
    const since = mailbox.messages.length;
    await fetch(`${scout.baseUrl}/api/v1/auth/code-request`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email }),
    });
    const code = codeIn(await mailbox.waitFor(email, { since }));
    const answer = await fetch(`${scout.baseUrl}/api/v1/auth/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code, email }),
    });
    const { id_token, refresh_token, expires_at, username } = (await answer.json()) as LoginTokens;
    return { id_token, refresh_token, expires_at, username };
  }

  it('refreshes tokens with under 20 minutes left before the first request, storing both', async () => {
    const session = await realSession(MEMBER.email);
    const soon = { ...session, expires_at: Date.now() + 5 * 60_000 };
    await withBrowser(async (context) => {
      const page = await openPage(context, '/chat', soon);
      await heading(page, 'Chat');
      await expect
        .poll(async () => (await storedTokens(page))?.refresh_token)
        .not.toBe(session.refresh_token);
      const refreshed = await storedTokens(page);
      expect(refreshed?.expires_at).toBeGreaterThan(Date.now() + 30 * 60_000);
      expect(refreshed?.id_token).not.toBe(session.id_token);
    });
  });

  it("signs out with 'Token refresh failed.' when the refresh is refused", async () => {
    const session = await realSession(MEMBER.email);
    const refused = { ...session, refresh_token: 'spent-or-forged', expires_at: Date.now() + 60_000 };
    await withBrowser(async (context) => {
      const page = await openPage(context, '/chat', refused);
      await page.getByText(auth.TOKEN_REFRESH_FAILED).waitFor({ timeout: WAIT_MS });
      await expectAt(page, loginAddress({ redirect: '/chat' }));
      expect(await storedTokens(page)).toBeNull();
    });
  });

  it('logs out from the settings panel: ends the session, clears storage, and other tabs follow', async () => {
    const session = await realSession(MEMBER.email);
    await withBrowser(async (context) => {
      const page = await openPage(context, '/', session);
      await heading(page, shell.HOME_HEADING);
      const other = await context.newPage();
      await other.goto(`${scout.baseUrl}/chat`);
      await heading(other, 'Chat');

      await openSettings(page);
      await page.getByRole('menuitem', { name: shell.LOGOUT }).click();
      await expectAt(page, '/login');
      expect(await storedTokens(page)).toBeNull();
      await expectAt(other, loginAddress({ redirect: '/chat' }));

      // The server ended the session: its refresh token no longer works.
      const refresh = await fetch(`${scout.baseUrl}/api/v1/auth/token-refresh`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ refresh_token: session.refresh_token }),
      });
      expect(refresh.status).toBe(401);
    });
  });
});

describe('content security policy (issue 11 item 12)', () => {
  it('runs the login page and the chat screen without a single violation', async () => {
    await withBrowser(async (context) => {
      const violations: string[] = [];
      await context.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (event) => {
          console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`);
        });
      });
      context.on('console', (message) => {
        if (/content security policy|CSP violation/i.test(message.text())) violations.push(message.text());
      });

      const login = await openPage(context, '/login');
      await heading(login, auth.SIGN_IN_HEADING);
      const answer = await fetch(`${scout.baseUrl}/login`);
      expect(answer.headers.get('content-security-policy')).toContain("script-src 'self';");
      expect(answer.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      await login.getByLabel(auth.WORK_EMAIL).fill(MEMBER.email);
      await login.getByRole('button', { name: auth.CONTINUE, exact: true }).click();
      await login.getByRole('button', { name: auth.CONTINUE_WITH_EMAIL }).waitFor({ timeout: WAIT_MS });

      const chat = await openPage(context, '/chat', seeded.admin);
      await heading(chat, 'Chat');
      // A reload is answered 304, whose headers the browser lays over the cached page's.
      await chat.reload();
      await heading(chat, 'Chat');
      await chat.waitForTimeout(1000);
      expect(violations).toEqual([]);
    });
  });
});

describe('sign-up and the first admin (spec §2.5, §4.2, §4.5, §5)', () => {
  const founder = { email: 'fran@newco.test', first: 'Fran', last: 'Founder' };

  it('answers a second sign-up of a member like any other, and the mailed code signs them in', async () => {
    await withBrowser(async (context) => {
      const since = mailbox.messages.length;
      const page = await openPage(context, '/signup');
      await page.getByLabel(auth.WORK_EMAIL).fill(MEMBER.email);
      await page.getByLabel(auth.FIRST_NAME).fill('Max');
      await page.getByLabel(auth.LAST_NAME).fill('Again');
      await page.getByRole('button', { name: auth.SIGN_UP_WITH_EMAIL }).click();
      await page.getByText(auth.SIGNUP_SUCCESS).waitFor({ timeout: WAIT_MS });
      await expectAt(
        page,
        loginAddress({ loginEmail: MEMBER.email, loginProvider: 'email', loginStage: '1' }),
      );
      await page
        .getByPlaceholder(auth.CODE_PLACEHOLDER)
        .fill(codeIn(await mailbox.waitFor(MEMBER.email, { since })));
      await page.getByRole('button', { name: auth.LOGIN }).click();
      await heading(page, shell.HOME_HEADING);
      expect((await storedTokens(page))?.username).toBe(MEMBER.email);
    });
  });

  it('creates a workspace for a new domain whose founder sets it up, then sees the setup dialog and admin menus', async () => {
    await withBrowser(async (context) => {
      const page = await openPage(context, '/signup');
      await heading(page, auth.SIGN_UP_HEADING);
      const signUp = page.getByRole('button', { name: auth.SIGN_UP_WITH_EMAIL });
      expect(await signUp.isDisabled()).toBe(true);
      await page.getByLabel(auth.WORK_EMAIL).fill(founder.email);
      await page.getByLabel(auth.FIRST_NAME).fill(founder.first);
      expect(await signUp.isDisabled()).toBe(true);
      await page.getByLabel(auth.LAST_NAME).fill('   ');
      expect(await signUp.isDisabled()).toBe(true);
      await page.getByLabel(auth.LAST_NAME).fill(founder.last);
      expect(await signUp.isDisabled()).toBe(false);
      await snap(page, '07-signup');

      const since = mailbox.messages.length;
      await signUp.click();
      await page.getByText(auth.SIGNUP_SUCCESS).waitFor({ timeout: WAIT_MS });
      await expectAt(
        page,
        loginAddress({ loginEmail: founder.email, loginProvider: 'email', loginStage: '1' }),
      );
      // The new workspace gets the first-run dialog (spec §6: behind the userSetup flag).
      await scout.setOrgFlags('newco.test', { userSetup: true });

      const mail = await mailbox.waitFor(founder.email, { since });
      expect(mail.text).toContain('Welcome to Scout!');
      await page.getByPlaceholder(auth.CODE_PLACEHOLDER).fill(codeIn(mail));
      await page.getByRole('button', { name: auth.LOGIN }).click();

      // The org is not set up yet: its first admin names it first.
      await expectAt(page, '/workspace-setup');
      await heading(page, setupCopy.WORKSPACE_TITLE);
      const company = page.getByLabel(setupCopy.COMPANY_NAME);
      expect(await company.inputValue()).toBe('Newco');
      await company.fill('NewCo Labs');
      await snap(page, '08-workspace-setup');
      await page.getByRole('button', { name: setupCopy.CONTINUE }).click();
      await expectAt(page, '/');
      await heading(page, shell.HOME_HEADING);

      // The setup dialog: work role, referral source ('other' needs words), company, a square logo, invites.
      const dialog = page.getByRole('dialog');
      await dialog.getByText(setupCopy.DIALOG_TITLE).waitFor({ timeout: WAIT_MS });
      const done = dialog.getByRole('button', { name: setupCopy.DONE });
      expect(await done.isDisabled()).toBe(true);
      await dialog.getByRole('combobox', { name: setupCopy.WORK_ROLE }).click();
      await dialog.getByRole('option', { name: 'Engineering' }).click();
      await dialog.getByRole('combobox', { name: setupCopy.REFERRAL_SOURCE }).click();
      await dialog.getByRole('option', { name: 'Other', exact: true }).click();
      expect(await done.isDisabled()).toBe(true);
      await dialog.getByLabel(setupCopy.REFERRAL_OTHER).fill('A colleague');
      expect(await done.isDisabled()).toBe(false);
      const companyInDialog = dialog.getByLabel(setupCopy.COMPANY_NAME);
      expect(await companyInDialog.inputValue()).toBe('NewCo Labs');
      await companyInDialog.fill(' ');
      expect(await done.isDisabled()).toBe(true);
      await companyInDialog.fill('NewCo Labs');

      const logo = dialog.locator('input[type=file]');
      await logo.setInputFiles({ name: 'wide.png', mimeType: 'image/png', buffer: pngBytes(40, 20) });
      await dialog.getByText(validation.LOGO_MUST_BE_SQUARE).waitFor({ timeout: WAIT_MS });
      await logo.setInputFiles({ name: 'square.png', mimeType: 'image/png', buffer: pngBytes(32, 32) });
      await dialog.getByText(setupCopy.LOGO_HINT).waitFor({ timeout: WAIT_MS });

      const search = dialog.getByTestId('invite-search');
      await search.fill('teammate@newco.test');
      await search.press('Enter');
      await dialog
        .getByTestId('invite-list-new')
        .getByText('teammate@newco.test')
        .waitFor({ timeout: WAIT_MS });
      await snap(page, '09-setup-dialog');

      const sinceInvite = mailbox.messages.length;
      await done.click();
      await dialog.getByText(setupCopy.ALL_SET).waitFor({ timeout: WAIT_MS });
      await page.getByText(invites.INVITED).waitFor({ timeout: WAIT_MS });
      await dialog.waitFor({ state: 'detached', timeout: WAIT_MS });
      const invite = await mailbox.waitFor('teammate@newco.test', { since: sinceInvite });
      expect(invite.subject).toContain('NewCo Labs');
      await expect.poll(() => page.getByTestId('workspace-name').innerText()).toBe('NewCo Labs');

      // An admin's settings panel has the Workspace group.
      await openSettings(page);
      await page.getByTestId('settings-workspace').getByText(sidebarCopy.WORKSPACE).waitFor();
      await page.getByRole('menuitem', { name: sidebarCopy.MEMBERS }).waitFor();
      await snap(page, '10-admin-settings-panel');
      await page.keyboard.press('Escape');

      // Shown once: a reload does not bring the dialog back.
      await page.reload();
      await heading(page, shell.HOME_HEADING);
      await page.getByTestId('workspace-name').waitFor();
      await page.waitForTimeout(500);
      expect(await page.getByRole('dialog').count()).toBe(0);
    });
  });
});

describe('invites and the members screen (asking-questions §2–§8, shell-and-account §2.8, §6)', () => {
  const newbie = 'newbie@acme.test';

  it('invites as an admin: refuses bad addresses, keeps only the failed list, and the invitee signs in as a member', async () => {
    await withBrowser(async (context) => {
      const page = await openPage(context, '/', seeded.admin);
      await heading(page, shell.HOME_HEADING);
      await page.getByTestId('sidebar-invite').click();
      const dialog = page.getByRole('dialog');
      const search = dialog.getByTestId('invite-search');
      await search.waitFor({ timeout: WAIT_MS });

      await search.fill('not-an-address');
      await search.press('Enter');
      await dialog.getByText(validation.INVALID_EMAIL_ADDRESS).waitFor({ timeout: WAIT_MS });
      await search.fill('someone@elsewhere.test');
      await search.press('Enter');
      await dialog.getByText(validation.DOMAIN_NOT_ALLOWED).waitFor({ timeout: WAIT_MS });
      expect(await dialog.getByTestId('invite-entry').count()).toBe(0);

      await search.fill(newbie);
      await dialog.getByRole('option', { name: inviteCopy.addAsNew(newbie) }).click();
      await dialog.getByTestId('invite-list-new').getByText(newbie).waitFor();

      // A member invited before turns up among the suggestions (debounced), named 'Invited User'.
      await search.fill('ivy');
      const suggestion = dialog.getByRole('option', { name: new RegExp(PENDING.email) });
      await suggestion.waitFor({ timeout: WAIT_MS });
      expect(await suggestion.innerText()).toContain(shell.INVITED_USER);
      await suggestion.click();
      const resendList = dialog.getByTestId('invite-list-resend');
      await resendList.getByText(PENDING.email).waitFor();
      await dialog.getByText(invites.INVITE, { exact: true }).waitFor();
      await dialog.getByText(invites.RESEND_INVITE, { exact: true }).waitFor();
      // Admins choose the role of each person they invite.
      expect(await dialog.getByRole('combobox', { name: inviteCopy.roleOf(newbie) }).count()).toBe(1);
      await snap(page, '11-invite-dialog');

      // The mail server refuses Ivy: the resend call fails, the send call succeeds; only Ivy stays.
      mailbox.refuse.add(PENDING.email);
      const since = mailbox.messages.length;
      await dialog.getByRole('button', { name: inviteCopy.SEND }).click();
      await page.getByText(invites.INVITED).waitFor({ timeout: WAIT_MS });
      await page.getByText(invites.FAILED_TO_RESEND).waitFor({ timeout: WAIT_MS });
      await expect.poll(() => dialog.getByTestId('invite-entry').count(), { timeout: WAIT_MS }).toBe(1);
      await resendList.getByText(PENDING.email).waitFor();
      expect(await dialog.getByTestId('invite-list-new').count()).toBe(0);
      await snap(page, '12-invite-partial-failure');

      mailbox.refuse.delete(PENDING.email);
      await dialog.getByRole('button', { name: inviteCopy.SEND }).click();
      await page.getByText(invites.RESENT).waitFor({ timeout: WAIT_MS });
      await dialog.waitFor({ state: 'detached', timeout: WAIT_MS });
      await mailbox.waitFor(PENDING.email, { since });

      // The invitee signs in from the invite mail, in a browser of their own.
      const invite = await mailbox.waitFor(newbie, { since });
      const link = linkIn(invite);
      await withBrowser(async (theirs) => {
        const their = await openPage(theirs, link);
        expect(await their.getByLabel(auth.WORK_EMAIL).inputValue()).toBe(newbie);
        const sinceCode = mailbox.messages.length;
        await their.getByRole('button', { name: auth.CONTINUE_WITH_EMAIL }).click();
        const code = codeIn(await mailbox.waitFor(newbie, { since: sinceCode }));
        await their.getByPlaceholder(auth.CODE_PLACEHOLDER).fill(code);
        await their.getByRole('button', { name: auth.LOGIN }).click();
        await expectAt(their, '/');
        await heading(their, shell.HOME_HEADING);

        // A member's settings panel: Personal (with Logout), no Workspace group.
        await openSettings(their);
        await their.getByTestId('settings-personal').getByText(sidebarCopy.PERSONAL).waitFor();
        await their.getByRole('menuitem', { name: shell.LOGOUT }).waitFor();
        expect(await their.getByTestId('settings-workspace').count()).toBe(0);
        expect(await their.getByRole('menuitem', { name: sidebarCopy.MEMBERS }).count()).toBe(0);
        await snap(their, '13-member-settings-panel');
        await their.keyboard.press('Escape');

        // Members invite too, but choose no role.
        await their.getByTestId('sidebar-invite').click();
        const theirDialog = their.getByRole('dialog');
        await theirDialog.getByTestId('invite-search').fill('friend@acme.test');
        await theirDialog.getByTestId('invite-search').press('Enter');
        await theirDialog.getByTestId('invite-list-new').getByText('friend@acme.test').waitFor();
        expect(
          await theirDialog.getByRole('combobox', { name: inviteCopy.roleOf('friend@acme.test') }).count(),
        ).toBe(0);
        await theirDialog.getByTestId('invite-entry').getByText('Member', { exact: true }).waitFor();

        // And the admin screens are not theirs.
        await their.goto(`${scout.baseUrl}/admin/members`);
        await expectAt(their, '/');
      });
    });
  });

  it('lists, searches, filters and acts on members with confirmation', async () => {
    await withBrowser(async (context) => {
      const page = await openPage(context, '/admin/members', seeded.admin);
      await heading(page, membersCopy.TITLE);
      const rows = page.getByTestId('member-row');
      await page.locator(`[data-email="${MEMBER.email}"]`).waitFor({ timeout: WAIT_MS });
      await page.getByTestId('members-totals').waitFor();
      expect(await page.locator(`[data-email="${ADMIN.email}"]`).innerText()).toContain(
        `(${membersCopy.YOU})`,
      );
      expect(await page.locator(`[data-email="${PENDING.email}"]`).innerText()).toContain(shell.INVITED_USER);
      await snap(page, '14-members');

      await page.getByLabel(membersCopy.SEARCH_PLACEHOLDER).fill('max');
      await expect.poll(() => rows.count(), { timeout: WAIT_MS }).toBe(1);
      await page.getByLabel(membersCopy.SEARCH_PLACEHOLDER).fill('');
      await expect.poll(() => rows.count(), { timeout: WAIT_MS }).toBeGreaterThan(2);

      await page.getByRole('combobox', { name: membersCopy.STATUS_FILTER }).click();
      await page.getByRole('option', { name: 'Invited', exact: true }).click();
      await expect
        .poll(async () => (await rows.allInnerTexts()).every((text) => text.includes('Invited')), {
          timeout: WAIT_MS,
        })
        .toBe(true);
      await page.getByRole('combobox', { name: membersCopy.STATUS_FILTER }).click();
      await page.getByRole('option', { name: membersCopy.ALL_STATUSES }).click();

      // Block, confirmed in a dialog; then unblock.
      const row = page.locator(`[data-email="${MEMBER.email}"]`);
      await row.getByRole('button', { name: `${membersCopy.ACTIONS}: ${MEMBER.email}` }).click();
      await page.getByRole('menuitem', { name: membersCopy.BLOCK }).click();
      const confirm = page.getByRole('dialog');
      await confirm.getByText(membersCopy.confirmText.block('Max Member')).waitFor({ timeout: WAIT_MS });
      await snap(page, '15-members-confirm');
      await confirm.getByRole('button', { name: membersCopy.BLOCK }).click();
      await row.getByText('Blocked').waitFor({ timeout: WAIT_MS });

      await row.getByRole('button', { name: `${membersCopy.ACTIONS}: ${MEMBER.email}` }).click();
      await page.getByRole('menuitem', { name: membersCopy.UNBLOCK }).click();
      await page.getByRole('dialog').getByRole('button', { name: membersCopy.UNBLOCK }).click();
      // Back to what they were: signed up, or invited when they never signed in.
      await row.getByText('Blocked').waitFor({ state: 'detached', timeout: WAIT_MS });

      // An admin's own row offers nothing that would lock them out.
      const own = page.locator(`[data-email="${ADMIN.email}"]`);
      expect(await own.getByRole('button', { name: `${membersCopy.ACTIONS}: ${ADMIN.email}` }).count()).toBe(
        0,
      );
    });
  });

  it('pages through more members than one page holds, with the totals', async () => {
    await withBrowser(async (context) => {
      const page = await openPage(context, '/admin/members', seeded.bigAdmin);
      await heading(page, membersCopy.TITLE);
      const rows = page.getByTestId('member-row');
      await expect.poll(() => rows.count(), { timeout: WAIT_MS }).toBe(MEMBERS_PAGE_SIZE);
      expect(await page.getByTestId('members-totals').innerText()).toBe(
        membersCopy.totals(BIG.pending + 1, BIG.pending),
      );
      await page.getByRole('button', { name: '2', exact: true }).click();
      await expect.poll(() => rows.count(), { timeout: WAIT_MS }).toBe(BIG.pending + 1 - MEMBERS_PAGE_SIZE);

      // /admin/members/invited opens with the Invited filter.
      await page.goto(`${scout.baseUrl}/admin/members/invited`);
      await page.getByTestId('members-totals').waitFor({ timeout: WAIT_MS });
      expect(await page.getByTestId('members-totals').innerText()).toBe(
        membersCopy.totals(BIG.pending, BIG.pending),
      );
    });
  });
});

describe('personal settings (spec §2.2 /my-settings)', () => {
  it('changes the display name and the photo, and shows the email', async () => {
    await withBrowser(async (context) => {
      const page = await openPage(context, '/my-settings', seeded.bigAdmin);
      await heading(page, mySettingsCopy.TITLE);
      expect(await page.getByTestId('my-email').innerText()).toBe(BIG.admin);
      const name = page.getByLabel(mySettingsCopy.DISPLAY_NAME);
      expect(await name.inputValue()).toBe('Bo Ss');

      const photo = page.locator('input[type=file]');
      const tooLarge = Buffer.concat([pngBytes(2, 2), Buffer.alloc(LOGO_MAX_BYTES)]);
      await photo.setInputFiles({ name: 'huge.png', mimeType: 'image/png', buffer: tooLarge });
      await page.getByText(imageCopy.TOO_LARGE).waitFor({ timeout: WAIT_MS });
      await photo.setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: pngBytes(24, 16) });
      await page.getByRole('button', { name: mySettingsCopy.REMOVE_PHOTO }).waitFor({ timeout: WAIT_MS });

      await name.fill('Boss Hogg');
      await page.getByRole('button', { name: mySettingsCopy.SAVE }).click();
      await page.getByText(mySettingsCopy.SAVED).waitFor({ timeout: WAIT_MS });
      await expect.poll(() => page.getByTestId('sidebar-user').innerText()).toBe('Boss Hogg');
      await snap(page, '16-my-settings');

      await page.reload();
      await heading(page, mySettingsCopy.TITLE);
      await expect.poll(() => page.getByLabel(mySettingsCopy.DISPLAY_NAME).inputValue()).toBe('Boss Hogg');
      expect(await page.getByRole('img', { name: mySettingsCopy.PHOTO }).getAttribute('src')).toMatch(
        /^data:image\/png;base64,/,
      );
    });
  });
});
