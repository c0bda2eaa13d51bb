import { describe, expect, it } from 'vitest';
import { pageUrl, parentKeyOf, siteBaseUrl, sitePages } from './site';

const files = (...paths: string[]) => paths.map((path) => ({ path, size: 10 }));

describe('sitePages', () => {
  it('finds the site root below the exporter’s folders and maps pages to their paths on the site', () => {
    const pages = sitePages(
      files(
        'Takeout/Sites/Acme/index.html',
        'Takeout/Sites/Acme/about.htm',
        'Takeout/Sites/Acme/team/index.html',
        'Takeout/Sites/Acme/team/Engineering Ops.HTML',
        'Takeout/Sites/Acme/images/logo.png',
      ),
    );
    expect(pages.map((page) => [page.key, page.archivePath])).toEqual([
      ['about', 'Takeout/Sites/Acme/about.htm'],
      ['', 'Takeout/Sites/Acme/index.html'],
      ['team/Engineering Ops', 'Takeout/Sites/Acme/team/Engineering Ops.HTML'],
      ['team', 'Takeout/Sites/Acme/team/index.html'],
    ]);
  });

  it('keeps one file per page, normalises backslashes and never climbs out with ..', () => {
    const pages = sitePages(files('site\\a.html', 'site/a/index.html', 'site/../../b.html'));
    expect(pages.map((page) => page.key)).toEqual(['b', 'a']);
  });

  it('takes a single page’s own folder as the root', () => {
    expect(sitePages(files('export/home.html')).map((page) => page.key)).toEqual(['home']);
    expect(sitePages(files('logo.png'))).toEqual([]);
  });
});

describe('page addresses', () => {
  it('joins encoded page paths onto the site address without its query, fragment or trailing slash', () => {
    const base = siteBaseUrl('https://sites.google.com/view/acme/?authuser=0#top');
    expect(pageUrl(base, '')).toBe('https://sites.google.com/view/acme');
    expect(pageUrl(base, 'team/Engineering Ops')).toBe(
      'https://sites.google.com/view/acme/team/Engineering%20Ops',
    );
    expect(pageUrl(siteBaseUrl('https://intranet.example.com'), 'a/b')).toBe(
      'https://intranet.example.com/a/b',
    );
  });

  it('names the nearest page above as the parent', () => {
    const keys = new Set(['', 'team', 'team/eng/oncall']);
    expect(parentKeyOf('team/eng/oncall', keys)).toBe('team');
    expect(parentKeyOf('handbook/holidays', keys)).toBe('');
    expect(parentKeyOf('', keys)).toBeUndefined();
  });
});
