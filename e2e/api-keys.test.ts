// API keys (spec shell-and-account /admin/api-keys) in a real browser against the real server: an admin creates a
// key, copies it with the copy button, and a custom-api push with the copied key succeeds; after the admin revokes
// the key on the same screen, the same push is refused. And the workspace settings that switch API keys on.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoginTokens } from '../common/api/session';
import { shell } from '../common/strings';
import { createOrg, createUser, loginTokensFor } from '../server/testing/fixtures';
import { createTestServer, type TestServer } from '../server/testing/server';
import { withSignedInPage } from './browser';
import { ADMIN_FLAG_COPY, apiKeysCopy, sidebarCopy, workspaceSettingsCopy } from '../app/strings';

const WAIT_MS = 20_000;
const SCREENSHOTS = path.join(process.cwd(), 'test-results', 'screens');

let server: TestServer;
let baseUrl: string;
let tokens: LoginTokens;
let connectionId: string;

beforeAll(async () => {
  await mkdir(SCREENSHOTS, { recursive: true });
  server = await createTestServer();
  baseUrl = await server.app.listen({ port: 0, host: '127.0.0.1' });
  const org = await createOrg(server.store.db, {
    domain: 'keys-e2e.test',
    plan: 'ENTERPRISE',
    flags: { apiKeysEnabled: true },
  });
  const admin = await createUser(server.store.db, org, {
    email: 'kim@keys-e2e.test',
    admin: true,
    firstName: 'Kim',
    lastName: 'Keeper',
  });
  tokens = await loginTokensFor(server.ctx, admin);
  const install = await fetch(`${baseUrl}/api/v1/app/install/custom-api`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${tokens.id_token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      isOrg: true,
      options: { connection_name: 'Intranet', connection_id: 'intranet' },
    }),
  });
  expect(install.status).toBe(200);
  connectionId = ((await install.json()) as { connection: { id: string } }).connection.id;
});

afterAll(async () => {
  await server?.close();
});

async function push(key: string): Promise<number> {
  const res = await fetch(`${baseUrl}/api/v1/custom-api/${connectionId}/documents`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      documents: [
        {
          id: 'handbook',
          title: 'Handbook',
          body: 'Everything about the office.',
          url: 'https://intranet.keys-e2e.test/handbook',
          acl: { org: true },
        },
      ],
    }),
  });
  return res.status;
}

describe('API keys screen', () => {
  it(
    'creates a key, copies it, pushes with it, then revokes it and the push is refused',
    { timeout: 120_000 },
    async () => {
      await withSignedInPage(tokens, async (page, context) => {
        await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
        await page.goto(`${baseUrl}/admin/api-keys`);
        await page.getByTestId('api-keys-empty').waitFor({ timeout: WAIT_MS });

        await page.getByRole('button', { name: apiKeysCopy.CREATE }).click();
        const dialog = page.getByRole('dialog');
        await dialog.getByLabel(apiKeysCopy.NAME).fill('Intranet sync');
        await dialog.getByRole('button', { name: apiKeysCopy.CREATE }).click();

        const secretInput = dialog.getByTestId('api-key-secret');
        await secretInput.waitFor({ timeout: WAIT_MS });
        await dialog.getByText(apiKeysCopy.SECRET_WARNING).waitFor();
        const shown = await secretInput.inputValue();
        expect(shown).toMatch(/^scout_/);

        await dialog.getByRole('button', { name: apiKeysCopy.COPY }).click();
        await dialog.getByRole('button', { name: apiKeysCopy.COPIED }).waitFor({ timeout: WAIT_MS });
        const copied = await page.evaluate(() => navigator.clipboard.readText());
        expect(copied).toBe(shown);
        await page.screenshot({ path: path.join(SCREENSHOTS, 'api-keys-created.png') });
        await dialog.getByRole('button', { name: apiKeysCopy.DONE }).click();
        await dialog.waitFor({ state: 'hidden', timeout: WAIT_MS });

        const row = page.locator('[data-testid="api-key-row"][data-name="Intranet sync"]');
        await row.waitFor({ timeout: WAIT_MS });
        // The list shows only the prefix, never the secret.
        expect(await page.getByTestId('api-keys-table').innerText()).not.toContain(copied);
        await expect
          .poll(() => row.getByTestId('api-key-last-used').innerText())
          .toBe(apiKeysCopy.NEVER_USED);

        expect(await push(copied)).toBe(200);
        await page.reload();
        await expect
          .poll(() => row.getByTestId('api-key-last-used').innerText(), { timeout: WAIT_MS })
          .not.toBe(apiKeysCopy.NEVER_USED);

        await row.getByRole('button', { name: apiKeysCopy.revokeLabel('Intranet sync') }).click();
        const confirm = page.getByRole('dialog');
        await confirm.getByText(apiKeysCopy.REVOKE_TEXT).waitFor({ timeout: WAIT_MS });
        await confirm.getByRole('button', { name: apiKeysCopy.REVOKE, exact: true }).click();
        await page.getByTestId('api-keys-empty').waitFor({ timeout: WAIT_MS });

        expect(await push(copied)).toBe(401);
      });
    },
  );
});

