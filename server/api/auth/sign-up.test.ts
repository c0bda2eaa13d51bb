import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authMessages } from '../../../common/api/auth';
import { auth } from '../../../common/strings';
import { loginCodeIn, startMailbox, type TestMailbox } from '../../auth/testing/mailbox';
import { orgAllowedDomains, orgs, subscriptions, users } from '../../db/schema';
import { createOrg, createUser } from '../../testing/fixtures';
import { createTestServer, type TestServer } from '../../testing/server';

let mailbox: TestMailbox;
let server: TestServer;
let address = 0;

beforeAll(async () => {
  mailbox = await startMailbox();
  server = await createTestServer({ env: { SMTP_URL: mailbox.url } });
});
afterAll(async () => {
  await server.close();
  await mailbox.close();
});

const person = (email: string) => ({
  email,
  first_name: 'Ada',
  last_name: 'Lovelace',
  verification: 'token',
  origin: 'http://localhost:3000/signup',
});

function signUp(target: TestServer, body: object) {
  return target.app.inject({
    method: 'POST',
    url: '/api/v1/auth/user',
    payload: body,
    remoteAddress: `10.1.0.${++address}`,
  });
}

async function memberRow(email: string) {
  const [row] = await server.store.db.select().from(users).where(eq(users.email, email));
  return row;
}

describe('POST auth/user (sign-up)', () => {
  it('creates the workspace of a new domain, on a 14-day ENTERPRISE trial, with the person as first admin', async () => {
    const res = await signUp(server, person('ada@newco.test'));
    expect(res.statusCode).toBe(204);

    const [org] = await server.store.db.select().from(orgs).where(eq(orgs.domain, 'newco.test'));
    expect(org).toMatchObject({ name: 'Newco', isWorkspaceSetup: false });
    const [trial] = await server.store.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.orgId, org?.id ?? ''));
    expect(trial).toMatchObject({ planType: 'ENTERPRISE', status: 'TRIAL' });
    const days = ((trial?.trialEndAt?.getTime() ?? 0) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(13.9);
    expect(days).toBeLessThanOrEqual(14);
    expect(await memberRow('ada@newco.test')).toMatchObject({
      admin: true,
      status: 'CREATED',
      firstName: 'Ada',
      onboardingState: { first_admin: true },
    });

    // The mailed code signs them in and completes the sign-up.
    const code = loginCodeIn(await mailbox.waitFor('ada@newco.test', 1));
    const confirmed = await server.app.inject({
      method: 'POST',
      url: '/api/v1/auth/confirm',
      payload: { code, email: 'ada@newco.test' },
    });
    expect(confirmed.statusCode).toBe(200);
    expect((await memberRow('ada@newco.test'))?.status).toBe('SIGNED_UP');
  });

  it('answers a member who signs up again like a stranger, and mails the member a sign-in code', async () => {
    const org = await createOrg(server.store.db, { domain: 'known.test' });
    await createUser(server.store.db, org, { email: 'bob@known.test' });
    const member = await signUp(server, person('bob@known.test'));
    const stranger = await signUp(server, person('nobody@known.test'));
    expect([member.statusCode, member.body]).toEqual([204, '']);
    expect([stranger.statusCode, stranger.body]).toEqual([204, '']);
    const code = loginCodeIn(await mailbox.waitFor('bob@known.test', 1));
    const confirmed = await server.app.inject({
      method: 'POST',
      url: '/api/v1/auth/confirm',
      payload: { code, email: 'bob@known.test' },
    });
    expect(confirmed.json().username).toBe('bob@known.test');
    expect(await memberRow('nobody@known.test')).toBeUndefined();
    expect(mailbox.to('nobody@known.test')).toHaveLength(0);
  });

  it('answers a blocked member like a stranger, and sends nothing', async () => {
    const org = await createOrg(server.store.db, { domain: 'blocks.test' });
    await createUser(server.store.db, org, { email: 'gone@blocks.test', status: 'BLOCKED' });
    const res = await signUp(server, person('gone@blocks.test'));
    expect(res.statusCode).toBe(204);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(mailbox.to('gone@blocks.test')).toHaveLength(0);
  });

  it('creates nothing and sends nothing for a known domain whose org does not take sign-ups', async () => {
    await createOrg(server.store.db, { domain: 'closed.test' });
    const res = await signUp(server, person('eve@closed.test'));
    expect(res.statusCode).toBe(204);
    expect(await memberRow('eve@closed.test')).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(mailbox.to('eve@closed.test')).toHaveLength(0);
  });

  it('joins an org with auto_invite_members as a member, and sends a code', async () => {
    const org = await createOrg(server.store.db, { domain: 'open.test' });
    await server.store.db
      .update(orgs)
      .set({ preferences: { auto_invite_members: true } })
      .where(eq(orgs.id, org.id));
    expect((await signUp(server, person('joe@open.test'))).statusCode).toBe(204);
    expect(await memberRow('joe@open.test')).toMatchObject({
      orgId: org.id,
      admin: false,
      status: 'CREATED',
    });
    expect(loginCodeIn(await mailbox.waitFor('joe@open.test', 1))).toBeTruthy();
  });

  it('joins through a verified allowed domain that allows all sign-ups, not an unverified one', async () => {
    const org = await createOrg(server.store.db, { domain: 'parent.test' });
    await server.store.db.insert(orgAllowedDomains).values([
      { orgId: org.id, domain: 'subsidiary.test', status: 'VERIFIED', allowAllSignups: true },
      { orgId: org.id, domain: 'claimed.test', status: 'UNVERIFIED', allowAllSignups: true },
    ]);
    expect((await signUp(server, person('kim@subsidiary.test'))).statusCode).toBe(204);
    expect((await memberRow('kim@subsidiary.test'))?.orgId).toBe(org.id);
    // An unverified claim routes nobody: claimed.test gets a workspace of its own.
    expect((await signUp(server, person('lee@claimed.test'))).statusCode).toBe(204);
    expect((await memberRow('lee@claimed.test'))?.orgId).not.toBe(org.id);
  });

  it('completes the sign-up of an invited member instead of refusing them', async () => {
    const org = await createOrg(server.store.db, { domain: 'invites.test' });
    await createUser(server.store.db, org, { email: 'new@invites.test', status: 'INVITED' });
    expect((await signUp(server, person('new@invites.test'))).statusCode).toBe(204);
    expect(await memberRow('new@invites.test')).toMatchObject({ firstName: 'Ada', status: 'INVITED' });
  });

  it('refuses public mail domains', async () => {
    const res = await signUp(server, person('someone@gmail.com'));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'BAD_REQUEST', message: authMessages.WORK_EMAIL_REQUIRED });
    const [org] = await server.store.db.select().from(orgs).where(eq(orgs.domain, 'gmail.com'));
    expect(org).toBeUndefined();
  });

  it('validates names and email', async () => {
    for (const body of [
      { ...person('x@names.test'), first_name: '   ' },
      { ...person('x@names.test'), last_name: 'a'.repeat(101) },
      { ...person('x@names.test'), first_name: '<script>' },
      { ...person('no-at-sign'), first_name: 'Ada' },
    ]) {
      const res = await signUp(server, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code).toBe('VALIDATION_FAILED');
    }
    expect(
      (await signUp(server, { ...person('zoe@names.test'), first_name: 'Zoë-Anne #2' })).statusCode,
    ).toBe(204);
  });
});

