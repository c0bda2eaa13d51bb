import { eq } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACL_NAMES_NOBODY_MESSAGE, type CustomApiDocument } from '../../../common/api/custom-api';
import type { SearchResponse } from '../../../common/api/search';
import { ConnectionStatus } from '../../../common/connection-status';
import { CUSTOM_API_ICON_MAX_BYTES } from '../../../common/limits';
import { apps } from '../../../common/strings';
import { createApiKey } from '../../auth/api-keys';
import { apiKeys, appConnections, documents, type User } from '../../db/schema';
import { runWorker } from '../../jobs/worker';
import { createOrg, createUser, loginTokensFor } from '../../testing/fixtures';
import { listenTestServer, type ApiCall, type TestServer } from '../../testing/server';

let server: TestServer;
let call: ApiCall;

beforeAll(async () => {
  ({ server, call } = await listenTestServer());
});
afterAll(() => server.close());

const idToken = async (user: User) => (await loginTokensFor(server.ctx, user)).id_token;

async function searchTitles(user: User, q: string): Promise<string[]> {
  const res = await call('POST', '/_search', await idToken(user), { q });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as unknown as SearchResponse).hits.map((hit) => hit.name).sort();
}

function install(token: string, options: Record<string, unknown>) {
  return call('PUT', '/app/install/custom-api', token, { isOrg: true, options });
}

const doc = (
  overrides: Partial<CustomApiDocument> & Pick<CustomApiDocument, 'id' | 'acl'>,
): CustomApiDocument => ({
  title: `Title ${overrides.id}`,
  body: `Body of ${overrides.id}`,
  url: `https://intranet.example.com/${overrides.id}`,
  ...overrides,
});

/** Pushed twice: once new, once unchanged. */
const handbook = doc({
  id: 'handbook',
  title: 'Handbook',
  body: 'the zebrafish handbook for all',
  acl: { org: true },
});

