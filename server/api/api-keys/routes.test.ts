import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API_KEY_NAME_MESSAGE,
  API_KEY_NAME_TAKEN_MESSAGE,
  API_KEY_NOT_FOUND_MESSAGE,
  type ApiKey,
} from '../../../common/api/api-keys';
import { featureDisabledMessage } from '../../../common/flags';
import { apiKeys, type Org, type User } from '../../db/schema';
import { createOrg, createUser, loginTokensFor } from '../../testing/fixtures';
import { listenTestServer, type ApiCall, type TestServer } from '../../testing/server';

let server: TestServer;
let call: ApiCall;

beforeAll(async () => {
  ({ server, call } = await listenTestServer());
});
afterAll(() => server.close());

const idToken = async (user: User) => (await loginTokensFor(server.ctx, user)).id_token;
const flags = { apiKeysEnabled: true };

async function adminOf(org: Org, email: string): Promise<string> {
  return idToken(
    await createUser(server.store.db, org, { email, admin: true, firstName: 'Ada', lastName: 'Key' }),
  );
}

describe('API keys', () => {
  let org: Org;
  let admin: string;
  let connectionId: string;

  beforeAll(async () => {
    org = await createOrg(server.store.db, { domain: 'keys.test', plan: 'ENTERPRISE', flags });
    admin = await adminOf(org, 'admin@keys.test');
    const install = await call('PUT', '/app/install/custom-api', admin, {
      isOrg: true,
      options: { connection_name: 'Intranet', connection_id: 'intranet' },
    });
    expect(install.status, JSON.stringify(install.body)).toBe(200);
    connectionId = (install.body.connection as { id: string }).id;
  });

  const push = (key: string, id: string) =>
    call('POST', `/custom-api/${connectionId}/documents`, key, {
      documents: [
        {
          id,
          title: `Doc ${id}`,
          body: 'pushed text',
          url: 'https://intranet.keys.test/x',
          acl: { org: true },
        },
      ],
    });

  it('creates a key whose secret is answered once and works against the push API', async () => {
    const created = await call('POST', '/api-keys', admin, { name: '  Intranet sync  ' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const secret = created.body.secret as string;
    const key = created.body.key as ApiKey;
    expect(key).toMatchObject({
      name: 'Intranet sync',
      created_by: { name: 'Ada Key', email: 'admin@keys.test' },
      last_used_at: null,
    });
    expect(secret.startsWith(key.prefix)).toBe(true);
    expect(key.prefix.length).toBeLessThan(secret.length / 2);

    const pushed = await push(secret, 'first');
    expect(pushed.status, JSON.stringify(pushed.body)).toBe(200);

    const list = await call('GET', '/api-keys', admin);
    expect(list.status).toBe(200);
    const listed = list.body.keys as ApiKey[];
    expect(listed.map((k) => k.id)).toEqual([key.id]);
    expect(listed[0]?.last_used_at).not.toBeNull();
    // Neither the secret nor its hash ever leaves the create answer.
    const [row] = await server.store.db.select().from(apiKeys).where(eq(apiKeys.id, key.id));
    const text = JSON.stringify(list.body);
    expect(text).not.toContain(secret);
    expect(text).not.toContain(row?.keyHash);
    expect(Object.keys(listed[0] ?? {}).sort()).toEqual(
      ['created_at', 'created_by', 'id', 'last_used_at', 'name', 'prefix'].sort(),
    );
  });

  it('revokes a key so the next push with it is refused, and frees its name', async () => {
    const created = await call('POST', '/api-keys', admin, { name: 'Short-lived' });
    const secret = created.body.secret as string;
    const { id } = created.body.key as ApiKey;
    expect((await push(secret, 'second')).status).toBe(200);

    const revoked = await call('DELETE', `/api-keys/${id}`, admin);
    expect(revoked).toEqual({ status: 200, body: { ok: true } });
    expect(await push(secret, 'third')).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } });
    const list = await call('GET', '/api-keys', admin);
    expect((list.body.keys as ApiKey[]).map((k) => k.name)).toEqual(['Intranet sync']);

    expect(await call('DELETE', `/api-keys/${id}`, admin)).toMatchObject({
      status: 404,
      body: { code: 'NOT_FOUND', message: API_KEY_NOT_FOUND_MESSAGE },
    });
    const again = await call('POST', '/api-keys', admin, { name: 'Short-lived' });
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect((again.body.key as ApiKey).id).not.toBe(id);
  });

  it('answers 400 with a code and message for bad input, and changes nothing', async () => {
    const before = await server.store.db.select().from(apiKeys).where(eq(apiKeys.orgId, org.id));
    const cases: unknown[] = [
      { name: '' },
      { name: '   ' },
      { name: 'x'.repeat(101) },
      { name: 42 },
      {},
      { name: 'ok', extra: true },
    ];
    for (const body of cases) {
      const res = await call('POST', '/api-keys', admin, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED', message: expect.any(String) });
    }
    expect((await call('POST', '/api-keys', admin, { name: '' })).body.message).toContain(
      API_KEY_NAME_MESSAGE,
    );
    expect(await call('POST', '/api-keys', admin, { name: 'Intranet sync' })).toMatchObject({
      status: 400,
      body: { code: 'BAD_REQUEST', message: API_KEY_NAME_TAKEN_MESSAGE },
    });
    expect((await call('DELETE', '/api-keys/not-a-uuid', admin)).body.code).toBe('VALIDATION_FAILED');
    const after = await server.store.db.select().from(apiKeys).where(eq(apiKeys.orgId, org.id));
    expect(after).toEqual(before);

    const longest = await call('POST', '/api-keys', admin, { name: 'y'.repeat(100) });
    expect(longest.status).toBe(201);
  });

  it('is for admins only', async () => {
    const member = await idToken(await createUser(server.store.db, org, { email: 'member@keys.test' }));
    for (const [method, path, body] of [
      ['GET', '/api-keys', undefined],
      ['POST', '/api-keys', { name: 'mine' }],
      ['DELETE', `/api-keys/${crypto.randomUUID()}`, undefined],
    ] as const) {
      expect(await call(method, path, member, body)).toMatchObject({
        status: 403,
        body: { code: 'ADMIN_REQUIRED' },
      });
      expect((await call(method, path, null, body)).status).toBe(401);
    }
  });

  it('needs the API access plan feature and the apiKeysEnabled flag', async () => {
    const team = await createOrg(server.store.db, { domain: 'team-keys.test', plan: 'TEAM', flags });
    const teamAdmin = await adminOf(team, 'admin@team-keys.test');
    expect(await call('POST', '/api-keys', teamAdmin, { name: 'k' })).toMatchObject({
      status: 403,
      body: { code: 'PLAN_REQUIRED', message: expect.stringContaining('apiAccess') },
    });
    expect((await call('GET', '/api-keys', teamAdmin)).body.code).toBe('PLAN_REQUIRED');

    const unflagged = await createOrg(server.store.db, { domain: 'noflag-keys.test', plan: 'ENTERPRISE' });
    const unflaggedAdmin = await adminOf(unflagged, 'admin@noflag-keys.test');
    for (const res of [
      await call('GET', '/api-keys', unflaggedAdmin),
      await call('POST', '/api-keys', unflaggedAdmin, { name: 'k' }),
    ]) {
      expect(res).toMatchObject({
        status: 403,
        body: { code: 'FEATURE_DISABLED', message: featureDisabledMessage('apiKeysEnabled') },
      });
    }
    const rows = await server.store.db
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.orgId, team.id))
      .union(server.store.db.select().from(apiKeys).where(eq(apiKeys.orgId, unflagged.id)));
    expect(rows).toEqual([]);
  });

  it("neither lists nor revokes another org's keys", async () => {
    const other = await createOrg(server.store.db, { domain: 'other-keys.test', plan: 'ENTERPRISE', flags });
    const otherAdmin = await adminOf(other, 'admin@other-keys.test');
    const theirs = await call('POST', '/api-keys', otherAdmin, { name: 'Intranet sync' });
    expect(theirs.status, 'names are unique per org only').toBe(201);
    const theirId = (theirs.body.key as ApiKey).id;

    const mine = await call('GET', '/api-keys', admin);
    expect((mine.body.keys as ApiKey[]).map((k) => k.id)).not.toContain(theirId);
    expect(await call('DELETE', `/api-keys/${theirId}`, admin)).toMatchObject({
      status: 404,
      body: { code: 'NOT_FOUND' },
    });
    const [row] = await server.store.db.select().from(apiKeys).where(eq(apiKeys.id, theirId));
    expect(row?.revokedAt).toBeNull();
    // Their key opens nothing of this org's connection either.
    expect((await push(theirs.body.secret as string, 'intruder')).status).toBe(404);
  });
});