describe('workspace settings', () => {
  it(
    'renames the workspace and switches API keys on, and the shell follows without a reload',
    { timeout: 120_000 },
    async () => {
      const org = await createOrg(server.store.db, {
        domain: 'switch-e2e.test',
        plan: 'ENTERPRISE',
        name: 'Old',
      });
      const admin = await createUser(server.store.db, org, { email: 'sam@switch-e2e.test', admin: true });
      await withSignedInPage(await loginTokensFor(server.ctx, admin), async (page) => {
        await page.goto(`${baseUrl}/admin/appearance`);
        const apiKeysSwitch = page.getByTestId('switch-apiKeysEnabled');
        await apiKeysSwitch.waitFor({ timeout: WAIT_MS });
        expect(await apiKeysSwitch.isChecked()).toBe(false);
        await page.getByTestId('sidebar-settings').click();
        await page.getByTestId('settings-panel').waitFor();
        expect(await page.getByTestId('settings-panel').innerText()).not.toContain(sidebarCopy.API_KEYS);
        await page.keyboard.press('Escape');

        await page.getByTestId('company-name').fill('Switchboard');
        await page.getByRole('button', { name: workspaceSettingsCopy.SAVE }).click();
        await expect
          .poll(() => page.getByTestId('workspace-name').innerText(), { timeout: WAIT_MS })
          .toBe('Switchboard');

        await page.getByRole('switch', { name: ADMIN_FLAG_COPY.apiKeysEnabled.label }).click();
        await page
          .getByText(workspaceSettingsCopy.switched(ADMIN_FLAG_COPY.apiKeysEnabled.label, true))
          .waitFor({ timeout: WAIT_MS });
        await page.getByTestId('sidebar-settings').click();
        await page.getByTestId('settings-panel').getByText(sidebarCopy.API_KEYS).click();
        await page.getByTestId('api-keys-empty').waitFor({ timeout: WAIT_MS });

        await page.goto(`${baseUrl}/admin/appearance`);
        await apiKeysSwitch.waitFor({ timeout: WAIT_MS });
        expect(await apiKeysSwitch.isChecked()).toBe(true);

        // Homepage shortcuts on: the homepage's round button brings the admin back here.
        const shortcuts = ADMIN_FLAG_COPY.homepageConfiguration.label;
        await page.getByRole('switch', { name: shortcuts }).click();
        await page.getByText(workspaceSettingsCopy.switched(shortcuts, true)).waitFor({ timeout: WAIT_MS });
        await page.goto(`${baseUrl}/`);
        await page.getByRole('link', { name: shell.MANAGE_WORKSPACE_SETTINGS }).click();
        await page.waitForURL(`${baseUrl}/admin/appearance`, { timeout: WAIT_MS });
      });
    },
  );
});
