// SCOUT_FAKE_VENDORS=1 end to end: the server as `scout serve` starts it, with its fakes, and apps connected through
// the real HTTP routes as a browser would (the OAuth popup's authorize page, Allow, the callback; the marketplace
// install), synced by the engine, then found through `_search` by the member who may read them and nobody else.
import { createServer } from 'node:net';
import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oauthResultSchema } from '../../common/api/oauth';
import { fakeVendors } from '../../common/strings';
import { loadConfig } from '../config';
import { DEMO_ADMIN_EMAIL, DEMO_PEOPLE } from '../demo/seed';
import { users, type User } from '../db/schema';
import { MEMORY_DATA_DIR } from '../db/store';
import { startServer, type RunningServer } from '../serve';
import { getConnector } from '../sync/registry';
import { syncNow } from '../sync/testing/connections';
import { loginTokensFor } from '../testing/fixtures';
import { titlesFound } from '../testing/search';

let running: RunningServer;
let base: string;
const logLines: string[] = [];
const member = (email: string | undefined) => async (): Promise<User> => {
  const [row] = await running.store.db
    .select()
    .from(users)
    .where(eq(users.email, email ?? ''));
  if (!row) throw new Error(`no demo member ${email}`);
  return row;
};
const adminOf = member(DEMO_ADMIN_EMAIL);
const benOf = member(DEMO_PEOPLE[1]?.email);
const chloeOf = member(DEMO_PEOPLE[2]?.email);

/** A port free now, so PUBLIC_URL (which OAuth callbacks are built from) can name it before the server listens. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  if (typeof address !== 'object' || address === null) throw new Error('no port');
  return address.port;
}

beforeAll(async () => {
  const port = await freePort();
  const config = {
    ...loadConfig({ SCOUT_FAKE_VENDORS: '1', PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` }),
    dataDir: MEMORY_DATA_DIR,
    host: '127.0.0.1',
    secretKey: Buffer.alloc(32, 7).toString('base64'),
  };
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(chunk.toString('utf8'));
      done();
    },
  });
  running = await startServer(config, { logger: pino({ level: 'info' }, sink), logLevel: 'silent' });
  base = running.url;
  // A first start indexes the demo workspace and starts ten fakes: longer than a unit hook, like the e2e ones.
}, 120_000);
afterAll(async () => {
  await running.close();
});

const tokenOf = async (user: User) => (await loginTokensFor(running.app.ctx, user)).id_token;

/** The whole popup: Scout's start, the fake's Allow page, Allow, and Scout's callback with the browser's cookie. */
async function connectThroughPopup(user: User, app: string, isOrg: boolean): Promise<string> {
  const start = await fetch(`${base}/api/v1/oauth/${app}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${await tokenOf(user)}`, 'content-type': 'application/json' },
    body: JSON.stringify({ admin: isOrg, options: {} }),
  });
  expect(start.status, await start.clone().text()).toBe(200);
  const cookie = (start.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const authorize = new URL(((await start.json()) as { url: string }).url);
  expect(authorize.hostname).toBe('127.0.0.1');

  const page = await fetch(authorize);
  const html = await page.text();
  expect(page.status).toBe(200);
  expect(html).toContain(fakeVendors.ALLOW);
  const form = new URLSearchParams(
    [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map(
      ([, name, value]) => [name ?? '', (value ?? '').replace(/&amp;/g, '&')] as [string, string],
    ),
  );
  const allowed = await fetch(new URL('/authorize', authorize), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
    redirect: 'manual',
  });
  expect(allowed.status).toBe(302);
  const callback = await fetch(allowed.headers.get('location') ?? '', { headers: { cookie } });
  const posted = /const result = (\{.*?\});/s.exec(await callback.text())?.[1] ?? '{}';
  const result = oauthResultSchema.parse(JSON.parse(posted));
  expect(result).toMatchObject({ success: true, app });
  if (!result.connectionId) throw new Error(JSON.stringify(result));
  return result.connectionId;
}

const found = async (user: User, q: string) => titlesFound({ ...running, ctx: running.app.ctx }, user, q);

