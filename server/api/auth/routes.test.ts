import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authMessages } from '../../../common/api/auth';
import { loginTokensSchema } from '../../../common/api/session';
import { auth, validation } from '../../../common/strings';
import { CODES_MAILED_PER_EMAIL } from '../../auth/rate-limit';
import { loginCodeIn, startMailbox, type TestMailbox } from '../../auth/testing/mailbox';
import { loginCodes, orgs, refreshTokens, ssoConfigs, users } from '../../db/schema';
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

/** Each test calls from its own address, so the per-address limits of one test never touch another. */
function client() {
  const remoteAddress = `10.0.0.${++address}`;
  const post = (url: string, payload: object) =>
    server.app.inject({ method: 'POST', url: `/api/v1/${url}`, payload, remoteAddress });
  const get = (url: string, token?: string) =>
    server.app.inject({
      method: 'GET',
      url: `/api/v1/${url}`,
      remoteAddress,
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
  return { post, get };
}

async function member(email: string, status: 'INVITED' | 'SIGNED_UP' | 'BLOCKED' = 'SIGNED_UP') {
  const org = await createOrg(server.store.db, { domain: email.split('@')[1] ?? '' });
  return createUser(server.store.db, org, { email, status });
}

async function requestCode(api: ReturnType<typeof client>, email: string): Promise<string> {
  const sent = mailbox.to(email).length;
  const res = await api.post('auth/code-request', { email, origin: 'http://localhost:3000/login' });
  expect(res.statusCode).toBe(204);
  return loginCodeIn(await mailbox.waitFor(email, sent + 1));
}

describe('email code sign-in and the session', () => {
  it('signs in with a mailed code, refreshes, detects reuse of a spent refresh token, and logs out', async () => {
    const api = client();
    const invited = await member('admin@acme.test', 'INVITED');

    const code = await requestCode(api, 'Admin@Acme.test');
    const mail = mailbox.latest('admin@acme.test');
    expect(mail.raw).toContain(`Subject: Your Scout login code: ${code}`);
    expect(mail.raw).toContain('loginProvider=3Demail');

    // Case and dashes do not matter.
    const typed = code.toLowerCase().replaceAll('-', '');
    const confirmed = await api.post('auth/confirm', {
      code: typed,
      email: 'admin@acme.test',
      origin: 'http://localhost:3000/chat?q=1',
    });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.headers['cache-control']).toBe('no-store');
    const first = confirmed.json();
    expect(first).toMatchObject({ loginUrl: '/chat?q=1', username: 'admin@acme.test' });
    expect(loginTokensSchema.parse(first).expires_at).toBeGreaterThan(Date.now());
    const [row] = await server.store.db.select().from(users).where(eq(users.id, invited.id));
    expect(row?.status).toBe('SIGNED_UP');

    const me = await api.get('_fetchData/user', first.id_token);
    expect(me.statusCode).toBe(200);
    expect(me.json().email).toBe('admin@acme.test');

    const refreshed = await api.post('auth/token-refresh', first);
    expect(refreshed.statusCode).toBe(200);
    const second = refreshed.json();
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect((await api.get('_fetchData/user', second.id_token)).statusCode).toBe(200);

    // The first refresh token was spent: presenting it again revokes the whole session.
    const reused = await api.post('auth/token-refresh', { refresh_token: first.refresh_token });
    expect(reused.statusCode).toBe(401);
    expect(reused.json()).toEqual({ code: 'UNAUTHORIZED', message: authMessages.SESSION_ENDED });
    expect((await api.post('auth/token-refresh', second)).statusCode).toBe(401);
    expect((await api.get('_fetchData/user', second.id_token)).statusCode).toBe(401);

    // A fresh sign-in, then logout ends it.
    const again = await api.post('auth/confirm', { code: await requestCode(api, 'admin@acme.test') });
    const third = again.json();
    expect((await api.get('_fetchData/user', third.id_token)).statusCode).toBe(200);
    expect((await api.post('auth/logout', third)).statusCode).toBe(204);
    expect((await api.get('_fetchData/user', third.id_token)).statusCode).toBe(401);
    expect((await api.post('auth/token-refresh', third)).statusCode).toBe(401);
    expect((await api.post('auth/logout', third)).statusCode).toBe(204);
  });

  it('stores only a digest of the code and of refresh tokens', async () => {
    const api = client();
    await member('digest@acme.test');
    const code = await requestCode(api, 'digest@acme.test');
    const [stored] = await server.store.db
      .select()
      .from(loginCodes)
      .where(eq(loginCodes.email, 'digest@acme.test'));
    expect(stored?.codeHash).toBeTruthy();
    expect(stored?.codeHash).not.toContain(code.replaceAll('-', ''));
    const tokens = (await api.post('auth/confirm', { code })).json();
    const rows = await server.store.db.select({ hash: refreshTokens.tokenHash }).from(refreshTokens);
    expect(rows.some((r) => r.hash === tokens.refresh_token)).toBe(false);
  });

  it('answers a stranger exactly like a member and sends nothing', async () => {
    const api = client();
    await member('someone@acme.test');
    const res = await api.post('auth/code-request', { email: 'nobody@acme.test' });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(mailbox.to('nobody@acme.test')).toHaveLength(0);
    const none = await server.store.db
      .select()
      .from(loginCodes)
      .where(eq(loginCodes.email, 'nobody@acme.test'));
    expect(none).toHaveLength(0);
  });

  it('accepts each code once, and asking again keeps the earlier codes live', async () => {
    const api = client();
    await member('once@acme.test');
    const older = await requestCode(api, 'once@acme.test');
    const code = await requestCode(api, 'once@acme.test');
    expect((await api.post('auth/confirm', { code: older })).statusCode).toBe(200);
    expect((await api.post('auth/confirm', { code })).statusCode).toBe(200);
    expect((await api.post('auth/confirm', { code })).json()).toEqual({
      code: 'UNAUTHORIZED',
      message: auth.CODE_INVALID,
    });
    expect((await api.post('auth/confirm', { code: older })).statusCode).toBe(401);
  });

  it("a stranger's wrong codes for an email neither void its live code nor block its owner", async () => {
    const owner = client();
    const stranger = client();
    await member('guess@acme.test');
    const code = await requestCode(owner, 'guess@acme.test');
    for (let i = 0; i < 12; i += 1) {
      const wrong = await stranger.post('auth/confirm', {
        code: 'AAAAA-AAAAA-AAAAA-AAAAA',
        email: 'guess@acme.test',
      });
      expect([401, 429]).toContain(wrong.statusCode);
    }
    const right = await owner.post('auth/confirm', { code, email: 'guess@acme.test' });
    expect(right.statusCode).toBe(200);
  });

  it('never answers a loginUrl that leaves the site', async () => {
    const api = client();
    await member('next@acme.test');
    for (const origin of [
      'http://localhost:3000//evil.example/x',
      'http://localhost:3000/\\evil.example/x',
      '/x/..//evil.example',
      '//evil.example/x',
      'https://evil.example/chat',
    ]) {
      const code = await requestCode(api, 'next@acme.test');
      const res = await api.post('auth/confirm', { code, origin });
      expect(res.json().loginUrl, origin).toBe('/');
    }
  });

  it('refuses an expired code', async () => {
    const api = client();
    await member('late@acme.test');
    const code = await requestCode(api, 'late@acme.test');
    await server.store.db
      .update(loginCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(loginCodes.email, 'late@acme.test'));
    expect((await api.post('auth/confirm', { code })).statusCode).toBe(401);
  });

  it('refuses a blocked member with 403', async () => {
    const api = client();
    await member('blocked@acme.test', 'BLOCKED');
    const res = await api.post('auth/confirm', { code: await requestCode(api, 'blocked@acme.test') });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ code: 'FORBIDDEN', message: auth.REQUEST_ACCESS });
  });

  it('answers 400 to bad input and changes nothing', async () => {
    const api = client();
    const badEmail = await api.post('auth/code-request', { email: 'not-an-email' });
    expect(badEmail.statusCode).toBe(400);
    expect(badEmail.json().message).toContain(validation.INVALID_EMAIL);
    const badCode = await api.post('auth/confirm', { code: 'ABCDE-FGHIJ' });
    expect(badCode.statusCode).toBe(400);
    expect(badCode.json().message).toContain(validation.INVALID_CODE);
    expect((await api.post('auth/token-refresh', {})).statusCode).toBe(400);
  });

  it("limits code requests for an email from one address, never from the owner's own address", async () => {
    const stranger = client();
    await member('busy@acme.test');
    for (let i = 0; i < 5; i += 1) await requestCode(stranger, 'busy@acme.test');
    const limited = await stranger.post('auth/code-request', { email: 'busy@acme.test' });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ code: 'RATE_LIMITED', message: authMessages.RATE_LIMITED });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(mailbox.to('busy@acme.test')).toHaveLength(5);
    // The owner, asking from their own address, gets a fresh code that signs in, and the stranger's codes
    // (which went to the owner's inbox, not the stranger's) stay live too.
    const owner = client();
    const code = await requestCode(owner, 'busy@acme.test');
    expect((await owner.post('auth/confirm', { code, email: 'busy@acme.test' })).statusCode).toBe(200);
    const first = loginCodeIn(mailbox.to('busy@acme.test')[0]!);
    expect((await owner.post('auth/confirm', { code: first })).statusCode).toBe(200);
  });

  it('stops mailing an email that many addresses ask codes for, while its live codes keep working', async () => {
    await member('bombed@acme.test');
    const answers = [];
    for (let i = 0; i < CODES_MAILED_PER_EMAIL + 3; i += 1) {
      answers.push((await client().post('auth/code-request', { email: 'bombed@acme.test' })).statusCode);
    }
    expect(answers.every((status) => status === 204)).toBe(true);
    const last = await mailbox.waitFor('bombed@acme.test', CODES_MAILED_PER_EMAIL);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(mailbox.to('bombed@acme.test')).toHaveLength(CODES_MAILED_PER_EMAIL);
    expect((await client().post('auth/confirm', { code: loginCodeIn(last) })).statusCode).toBe(200);
  });

  it('answers a code request before the mail server has accepted the mail, member or not', async () => {
    const slowMailbox = await startMailbox({ replyDelayMs: 2000 });
    const slow = await createTestServer({ env: { SMTP_URL: slowMailbox.url } });
    try {
      const org = await createOrg(slow.store.db, { domain: 'slowmail.test' });
      await createUser(slow.store.db, org, { email: 'member@slowmail.test', status: 'SIGNED_UP' });
      for (const email of ['member@slowmail.test', 'stranger@slowmail.test']) {
        const started = Date.now();
        const res = await slow.app.inject({
          method: 'POST',
          url: '/api/v1/auth/code-request',
          payload: { email },
          remoteAddress: `10.0.1.${++address}`,
        });
        expect(res.statusCode).toBe(204);
        expect(Date.now() - started, email).toBeLessThan(1000);
      }
      const mail = await slowMailbox.waitFor('member@slowmail.test', 1, 10_000);
      const confirmed = await slow.app.inject({
        method: 'POST',
        url: '/api/v1/auth/confirm',
        payload: { code: loginCodeIn(mail) },
      });
      expect(confirmed.statusCode).toBe(200);
      expect(slowMailbox.to('stranger@slowmail.test')).toHaveLength(0);
    } finally {
      await slow.close();
      await slowMailbox.close();
    }
  });

  it('limits calls per client address', async () => {
    const api = client();
    const answers = [];
    for (let i = 0; i < 21; i += 1) {
      answers.push((await api.post('auth/code-request', { email: `stranger${i}@nowhere.test` })).statusCode);
    }
    expect(answers.slice(0, 20).every((status) => status === 204)).toBe(true);
    expect(answers[20]).toBe(429);
  });
});

