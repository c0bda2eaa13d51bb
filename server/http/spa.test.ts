import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../testing/server';

let server: TestServer;

beforeAll(async () => {
  const spaDir = await mkdtemp(path.join(tmpdir(), 'scout-spa-'));
  await mkdir(path.join(spaDir, 'assets'));
  await writeFile(path.join(spaDir, 'index.html'), '<!doctype html><div id="root">spa</div>');
  await writeFile(path.join(spaDir, 'assets', 'app.js'), 'console.log(1)');
  server = await createTestServer({ spaDir, env: { PUBLIC_URL: 'https://scout.example.com' } });
});
afterAll(() => server.close());

function directives(policy: string | string[] | number | undefined): Map<string, string> {
  expect(typeof policy).toBe('string');
  return new Map(
    String(policy)
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .map(([name, ...values]) => [name ?? '', values.join(' ')]),
  );
}

describe('security headers', () => {
  it('give the app a strict content security policy', async () => {
    for (const url of ['/', '/chat?q=1', '/login']) {
      const res = await server.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      const csp = directives(res.headers['content-security-policy']);
      expect(csp.get('default-src')).toBe("'self'");
      expect(csp.get('script-src')).toBe("'self'");
      expect(csp.get('style-src')).toBe("'self' 'unsafe-inline'");
      expect(csp.get('img-src')).toBe("'self' data: blob:");
      expect(csp.get('connect-src')).toBe("'self' wss://scout.example.com ws://scout.example.com");
      expect(csp.get('frame-ancestors')).toBe("'none'");
      expect(csp.get('object-src')).toBe("'none'");
      expect(csp.get('base-uri')).toBe("'none'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['x-frame-options']).toBe('DENY');
    }
  });

  it('let the side panel be framed by the app and the browser extension only (spec §2.2)', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/side-panel?from=extension' });
    expect(res.statusCode).toBe(200);
    const csp = directives(res.headers['content-security-policy']);
    expect(csp.get('frame-ancestors')).toBe("'self' chrome-extension: moz-extension:");
    expect(csp.get('script-src')).toBe("'self'");
    expect(res.headers['x-frame-options']).toBeUndefined();
    const other = await server.app.inject({ method: 'GET', url: '/side-panel-not' });
    expect(directives(other.headers['content-security-policy']).get('frame-ancestors')).toBe("'none'");
  });

  it("keep the app's policy on a 304, whose headers the browser lays over the cached page", async () => {
    const first = await server.app.inject({ method: 'GET', url: '/chat' });
    const validators = { 'if-none-match': String(first.headers.etag) };
    const again = await server.app.inject({ method: 'GET', url: '/chat', headers: validators });
    expect(again.statusCode).toBe(304);
    expect(again.headers['content-security-policy']).toBe(first.headers['content-security-policy']);
  });

  it('are on every other answer too: assets, API answers, API errors and unknown paths', async () => {
    const answers = await Promise.all([
      server.app.inject({ method: 'GET', url: '/assets/app.js' }),
      server.app.inject({ method: 'GET', url: '/api/v1/health' }),
      server.app.inject({ method: 'GET', url: '/api/v1/no-such-call' }),
      server.app.inject({ method: 'POST', url: '/api/v1/auth/code-request', payload: { email: 'x' } }),
      server.app.inject({ method: 'GET', url: '/_fetchData/user' }),
      server.app.inject({ method: 'GET', url: '/assets/missing.js' }),
    ]);
    expect(answers.map((res) => res.statusCode)).toEqual([200, 200, 404, 400, 200, 404]);
    for (const res of answers) {
      const csp = directives(res.headers['content-security-policy']);
      expect(csp.get('frame-ancestors')).toBe("'none'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
    }
  });
});
