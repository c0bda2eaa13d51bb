import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { InviteResponse } from '../../../common/api/members';
import { validation } from '../../../common/strings';
import { orgAllowedDomains, users, type Org, type User } from '../../db/schema';
import { createOrg, createUser, loginTokensFor } from '../../testing/fixtures';
import { createTestServer, type TestServer } from '../../testing/server';
import { startSmtpInbox, type SmtpInbox } from '../../testing/smtp-inbox';

const PUBLIC_URL = 'https://scout.example';

let inbox: SmtpInbox;
let server: TestServer;
let org: Org;
let admin: User;
let member: User;
let adminToken: string;
let memberToken: string;

beforeAll(async () => {
  inbox = await startSmtpInbox();
  server = await createTestServer({ env: { SMTP_URL: inbox.url, PUBLIC_URL } });
  const { db } = server.store;
  org = await createOrg(db, { domain: 'inv.test', name: 'Invico' });
  admin = await createUser(db, org, {
    email: 'ada@inv.test',
    admin: true,
    firstName: 'Ada',
    lastName: 'Admin',
  });
  member = await createUser(db, org, { email: 'ben@inv.test', firstName: 'Ben', lastName: 'Baker' });
  await createUser(db, org, { email: 'pending@inv.test', status: 'INVITED' });
  await createUser(db, org, { email: 'created@inv.test', status: 'CREATED' });
  await createUser(db, org, { email: 'blocked@inv.test', status: 'BLOCKED' });
  await createUser(db, org, { email: 'gone@inv.test', status: 'DELETED' });
  await db.insert(orgAllowedDomains).values({ orgId: org.id, domain: 'inv-partner.test' });
  adminToken = (await loginTokensFor(server.ctx, admin)).id_token;
  memberToken = (await loginTokensFor(server.ctx, member)).id_token;
});
afterAll(async () => {
  await server.close();
  await inbox.close();
});
beforeEach(() => {
  inbox.messages.length = 0;
});

function invite(token: string, action: string, emails: { email: string; make_admin?: boolean }[]) {
  return server.app.inject({
    method: 'POST',
    url: `/api/v1/members/action/${action}`,
    headers: { authorization: `Bearer ${token}` },
    payload: { emails },
  });
}

async function memberRow(email: string, orgId = org.id): Promise<User | undefined> {
  const [row] = await server.store.db
    .select()
    .from(users)
    .where(and(eq(users.orgId, orgId), eq(users.email, email)));
  return row;
}

/** The sign-in link of the mail sent to `email`. */
function linkMailedTo(email: string): URL {
  const mail = inbox.messages.find((message) => message.to.includes(email));
  expect(mail, `a mail to ${email}`).toBeDefined();
  const link = /https:\/\/\S+/.exec(mail?.text ?? '')?.[0];
  expect(link).toBeDefined();
  return new URL(link ?? '');
}