describe('SCOUT_FAKE_VENDORS=1', () => {
  it('says at start, in one line, which apps reach fakes', () => {
    const lines = logLines.filter((line) => line.includes('SCOUT_FAKE_VENDORS=1'));
    expect(lines).toHaveLength(1);
    const fakes = (JSON.parse(lines[0] ?? '{}') as { fakes?: Record<string, string> }).fakes ?? {};
    expect(Object.keys(fakes).sort()).toEqual([
      'gcal',
      'gdrive',
      'gmail',
      'gworkspace-directory',
      'msteams',
      'notion',
      'onedrive',
      'outlook',
      'sharepoint',
      'slack',
    ]);
  });

  it('points every app of issue 12 at a fake on 127.0.0.1, whatever a connection stored', () => {
    const local = /^http:\/\/127\.0\.0\.1:\d+(\/|$)/;
    const apps = ['slack', 'notion', 'gdrive', 'gworkspace-directory', 'gmail', 'gcal', 'outlook', 'msteams'];
    for (const app of [...apps, 'sharepoint', 'onedrive']) {
      const config = getConnector(app)?.configSchema.parse({ baseUrl: 'https://vendor.example/api/' });
      expect(config, app).toMatchObject({ baseUrl: expect.stringMatching(local) });
    }
    for (const app of apps) {
      expect(getConnector(app)?.oauth?.authorizeUrl, app).toMatch(local);
      expect(getConnector(app)?.oauth?.tokenUrl, app).toMatch(local);
    }
    expect(getConnector('sharepoint')?.configSchema.parse({})).toMatchObject({
      loginUrl: expect.stringMatching(local),
    });
  });

  it('connects Slack org-wide through the OAuth popup; a private channel is found by its one member only', async () => {
    const [admin, ben, chloe] = [await adminOf(), await benOf(), await chloeOf()];
    const connectionId = await connectThroughPopup(admin, 'slack', true);
    expect(await syncNow(running.store.db, connectionId, 'full')).toMatchObject({ kind: 'complete' });

    const launch = (titles: string[]) => titles.filter((title) => title.includes('launch checklist'));
    const budget = (titles: string[]) => titles.filter((title) => title.includes('Draft Orion budget'));
    expect(launch(await found(chloe, 'Orion launch checklist'))).toHaveLength(1);
    expect(launch(await found(ben, 'Orion launch checklist'))).toHaveLength(1);
    expect(budget(await found(ben, 'Draft Orion budget'))).toHaveLength(1);
    expect(budget(await found(chloe, 'Draft Orion budget'))).toEqual([]);
    expect(budget(await found(admin, 'Draft Orion budget'))).toEqual([]);
  });

  it('connects a member’s own Gmail through the popup; only that member finds the mail', async () => {
    const [ben, chloe] = [await benOf(), await chloeOf()];
    const connectionId = await connectThroughPopup(ben, 'gmail', false);
    expect(await syncNow(running.store.db, connectionId, 'full')).toMatchObject({ kind: 'complete' });

    const contract = (titles: string[]) =>
      titles.filter((title) => title.includes('Orion supplier contract'));
    expect(contract(await found(ben, 'supplier contract penalty'))).toHaveLength(1);
    expect(contract(await found(chloe, 'supplier contract penalty'))).toEqual([]);
  });

  it('installs SharePoint org-wide as the marketplace does; an item shared with one member reaches only them', async () => {
    const [admin, ben, chloe] = [await adminOf(), await benOf(), await chloeOf()];
    const install = await fetch(`${base}/api/v1/app/install/sharepoint`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${await tokenOf(admin)}`, 'content-type': 'application/json' },
      body: JSON.stringify({ isOrg: true, options: { email: DEMO_ADMIN_EMAIL, marketplace: true } }),
    });
    const body = (await install.json()) as { connection?: { id: string } };
    expect(install.status, JSON.stringify(body)).toBe(200);
    const connectionId = body.connection?.id ?? '';
    expect(await syncNow(running.store.db, connectionId, 'full')).toMatchObject({ kind: 'complete' });
    expect(await syncNow(running.store.db, connectionId, 'permissions')).toMatchObject({
      kind: 'permissions',
    });

    const review = (titles: string[]) => titles.filter((title) => title.includes('salary review'));
    const travel = (titles: string[]) => titles.filter((title) => title === 'Acme travel policy.docx');
    expect(review(await found(ben, 'salary review'))).toHaveLength(1);
    expect(review(await found(chloe, 'salary review'))).toEqual([]);
    expect(travel(await found(chloe, 'Acme travel policy'))).toHaveLength(1);
  });

  it('installs Outlook org-wide as the marketplace does; a member’s mail reaches only that member', async () => {
    const [admin, ben, chloe] = [await adminOf(), await benOf(), await chloeOf()];
    const install = await fetch(`${base}/api/v1/app/install/outlook`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${await tokenOf(admin)}`, 'content-type': 'application/json' },
      body: JSON.stringify({ isOrg: true, options: { email: DEMO_ADMIN_EMAIL, marketplace: true } }),
    });
    const body = (await install.json()) as { connection?: { id: string } };
    expect(install.status, JSON.stringify(body)).toBe(200);
    expect(await syncNow(running.store.db, body.connection?.id ?? '', 'full')).toMatchObject({
      kind: 'complete',
    });
    const invoice = (titles: string[]) => titles.filter((title) => title === 'Orion supplier invoice');
    expect(invoice(await found(ben, 'Orion supplier invoice'))).toHaveLength(1);
    expect(invoice(await found(chloe, 'Orion supplier invoice'))).toEqual([]);
    expect(invoice(await found(admin, 'Orion supplier invoice'))).toEqual([]);
  });

  it('connects a member’s own OneDrive through the popup; only that member finds its files', async () => {
    const [ben, chloe] = [await benOf(), await chloeOf()];
    const connectionId = await connectThroughPopup(ben, 'onedrive', false);
    expect(await syncNow(running.store.db, connectionId, 'full')).toMatchObject({ kind: 'complete' });

    const notes = (titles: string[]) =>
      titles.filter((title) => title === 'Orion keynote speaker notes.docx');
    expect(notes(await found(ben, 'Orion keynote speaker notes'))).toHaveLength(1);
    expect(notes(await found(chloe, 'Orion keynote speaker notes'))).toEqual([]);
  });

  it('connects every other app of issue 12 to its fake, and each syncs to the end', async () => {
    const [admin, ben, chloe] = [await adminOf(), await benOf(), await chloeOf()];
    const popups: [User, string, boolean][] = [
      [admin, 'notion', true],
      // Drive's org connection reads through a service account, which dev mode has none of: Ben connects his
      // own Drive
      [ben, 'gdrive', false],
      [admin, 'gworkspace-directory', true],
      [ben, 'gcal', false],
      [ben, 'outlook', false],
      [ben, 'msteams', false],
    ];
    for (const [user, app, isOrg] of popups) {
      const connectionId = await connectThroughPopup(user, app, isOrg);
      expect(await syncNow(running.store.db, connectionId, 'full'), app).toMatchObject({ kind: 'complete' });
    }
    const install = await fetch(`${base}/api/v1/app/install/onedrive`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${await tokenOf(admin)}`, 'content-type': 'application/json' },
      body: JSON.stringify({ isOrg: true, options: { email: DEMO_ADMIN_EMAIL, marketplace: true } }),
    });
    expect(install.status).toBe(200);
    const onedrive = ((await install.json()) as { connection: { id: string } }).connection.id;
    expect(await syncNow(running.store.db, onedrive, 'full')).toMatchObject({ kind: 'complete' });

    const notes = (titles: string[]) =>
      titles.filter((title) => title === `${ben.firstName} ${ben.lastName} 1:1 notes`);
    expect(notes(await found(ben, 'career goals Orion'))).toHaveLength(1);
    expect(notes(await found(chloe, 'career goals Orion'))).toEqual([]);
    const onboarding = (titles: string[]) => titles.filter((title) => title === 'Acme onboarding guide');
    expect(onboarding(await found(chloe, 'onboarding guide buddy'))).toHaveLength(1);
    const review = (titles: string[]) => titles.filter((title) => title === 'Orion launch review');
    expect(review(await found(ben, 'Orion launch review checklist risks'))).toHaveLength(1);
  });
});
