// The files screen and uploaded files in answers (spec asking-questions §5, shell-and-account §7.3): a member
// uploads a PDF on /files, watches it go from indexing to its chunk count, and asks about it in /chat with no
// model configured (the extractive answer), which cites the PDF. Real browser, real server with its job worker.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LoginTokens } from '../common/api/session';
import { files as fileStrings } from '../common/strings';
import { runWorker, type RunningWorker } from '../server/jobs/worker';
import { createLogger } from '../server/logger';
import { makePdf } from '../server/parsing/testing';
import { createOrg, createUser, loginTokensFor } from '../server/testing/fixtures';
import { createTestServer, type TestServer } from '../server/testing/server';
import { LLM_ENV_KEYS } from '../server/chat/testing/harness';
import { withSignedInPage } from './harness';

const WAIT_MS = 30_000;
const SCREENSHOTS = path.join(process.cwd(), 'test-results', 'screens');

let server: TestServer;
let worker: RunningWorker;
let baseUrl: string;
let tokens: LoginTokens;
let files: string;

beforeAll(async () => {
  await mkdir(SCREENSHOTS, { recursive: true });
  for (const key of LLM_ENV_KEYS) vi.stubEnv(key, '');
  // The harness's server runs no job worker; uploads are indexed by one, as `scout serve` runs it.
  server = await createTestServer();
  baseUrl = await server.app.listen({ port: 0, host: '127.0.0.1' });
  worker = runWorker(server.store, createLogger('silent'), { idleMs: 100 });
  const org = await createOrg(server.store.db, { domain: 'files.test' });
  const user = await createUser(server.store.db, org, {
    email: 'fran@files.test',
    firstName: 'Fran',
    lastName: 'Filer',
  });
  tokens = await loginTokensFor(server.ctx, user);
  files = await mkdtemp(path.join(tmpdir(), 'scout-e2e-files-'));
  await writeFile(
    path.join(files, 'falcon-handbook.pdf'),
    await makePdf(
      [
        ['Falcon expense policy', 'Team dinners are reimbursed up to 45 euros per person.'],
        ['Receipts must be filed within ninety days.'],
      ],
      'Falcon Handbook',
    ),
  );
  await writeFile(path.join(files, 'empty.txt'), '   \n');
});

afterAll(async () => {
  await worker?.stop();
  await server?.close();
  if (files) await rm(files, { recursive: true, force: true });
  vi.unstubAllEnvs();
});

function withPage(run: (page: Page) => Promise<void>): Promise<void> {
  return withSignedInPage(tokens, run);
}

describe('uploading a file', () => {
  it(
    'uploads a PDF on /files, indexes it, and answers a question about it with the PDF as a reference',
    { timeout: 180_000 },
    async () => {
      await withPage(async (page) => {
        await page.goto(`${baseUrl}/files`);
        await page.getByTestId('files-empty').waitFor({ timeout: WAIT_MS });

        // A file with no text is refused with the spec's 400, told in the app's words.
        const chooser = page.waitForEvent('filechooser');
        await page.getByRole('button', { name: fileStrings.UPLOAD_FILES }).click();
        await (await chooser).setFiles(path.join(files, 'empty.txt'));
        await page.getByText(fileStrings.emptyDocument('empty.txt')).waitFor({ timeout: WAIT_MS });

        const pdfChooser = page.waitForEvent('filechooser');
        await page.getByRole('button', { name: fileStrings.UPLOAD_FILES }).click();
        await (await pdfChooser).setFiles(path.join(files, 'falcon-handbook.pdf'));
        await page.getByText(fileStrings.UPLOADED).waitFor({ timeout: WAIT_MS });

        const row = page.locator('[data-testid="file-row"][data-name="falcon-handbook.pdf"]');
        await row.waitFor({ timeout: WAIT_MS });
        await row.getByText('Falcon Handbook').waitFor();
        // -1 shows as indexing until the worker has indexed it, then the chunk count.
        await expect
          .poll(() => row.getByTestId('file-status').textContent(), { timeout: WAIT_MS })
          .toMatch(/^\d+ chunks?$/);
        expect(await page.locator('[data-testid="file-row"]').count()).toBe(1);
        await page.screenshot({ path: path.join(SCREENSHOTS, 'files-indexed.png') });

        await page.goto(`${baseUrl}/chat`);
        const box = page.getByTestId('question-textarea');
        await box.waitFor({ timeout: WAIT_MS });
        await box.fill('How much are team dinners reimbursed per person?');
        await box.press('Enter');
        const answer = page.getByTestId('assistant-message').last();
        await expect.poll(() => answer.getAttribute('data-status'), { timeout: WAIT_MS }).toBe('SUCCESS');
        await expect.poll(() => answer.getByTestId('answer-text').innerText()).toContain('45 euros');
        await expect
          .poll(async () => (await answer.getByTestId('reference').allInnerTexts()).join('|'))
          .toContain('Falcon Handbook');
        await page.screenshot({ path: path.join(SCREENSHOTS, 'files-answer.png') });
      });
    },
  );

  it('deletes a file after confirmation', async () => {
    await withPage(async (page) => {
      await page.goto(`${baseUrl}/files`);
      const row = page.locator('[data-testid="file-row"][data-name="falcon-handbook.pdf"]');
      await row.waitFor({ timeout: WAIT_MS });
      await row.getByRole('button', { name: `${fileStrings.DELETE} falcon-handbook.pdf` }).click();
      await page.getByText(fileStrings.deleteConfirm('falcon-handbook.pdf')).waitFor();
      await page.getByRole('dialog').getByRole('button', { name: fileStrings.DELETE, exact: true }).click();
      await page.getByText(fileStrings.DELETED).waitFor({ timeout: WAIT_MS });
      await page.getByTestId('files-empty').waitFor({ timeout: WAIT_MS });
    });
  });
});
