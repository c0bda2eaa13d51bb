import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeVendors } from '../../common/strings';
import { startFakeAuthorizationServer, type FakeAuthorizationServer } from './fake-oauth';
import { startFakeServer, type FakeServer } from './fake-server';

const CLIENT = { id: 'client-1', secret: 'secret-1' };
const REDIRECT = 'http://127.0.0.1:9/api/v1/oauth/callback';
const VERIFIER = 'a-verifier-long-enough-for-pkce-0123456789abcdef';
const CHALLENGE = createHash('sha256').update(VERIFIER).digest('base64url');

let vendorToken: FakeServer;
let auth: FakeAuthorizationServer;

beforeAll(async () => {
  // The vendor fake's own token endpoint, which answers refresh grants.
  vendorToken = await startFakeServer({
    routes: [
      {
        method: 'POST',
        path: '/token',
        handler: ({ body }) =>
          new URLSearchParams(body).get('refresh_token') === 'refresh-1'
            ? { json: { access_token: 'access-2', token_type: 'Bearer' } }
            : { status: 400, json: { error: 'invalid_grant' } },
      },
    ],
  });
  auth = await startFakeAuthorizationServer({
    vendor: 'Acme Cloud',
    client: CLIENT,
    issue: () => ({ access_token: 'access-1', refresh_token: 'refresh-1', token_type: 'Bearer' }),
    refreshUrl: `${vendorToken.url}/token`,
  });
});
afterAll(async () => {
  await Promise.all([auth.close(), vendorToken.close()]);
});

/** The Allow page's form, submitted: the redirect's code and state. */
async function allow(challenge: string | null): Promise<{ code: string; state: string }> {
  const address = new URL(auth.authorizeUrl);
  address.search = new URLSearchParams({
    client_id: CLIENT.id,
    response_type: 'code',
    redirect_uri: REDIRECT,
    state: 'state-1',
    ...(challenge ? { code_challenge: challenge, code_challenge_method: 'S256' } : {}),
  }).toString();
  const page = await fetch(address);
  const html = await page.text();
  expect(html).toContain(fakeVendors.allowTitle('Acme Cloud'));
  const form = new URLSearchParams(
    [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map(
      ([, name, value]) => [name ?? '', value ?? ''] as [string, string],
    ),
  );
  const allowed = await fetch(auth.authorizeUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
    redirect: 'manual',
  });
  expect(allowed.status).toBe(302);
  const target = new URL(allowed.headers.get('location') ?? '');
  expect(target.origin + target.pathname).toBe(REDIRECT);
  return { code: target.searchParams.get('code') ?? '', state: target.searchParams.get('state') ?? '' };
}

const exchange = (form: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(auth.tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form).toString(),
  });

const codeGrant = (code: string, extra: Record<string, string> = {}) => ({
  grant_type: 'authorization_code',
  code,
  redirect_uri: REDIRECT,
  client_id: CLIENT.id,
  client_secret: CLIENT.secret,
  ...extra,
});

describe('fake authorization server', () => {
  it('refuses an unknown client before showing the page', async () => {
    const address = new URL(auth.authorizeUrl);
    address.search = new URLSearchParams({
      client_id: 'other',
      response_type: 'code',
      redirect_uri: REDIRECT,
    }).toString();
    expect((await fetch(address)).status).toBe(400);
  });

  it('trades a code for the tokens once, with the right PKCE verifier only', async () => {
    const { code, state } = await allow(CHALLENGE);
    expect(state).toBe('state-1');
    expect((await exchange(codeGrant(code, { code_verifier: 'wrong' }))).status).toBe(400);
    // The failed attempt spent the code, as a vendor's does.
    const again = await allow(CHALLENGE);
    const answer = await exchange(codeGrant(again.code, { code_verifier: VERIFIER }));
    expect(await answer.json()).toEqual({
      access_token: 'access-1',
      refresh_token: 'refresh-1',
      token_type: 'Bearer',
    });
    expect((await exchange(codeGrant(again.code, { code_verifier: VERIFIER }))).status).toBe(400);
  });

  it('checks the client and the redirect URI the code was issued to', async () => {
    const { code } = await allow(null);
    expect((await exchange(codeGrant(code, { client_secret: 'nope' }))).status).toBe(401);
    const other = await allow(null);
    expect(
      (await exchange(codeGrant(other.code, { redirect_uri: 'http://127.0.0.1:9/elsewhere' }))).status,
    ).toBe(400);
    const basic = await allow(null);
    const { client_id: _id, client_secret: _secret, ...form } = codeGrant(basic.code);
    const answer = await exchange(form, {
      authorization: `Basic ${Buffer.from(`${CLIENT.id}:${CLIENT.secret}`).toString('base64')}`,
    });
    expect(answer.status).toBe(200);
  });

  it('hands refresh grants to the fake’s own token endpoint', async () => {
    const refreshed = await exchange({ grant_type: 'refresh_token', refresh_token: 'refresh-1' });
    expect(await refreshed.json()).toEqual({ access_token: 'access-2', token_type: 'Bearer' });
    expect((await exchange({ grant_type: 'refresh_token', refresh_token: 'stale' })).status).toBe(400);
  });
});
