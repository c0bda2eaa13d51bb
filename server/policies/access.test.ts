import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { createApiKey } from '../auth/api-keys';
import { createOrg, createUser, loginTokensFor } from '../testing/fixtures';
import { createTestServer, type TestServer } from '../testing/server';
import { listApiRoutes, type ApiRoute } from './access';

let server: TestServer;
let memberToken: string;
let teamAdminToken: string;
let teamApiKey: string;
let enterpriseApiKey: string;
let enterpriseAdminToken: string;

beforeAll(async () => {
  server = await createTestServer();
  const enterprise = await createOrg(server.store.db, { domain: 'big.test', plan: 'ENTERPRISE' });
  const team = await createOrg(server.store.db, { domain: 'small.test', plan: 'TEAM' });
  const member = await createUser(server.store.db, enterprise, { email: 'member@big.test' });
  const teamAdmin = await createUser(server.store.db, team, { email: 'admin@small.test', admin: true });
  const enterpriseAdmin = await createUser(server.store.db, enterprise, {
    email: 'admin@big.test',
    admin: true,
  });
  memberToken = (await loginTokensFor(server.ctx, member)).id_token;
  enterpriseAdminToken = (await loginTokensFor(server.ctx, enterpriseAdmin)).id_token;
  teamAdminToken = (await loginTokensFor(server.ctx, teamAdmin)).id_token;
  teamApiKey = (await createApiKey(server.store.db, { orgId: team.id, name: 'team' })).key;
  enterpriseApiKey = (await createApiKey(server.store.db, { orgId: enterprise.id, name: 'big' })).key;
});
afterAll(() => server.close());

/** A concrete address for a route pattern: every parameter gets a well-formed id that matches nothing. */
const concrete = (route: ApiRoute) => route.url.replace(/:\w+\??/g, '00000000-0000-7000-8000-000000000000');

async function call(route: ApiRoute, token?: string) {
  return server.app.inject({
    method: route.method as 'GET',
    url: concrete(route),
    headers: token ? { authorization: `Bearer ${token}` } : {},
    ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: {} }),
  });
}

describe('route access (walks every API route, so a new route without a guard fails here)', () => {
  it('finds the API routes', () => {
    expect(listApiRoutes(server.app).length).toBeGreaterThan(2);
  });

  it('refuses every signed-in and admin route without a token', async () => {
    for (const route of listApiRoutes(server.app).filter((r) => r.access !== 'public')) {
      const res = await call(route);
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(401);
      expect(res.json().code).toBe('UNAUTHORIZED');
    }
  });

  it('refuses every admin route to a member', async () => {
    for (const route of listApiRoutes(server.app).filter((r) => r.access === 'admin')) {
      const res = await call(route, memberToken);
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(403);
      expect(res.json().code).toBe('ADMIN_REQUIRED');
    }
  });

  it('refuses every plan-gated route to an org below its plan, naming the feature', async () => {
    // The TEAM org is below every gated feature (the lowest gate is BUSINESS).
    for (const route of listApiRoutes(server.app)) {
      if (!route.feature) continue;
      const res = await call(route, route.access === 'apiKey' ? teamApiKey : teamAdminToken);
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(403);
      expect(res.json()).toMatchObject({
        code: 'PLAN_REQUIRED',
        message: expect.stringContaining(route.feature),
      });
    }
  });

  it('refuses every flag-gated route while its flags are off, naming the flag', async () => {
    // The ENTERPRISE org passes every plan gate and has no flag on (all default off).
    const gated = listApiRoutes(server.app).filter((route) => route.flags.length > 0);
    expect(gated.length).toBeGreaterThan(0);
    for (const route of gated) {
      const res = await call(route, route.access === 'apiKey' ? enterpriseApiKey : enterpriseAdminToken);
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(403);
      expect(res.json()).toMatchObject({
        code: 'FEATURE_DISABLED',
        message: expect.stringContaining(route.flags[0]!),
      });
    }
  });

  it('keeps API keys and member sessions apart: neither opens the other kind of route', async () => {
    const routes = listApiRoutes(server.app);
    expect(routes.some((r) => r.access === 'apiKey')).toBe(true);
    for (const route of routes) {
      if (route.access === 'apiKey') {
        const res = await call(route, memberToken);
        expect(res.statusCode, `${route.method} ${route.url}`).toBe(401);
      } else if (route.access !== 'public') {
        const res = await call(route, enterpriseApiKey);
        expect(res.statusCode, `${route.method} ${route.url}`).toBe(401);
      }
    }
  });

  it('refuses to start when a route declares no access', async () => {
    const app = await buildApp({ ctx: server.ctx, logLevel: 'silent' });
    expect(() => app.get('/api/v1/unguarded', async () => 'open')).toThrow(/declares no access/);
    await app.close();
  });
});
