import { mkdtemp, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrg, createUser, loginTokensFor } from './testing/fixtures';
import { createTestServer, type TestServer } from './testing/server';

let server: TestServer;
let token: string;

beforeAll(async () => {
  const spaDir = await mkdtemp(path.join(tmpdir(), 'scout-spa-'));
  await mkdir(path.join(spaDir, 'assets'));
  await writeFile(path.join(spaDir, 'index.html'), '<!doctype html><div id="root">spa</div>');
  await writeFile(path.join(spaDir, 'assets', 'app.js'), 'console.log(1)');
  server = await createTestServer({ spaDir });
  const org = await createOrg(server.store.db, { domain: 'acme.test' });
  const user = await createUser(server.store.db, org, { email: 'ada@acme.test', firstName: 'Ada' });
  token = (await loginTokensFor(server.ctx, user)).id_token;
});

afterAll(() => server.close());

const auth = () => ({ authorization: `Bearer ${token}` });

describe('health', () => {
  it('reports a reachable store and the version', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'ok',
      version: expect.any(String),
      store: { kind: 'embedded', reachable: true },
    });
    expect(res.headers['x-request-id']).toBeTruthy();
  });

  it('keeps a sane caller-given request id and replaces a hostile one', async () => {
    const kept = await server.app.inject({
      method: 'GET',
      url: '/api/v1/health',
      headers: { 'x-request-id': 'abc-123' },
    });
    expect(kept.headers['x-request-id']).toBe('abc-123');
    const replaced = await server.app.inject({
      method: 'GET',
      url: '/api/v1/health',
      headers: { 'x-request-id': 'a b\nc' },
    });
    expect(replaced.headers['x-request-id']).not.toBe('a b\nc');
  });
});

describe('error model (spec shell-and-account §7.7)', () => {
  it('answers an unknown API path with the documented 404 body', async () => {
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      const res = await server.app.inject({ method, url: '/api/v1/no/such/thing?x=1' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: '404 NOT found' });
    }
  });

  it('answers malformed JSON with 400 INVALID_JSON and changes nothing', async () => {
    const res = await server.app.inject({
      method: 'PATCH',
      url: '/api/v1/users/setup_status',
      headers: { ...auth(), 'content-type': 'application/json' },
      payload: '{"work_role": "engineering",',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'INVALID_JSON', message: expect.any(String) });
    expect(res.body).not.toMatch(/at .*\.(ts|js):\d+/);
  });

  it('answers a wrong type with 400 VALIDATION_FAILED naming the field', async () => {
    const res = await server.app.inject({
      method: 'PATCH',
      url: '/api/v1/users/setup_status',
      headers: auth(),
      payload: { work_role: 5, referral_source: 'newsletter' },
    });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(body.message).toContain('work_role');
    const me = await server.app.inject({ method: 'GET', url: '/api/v1/_fetchData/user', headers: auth() });
    expect(me.json().workRole).toBeNull();
  });

  it('answers a missing or forged token with 401 and a code', async () => {
    const missing = await server.app.inject({ method: 'GET', url: '/api/v1/_fetchData/user' });
    expect(missing.statusCode).toBe(401);
    expect(missing.json()).toEqual({ code: 'UNAUTHORIZED', message: 'Tokens not found' });
    const forged = await server.app.inject({
      method: 'GET',
      url: '/api/v1/_fetchData/user',
      headers: { authorization: `Bearer ${token.slice(0, -4)}AAAA` },
    });
    expect(forged.statusCode).toBe(401);
    expect(forged.json().code).toBe('UNAUTHORIZED');
  });
});

describe('signed-in calls', () => {
  it('answers the current user with their org', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/api/v1/_fetchData/user', headers: auth() });
    expect(res.statusCode).toBe(200);
    const user = res.json();
    expect(user).toMatchObject({ email: 'ada@acme.test', admin: false, metadata: { displayName: 'Ada' } });
    expect(user.org).toMatchObject({ domain: 'acme.test', isWorkspaceSetup: true });
    expect(user.flags.answers).toBe(false);
  });

  it('saves setup choices and tour progress', async () => {
    const setup = await server.app.inject({
      method: 'PATCH',
      url: '/api/v1/users/setup_status',
      headers: auth(),
      payload: { work_role: 'engineering', referral_source: 'other', referral_source_other: 'a friend' },
    });
    expect(setup.statusCode).toBe(200);
    const tourA = await server.app.inject({
      method: 'PATCH',
      url: '/api/v1/users/tour_progress',
      headers: auth(),
      payload: { tour_name: 'onboarding_tour', state: 'finished' },
    });
    const tourB = await server.app.inject({
      method: 'PATCH',
      url: '/api/v1/users/tour_progress',
      headers: auth(),
      payload: { tour_name: 'apps_tour', state: 'skipped' },
    });
    expect([tourA.statusCode, tourB.statusCode]).toEqual([200, 200]);
    const me = (
      await server.app.inject({ method: 'GET', url: '/api/v1/_fetchData/user', headers: auth() })
    ).json();
    expect(me.workRole).toBe('engineering');
    expect(me.toursProgress).toEqual({ onboarding_tour: 'finished', apps_tour: 'skipped' });
  });

  it("refuses 'other' as a referral source without the person's words", async () => {
    const res = await server.app.inject({
      method: 'PATCH',
      url: '/api/v1/users/setup_status',
      headers: auth(),
      payload: { work_role: 'sales', referral_source: 'other' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION_FAILED');
  });
});

describe('the SPA', () => {
  it('serves index.html for client-side routes, keeping the query', async () => {
    for (const url of ['/', '/chat', '/admin/members/invite?x=1', '/topic/abc/def']) {
      const res = await server.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.body).toContain('<div id="root">spa</div>');
    }
  });

  it('serves built assets and 404s a missing one instead of answering HTML', async () => {
    expect((await server.app.inject({ method: 'GET', url: '/assets/app.js' })).statusCode).toBe(200);
    const missing = await server.app.inject({ method: 'GET', url: '/assets/missing.js' });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-type']).not.toContain('text/html');
  });
});
