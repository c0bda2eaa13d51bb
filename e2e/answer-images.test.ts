// Images in answers (issue #11 item 7): a document anyone can write to, quoted by the model, must not make every
// reader's browser fetch an address of the writer's choosing. The "remote" host is a server on 127.0.0.1 that
// records every request, so the test sees a load even if the browser would show nothing.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoginTokens } from '../common/api/session';
import { startChatScout, withSignedInPage, type ChatScout } from './harness';

const WAIT_MS = 20_000;
const DOMAIN = 'images.test';

let scout: ChatScout;
let beacon: Server;
let beaconUrl: string;
const beaconRequests: string[] = [];
let alice: LoginTokens;

beforeAll(async () => {
  beacon = createServer((request, response) => {
    beaconRequests.push(request.url ?? '');
    response.writeHead(200, { 'content-type': 'image/png' }).end();
  });
  await new Promise<void>((resolve) => beacon.listen(0, '127.0.0.1', resolve));
  beaconUrl = `http://127.0.0.1:${(beacon.address() as AddressInfo).port}`;
  const image = `![quarterly chart](${beaconUrl}/t.png?leak=secret)`;
  scout = await startChatScout(() => ({
    text:
      `Revenue grew [1]. ${image}\n\n<img src="${beaconUrl}/raw.png">\n\n` +
      `<img srcset="${beaconUrl}/set.png 2x"> <div style="background:url(${beaconUrl}/css.png)">x</div>`,
  }));
  alice = (await scout.createUser({ email: `alice@${DOMAIN}` })).tokens;
  await scout.indexDocuments(DOMAIN, [
    {
      source: 'notion',
      externalId: 'revenue',
      title: 'Quarterly revenue report',
      body: `Revenue grew by a tenth this quarter. ${image}`,
      url: 'https://notion.example/revenue',
      acl: ['org'],
    },
  ]);
});

afterAll(async () => {
  await scout?.stop();
  await new Promise((resolve) => beacon?.close(resolve));
});

describe('an answer quoting an image', () => {
  it('loads nothing from the image address and shows the alt text as a link instead', async () => {
    await withSignedInPage(alice, async (page) => {
      await page.goto(`${scout.baseUrl}/chat`);
      const box = page.getByTestId('question-textarea');
      await box.waitFor({ timeout: WAIT_MS });
      await box.fill('How did revenue do this quarter?');
      await box.press('Enter');
      const answer = page.getByTestId('assistant-message').last();
      await expect.poll(() => answer.getAttribute('data-status'), { timeout: WAIT_MS }).toBe('SUCCESS');
      const text = answer.getByTestId('answer-text');
      await expect.poll(() => text.innerText(), { timeout: WAIT_MS }).toContain('Revenue grew');

      // Whatever the page might still load lazily has had time to ask.
      await page.waitForLoadState('networkidle');
      expect(beaconRequests).toEqual([]);
      expect(await page.locator(`img[src^="${beaconUrl}"]`).count()).toBe(0);
      expect(await page.locator(`[srcset*="${beaconUrl}"], [style*="${beaconUrl}"]`).count()).toBe(0);

      const link = text.getByRole('link', { name: 'quarterly chart' });
      expect(await link.getAttribute('href', { timeout: WAIT_MS })).toBe(`${beaconUrl}/t.png?leak=secret`);
      expect(await link.getAttribute('rel')).toContain('noreferrer');
    });
  });
});
