import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createConnectorContext } from '../sdk/context';
import { InvalidUrlError } from '../sdk/errors';
import { collect, fakeClock, runConnectorConformance, type FakeClock } from '../sdk/testing';
import type { Cursor, SyncBatch } from '../sdk/types';
import { html, sitemapIndexXml, sitemapXml, startFakeSite, type FakeSite } from './fake';
import { websiteConnector } from './index';
import { MAX_PAGE_BYTES } from './page';

let site: FakeSite;
let other: FakeSite;

beforeEach(async () => {
  site = await startFakeSite();
  other = await startFakeSite();
});

afterEach(async () => {
  await site.close();
  await other.close();
});

/** Tests crawl their own 127.0.0.1 servers, so the address guard is off unless a test turns it on. */
function context(config: Record<string, unknown> = {}, options: { clock?: FakeClock; url?: string } = {}) {
  return createConnectorContext(websiteConnector, {
    credentials: { url: options.url ?? `${site.url}/` },
    config: { delayMs: 0, allowPrivateNetworks: true, ...config },
    ...(options.clock ? { clock: options.clock } : {}),
  });
}

const ids = (batches: readonly SyncBatch[]) =>
  batches.flatMap((batch) => batch.documents.map((document) => new URL(document.externalId).pathname)).sort();
const deletedIds = (batches: readonly SyncBatch[]) =>
  batches.flatMap((batch) => (batch.deletedExternalIds ?? []).map((id) => new URL(id).pathname)).sort();
const lastCursor = (batches: readonly SyncBatch[]): Cursor => (batches.at(-1) as SyncBatch).cursor;
const count = (paths: readonly string[], path: string) => paths.filter((each) => each === path).length;

/** A site with one of everything a crawler meets. */
function buildAcme(): void {
  site.dynamic('/robots.txt', () => ({
    contentType: 'text/plain',
    body: [
      'User-agent: *',
      'Disallow: /',
      '',
      'User-agent: ScoutBot',
      'Disallow: /private/',
      '',
      `Sitemap: ${site.url}/sitemap_index.xml`,
    ].join('\n'),
  }));
  site.dynamic('/sitemap_index.xml', () => ({
    contentType: 'application/xml',
    body: sitemapIndexXml([`${site.url}/sitemaps/pages.xml`]),
  }));
  site.dynamic('/sitemaps/pages.xml', () => ({
    contentType: 'application/xml',
    body: sitemapXml([{ loc: `${site.url}/` }, { loc: `${site.url}/orphan` }]),
  }));
  site.page(
    '/',
    html('Acme', 'Welcome to Acme.', [
      '/about',
      '/about#team',
      '/about?utm_source=newsletter',
      '/docs/',
      '/private/secret',
      '/old',
      '/loop-a',
      '/missing',
      '/noindex',
      '/nofollow',
      '/dup',
      '/print/guide',
      '/report',
      '/logo.png',
      '/notes.txt',
      `${other.url}/external`,
    ]),
  );
  site.page('/about', html('About', 'We make anvils.', ['/', '/docs/']));
  site.page('/docs/', html('Docs', 'Read the docs.', ['/docs/intro', '/']));
  site.page('/docs/intro', html('Intro', 'Start here.', ['/docs/']));
  site.page('/private/secret', html('Secret', 'Robots keep out.'));
  site.redirect('/old', '/new');
  site.page('/new', html('New', 'Moved here.'));
  site.redirect('/loop-a', '/loop-b', 302);
  site.redirect('/loop-b', '/loop-a', 302);
  site.page(
    '/noindex',
    html('Hidden', 'Not for the index.', ['/from-noindex'], '<meta name="robots" content="noindex">'),
  );
  site.page('/from-noindex', html('Reached', 'Linked from a noindex page.'));
  site.page(
    '/nofollow',
    html(
      'Nofollow',
      'Links here are not followed.',
      ['/from-nofollow'],
      '<meta name="robots" content="nofollow">',
    ),
  );
  site.page('/from-nofollow', html('Unreached', 'Only a nofollow page links here.'));
  site.page(
    '/dup',
    html('About (copy)', 'We make anvils.', [], `<link rel="canonical" href="${site.url}/about">`),
  );
  site.page(
    '/print/guide',
    html('Guide', 'The printable guide.', [], '<link rel="canonical" href="/guide">'),
  );
  site.page('/guide', html('Guide', 'The guide.'));
  site.page('/report', 'not a page', { contentType: 'application/pdf' });
  site.page('/logo.png', 'not an image', { contentType: 'image/png' });
  site.page('/notes.txt', 'Plain notes.\nSecond line.', { contentType: 'text/plain; charset=utf-8' });
  site.page('/orphan', html('Orphan', 'Only the sitemap knows me.'));
  other.page('/external', html('Elsewhere', 'Another site.'));
}

