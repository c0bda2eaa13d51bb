// Google Sites end to end over real HTTP on a real store, with the real job worker syncing: the export archive is
// uploaded with a site-id header, the install names it, the sync indexes its pages at their live-site addresses
// for the org (and no one else), a new archive re-indexes, and a disconnect removes the pages.
import { eq, isNotNull } from 'drizzle-orm';
import { strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchResponse } from '../../common/api/search';
import { SITE_ID_HEADER, uploadMessages, type UploadResponse } from '../../common/api/uploads';
import { ConnectionStatus } from '../../common/connection-status';
import { apps } from '../../common/strings';
import { appConnections, documents, uploads, type User } from '../db/schema';
import { runWorker, type RunningWorker } from '../jobs/worker';
import { createLogger } from '../logger';
import { enqueueSync } from '../sync/jobs';
import { createOrg, createUser, loginTokensFor } from '../testing/fixtures';
import { createTestServer, type TestServer } from '../testing/server';

let server: TestServer;
let base: string;
let worker: RunningWorker;
let ann: User; // admin of acme
let bob: User; // member of acme
let olga: User; // admin of another org
const tokens = new Map<User, string>();

const SITE_URL = 'https://sites.google.com/view/acme-intranet/';
const ROOT = 'Takeout/Google Sites/Acme Intranet';

