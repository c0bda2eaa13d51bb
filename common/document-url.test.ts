import { describe, expect, it } from 'vitest';
import { isOpenableDocumentUrl } from './document-url';

describe('isOpenableDocumentUrl', () => {
  it('opens http(s) addresses on hosts that can exist', () => {
    for (const url of [
      'https://acme.slack.com/archives/C1/p1',
      'http://127.0.0.1:4000/wiki/page',
      'http://localhost:8080/docs',
      'https://notion.so/Page-123',
      'https://example.co.uk/',
    ])
      expect(isOpenableDocumentUrl(url), url).toBe(true);
  });

  it('refuses no address, other schemes and the reserved placeholder hosts (the demo seed’s)', () => {
    for (const url of [
      null,
      undefined,
      '',
      'not a url',
      'javascript:alert(1)',
      'file:///etc/passwd',
      'https://acme.example/notion/handbook',
      'https://ACME.EXAMPLE./x',
      'https://wiki.acme.test/page',
      'https://host.invalid/',
      'https://example.com/doc',
      'https://docs.example.org/',
    ])
      expect(isOpenableDocumentUrl(url), String(url)).toBe(false);
  });
});
