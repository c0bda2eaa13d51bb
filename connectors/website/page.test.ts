import { describe, expect, it } from 'vitest';
import { contentHash, decodeBody, pageKind, readPage, robotsTagDirectives } from './page';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('pageKind', () => {
  it('indexes HTML and plain text only, sniffing HTML when no type is given', () => {
    expect(pageKind('text/html; charset=utf-8', bytes('x'))).toBe('html');
    expect(pageKind('application/xhtml+xml', bytes('x'))).toBe('html');
    expect(pageKind('text/plain', bytes('x'))).toBe('text');
    expect(pageKind(null, bytes('  <!DOCTYPE html><html></html>'))).toBe('html');
    for (const type of ['application/pdf', 'image/png', 'application/json', 'text/css']) {
      expect(pageKind(type, bytes('<html>')), type).toBeNull();
    }
    expect(pageKind(null, bytes('%PDF-1.7'))).toBeNull();
  });

  it('decodes with the declared charset', () => {
    expect(decodeBody('text/html; charset=ISO-8859-1', new Uint8Array([0x63, 0x61, 0x66, 0xe9]))).toBe(
      'café',
    );
    expect(decodeBody('text/html; charset=nonsense', bytes('café'))).toBe('café');
  });
});

describe('robotsTagDirectives', () => {
  it('reads directives for everyone and for ScoutBot, and ignores other agents’', () => {
    expect(robotsTagDirectives('noindex, nofollow', 'ScoutBot')).toEqual({ noindex: true, nofollow: true });
    expect(robotsTagDirectives('none', 'ScoutBot')).toEqual({ noindex: true, nofollow: true });
    expect(robotsTagDirectives('googlebot: noindex', 'ScoutBot')).toEqual({
      noindex: false,
      nofollow: false,
    });
    expect(robotsTagDirectives('googlebot: nofollow, scoutbot: noindex', 'ScoutBot')).toEqual({
      noindex: true,
      nofollow: false,
    });
    expect(robotsTagDirectives('max-snippet: 20, noindex', 'ScoutBot')).toEqual({
      noindex: true,
      nofollow: false,
    });
    expect(robotsTagDirectives(null, 'ScoutBot')).toEqual({ noindex: false, nofollow: false });
  });
});

describe('readPage', () => {
  it('names a page by its title, else by its URL', () => {
    const page = readPage(
      'html',
      '<html><body><p>No title here.</p></body></html>',
      'https://example.com/docs/setup-guide',
    );
    expect(page.title).toBe('setup-guide');
    expect(readPage('text', 'x', 'https://example.com/').title).toBe('example.com');
  });

  it('judges change by the text, not the markup', () => {
    const a = readPage(
      'html',
      '<html><head><title>T</title><script>nonce=1</script></head><body><p>Same.</p></body></html>',
      'https://example.com/',
    );
    const b = readPage(
      'html',
      '<html><head><title>T</title><script>nonce=2</script></head><body><p class="x">Same.</p></body></html>',
      'https://example.com/',
    );
    const c = readPage(
      'html',
      '<html><head><title>T</title></head><body><p>Different.</p></body></html>',
      'https://example.com/',
    );
    expect(contentHash(a)).toBe(contentHash(b));
    expect(contentHash(a)).not.toBe(contentHash(c));
  });
});
