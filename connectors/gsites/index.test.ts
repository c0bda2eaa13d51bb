// The connector against archives held in memory: the host's side (storing and unzipping uploads) is tested with
// the real server in server/uploads/site-archives.test.ts; here, what the connector makes of an archive's files.
import { describe, expect, it } from 'vitest';
import { InvalidUrlError, createConnectorContext, type SiteArchive, type SyncBatch } from '../sdk';
import { collect } from '../sdk/testing';
import { MAX_PAGE_BYTES, gsitesConnector } from './index';

const UPLOADED_AT = new Date('2025-05-01T10:00:00Z');

function archiveOf(
  id: string,
  pages: Record<string, string>,
  sizes: Record<string, number> = {},
): SiteArchive {
  const bytes = new Map(Object.entries(pages).map(([path, text]) => [path, new TextEncoder().encode(text)]));
  return {
    id,
    uploadedAt: UPLOADED_AT,
    files: [...bytes].map(([path, content]) => ({ path, size: sizes[path] ?? content.length })),
    read: async (path) => bytes.get(path) ?? new Uint8Array(),
  };
}

const html = (title: string, body: string) =>
  `<html><head><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>`;

const SITE = {
  'acme/index.html': html('Home', '<p>Welcome</p>'),
  'acme/team/index.html': html('Team', '<h2>Leads</h2><p>Ann leads.</p>'),
  'acme/team/eng.html': html('Engineering', '<p>On call weekly.</p>'),
  'acme/news.html': '<html><body><p>No title here</p></body></html>',
  'acme/img/logo.png': 'png bytes',
};

function contextFor(archives: Record<string, SiteArchive>, options: { signal?: AbortSignal } = {}) {
  return createConnectorContext(gsitesConnector, {
    credentials: { url: 'https://sites.google.com/view/acme/' },
    config: { site_id: 'site-1', batchSize: 2 },
    signal: options.signal,
    siteArchives: { find: async (siteId) => archives[siteId] ?? null },
  });
}

const ids = (batches: SyncBatch[]) =>
  batches.flatMap((batch) => batch.documents.map((doc) => doc.externalId));

describe('gsitesConnector', () => {
  it('installs only once an archive with a page is uploaded under the site id', async () => {
    await expect(gsitesConnector.validate(contextFor({}))).rejects.toBeInstanceOf(InvalidUrlError);
    const imagesOnly = archiveOf('a0', { 'acme/logo.png': 'png' });
    await expect(gsitesConnector.validate(contextFor({ 'site-1': imagesOnly }))).rejects.toThrow(
      'Failed to install Google Sites, please verify the provided URL',
    );
    const identity = await gsitesConnector.validate(contextFor({ 'site-1': archiveOf('a1', SITE) }));
    expect(identity).toEqual({ workspaceName: 'sites.google.com/view/acme' });
  });

  it('yields each page as an org-readable article at its live address, in checkpointed batches', async () => {
    const ctx = contextFor({ 'site-1': archiveOf('a1', SITE) });
    const batches = await collect(gsitesConnector.fullSync(ctx));
    expect(batches.map((batch) => batch.documents.length)).toEqual([2, 2]);
    const docs = batches.flatMap((batch) => batch.documents);
    expect(docs.map((doc) => [doc.externalId, doc.title, doc.url, doc.parentExternalId])).toEqual([
      ['/', 'Home', 'https://sites.google.com/view/acme', undefined],
      ['/news', 'news', 'https://sites.google.com/view/acme/news', '/'],
      ['/team/eng', 'Engineering', 'https://sites.google.com/view/acme/team/eng', '/team'],
      ['/team', 'Team', 'https://sites.google.com/view/acme/team', '/'],
    ]);
    const team = docs.find((doc) => doc.externalId === '/team');
    expect(team).toMatchObject({ acl: ['org'], objectType: 'Articles', fileType: 'html' });
    expect(team?.body).toContain('## Leads');
    expect(team?.modifiedTime).toEqual(UPLOADED_AT);
    expect(batches.at(-1)?.progress?.share).toBe(1);

    const resumed = await collect(gsitesConnector.incrementalSync(ctx, batches[0]!.cursor));
    expect(ids(resumed)).toEqual(['/team/eng', '/team']);
    const caughtUp = await collect(gsitesConnector.incrementalSync(ctx, batches.at(-1)!.cursor));
    expect(caughtUp).toHaveLength(1);
    expect(ids(caughtUp)).toEqual([]);
    expect((await collect(gsitesConnector.listIds(ctx))).flat()).toEqual([
      '/',
      '/news',
      '/team/eng',
      '/team',
    ]);
  });

  it('syncs a new archive under the site id afresh, skipping pages too large to be written by hand', async () => {
    const first = await collect(gsitesConnector.fullSync(contextFor({ 'site-1': archiveOf('a1', SITE) })));
    const replaced = archiveOf(
      'a2',
      { 'x/index.html': html('Home', ''), 'x/dump.html': html('Dump', '') },
      { 'x/dump.html': MAX_PAGE_BYTES + 1 },
    );
    const again = await collect(
      gsitesConnector.incrementalSync(contextFor({ 'site-1': replaced }), first.at(-1)!.cursor),
    );
    expect(ids(again)).toEqual(['/']);
  });

  it('fails for good when the archive is gone, and stops when aborted', async () => {
    await expect(collect(gsitesConnector.fullSync(contextFor({})))).rejects.toThrow('no longer uploaded');
    const aborted = contextFor({ 'site-1': archiveOf('a1', SITE) }, { signal: AbortSignal.abort() });
    await expect(collect(gsitesConnector.fullSync(aborted))).rejects.toThrow();
  });
});
