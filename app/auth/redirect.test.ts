import { describe, expect, it } from 'vitest';
import { loginPathFor, safeRedirectTarget } from './redirect';

const origin = 'https://scout.test';

describe('loginPathFor', () => {
  it('sends the root to a bare /login', () => {
    expect(loginPathFor('/', '')).toBe('/login');
    expect(loginPathFor('/', '?x=1')).toBe('/login');
  });

  it('carries path and query in the redirect parameter', () => {
    const target = loginPathFor('/chat', '?x=1&y=a b');
    expect(target.startsWith('/login?')).toBe(true);
    expect(new URLSearchParams(target.slice('/login?'.length)).get('redirect')).toBe('/chat?x=1&y=a b');
  });
});

describe('safeRedirectTarget', () => {
  it('accepts in-app paths with query and hash', () => {
    expect(safeRedirectTarget('/chat?x=1#m', origin)).toBe('/chat?x=1#m');
  });

  it('refuses other origins and protocol-relative or odd forms', () => {
    for (const bad of [
      'https://evil.test/',
      '//evil.test/x',
      '/\\evil.test',
      '/x/..//evil.test',
      '/.//evil.test',
      '/x/../\\evil.test',
      'javascript:alert(1)',
      'chat',
      '',
    ]) {
      expect(safeRedirectTarget(bad, origin)).toBeNull();
    }
    expect(safeRedirectTarget(null, origin)).toBeNull();
  });

  it('refuses the auth screens themselves', () => {
    expect(safeRedirectTarget('/login?redirect=/x', origin)).toBeNull();
    expect(safeRedirectTarget('/signup', origin)).toBeNull();
  });
});