describe('POST /members/action/send_invite', () => {
  it('lets any member invite colleagues, who get a sign-in link by mail', async () => {
    const res = await invite(memberToken, 'send_invite', [
      { email: 'New.Person@INV.test', make_admin: false },
      { email: 'pending@inv.test' },
      { email: 'ben@inv.test' },
      { email: 'blocked@inv.test' },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<InviteResponse>();
    expect(body.sent.map((m) => [m.email, m.status, m.name])).toEqual([
      ['new.person@inv.test', 'INVITED', null],
      ['pending@inv.test', 'INVITED', null],
    ]);
    expect(body.skipped).toEqual([
      { email: 'ben@inv.test', reason: 'already_member' },
      { email: 'blocked@inv.test', reason: 'blocked' },
    ]);
    expect(await memberRow('new.person@inv.test')).toMatchObject({
      status: 'INVITED',
      admin: false,
      invitedBy: member.id,
    });
    expect((await memberRow('blocked@inv.test'))?.status).toBe('BLOCKED');

    expect(inbox.messages.map((m) => m.to).sort()).toEqual([['new.person@inv.test'], ['pending@inv.test']]);
    const mail = inbox.messages.find((m) => m.to.includes('new.person@inv.test'));
    expect(mail?.subject).toBe('Ben Baker invited you to Invico on Scout');
    const link = linkMailedTo('new.person@inv.test');
    expect(`${link.origin}${link.pathname}`).toBe(`${PUBLIC_URL}/login`);
    expect(Object.fromEntries(link.searchParams)).toEqual({
      loginEmail: 'new.person@inv.test',
      loginProvider: 'email',
    });
  });

  it('is idempotent: inviting the same address again keeps one member and mails again', async () => {
    await invite(memberToken, 'send_invite', [{ email: 'twice@inv.test' }]);
    const again = await invite(memberToken, 'send_invite', [{ email: 'twice@inv.test' }]);
    expect(again.statusCode).toBe(200);
    const rows = await server.store.db.select().from(users).where(eq(users.email, 'twice@inv.test'));
    expect(rows).toHaveLength(1);
    expect(inbox.messages).toHaveLength(2);
  });

  it('takes subdomains and the allowed domains of an ENTERPRISE org, and re-invites a deleted member', async () => {
    const res = await invite(adminToken, 'send_invite', [
      { email: 'eu.person@eu.inv.test' },
      { email: 'partner@inv-partner.test' },
      { email: 'gone@inv.test' },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<InviteResponse>().sent).toHaveLength(3);
    expect((await memberRow('gone@inv.test'))?.status).toBe('INVITED');
  });

  it("refuses the whole batch for one invalid address, with the spec's message, creating and sending nothing", async () => {
    for (const bad of ['', 'not-an-email', 'two@@inv.test', 'space in@inv.test', 'nodot@localhost']) {
      const res = await invite(memberToken, 'send_invite', [{ email: 'fine@inv.test' }, { email: bad }]);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json()).toEqual({ code: 'BAD_REQUEST', message: validation.INVALID_EMAIL_ADDRESS });
    }
    expect(await memberRow('fine@inv.test')).toBeUndefined();
    expect(inbox.messages).toEqual([]);
  });

  it("refuses an address outside the org's domains, look-alikes included", async () => {
    for (const bad of ['someone@gmail.com', 'x@evilinv.test', 'x@inv.test.evil.com']) {
      const res = await invite(adminToken, 'send_invite', [{ email: 'fine@inv.test' }, { email: bad }]);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json()).toEqual({ code: 'BAD_REQUEST', message: validation.DOMAIN_NOT_ALLOWED });
    }
    expect(await memberRow('fine@inv.test')).toBeUndefined();
    expect(inbox.messages).toEqual([]);
  });

  it('ignores allowed domains while the plan does not allow several domains', async () => {
    const { db } = server.store;
    const team = await createOrg(db, { domain: 'teamco.test', plan: 'TEAM' });
    await db.insert(orgAllowedDomains).values({ orgId: team.id, domain: 'teamco-labs.test' });
    const teamAdmin = await createUser(db, team, { email: 'boss@teamco.test', admin: true });
    const token = (await loginTokensFor(server.ctx, teamAdmin)).id_token;
    const refused = await invite(token, 'send_invite', [{ email: 'lab@teamco-labs.test' }]);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(validation.DOMAIN_NOT_ALLOWED);
    expect((await invite(token, 'send_invite', [{ email: 'ok@teamco.test' }])).statusCode).toBe(200);
  });

  it('lets only admins invite someone as an admin', async () => {
    const refused = await invite(memberToken, 'send_invite', [
      { email: 'plain@inv.test' },
      { email: 'boss@inv.test', make_admin: true },
    ]);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('ADMIN_REQUIRED');
    expect(await memberRow('plain@inv.test')).toBeUndefined();
    expect(inbox.messages).toEqual([]);

    const allowed = await invite(adminToken, 'send_invite', [{ email: 'boss@inv.test', make_admin: true }]);
    expect(allowed.statusCode).toBe(200);
    expect(allowed.json<InviteResponse>().sent[0]).toMatchObject({ email: 'boss@inv.test', admin: true });
    expect((await memberRow('boss@inv.test'))?.admin).toBe(true);
  });
});

describe('POST /members/action/resend_invite', () => {
  it('mails again only members who have not signed up yet', async () => {
    const res = await invite(memberToken, 'resend_invite', [
      { email: 'created@inv.test' },
      { email: 'pending@inv.test' },
      { email: 'ben@inv.test' },
      { email: 'nobody@inv.test' },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<InviteResponse>();
    expect(body.sent.map((m) => [m.email, m.status])).toEqual([
      ['created@inv.test', 'CREATED'],
      ['pending@inv.test', 'INVITED'],
    ]);
    expect(body.skipped).toEqual([
      { email: 'ben@inv.test', reason: 'already_member' },
      { email: 'nobody@inv.test', reason: 'not_invited' },
    ]);
    expect(await memberRow('nobody@inv.test')).toBeUndefined();
    expect(inbox.messages.map((m) => m.to[0]).sort()).toEqual(['created@inv.test', 'pending@inv.test']);
    expect(linkMailedTo('created@inv.test').searchParams.get('loginEmail')).toBe('created@inv.test');
  });

  it('validates the batch like send_invite', async () => {
    const res = await invite(memberToken, 'resend_invite', [
      { email: 'pending@inv.test' },
      { email: 'x@y.test' },
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(validation.DOMAIN_NOT_ALLOWED);
    expect(inbox.messages).toEqual([]);
  });
});
