// The admin-consent popup of a Microsoft org connection (spec apps-and-connections §5, §7) in a real browser: an
// admin connects SharePoint org-wide, grants consent on the fake tenant's adminconsent page in the popup, and the
// connection syncs to Connected; with popups blocked the dialog says so and nothing is started. A Google org connect
// has no consent page: its dialog shows what to authorise in the Admin console instead.
import { generateKeyPairSync } from 'node:crypto';
import { createServer } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { LoginTokens } from '../common/api/session';
import { connectFormCopy } from '../common/connect-forms';
import { apps as appStrings } from '../common/strings';
import { GMAIL_SCOPES } from '../connectors/gmail';
import { DIRECTORY_USERS_SCOPE } from '../connectors/google/members';
import { sharepointConnector } from '../connectors/sharepoint';
import {
  CLIENT_ID,
  CLIENT_SECRET,
  TENANT_ID,
  startGraphTenantFake,
  type GraphTenantFake,
} from '../connectors/sharepoint/fake';
import { startBackgroundWork, type BackgroundWork } from '../server/background';
import { appConnections, appOauthStates } from '../server/db/schema';
import { decryptCredentials } from '../server/sync/connections';
import { createLogger } from '../server/logger';
import { registerConnector } from '../server/sync/registry';
import { createOrg, createUser, loginTokensFor } from '../server/testing/fixtures';
import { createTestServer, type TestServer } from '../server/testing/server';
import { openSignedIn } from './browser';

const WAIT_MS = 15_000;
const SYNC_WAIT_MS = 90_000;
const DOMAIN = 'contoso-consent.test';

const SERVICE_ACCOUNT = {
  type: 'service_account',
  client_email: 'scout@scout-project.iam.gserviceaccount.com',
  client_id: '104729384756102938475',
  private_key: generateKeyPairSync('rsa', { modulusLength: 2048 })
    .privateKey.export({ type: 'pkcs8', format: 'pem' })
    .toString(),
};

let scout: TestServer;
let work: BackgroundWork;
let tenant: GraphTenantFake;
let baseUrl: string;
let adminTokens: LoginTokens;

/** A free port, so the server's public address (where the consent redirects back to) is known before it listens. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject()));
    });
  });
}

beforeAll(async () => {
  vi.stubEnv('SCOUT_OAUTH_SHAREPOINT_CLIENT_ID', CLIENT_ID);
  vi.stubEnv('SCOUT_OAUTH_SHAREPOINT_CLIENT_SECRET', CLIENT_SECRET);
  vi.stubEnv('SCOUT_GOOGLE_SERVICE_ACCOUNT', JSON.stringify(SERVICE_ACCOUNT));
  tenant = await startGraphTenantFake({ tenant: DOMAIN, pageSize: 50 });
  // Not consented yet: only the popup's Allow lets the install take a token.
  tenant.revokeConsent();
  // Connections reach the fake tenant, whatever they stored, as in dev mode (server/dev/fake-vendors.ts).
  registerConnector({
    ...sharepointConnector,
    configSchema: z.preprocess(
      (stored) => ({ ...(typeof stored === 'object' && stored !== null ? stored : {}), ...tenant.config }),
      sharepointConnector.configSchema,
    ),
  });
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  scout = await createTestServer({ env: { PUBLIC_URL: baseUrl } });
  await scout.app.listen({ port, host: '127.0.0.1' });
  work = startBackgroundWork(scout.store, createLogger('silent'));
  const org = await createOrg(scout.store.db, { domain: DOMAIN, plan: 'ENTERPRISE' });
  const admin = await createUser(scout.store.db, org, { email: `admin@${DOMAIN}`, admin: true });
  adminTokens = await loginTokensFor(scout.ctx, admin);
});

afterAll(async () => {
  await work?.stop();
  await scout?.close();
  await tenant?.close();
  registerConnector(sharepointConnector);
  vi.unstubAllEnvs();
});

/** Opens an app's org connect dialog from the app store and types the admin's email. */
async function openOrgDialog(page: Page, app = 'sharepoint'): Promise<void> {
  await page.getByTestId('app-store').waitFor({ timeout: WAIT_MS });
  await page.getByTestId('app-store-search').fill(app);
  const card = page.locator(`[data-testid="app-card"][data-app="${app}"]`);
  await card.getByTestId('connect-button').click();
  const orgItem = page.getByTestId('connect-org');
  const dialog = page.getByTestId('connect-dialog');
  await orgItem.or(dialog).first().waitFor({ timeout: WAIT_MS });
  if (await orgItem.isVisible()) await orgItem.click();
  await dialog.waitFor({ timeout: WAIT_MS });
  await dialog.getByTestId('connect-field-email').fill(`admin@${DOMAIN}`);
}