describe('GET auth/provider', () => {
  it('answers 404 for a domain no org owns', async () => {
    const res = await client().get('auth/provider?email=a@unknown-domain.test');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 'NOT_FOUND', message: auth.UNKNOWN_ACCOUNT });
  });

  it('answers email, and sso once the org has SSO; enforced SSO refuses email codes', async () => {
    const api = client();
    const org = await createOrg(server.store.db, { domain: 'ssocorp.test' });
    await createUser(server.store.db, org, { email: 'ann@ssocorp.test' });
    // Membership is not revealed: the answer is about the domain.
    expect((await api.get('auth/provider?email=nobody@ssocorp.test')).json()).toEqual({
      provider: 'email',
      domain_exists: true,
    });
    await server.store.db
      .insert(ssoConfigs)
      .values({ orgId: org.id, issuer: 'https://idp.test', clientId: 'c', enforced: true });
    expect((await api.get('auth/provider?email=ann@ssocorp.test')).json().provider).toBe('sso');
    const refused = await api.post('auth/code-request', { email: 'ann@ssocorp.test' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(auth.SSO_FORCED);
    expect(mailbox.to('ann@ssocorp.test')).toHaveLength(0);
  });

  it('answers google when the org prefers it, only if this server has Google sign-in', async () => {
    const org = await createOrg(server.store.db, { domain: 'googly.test' });
    await server.store.db
      .update(orgs)
      .set({ preferences: { login_provider: 'google' } })
      .where(eq(orgs.id, org.id));
    expect((await client().get('auth/provider?email=x@googly.test')).json().provider).toBe('email');
  });
});

describe('GET auth/code-delivery', () => {
  const deliveryOf = async (target: TestServer) =>
    (await target.app.inject({ method: 'GET', url: '/api/v1/auth/code-delivery' })).json();

  it('points to the server console only on a development server without SMTP', async () => {
    expect(await deliveryOf(server)).toEqual({ code_in_server_console: false });
    // Servers on the same store, closed without it (the suite's server closes it).
    const withoutSmtp = await createTestServer({ store: server.store });
    const production = await createTestServer({ store: server.store, env: { NODE_ENV: 'production' } });
    try {
      expect(await deliveryOf(withoutSmtp)).toEqual({ code_in_server_console: true });
      expect(await deliveryOf(production)).toEqual({ code_in_server_console: false });
    } finally {
      await withoutSmtp.app.close();
      await production.app.close();
    }
  });
});
