import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEATURE_REQUEST_RATE_LIMIT } from '../../../common/limits';
import {
  FEATURE_REQUEST_MAX_CHARS,
  type FeatureRequestsResponse,
} from '../../../common/api/feature-requests';
import { featureRequests, type Org, type User } from '../../db/schema';
import { createOrg, createUser, loginTokensFor } from '../../testing/fixtures';
import { createTestServer, type TestServer } from '../../testing/server';

let server: TestServer;
let acme: Org;
let ada: User;
let ben: User;
let olga: User;
let cy: User;
const tokens = new Map<User, string>();

beforeAll(async () => {
  server = await createTestServer();
  const { db } = server.store;
  acme = await createOrg(db, { domain: 'acme.test' });
  const other = await createOrg(db, { domain: 'other.test' });
  ada = await createUser(db, acme, { email: 'ada@acme.test', admin: true, firstName: 'Ada' });
  ben = await createUser(db, acme, { email: 'ben@acme.test', firstName: 'Ben', lastName: 'Baker' });
  olga = await createUser(db, other, { email: 'olga@other.test', admin: true });
  cy = await createUser(db, acme, { email: 'cy@acme.test' });
  for (const user of [ada, ben, olga, cy])
    tokens.set(user, (await loginTokensFor(server.ctx, user)).id_token);
});
afterAll(() => server.close());

const call = (user: User, method: 'GET' | 'POST', payload?: object) =>
  server.app.inject({
    method,
    url: '/api/v1/feature_requests',
    headers: { authorization: `Bearer ${tokens.get(user)}` },
    payload,
  });

const storedFor = (org: Org) =>
  server.store.db.select().from(featureRequests).where(eq(featureRequests.orgId, org.id));

describe('feature requests', () => {
  it('stores a member’s request, trimmed, for their org’s admins to read, newest first', async () => {
    const first = await call(ben, 'POST', { text: '  A dark mode, please  ' });
    expect(first.statusCode).toBe(200);
    expect((await call(ada, 'POST', { text: 'Export topics as PDF' })).statusCode).toBe(200);
    const stored = await storedFor(acme);
    expect(stored.map((row) => row.text).sort()).toEqual(['A dark mode, please', 'Export topics as PDF']);
    expect(stored.find((row) => row.text === 'A dark mode, please')?.userId).toBe(ben.id);

    const listed = await call(ada, 'GET');
    expect(listed.statusCode).toBe(200);
    const body = listed.json<FeatureRequestsResponse>();
    expect(body.feature_requests.map((request) => request.text)).toEqual([
      'Export topics as PDF',
      'A dark mode, please',
    ]);
    expect(body.feature_requests[1]).toMatchObject({
      id: first.json<{ id: string }>().id,
      author: { email: 'ben@acme.test', display_name: 'Ben Baker' },
    });
  });

  it('refuses empty, whitespace-only, too long and malformed requests with a 400, storing nothing', async () => {
    const before = (await storedFor(acme)).length;
    for (const payload of [
      { text: '' },
      { text: '   \n ' },
      { text: 'x'.repeat(FEATURE_REQUEST_MAX_CHARS + 1) },
      {},
      { text: 42 },
      { text: 'fine', extra: true },
    ]) {
      const res = await call(ben, 'POST', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    }
    expect((await storedFor(acme)).length).toBe(before);
  });

  it('lets only admins read the list, and only their own org’s', async () => {
    expect((await call(ben, 'GET')).statusCode).toBe(403);
    const other = await call(olga, 'GET');
    expect(other.statusCode).toBe(200);
    expect(other.json<FeatureRequestsResponse>().feature_requests).toEqual([]);
    const signedOut = await server.app.inject({
      method: 'POST',
      url: '/api/v1/feature_requests',
      payload: { text: 'x' },
    });
    expect(signedOut.statusCode).toBe(401);
  });

  it('answers 429 once a member has sent a script’s worth of requests, storing no more', async () => {
    for (let n = 0; n < FEATURE_REQUEST_RATE_LIMIT.max; n++)
      expect((await call(cy, 'POST', { text: `Request ${n}` })).statusCode).toBe(200);
    const refused = await call(cy, 'POST', { text: 'One too many' });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'RATE_LIMITED' });
    const stored = await storedFor(acme);
    expect(stored.filter((row) => row.userId === cy.id)).toHaveLength(FEATURE_REQUEST_RATE_LIMIT.max);
  });
});