const sharepointBadge = (page: Page) =>
  page
    .locator('[data-testid="app-card"][data-app="sharepoint"]')
    .getByTestId('connection-badge')
    .first()
    .textContent({ timeout: 1000 })
    .then((text) => (text ?? '').trim())
    .catch(() => '');

describe('the Microsoft admin-consent popup', () => {
  it('says the popup was blocked when the browser refuses it, and starts nothing', async () => {
    const { page, close } = await openSignedIn(baseUrl, adminTokens, '/integrations');
    try {
      await page.addInitScript(() => {
        window.open = () => null;
      });
      await page.reload();
      await openOrgDialog(page);
      await page.getByTestId('connect-submit').click();
      await page
        .getByText('Unable to connect, please check your popup blocker.')
        .waitFor({ timeout: WAIT_MS });
      expect(appStrings.POPUP_BLOCKED).toBe('Unable to connect, please check your popup blocker.');
      expect(await scout.store.db.select().from(appOauthStates)).toHaveLength(0);
      expect(await scout.store.db.select().from(appConnections)).toHaveLength(0);
    } finally {
      await close();
    }
  });

  it("shows a Google org connect the client ID, the scopes and the Admin console's delegation page", async () => {
    const { page, close } = await openSignedIn(baseUrl, adminTokens, '/integrations');
    try {
      await openOrgDialog(page, 'gmail');
      const delegation = page.getByTestId('connect-delegation');
      await delegation.waitFor({ timeout: WAIT_MS });
      expect(await delegation.getByTestId('delegation-client-id').textContent()).toBe(
        SERVICE_ACCOUNT.client_id,
      );
      expect(await delegation.getByTestId('delegation-scopes').textContent()).toBe(
        [DIRECTORY_USERS_SCOPE, ...GMAIL_SCOPES].join(','),
      );
      const link = delegation.getByRole('link', { name: connectFormCopy.delegation.OPEN_ADMIN_CONSOLE });
      expect(await link.getAttribute('href')).toBe('https://admin.google.com/ac/owl/domainwidedelegation');
      expect(await link.getAttribute('target')).toBe('_blank');
      expect(await page.content()).not.toContain('PRIVATE KEY');
    } finally {
      await close();
    }
  });

  it(
    'walks the admin-consent page in the popup to a connected SharePoint org connection',
    async () => {
      const { page, close } = await openSignedIn(baseUrl, adminTokens, '/integrations');
      try {
        await openOrgDialog(page);
        const opened = page.context().waitForEvent('page');
        await page.getByTestId('connect-submit').click();
        const popup = await opened;
        await popup.getByRole('button', { name: 'Allow' }).waitFor({ timeout: WAIT_MS });
        expect(popup.url()).toMatch(new RegExp(`^${tenant.config.loginUrl}/${DOMAIN}/adminconsent\\?`));
        const closed = popup.waitForEvent('close', { timeout: WAIT_MS });
        await popup.getByRole('button', { name: 'Allow' }).click();
        await closed;
        // The popup leaves the opener in the background; the admin returns to it.
        await page.bringToFront();
        await page.getByTestId('connect-dialog').waitFor({ state: 'detached', timeout: WAIT_MS });

        const [row, ...more] = await scout.store.db.select().from(appConnections);
        expect(more).toHaveLength(0);
        expect(row?.isOrg).toBe(true);
        expect(decryptCredentials(row!)).toMatchObject({ tenant: TENANT_ID });
        await expect
          .poll(() => sharepointBadge(page), { timeout: SYNC_WAIT_MS, interval: 500 })
          .toBe('Connected');
      } finally {
        await close();
      }
    },
    2 * SYNC_WAIT_MS,
  );
});