describe('custom-api', () => {
  let adminToken: string;
  let member: User;
  let groupie: User;
  let outsider: User;
  let connectionId: string;
  let key: string;
  let orgId: string;

  beforeAll(async () => {
    const { db } = server.store;
    const org = await createOrg(db, { domain: 'push.test', plan: 'ENTERPRISE' });
    orgId = org.id;
    adminToken = await idToken(await createUser(db, org, { email: 'admin@push.test', admin: true }));
    member = await createUser(db, org, { email: 'member@push.test' });
    groupie = await createUser(db, org, { email: 'groupie@push.test' });
    outsider = await createUser(db, org, { email: 'outsider@push.test' });
    key = (await createApiKey(db, { orgId: org.id, name: 'intranet sync' })).key;
  });

  it('installs with a unique connection name and an icon of at most 5 MB', async () => {
    const icon = `data:image/png;base64,${Buffer.alloc(1024, 7).toString('base64')}`;
    const res = await install(adminToken, { connection_name: 'Intranet', connection_id: 'c-1', icon });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const connection = res.body.connection as { id: string; connectionName: string };
    expect(connection.connectionName).toBe('Intranet');
    connectionId = connection.id;
    const [row] = await server.store.db
      .select()
      .from(appConnections)
      .where(eq(appConnections.id, connectionId));
    expect(row?.icon).toBe(icon);

    const same = await install(adminToken, { connection_name: ' intranet ', connection_id: 'c-2' });
    expect(same).toMatchObject({ status: 400, body: { message: apps.UNIQUE_CONNECTION_NAME } });
    const blank = await install(adminToken, { connection_name: '  ', connection_id: 'c-3' });
    expect(blank).toMatchObject({ status: 400, body: { message: apps.UNIQUE_CONNECTION_NAME } });

    const huge = `data:image/png;base64,${Buffer.alloc(CUSTOM_API_ICON_MAX_BYTES + 1).toString('base64')}`;
    const tooBig = await install(adminToken, { connection_name: 'Other', connection_id: 'c-4', icon: huge });
    expect(tooBig).toMatchObject({ status: 400, body: { message: apps.ICON_TOO_LARGE } });
    const rows = await server.store.db.select().from(appConnections).where(eq(appConnections.orgId, orgId));
    expect(rows.map((r) => r.connectionName)).toEqual(['Intranet']);
  });

  it('needs the API access feature (ENTERPRISE) to install and to push', async () => {
    const { db } = server.store;
    const team = await createOrg(db, { domain: 'team-push.test', plan: 'TEAM' });
    const teamAdmin = await createUser(db, team, { email: 'admin@team-push.test', admin: true });
    const res = await install(await idToken(teamAdmin), { connection_name: 'X', connection_id: 'x' });
    expect(res).toMatchObject({ status: 403, body: { code: 'PLAN_REQUIRED' } });
    const teamKey = (await createApiKey(db, { orgId: team.id, name: 'k' })).key;
    const push = await call('POST', `/custom-api/${connectionId}/documents`, teamKey, {
      documents: [doc({ id: 'x', acl: { org: true } })],
    });
    expect(push).toMatchObject({ status: 403, body: { code: 'PLAN_REQUIRED' } });
  });

  it('indexes pushed documents that only their ACL’s readers find', async () => {
    const groups = await call('PUT', `/custom-api/${connectionId}/groups`, key, {
      groups: [{ id: 'eng', members: ['Groupie@push.test'] }],
    });
    expect(groups).toEqual({ status: 200, body: { groups: 1, memberships: 1 } });
    const push = await call('POST', `/custom-api/${connectionId}/documents`, key, {
      documents: [
        handbook,
        doc({
          id: 'salary',
          title: 'Salary',
          body: 'zebrafish salary bands',
          acl: { users: ['MEMBER@push.test'] },
        }),
        doc({ id: 'design', title: 'Design', body: 'zebrafish design notes', acl: { groups: ['eng'] } }),
      ],
    });
    expect(push).toEqual({ status: 200, body: { inserted: 3, updated: 0, unchanged: 0 } });

    expect(await searchTitles(member, 'zebrafish')).toEqual(['Handbook', 'Salary']);
    expect(await searchTitles(groupie, 'zebrafish')).toEqual(['Design', 'Handbook']);
    expect(await searchTitles(outsider, 'zebrafish')).toEqual(['Handbook']);
  });

  it('is idempotent by external id, and updates content and ACLs', async () => {
    const again = await call('POST', `/custom-api/${connectionId}/documents`, key, {
      documents: [handbook],
    });
    expect(again.body).toEqual({ inserted: 0, updated: 0, unchanged: 1 });
    const changed = await call('POST', `/custom-api/${connectionId}/documents`, key, {
      documents: [
        doc({
          id: 'salary',
          title: 'Salary',
          body: 'zebrafish salary bands',
          acl: { users: ['outsider@push.test'] },
        }),
        doc({
          id: 'design',
          title: 'Design v2',
          body: 'zebrafish design notes, revised',
          acl: { groups: ['eng'] },
        }),
      ],
    });
    expect(changed.body).toEqual({ inserted: 0, updated: 2, unchanged: 0 });
    expect(await searchTitles(member, 'zebrafish')).toEqual(['Handbook']);
    expect(await searchTitles(outsider, 'zebrafish')).toEqual(['Handbook', 'Salary']);
    expect(await searchTitles(groupie, 'revised')).toEqual(['Design v2']);

    const regrouped = await call('PUT', `/custom-api/${connectionId}/groups`, key, {
      groups: [{ id: 'eng', members: ['member@push.test'] }],
    });
    expect(regrouped.status).toBe(200);
    expect(await searchTitles(groupie, 'revised')).toEqual([]);
    expect(await searchTitles(member, 'revised')).toEqual(['Design v2']);
  });

  it('deletes documents by external id', async () => {
    const res = await call('POST', `/custom-api/${connectionId}/documents/delete`, key, {
      ids: ['handbook', 'never-pushed'],
    });
    expect(res).toEqual({ status: 200, body: { deleted: 1 } });
    expect(await searchTitles(outsider, 'zebrafish')).toEqual(['Salary']);
  });

  it('refuses bad input with a 400 and changes nothing', async () => {
    const before = await server.store.db.select().from(documents).where(eq(documents.orgId, orgId));
    const cases: unknown[] = [
      { documents: [doc({ id: 'n', acl: {} })] },
      { documents: [doc({ id: 'n', acl: { org: true }, url: 'ftp://x.example.com/n' })] },
      { documents: [{ ...doc({ id: 'n', acl: { org: true } }), surprise: 1 }] },
      { documents: [] },
      { documents: [doc({ id: 'n', acl: { users: ['not-an-email'] } })] },
    ];
    for (const body of cases) {
      const res = await call('POST', `/custom-api/${connectionId}/documents`, key, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
    }
    const nobody = await call('POST', `/custom-api/${connectionId}/documents`, key, cases[0]);
    expect(nobody.body.message).toContain(ACL_NAMES_NOBODY_MESSAGE);
    const after = await server.store.db.select().from(documents).where(eq(documents.orgId, orgId));
    expect(after.map((row) => row.version)).toEqual(before.map((row) => row.version));
  });

  it('answers the documented 400 for one bad document in a batch (NUL, controls, dates) and writes none of it', async () => {
    const rows = () =>
      server.store.db
        .select({ id: documents.externalId, version: documents.version })
        .from(documents)
        .where(eq(documents.orgId, orgId));
    const before = await rows();
    const good = doc({ id: 'batch-good', acl: { org: true } });
    const bad = (overrides: Record<string, unknown>) => ({
      ...doc({ id: 'batch-bad', acl: { org: true } }),
      ...overrides,
    });
    const nul = 'a\u0000b';
    const badDocuments = [
      bad({ id: nul }),
      bad({ title: nul }),
      bad({ body: `text\u0000with a NUL` }),
      bad({ body: 'a bell \u0007 rings' }),
      bad({ url: `https://intranet.example.com/${nul}` }),
      bad({ author: { name: nul } }),
      bad({ parent_id: nul }),
      bad({ acl: { groups: [nul] } }),
      bad({ created_at: '0000-01-01T00:00:00Z' }),
      bad({ modified_at: '9999-12-31T23:59:59-05:00' }),
      bad({ modified_at: '0099-12-31T23:59:59Z' }),
    ];
    for (const badDocument of badDocuments) {
      const res = await call('POST', `/custom-api/${connectionId}/documents`, key, {
        documents: [good, badDocument],
      });
      expect(res.status, JSON.stringify(badDocument)).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.message).toMatch(/^Invalid body\.documents\.1/);
    }
    const deletes = await call('POST', `/custom-api/${connectionId}/documents/delete`, key, { ids: [nul] });
    expect(deletes.status).toBe(400);
    const groups = await call('PUT', `/custom-api/${connectionId}/groups`, key, {
      groups: [{ id: nul, members: [] }],
    });
    expect(groups.status).toBe(400);
    expect(await rows()).toEqual(before);
  });

  it('keeps the dates of old documents, down to the year 1000', async () => {
    const old = [
      doc({ id: 'moon-landing', acl: { org: true }, created_at: '1969-07-20T20:17:00Z' }),
      doc({ id: 'first-year', acl: { org: true }, created_at: '1000-01-01T00:00:00Z' }),
    ];
    const res = await call('POST', `/custom-api/${connectionId}/documents`, key, { documents: old });
    expect(res.status).toBe(200);
    const stored = await server.store.db
      .select({ externalId: documents.externalId, createdTime: documents.createdTime })
      .from(documents)
      .where(eq(documents.connectionId, connectionId));
    const created = Object.fromEntries(stored.map((row) => [row.externalId, row.createdTime?.toISOString()]));
    expect(created['moon-landing']).toBe('1969-07-20T20:17:00.000Z');
    expect(created['first-year']).toBe('1000-01-01T00:00:00.000Z');
  });

  it('answers a typo in a key with a short 400 that does not echo the unknown keys', async () => {
    const keys = Object.fromEntries(
      Array.from({ length: 20_000 }, (_, i) => [`unknown-key-${i}-${'x'.repeat(100)}`, i]),
    );
    const res = await call('POST', `/custom-api/${connectionId}/documents`, key, {
      documents: [{ ...doc({ id: 'typo', acl: { org: true } }), ...keys }],
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(JSON.stringify(res.body).length).toBeLessThan(300);
    expect(res.body.message).not.toContain('unknown-key');
  });

  it('gives a key nothing of another org, and refuses missing and revoked keys', async () => {
    const { db } = server.store;
    const other = await createOrg(db, { domain: 'elsewhere.test', plan: 'ENTERPRISE' });
    const otherKey = await createApiKey(db, { orgId: other.id, name: 'theirs' });
    const body = { documents: [doc({ id: 'intruder', acl: { org: true } })] };
    const foreign = await call('POST', `/custom-api/${connectionId}/documents`, otherKey.key, body);
    expect(foreign).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    const foreignDelete = await call('POST', `/custom-api/${connectionId}/documents/delete`, otherKey.key, {
      ids: ['salary'],
    });
    expect(foreignDelete.status).toBe(404);

    expect((await call('POST', `/custom-api/${connectionId}/documents`, null, body)).status).toBe(401);
    expect(
      (await call('POST', `/custom-api/${connectionId}/documents`, await idToken(member), body)).status,
    ).toBe(401);
    const revoked = await createApiKey(db, { orgId, name: 'old' });
    await db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, revoked.id));
    expect((await call('POST', `/custom-api/${connectionId}/documents`, revoked.key, body)).status).toBe(401);
    expect(await searchTitles(outsider, 'intruder')).toEqual([]);
  });

  it('removes the documents when the connection is deleted', async () => {
    const res = await call(
      'DELETE',
      `/app/disconnect_app_name/custom-api?admin=true&appId=${connectionId}`,
      adminToken,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((res.body.connection as { statusCode: number }).statusCode).toBe(ConnectionStatus.Disconnecting);
    const push = await call('POST', `/custom-api/${connectionId}/documents`, key, {
      documents: [doc({ id: 'late', acl: { org: true } })],
    });
    expect(push.status).toBe(404);

    const worker = runWorker(server.store, pino({ level: 'silent' }), { idleMs: 10 });
    try {
      await expect
        .poll(
          async () =>
            (await server.store.db.select().from(appConnections).where(eq(appConnections.id, connectionId)))
              .length,
          {
            timeout: 20_000,
          },
        )
        .toBe(0);
    } finally {
      await worker.stop();
    }
    expect(await server.store.db.select().from(documents).where(eq(documents.orgId, orgId))).toHaveLength(0);
    expect(await searchTitles(outsider, 'zebrafish')).toEqual([]);
  });
});