describe('sign-up switched off', () => {
  it('refuses new workspaces but still lets an org that takes members grow', async () => {
    const closed = await createTestServer({ env: { SMTP_URL: mailbox.url, SELF_SERVE_SIGNUP: 'false' } });
    try {
      const res = await signUp(closed, person('ceo@startup.test'));
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe(auth.SIGNUP_FAILED);
      const org = await createOrg(closed.store.db, { domain: 'grow.test' });
      await closed.store.db
        .update(orgs)
        .set({ preferences: { auto_invite_members: true } })
        .where(eq(orgs.id, org.id));
      expect((await signUp(closed, person('dev@grow.test'))).statusCode).toBe(204);
    } finally {
      await closed.close();
    }
  });
});

describe('CAPTCHA', () => {
  let verifier: Server;
  let verifyUrl: string;
  const seen: URLSearchParams[] = [];

  beforeAll(async () => {
    // A siteverify endpoint on 127.0.0.1 that answers like reCAPTCHA v3.
    verifier = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        const form = new URLSearchParams(body);
        seen.push(form);
        const ok = form.get('secret') === 'captcha-secret' && form.get('response') === 'human';
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify(ok ? { success: true, action: 'login', score: 0.9 } : { success: false }),
        );
      });
    });
    await new Promise<void>((resolve) => verifier.listen(0, '127.0.0.1', resolve));
    verifyUrl = `http://127.0.0.1:${(verifier.address() as AddressInfo).port}/siteverify`;
  });
  afterAll(() => new Promise<void>((resolve) => verifier.close(() => resolve())));

  it('refuses a missing or bad token and accepts a good one', async () => {
    const guarded = await createTestServer({
      env: { SMTP_URL: mailbox.url, CAPTCHA_SECRET: 'captcha-secret', CAPTCHA_VERIFY_URL: verifyUrl },
    });
    try {
      const { verification: _omitted, ...unverified } = person('bot@captcha.test');
      for (const body of [unverified, { ...unverified, verification: 'robot' }]) {
        const res = await signUp(guarded, body);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ code: 'BAD_REQUEST', message: auth.CAPTCHA_FAILED });
      }
      const [org] = await guarded.store.db.select().from(orgs).where(eq(orgs.domain, 'captcha.test'));
      expect(org).toBeUndefined();

      expect((await signUp(guarded, { ...unverified, verification: 'human' })).statusCode).toBe(204);
      expect(seen.at(-1)?.get('remoteip')).toMatch(/^10\.1\.0\./);
      const [member] = await guarded.store.db
        .select()
        .from(users)
        .where(and(eq(users.email, 'bot@captcha.test'), eq(users.admin, true)));
      expect(member).toBeDefined();
    } finally {
      await guarded.close();
    }
  });
});
