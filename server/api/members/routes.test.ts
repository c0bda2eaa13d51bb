import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberActionMessages, type MembersResponse } from '../../../common/api/members';
import { NOT_FOUND_BODY } from '../../../common/errors';
import { users, type Org, type User } from '../../db/schema';
import { createOrg, createUser, loginTokensFor } from '../../testing/fixtures';
import { createTestServer, type TestServer } from '../../testing/server';

let server: TestServer;

beforeAll(async () => {
  server = await createTestServer();
});
afterAll(() => server.close());

const tokenOf = async (user: User) => (await loginTokensFor(server.ctx, user)).id_token;

function call(token: string, method: 'GET' | 'POST', url: string, payload?: object) {
  return server.app.inject({
    method,
    url: `/api/v1${url}`,
    headers: { authorization: `Bearer ${token}` },
    ...(payload ? { payload } : {}),
  });
}

async function userById(id: string): Promise<User> {
  const [user] = await server.store.db.select().from(users).where(eq(users.id, id));
  if (!user) throw new Error(`no user ${id}`);
  return user;
}

describe('GET /members', () => {
  let org: Org;
  let adminToken: string;
  let memberToken: string;

  beforeAll(async () => {
    const { db } = server.store;
    org = await createOrg(db, { domain: 'list.test' });
    const admin = await createUser(db, org, { email: 'ada@list.test', admin: true, firstName: 'Ada' });
    const member = await createUser(db, org, { email: 'ben@list.test', firstName: 'Ben', lastName: 'Baker' });
    await createUser(db, org, { email: 'chloe@list.test', firstName: 'Chloe', lastName: 'Chen' });
    for (let i = 0; i < 20; i++) {
      await createUser(db, org, { email: `person${String(i).padStart(2, '0')}@list.test` });
    }
    await createUser(db, org, { email: 'invited1@list.test', status: 'INVITED' });
    await createUser(db, org, { email: 'invited2@list.test', status: 'INVITED' });
    await createUser(db, org, { email: 'created@list.test', status: 'CREATED' });
    await createUser(db, org, { email: 'blocked@list.test', status: 'BLOCKED' });
    await createUser(db, org, { email: 'gone@list.test', status: 'DELETED' });
    await db.update(users).set({ displayName: '100% Zed' }).where(eq(users.email, 'person19@list.test'));
    // Another org with look-alike people: none of them may ever show up.
    const other = await createOrg(db, { domain: 'elsewhere.test' });
    await createUser(db, other, { email: 'ben@elsewhere.test', firstName: 'Ben' });
    await createUser(db, other, { email: 'invited@elsewhere.test', status: 'INVITED' });
    adminToken = await tokenOf(admin);
    memberToken = await tokenOf(member);
  });

  const list = async (token: string, query = '') => {
    const res = await call(token, 'GET', `/members${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<MembersResponse>();
  };

  it('pages an admin through every member of the org, 20 at a time, ordered by email', async () => {
    const first = await list(adminToken);
    const second = await list(adminToken, '?page=2');
    expect(first.total).toBe(28);
    expect(first.total_uninvited).toBe(3);
    expect(first.members).toHaveLength(20);
    expect(second.members).toHaveLength(8);
    const emails = [...first.members, ...second.members].map((m) => m.email);
    expect(emails).toEqual([...emails].sort());
    expect(new Set(emails).size).toBe(28);
    expect(emails.every((email) => email.endsWith('@list.test'))).toBe(true);
    expect(first.members[0]).toEqual({
      user_id: expect.any(String),
      name: 'Ada',
      email: 'ada@list.test',
      icon: null,
      status: 'SIGNED_UP',
      admin: true,
    });
    expect((await list(adminToken, '?page=3')).members).toEqual([]);
  });

  it('matches q against email or name, ignoring case, with LIKE characters taken literally', async () => {
    const ben = await list(adminToken, '?q=BEN');
    expect(ben.members.map((m) => m.email)).toEqual(['ben@list.test']);
    expect(ben.total).toBe(1);
    expect((await list(adminToken, '?q=chloe%20chen')).members.map((m) => m.email)).toEqual([
      'chloe@list.test',
    ]);
    expect((await list(adminToken, '?q=100%25')).members.map((m) => m.name)).toEqual(['100% Zed']);
    expect((await list(adminToken, '?q=_')).total).toBe(0);
  });

  it('filters by status, and total_uninvited counts the whole org whatever the filter', async () => {
    const invited = await list(adminToken, '?status=INVITED');
    expect(invited.members.map((m) => m.email)).toEqual(['invited1@list.test', 'invited2@list.test']);
    expect(invited.total).toBe(2);
    expect(invited.total_uninvited).toBe(3);
    expect((await list(adminToken, '?status=DELETED')).members.map((m) => m.email)).toEqual([
      'gone@list.test',
    ]);
    expect(invited.members[0]?.name).toBeNull();
  });

  it('lets a member list colleagues but not blocked or deleted ones', async () => {
    const all = await list(memberToken, '?page=2');
    expect(all.total).toBe(26);
    const emails = [...(await list(memberToken)).members, ...all.members].map((m) => m.email);
    expect(emails).not.toContain('blocked@list.test');
    expect(emails).not.toContain('gone@list.test');
    const refused = await call(memberToken, 'GET', '/members?status=BLOCKED');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('ADMIN_REQUIRED');
  });

  it('refuses an unknown status or page with 400', async () => {
    expect((await call(adminToken, 'GET', '/members?status=ACTIVE')).statusCode).toBe(400);
    expect((await call(adminToken, 'GET', '/members?page=0')).statusCode).toBe(400);
  });

  it("answers the spec's 404 body for an unknown action", async () => {
    const res = await call(adminToken, 'POST', '/members/action/promote', { user_ids: [] });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual(NOT_FOUND_BODY);
  });
});

describe('POST /members/action/{block|unblock|delete|make_admin|remove_admin}', () => {
  let org: Org;
  let admin: User;
  let adminToken: string;
  let ben: User;
  let benToken: string;
  let chloe: User;

  beforeAll(async () => {
    const { db } = server.store;
    org = await createOrg(db, { domain: 'actions.test' });
    admin = await createUser(db, org, { email: 'ada@actions.test', admin: true });
    ben = await createUser(db, org, { email: 'ben@actions.test' });
    chloe = await createUser(db, org, { email: 'chloe@actions.test', status: 'INVITED' });
    adminToken = await tokenOf(admin);
    benToken = await tokenOf(ben);
  });

  const act = (token: string, action: string, userIds: string[]) =>
    call(token, 'POST', `/members/action/${action}`, { user_ids: userIds });

  it('refuses every action to a member who is not an admin', async () => {
    for (const action of ['block', 'unblock', 'delete', 'make_admin', 'remove_admin']) {
      const res = await act(benToken, action, [chloe.id]);
      expect(res.statusCode, action).toBe(403);
      expect(res.json().code).toBe('ADMIN_REQUIRED');
    }
    expect((await userById(chloe.id)).admin).toBe(false);
  });

  it('makes a member an admin and back, answering the members as they now are', async () => {
    const made = await act(adminToken, 'make_admin', [ben.id]);
    expect(made.statusCode, made.body).toBe(200);
    expect(made.json().members).toEqual([expect.objectContaining({ user_id: ben.id, admin: true })]);
    // Ben's next call is an admin's.
    expect((await act(benToken, 'make_admin', [chloe.id])).statusCode).toBe(200);
    const removed = await act(adminToken, 'remove_admin', [ben.id, chloe.id]);
    expect(removed.statusCode).toBe(200);
    expect(removed.json().members.map((m: { admin: boolean }) => m.admin)).toEqual([false, false]);
    expect((await act(benToken, 'make_admin', [chloe.id])).statusCode).toBe(403);
  });

  it('never lets an admin block, delete or demote themselves', async () => {
    for (const action of ['block', 'delete', 'remove_admin']) {
      const res = await act(adminToken, action, [ben.id, admin.id]);
      expect(res.statusCode, action).toBe(400);
      expect(res.json().message).toBe(memberActionMessages.NOT_ON_YOURSELF);
    }
    const after = await userById(admin.id);
    expect(after).toMatchObject({ admin: true, status: 'SIGNED_UP' });
    expect((await userById(ben.id)).status).toBe('SIGNED_UP');
  });

  it('blocks a member (their session ends) and unblocks them to their earlier state', async () => {
    await server.store.db.update(users).set({ lastLoginAt: new Date() }).where(eq(users.id, ben.id));
    const blocked = await act(adminToken, 'block', [ben.id, chloe.id]);
    expect(blocked.statusCode).toBe(200);
    expect(blocked.json().members.map((m: { status: string }) => m.status)).toEqual(['BLOCKED', 'BLOCKED']);
    expect((await call(benToken, 'GET', '/members')).statusCode).toBe(401);

    const unblocked = await act(adminToken, 'unblock', [ben.id, chloe.id]);
    expect(unblocked.statusCode).toBe(200);
    // Ben had signed in; Chloe never had, so she is back to a pending invite.
    expect(unblocked.json().members.map((m: { status: string }) => m.status)).toEqual([
      'SIGNED_UP',
      'INVITED',
    ]);
  });

  it('deletes a member, who then cannot be blocked or made admin', async () => {
    const other = await createUser(server.store.db, org, { email: 'dana@actions.test', admin: true });
    const deleted = await act(adminToken, 'delete', [other.id]);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json().members).toEqual([
      expect.objectContaining({ user_id: other.id, status: 'DELETED', admin: false }),
    ]);
    const block = await act(adminToken, 'block', [other.id]);
    expect(block.statusCode).toBe(400);
    expect(block.json().message).toBe(memberActionMessages.DELETED_CANNOT_BE_BLOCKED);
    const promote = await act(adminToken, 'make_admin', [other.id]);
    expect(promote.statusCode).toBe(400);
    expect(promote.json().message).toBe(memberActionMessages.INACTIVE_ADMIN);
  });

  it("changes nothing when any id is another org's member or unknown", async () => {
    const stranger = await createUser(
      server.store.db,
      await createOrg(server.store.db, { domain: 'far.test' }),
      {
        email: 'sam@far.test',
      },
    );
    const res = await act(adminToken, 'block', [ben.id, stranger.id]);
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(memberActionMessages.MEMBER_NOT_FOUND);
    expect((await userById(ben.id)).status).toBe('SIGNED_UP');
    expect((await userById(stranger.id)).status).toBe('SIGNED_UP');
    expect((await act(adminToken, 'block', ['not-a-uuid'])).statusCode).toBe(400);
  });

  it('keeps an admin when two admins demote each other at the same moment', async () => {
    const { db } = server.store;
    const pair = await createOrg(db, { domain: 'pair.test' });
    const first = await createUser(db, pair, { email: 'one@pair.test', admin: true });
    const second = await createUser(db, pair, { email: 'two@pair.test', admin: true });
    const results = await Promise.all([
      act(await tokenOf(first), 'remove_admin', [second.id]),
      act(await tokenOf(second), 'remove_admin', [first.id]),
    ]);
    expect(results.map((res) => res.statusCode).sort()).toEqual([200, 403]);
    const admins = await db
      .select()
      .from(users)
      .where(and(eq(users.orgId, pair.id), eq(users.admin, true)));
    expect(admins).toHaveLength(1);
  });
});