describe('website connector', () => {
  it('passes the conformance kit', async () => {
    site.page('/', html('Home', 'Welcome.', ['/a', '/b', '/c']));
    site.page('/a', html('A', 'Alpha.', ['/']));
    site.page('/b', html('B', 'Beta.', ['/c']));
    site.page('/c', html('C', 'Gamma.'));
    const inSitemap = new Set(['/', '/a', '/b', '/c']);
    site.dynamic('/sitemap.xml', () => ({
      contentType: 'application/xml',
      body: sitemapXml(
        [...inSitemap].map((path) => ({
          loc: `${site.url}${path}`,
          lastmod: site.modifiedAt(path)?.toISOString(),
        })),
      ),
    }));

    const report = await runConnectorConformance(websiteConnector, {
      fakeServer: site.server,
      credentials: { url: `${site.url}/` },
      config: { delayMs: 0, allowPrivateNetworks: true, batchSize: 2 },
      changeSource: () => {
        site.page('/a', html('A', 'Alpha, revised.', ['/']));
        site.page('/n', html('N', 'New, listed in the sitemap only.'));
        inSitemap.add('/n');
        site.remove('/c');
        inSitemap.delete('/c');
        return { changed: [`${site.url}/a`, `${site.url}/n`], deleted: [`${site.url}/c`] };
      },
    });
    expect(report).toMatchObject({
      fullSync: { documents: 4 },
      resumedMidSync: true,
      incremental: { documents: 2, deleted: 1 },
      listedIds: 4,
      groups: null,
    });
  });

  it('crawls the site as robots.txt, redirects, canonicals, meta robots and content types say', async () => {
    buildAcme();
    const batches = await collect(websiteConnector.fullSync(context()));

    expect(ids(batches)).toEqual([
      '/',
      '/about',
      '/docs/',
      '/docs/intro',
      '/from-noindex',
      '/guide',
      '/new',
      '/nofollow',
      '/notes.txt',
      '/orphan',
    ]);
    const requested = site.requested();
    // Disallowed for ScoutBot (though not for *), nofollow'd, an image by its extension, another origin.
    for (const path of ['/private/secret', '/from-nofollow', '/logo.png', '/guide']) {
      expect(requested).not.toContain(path);
    }
    expect(other.requested()).toEqual([]);
    // One fetch per page, however many links, fragments and campaign tags point at it: A→B→A ends.
    expect(count(requested, '/')).toBe(1);
    expect(count(requested, '/about')).toBe(1);
    expect(count(requested, '/docs/')).toBe(1);
    // The loop is followed until it closes, once.
    expect(count(requested, '/loop-a')).toBe(1);
    expect(count(requested, '/loop-b')).toBe(1);
    // The sitemap index led to the child sitemap, which led to the orphan.
    expect(requested).toContain('/sitemaps/pages.xml');
    expect(requested.some((path) => path.includes('utm_'))).toBe(false);
  });

  it('builds documents with the page’s title, Markdown headings, URL and an org-wide ACL', async () => {
    buildAcme();
    const documents = (await collect(websiteConnector.fullSync(context()))).flatMap(
      (batch) => batch.documents,
    );
    const about = documents.find((document) => document.externalId === `${site.url}/about`);
    expect(about).toMatchObject({
      title: 'About',
      url: `${site.url}/about`,
      objectType: 'Articles',
      fileType: 'other',
      acl: ['org'],
      extra: { site: '127.0.0.1', lang: 'en' },
    });
    expect(about?.body).toContain('# About\n\nWe make anvils.');
    expect(about?.modifiedTime.getTime()).toBe(
      Math.floor((site.modifiedAt('/about') as Date).getTime() / 1000) * 1000,
    );
    const guide = documents.find((document) => document.externalId === `${site.url}/guide`);
    expect(guide?.body).toContain('The printable guide.');
    const notes = documents.find((document) => document.externalId === `${site.url}/notes.txt`);
    expect(notes).toMatchObject({ title: 'notes.txt', body: 'Plain notes.\nSecond line.' });
  });

  it('re-crawls with conditional requests: 304s yield nothing, a changed page and a deleted one are reported', async () => {
    site.page('/', html('Home', 'Welcome.', ['/a', '/b', '/c', '/gone']));
    site.page('/a', html('A', 'Alpha.'));
    site.page('/b', html('B', 'Beta.'));
    site.page('/c', html('C', 'Last-Modified only.'), { etag: false }, new Date('2025-01-01T00:00:00Z'));
    site.page('/gone', html('Gone', 'Soon removed.'));
    const first = await collect(websiteConnector.fullSync(context()));
    expect(ids(first)).toEqual(['/', '/a', '/b', '/c', '/gone']);

    site.page('/a', html('A', 'Alpha, revised.'));
    site.remove('/gone');
    site.server.clearLog();
    const before = site.answered().length;
    const second = await collect(websiteConnector.incrementalSync(context(), lastCursor(first)));

    expect(ids(second)).toEqual(['/a']);
    expect(deletedIds(second)).toEqual(['/gone']);
    expect(site.answered().slice(before)).toEqual(['/ 304', '/a 200', '/b 304', '/c 304', '/gone 404']);
    const conditional = site.server.requests.find((request) => request.path === '/c');
    expect(conditional?.headers['if-modified-since']).toBe('Wed, 01 Jan 2025 00:00:00 GMT');

    const third = await collect(websiteConnector.incrementalSync(context(), lastCursor(second)));
    expect(ids(third)).toEqual([]);
    expect(deletedIds(third)).toEqual([]);
  });

  it('does not even ask for a page whose sitemap lastmod predates the last crawl', async () => {
    const anHourAgo = new Date(Date.now() - 3_600_000);
    site.page('/', html('Home', 'Welcome.', ['/a', '/b']));
    site.page('/a', html('A', 'Alpha.'), {}, anHourAgo);
    site.page('/b', html('B', 'Beta.'), {}, anHourAgo);
    site.dynamic('/sitemap.xml', () => ({
      contentType: 'application/xml',
      body: sitemapXml(
        ['/a', '/b'].map((path) => ({
          loc: `${site.url}${path}`,
          lastmod: site.modifiedAt(path)?.toISOString(),
        })),
      ),
    }));
    const first = await collect(websiteConnector.fullSync(context()));
    site.page('/b', html('B', 'Beta, revised.'));
    site.server.clearLog();

    const second = await collect(websiteConnector.incrementalSync(context(), lastCursor(first)));
    expect(ids(second)).toEqual(['/b']);
    expect(site.requested()).not.toContain('/a');
    expect(site.requested()).toContain('/b');
  });

  it('resumes a crawl cut short from any batch’s cursor without fetching again what it did', async () => {
    site.page('/', html('Home', 'Welcome.', ['/a', '/b', '/c', '/d']));
    for (const path of ['/a', '/b', '/c', '/d']) site.page(path, html(path, `Page ${path}.`));
    const all = await collect(websiteConnector.fullSync(context({ batchSize: 2 })));
    expect(all.length).toBeGreaterThan(2);
    const firstBatch = all[0] as SyncBatch;
    site.server.clearLog();

    const rest = await collect(
      websiteConnector.incrementalSync(context({ batchSize: 2 }), firstBatch.cursor),
    );
    expect([...ids([firstBatch]), ...ids(rest)].sort()).toEqual(['/', '/a', '/b', '/c', '/d']);
    for (const path of ids([firstBatch])) expect(site.requested()).not.toContain(path);
    const shares = all.map((batch) => batch.progress?.share ?? 0);
    expect(shares.at(-1)).toBe(1);
    for (const share of shares) expect(share).toBeGreaterThan(0);
  });

  it('stops at the depth cap, the page cap and the redirect cap', async () => {
    site.page('/', html('Home', 'Welcome.', ['/one', '/r1']));
    site.page('/one', html('One', 'Depth 1.', ['/two']));
    site.page('/two', html('Two', 'Depth 2.'));
    site.redirect('/r1', '/r2');
    site.redirect('/r2', '/r3');
    site.redirect('/r3', '/target');
    site.page('/target', html('Target', 'Three redirects away.'));

    expect(ids(await collect(websiteConnector.fullSync(context({ maxDepth: 1 }))))).toEqual([
      '/',
      '/one',
      '/target',
    ]);
    expect(ids(await collect(websiteConnector.fullSync(context({ maxRedirects: 2 }))))).toEqual([
      '/',
      '/one',
      '/two',
    ]);
    site.server.clearLog();
    const capped = await collect(websiteConnector.fullSync(context({ maxPages: 2 })));
    expect(ids(capped)).toEqual(['/', '/one']);
    expect(site.requested().filter((path) => !['/robots.txt', '/sitemap.xml'].includes(path))).toEqual([
      '/',
      '/one',
    ]);
  });

  it('keeps pages a capped crawl did not reach, and only a complete crawl reports deletions', async () => {
    site.page('/', html('Home', 'Welcome.', ['/a', '/b']));
    site.page('/a', html('A', 'Alpha.'));
    site.page('/b', html('B', 'Beta.'));
    const first = await collect(websiteConnector.fullSync(context()));
    site.remove('/a');
    const capped = await collect(
      websiteConnector.incrementalSync(context({ maxPages: 1 }), lastCursor(first)),
    );
    expect(deletedIds(capped)).toEqual([]);
    const complete = await collect(websiteConnector.incrementalSync(context(), lastCursor(capped)));
    expect(deletedIds(complete)).toEqual(['/a']);
    expect(ids(complete)).toEqual([]);
  });

  it('adopts the origin the start URL redirects to, and stays on it', async () => {
    site.redirect('/', `${other.url}/`);
    site.page('/elsewhere', html('Old origin', 'Not part of the crawl.'));
    other.page('/', html('Home', 'The real home.', ['/x', `${site.url}/elsewhere`]));
    other.page('/x', html('X', 'On the adopted origin.'));

    const batches = await collect(websiteConnector.fullSync(context()));
    expect(batches.flatMap((batch) => batch.documents.map((document) => document.externalId)).sort()).toEqual(
      [`${other.url}/`, `${other.url}/x`],
    );
    expect(site.requested()).not.toContain('/elsewhere');
    expect(other.requested()).toContain('/robots.txt');
    await expect(websiteConnector.validate(context())).resolves.toEqual({ workspaceName: '127.0.0.1' });
  });

  it('keeps the pages of an adopted origin while the start URL is down, and drops them once it moves', async () => {
    site.redirect('/', `${other.url}/`);
    other.page('/', html('Home', 'The real home.', ['/x']));
    other.page('/x', html('X', 'On the adopted origin.'));
    const ctx = () =>
      createConnectorContext(websiteConnector, {
        credentials: { url: `${site.url}/` },
        config: { delayMs: 0, allowPrivateNetworks: true },
        random: () => 0,
      });
    const first = await collect(websiteConnector.fullSync(ctx()));

    site.server.failNext(5, { kind: 'status', status: 503 }, { path: '/' });
    const down = await collect(websiteConnector.incrementalSync(ctx(), lastCursor(first)));
    expect([ids(down), deletedIds(down)]).toEqual([[], []]);

    site.page('/', html('Home', 'The site is back home.'));
    const moved = await collect(websiteConnector.incrementalSync(ctx(), lastCursor(down)));
    expect(moved.flatMap((batch) => batch.documents.map((document) => document.externalId))).toEqual([
      `${site.url}/`,
    ]);
    expect(moved.flatMap((batch) => batch.deletedExternalIds ?? []).sort()).toEqual([
      `${other.url}/`,
      `${other.url}/x`,
    ]);
  });

  it('waits between requests: 500 ms by default, longer when robots.txt asks', async () => {
    site.page('/', html('Home', 'Welcome.', ['/a']));
    site.page('/a', html('A', 'Alpha.'));
    const polite = fakeClock();
    await collect(websiteConnector.fullSync(context({ delayMs: undefined }, { clock: polite })));
    // robots.txt, /, /sitemap.xml, /a: three waits.
    expect(polite.sleeps).toEqual([500, 500, 500]);

    site.page('/robots.txt', 'User-agent: ScoutBot\nCrawl-delay: 2.5\n', { contentType: 'text/plain' });
    const patient = fakeClock();
    await collect(websiteConnector.fullSync(context({}, { clock: patient })));
    expect(patient.sleeps).toEqual([2500, 2500, 2500]);
  });

  it('skips a page too large to be one, without holding it all', async () => {
    site.page('/', html('Home', 'Welcome.', ['/huge', '/a']));
    site.page('/huge', html('Huge', 'x'.repeat(MAX_PAGE_BYTES)));
    site.page('/a', html('A', 'Alpha.'));
    expect(ids(await collect(websiteConnector.fullSync(context())))).toEqual(['/', '/a']);
  });

  it('retries a page that fails with 5xx through the HTTP client', async () => {
    site.page('/', html('Home', 'Welcome.', ['/flaky']));
    site.page('/flaky', html('Flaky', 'Eventually fine.'));
    site.server.failNext(2, { kind: 'status', status: 503 }, { path: '/flaky' });
    const batches = await collect(
      websiteConnector.fullSync(
        createConnectorContext(websiteConnector, {
          credentials: { url: `${site.url}/` },
          config: { delayMs: 0, allowPrivateNetworks: true },
          random: () => 0,
        }),
      ),
    );
    expect(ids(batches)).toEqual(['/', '/flaky']);
    expect(count(site.requested(), '/flaky')).toBe(3);
  });
});

describe('validate', () => {
  it('accepts a start URL that leads to HTML', async () => {
    site.page('/', html('Home', 'Welcome.'));
    await expect(websiteConnector.validate(context())).resolves.toEqual({ workspaceName: '127.0.0.1' });
  });

  it('fails with the spec’s website failure when the URL does not lead to a crawlable HTML page', async () => {
    site.page('/text', 'plain', { contentType: 'text/plain' });
    site.page('/closed', html('Closed', 'Robots keep out.'));
    site.page('/robots.txt', 'User-agent: ScoutBot\nDisallow: /closed\n', { contentType: 'text/plain' });
    for (const path of ['/missing', '/text', '/closed']) {
      const error: unknown = await websiteConnector
        .validate(context({}, { url: `${site.url}${path}` }))
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(InvalidUrlError);
      expect((error as InvalidUrlError).message).toBe(
        'Failed to install Website, please verify the provided URL',
      );
    }
    expect(site.requested()).not.toContain('/closed');
  });
});