const page = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>`;

function exportZip(pages: Record<string, string>, extra: Record<string, Uint8Array> = {}): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  for (const [path, html] of Object.entries(pages)) files[`${ROOT}/${path}`] = strToU8(html);
  for (const [path, bytes] of Object.entries(extra)) files[`${ROOT}/${path}`] = bytes;
  return zipSync(files);
}

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);

const firstExport = () =>
  exportZip(
    {
      'index.html': page('Acme Intranet', '<p>Welcome to the wombatkin intranet.</p>'),
      'team/index.html': page('Our team', '<h2>Leads</h2><p>The wombatkin team leads.</p>'),
      'team/engineering.html': page(
        'Engineering',
        '<h2>On call</h2><p>The quokkaband rota rotates weekly.</p>',
      ),
      'handbook/holidays.html': page('Holidays', '<p>Twenty-five numbatday holidays a year.</p>'),
    },
    {
      'images/logo.png': PNG,
      'files/notes.txt': strToU8('quokkaband attachment text'),
      '__MACOSX/._index.html': strToU8('resource fork'),
    },
  );

async function call<T>(
  user: User | null,
  method: string,
  path: string,
  init: { body?: FormData | string; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: T & { code?: string; message?: string } }> {
  const response = await fetch(`${base}/api/v1/${path}`, {
    method,
    body: init.body,
    headers: { ...(user ? { authorization: `Bearer ${tokens.get(user)}` } : {}), ...init.headers },
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : {} };
}

function uploadArchive(
  user: User,
  bytes: Uint8Array,
  siteId: string | null,
  options: { path?: string; name?: string; visibility?: string } = {},
) {
  const form = new FormData();
  form.append('visibility', options.visibility ?? 'ORG');
  form.append(
    'file',
    new Blob([new Uint8Array(bytes)], { type: 'application/zip' }),
    options.name ?? 'site.zip',
  );
  return call<UploadResponse>(user, 'POST', options.path ?? 'document_uploads/zip', {
    body: form,
    headers: siteId === null ? {} : { [SITE_ID_HEADER]: siteId },
  });
}

const install = (user: User, options: Record<string, unknown>) =>
  call<{ connection: { id: string; statusCode: number; workspaceName: string | null } }>(
    user,
    'PUT',
    'app/install/gsites',
    { body: JSON.stringify({ isOrg: true, options }), headers: { 'content-type': 'application/json' } },
  );

async function search(user: User, q: string): Promise<SearchResponse['hits']> {
  const { status, body } = await call<SearchResponse>(user, 'POST', '_search', {
    body: JSON.stringify({ q }),
    headers: { 'content-type': 'application/json' },
  });
  expect(status).toBe(200);
  return body.hits.filter((hit) => hit.source === 'gsites');
}

async function connectionDocuments(connectionId: string) {
  return server.store.db
    .select({ externalId: documents.externalId, url: documents.url, parent: documents.parentExternalId })
    .from(documents)
    .where(eq(documents.connectionId, connectionId))
    .orderBy(documents.externalId);
}

async function siteArchiveCount(): Promise<number> {
  return (await server.store.db.select().from(uploads).where(isNotNull(uploads.siteId))).length;
}

beforeAll(async () => {
  server = await createTestServer();
  base = await server.app.listen({ port: 0, host: '127.0.0.1' });
  const { db } = server.store;
  const acme = await createOrg(db, { domain: 'gsites-acme.test' });
  const other = await createOrg(db, { domain: 'gsites-other.test' });
  ann = await createUser(db, acme, { email: 'ann@gsites-acme.test', admin: true });
  bob = await createUser(db, acme, { email: 'bob@gsites-acme.test' });
  olga = await createUser(db, other, { email: 'olga@gsites-other.test', admin: true });
  for (const user of [ann, bob, olga]) tokens.set(user, (await loginTokensFor(server.ctx, user)).id_token);
  worker = runWorker(server.store, createLogger('silent'), { idleMs: 50 });
});

afterAll(async () => {
  await worker?.stop();
  await server?.close();
});

describe('Google Sites export archives', () => {
  it('refuses bad archive uploads with a 400 and stores nothing', async () => {
    const onlyImages = zipSync({ [`${ROOT}/images/logo.png`]: PNG });
    const cases = [
      [await uploadArchive(ann, firstExport(), 'bad id!'), 'site-id must be'],
      [await uploadArchive(ann, onlyImages, 'site-a'), uploadMessages.NO_PAGES_IN_SITE_ARCHIVE],
      [
        await uploadArchive(ann, strToU8('<html></html>'), 'site-a', { name: 'page.html' }),
        uploadMessages.NOT_A_ZIP,
      ],
      [
        await uploadArchive(ann, firstExport(), 'site-a', { path: 'document_uploads' }),
        uploadMessages.SITE_ARCHIVE_ZIP_ONLY,
      ],
    ] as const;
    for (const [answer, message] of cases) {
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      expect(answer.body.message).toContain(message);
    }
    expect(await siteArchiveCount()).toBe(0);
  });

  it('refuses an install whose archive was not uploaded, or whose URL is invalid', async () => {
    const stored = await uploadArchive(ann, firstExport(), 'site-olga-cannot-see');
    expect(stored.status, JSON.stringify(stored.body)).toBe(200);

    const missing = await install(ann, { url: SITE_URL, site_id: 'never-uploaded' });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe(apps.failedToInstallUrl('Google Sites'));
    // Another org's archive is not there for it, whatever the id.
    const foreign = await install(olga, { url: SITE_URL, site_id: 'site-olga-cannot-see' });
    expect(foreign.status).toBe(400);
    expect(foreign.body.message).toBe(apps.failedToInstallUrl('Google Sites'));
    const invalid = await install(ann, { url: 'not a url', site_id: 'site-olga-cannot-see' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.message).toBe(apps.VALID_URL);
    const badId = await install(ann, { url: SITE_URL, site_id: '../etc' });
    expect(badId.status).toBe(400);

    expect(await server.store.db.select().from(appConnections)).toEqual([]);
  });

  it(
    'indexes the pages at their live-site addresses for the org, re-indexes a new archive, and disconnects',
    { timeout: 120_000 },
    async () => {
      const siteId = 'c0ffee-site-1';
      const uploaded = await uploadArchive(ann, firstExport(), siteId);
      expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
      expect(uploaded.body.name).toBe('site.zip');
      // The archive is the connection's source, not a file of the files screen.
      const listed = await call<{ documents: { id: string }[] }>(ann, 'GET', 'document_uploads');
      expect(listed.body.documents.map((doc) => doc.id)).not.toContain(uploaded.body.id);

      const installed = await install(ann, { url: SITE_URL, site_id: siteId });
      expect(installed.status, JSON.stringify(installed.body)).toBe(200);
      const connectionId = installed.body.connection.id;
      expect(installed.body.connection.workspaceName).toBe('sites.google.com/view/acme-intranet');

      await expect
        .poll(async () => (await search(bob, 'quokkaband')).map((hit) => hit.webview_link), {
          timeout: 60_000,
          interval: 200,
        })
        .toEqual(['https://sites.google.com/view/acme-intranet/team/engineering']);
      const [engineering] = await search(bob, 'quokkaband');
      expect(engineering?.name).toBe('Engineering');
      expect(await search(olga, 'quokkaband')).toEqual([]);
      // Pages only: the image, the text attachment and the resource fork are not documents.
      expect(await connectionDocuments(connectionId)).toEqual([
        { externalId: '/', url: 'https://sites.google.com/view/acme-intranet', parent: null },
        {
          externalId: '/handbook/holidays',
          url: 'https://sites.google.com/view/acme-intranet/handbook/holidays',
          parent: '/',
        },
        { externalId: '/team', url: 'https://sites.google.com/view/acme-intranet/team', parent: '/' },
        {
          externalId: '/team/engineering',
          url: 'https://sites.google.com/view/acme-intranet/team/engineering',
          parent: '/team',
        },
      ]);
      await expect
        .poll(
          async () =>
            (
              await server.store.db
                .select({ status: appConnections.statusCode })
                .from(appConnections)
                .where(eq(appConnections.id, connectionId))
            )[0]?.status,
          { timeout: 30_000 },
        )
        .toBe(ConnectionStatus.IndexingComplete);

      // A new export under the same site id replaces the old one; the next sync re-indexes, pruning drops the gone.
      const second = exportZip({
        'index.html': page('Acme Intranet', '<p>Welcome to the wombatkin intranet.</p>'),
        'team/engineering.html': page('Engineering', '<p>The platypusrota replaced the old rota.</p>'),
      });
      expect((await uploadArchive(ann, second, siteId)).status).toBe(200);
      expect(await siteArchiveCount()).toBe(2); // this site's new archive and the other test's
      const connection = { id: connectionId, orgId: ann.orgId };
      expect(await enqueueSync(server.store.db, connection, 'incremental')).toBe(true);
      await expect
        .poll(async () => (await search(bob, 'platypusrota')).map((hit) => hit.name), { timeout: 60_000 })
        .toEqual(['Engineering']);
      expect(await search(bob, 'quokkaband')).toEqual([]);
      await expect
        .poll(async () => enqueueSync(server.store.db, connection, 'prune'), { timeout: 30_000 })
        .toBe(true);
      await expect
        .poll(async () => (await connectionDocuments(connectionId)).map((doc) => doc.externalId), {
          timeout: 60_000,
        })
        .toEqual(['/', '/team/engineering']);

      const disconnected = await call<{ connection: { statusCode: number } }>(
        ann,
        'DELETE',
        `app/disconnect_app_name/gsites?admin=true&appId=${connectionId}`,
      );
      expect(disconnected.status, JSON.stringify(disconnected.body)).toBe(200);
      await expect
        .poll(async () => (await connectionDocuments(connectionId)).length, { timeout: 30_000 })
        .toBe(0);
      expect(await search(bob, 'platypusrota')).toEqual([]);
      expect(
        await server.store.db.select().from(appConnections).where(eq(appConnections.id, connectionId)),
      ).toEqual([]);
      // the archives it was installed from go too, bytes and all
      expect(await server.store.db.select().from(uploads).where(eq(uploads.siteId, siteId))).toEqual([]);
    },
  );
});
