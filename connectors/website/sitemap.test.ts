import { describe, expect, it } from 'vitest';
import { ALLOW_ALL, parseRobots } from './robots';
import { lastmodEnd, parseSitemap } from './sitemap';

describe('parseSitemap', () => {
  it('reads a urlset with and without lastmod, entities and namespace prefixes', () => {
    const xml = `<?xml version="1.0"?>
      <sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9">
        <sm:url><sm:loc> https://example.com/a?x=1&amp;y=2 </sm:loc><sm:lastmod>2025-05-01</sm:lastmod></sm:url>
        <sm:url><sm:loc>https://example.com/b</sm:loc></sm:url>
        <sm:url><sm:lastmod>2025-05-01</sm:lastmod></sm:url>
      </sm:urlset>`;
    expect(parseSitemap(xml)).toEqual({
      kind: 'urlset',
      entries: [
        { loc: 'https://example.com/a?x=1&y=2', lastmod: '2025-05-01' },
        { loc: 'https://example.com/b' },
      ],
    });
  });

  it('reads a sitemap index, and nothing from a page that is not a sitemap', () => {
    const index = `<sitemapindex><sitemap><loc>https://example.com/s1.xml</loc><lastmod>2025-05-01T10:00:00Z</lastmod></sitemap></sitemapindex>`;
    expect(parseSitemap(index)).toEqual({
      kind: 'index',
      entries: [{ loc: 'https://example.com/s1.xml', lastmod: '2025-05-01T10:00:00Z' }],
    });
    expect(parseSitemap('<!doctype html><html><body><url><loc>x</loc></url></body></html>')).toBeNull();
  });
});

describe('lastmodEnd', () => {
  it('is the latest instant the value can mean', () => {
    expect(lastmodEnd('2025-05-01T10:00:00.123Z')).toBe(Date.parse('2025-05-01T10:00:00.123Z'));
    expect(lastmodEnd('2025-05-01T10:00:00Z')).toBe(Date.parse('2025-05-01T10:00:00.999Z'));
    expect(lastmodEnd('2025-05-01T12:00+02:00')).toBe(Date.parse('2025-05-01T10:00:59.999Z'));
    // A date alone: the whole day, in whatever time zone the site meant.
    expect(lastmodEnd('2025-05-01')).toBe(Date.parse('2025-05-02T14:00:00Z'));
    expect(lastmodEnd('2025-05')).toBe(Date.parse('2025-06-01T14:00:00Z'));
    expect(lastmodEnd('yesterday')).toBeUndefined();
  });
});

describe('parseRobots', () => {
  const text = [
    'User-agent: *',
    'Disallow: /',
    'Crawl-delay: 10',
    '',
    'User-agent: scoutbot',
    'Allow: /private/open',
    'Disallow: /private/',
    'Crawl-delay: 0.5',
    '',
    'Sitemap: https://example.com/sitemap_index.xml',
  ].join('\n');

  it('applies the ScoutBot group, whatever its case, instead of *', () => {
    const robots = parseRobots('https://example.com/robots.txt', text);
    expect(robots.isAllowed('https://example.com/docs')).toBe(true);
    expect(robots.isAllowed('https://example.com/private/x')).toBe(false);
    expect(robots.isAllowed('https://example.com/private/open')).toBe(true);
    expect(robots.crawlDelayMs).toBe(500);
    expect(robots.sitemaps).toEqual(['https://example.com/sitemap_index.xml']);
  });

  it('falls back to *, and caps a Crawl-delay that would take days', () => {
    const robots = parseRobots(
      'https://example.com/robots.txt',
      'User-agent: *\nDisallow: /tmp\nCrawl-delay: 86400\n',
    );
    expect(robots.isAllowed('https://example.com/tmp/x')).toBe(false);
    expect(robots.crawlDelayMs).toBe(60_000);
    expect(ALLOW_ALL.isAllowed('https://example.com/anything')).toBe(true);
  });
});
