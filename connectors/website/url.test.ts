import { describe, expect, it } from 'vitest';
import { looksLikeFile, normalizeUrl } from './url';

describe('normalizeUrl', () => {
  it('gives one spelling to the URLs of one page', () => {
    const spellings = [
      'HTTP://Example.COM:80/docs/a?b=2&a=1#intro',
      'http://example.com/docs/a?a=1&b=2',
      'http://example.com/docs/a?utm_source=mail&a=1&UTM_Campaign=x&b=2&fbclid=abc&gclid=1',
      'http://example.com/docs/./x/../a?a=1&b=2#',
    ];
    for (const spelling of spellings)
      expect(normalizeUrl(spelling), spelling).toBe('http://example.com/docs/a?a=1&b=2');
    expect(normalizeUrl('https://example.com:443/')).toBe('https://example.com/');
    expect(normalizeUrl('https://example.com:8443/x')).toBe('https://example.com:8443/x');
    expect(normalizeUrl('https://example.com/?utm_medium=x')).toBe('https://example.com/');
  });

  it('keeps what can change the page: trailing slashes, repeated parameters in order, path case', () => {
    expect(normalizeUrl('https://example.com/docs/')).not.toBe(normalizeUrl('https://example.com/docs'));
    expect(normalizeUrl('https://example.com/s?tag=b&q=1&tag=a')).toBe(
      'https://example.com/s?q=1&tag=b&tag=a',
    );
    expect(normalizeUrl('https://example.com/Docs')).toBe('https://example.com/Docs');
    expect(normalizeUrl('https://example.com/caf%c3%a9')).toBe('https://example.com/caf%C3%A9');
  });

  it('resolves against a base and refuses what the crawler never fetches', () => {
    expect(normalizeUrl('../b', 'https://example.com/a/c')).toBe('https://example.com/b');
    for (const raw of [
      'mailto:a@example.com',
      'javascript:alert(1)',
      'ftp://example.com/',
      'https://user:pw@example.com/',
      'http://[nope',
    ]) {
      expect(normalizeUrl(raw), raw).toBeNull();
    }
    expect(normalizeUrl(`https://example.com/${'x'.repeat(600)}`)).toBeNull();
  });
});

describe('looksLikeFile', () => {
  it('tells files from pages by extension', () => {
    expect(looksLikeFile('https://example.com/logo.PNG')).toBe(true);
    expect(looksLikeFile('https://example.com/report.pdf?v=2')).toBe(true);
    expect(looksLikeFile('https://example.com/docs/intro')).toBe(false);
    expect(looksLikeFile('https://example.com/page.html')).toBe(false);
    expect(looksLikeFile('https://example.com/notes.txt')).toBe(false);
  });
});
