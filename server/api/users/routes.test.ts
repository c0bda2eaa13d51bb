import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imageMessages } from '../../../common/api/orgs';
import type { CurrentUser } from '../../../common/api/session';
import { userMessages, type UserPreferencesResponse } from '../../../common/api/users';
import { LOGO_MAX_BYTES } from '../../../common/limits';
import { orgs, users, type Org, type User } from '../../db/schema';
import { createOrg, createUser, loginTokensFor } from '../../testing/fixtures';
import { dataUrl, pngBytes } from '../../testing/images';
import { createTestServer, type TestServer } from '../../testing/server';

let server: TestServer;
let org: Org;
let ada: User;
let ben: User;
let adaToken: string;
let benToken: string;

beforeAll(async () => {
  server = await createTestServer();
  const { db } = server.store;
  org = await createOrg(db, { domain: 'people.test' });
  ada = await createUser(db, org, { email: 'ada@people.test', admin: true, firstName: 'Ada' });
  ben = await createUser(db, org, { email: 'ben@people.test', firstName: 'Ben' });
  adaToken = (await loginTokensFor(server.ctx, ada)).id_token;
  benToken = (await loginTokensFor(server.ctx, ben)).id_token;
});
afterAll(() => server.close());

const call = (token: string, method: 'GET' | 'PATCH', url: string, payload?: object) =>
  server.app.inject({
    method,
    url: `/api/v1${url}`,
    headers: { authorization: `Bearer ${token}` },
    ...(payload ? { payload } : {}),
  });

async function userRow(id: string): Promise<User> {
  const [row] = await server.store.db.select().from(users).where(eq(users.id, id));
  if (!row) throw new Error('user gone');
  return row;
}

describe('PATCH /users/{id}', () => {
  it('changes the caller’s own names and answers the current user', async () => {
    const res = await call(benToken, 'PATCH', `/users/${ben.id}`, {
      first_name: 'Benjamín',
      last_name: 'Baker-Smith #2 & Co. @home',
      display_name: 'Benji',
    });
    expect(res.statusCode, res.body).toBe(200);
    const me = res.json<CurrentUser>();
    expect(me).toMatchObject({ userId: ben.id, metadata: { displayName: 'Benji' } });
    expect(await userRow(ben.id)).toMatchObject({
      firstName: 'Benjamín',
      lastName: 'Baker-Smith #2 & Co. @home',
      displayName: 'Benji',
    });
  });

  it('marks the web onboarding as seen, for the caller only', async () => {
    expect((await userRow(ben.id)).hasSeenWebOnboarding).toBe(false);
    const res = await call(benToken, 'PATCH', `/users/${ben.id}`, { has_seen_web_onboarding: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<CurrentUser>().hasSeenWebOnboarding).toBe(true);
    expect((await userRow(ben.id)).hasSeenWebOnboarding).toBe(true);
    const me = await call(benToken, 'GET', '/_fetchData/user');
    expect(me.json<CurrentUser>().hasSeenWebOnboarding).toBe(true);

    const refused = await call(benToken, 'PATCH', `/users/${ada.id}`, { has_seen_web_onboarding: true });
    expect(refused.statusCode).toBe(403);
    const malformed = await call(adaToken, 'PATCH', `/users/${ada.id}`, { has_seen_web_onboarding: 'yes' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toHaveProperty('code');
    expect((await userRow(ada.id)).hasSeenWebOnboarding).toBe(false);
  });

  it('refuses names with other characters or over 100 characters', async () => {
    for (const payload of [
      { first_name: '<script>' },
      { last_name: 'O’Brien' },
      { first_name: 'x'.repeat(101) },
      { first_name: '   ' },
      { nickname: 'Bee' },
    ]) {
      const res = await call(benToken, 'PATCH', `/users/${ben.id}`, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect((await userRow(ben.id)).firstName).toBe('Benjamín');
  });

  it('refuses another member’s id with 403, for admins too and whatever the body', async () => {
    for (const [token, target, payload] of [
      [benToken, ada.id, { first_name: 'Mallory' }],
      [adaToken, ben.id, { first_name: 'Mallory' }],
      [benToken, ada.id, { first_name: '<bad>' }],
    ] as const) {
      const res = await call(token, 'PATCH', `/users/${target}`, payload);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ code: 'FORBIDDEN', message: userMessages.ONLY_YOUR_OWN_PROFILE });
    }
    expect((await userRow(ada.id)).firstName).toBe('Ada');
    expect((await userRow(ben.id)).firstName).toBe('Benjamín');
  });
});

describe('profile photo', () => {
  it('stores an uploaded photo and serves its bytes at /users/self/photo', async () => {
    expect((await call(adaToken, 'GET', '/users/self/photo')).statusCode).toBe(404);
    const bytes = pngBytes(40, 30);
    const set = await call(adaToken, 'PATCH', `/users/${ada.id}`, { photo: dataUrl('image/png', bytes) });
    expect(set.statusCode, set.body).toBe(200);
    const photo = await call(adaToken, 'GET', '/users/self/photo');
    expect(photo.statusCode).toBe(200);
    expect(photo.headers['content-type']).toBe('image/png');
    expect(photo.rawPayload.equals(bytes)).toBe(true);
    // Ben has none of his own; Ada's is not his.
    expect((await call(benToken, 'GET', '/users/self/photo')).statusCode).toBe(404);

    const removed = await call(adaToken, 'PATCH', `/users/${ada.id}`, { photo: null });
    expect(removed.statusCode).toBe(200);
    expect((await call(adaToken, 'GET', '/users/self/photo')).statusCode).toBe(404);
  });

  it('sends a photo kept as a web address there', async () => {
    const url = 'https://photos.example/ben.jpg';
    await server.store.db.update(users).set({ photoUrl: url }).where(eq(users.id, ben.id));
    const res = await call(benToken, 'GET', '/users/self/photo');
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(url);
  });

  it('refuses a photo over 5 MB or whose bytes are no image', async () => {
    const tooBig = Buffer.concat([pngBytes(8, 8), Buffer.alloc(LOGO_MAX_BYTES)]);
    const cases: [string, string][] = [
      [dataUrl('image/png', tooBig), imageMessages.PHOTO_TOO_LARGE],
      [dataUrl('image/png', Buffer.from('hello')), imageMessages.PHOTO_NOT_AN_IMAGE],
    ];
    for (const [photo, message] of cases) {
      const res = await call(adaToken, 'PATCH', `/users/${ada.id}`, { photo });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(message);
    }
    expect((await userRow(ada.id)).photoUrl).toBeNull();
  });
});

describe('PATCH /users/{id}/preferences', () => {
  const setOrgAllows = (allowed: boolean) =>
    server.store.db
      .update(orgs)
      .set({ preferences: { background_allow_user: allowed } })
      .where(eq(orgs.id, org.id));

  it('keeps a personal background only when the org allows one', async () => {
    await setOrgAllows(false);
    const refused = await call(benToken, 'PATCH', `/users/${ben.id}/preferences`, {
      background_color: '#000000',
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(userMessages.PERSONAL_BACKGROUND_NOT_ALLOWED);

    await setOrgAllows(true);
    await call(benToken, 'PATCH', `/users/${ben.id}/preferences`, { background_type: 'color' });
    const res = await call(benToken, 'PATCH', `/users/${ben.id}/preferences`, {
      background_color: '#000000',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<UserPreferencesResponse>().preferences).toEqual({
      background_type: 'color',
      background_color: '#000000',
      background_image: null,
      export_requested_at: null,
      export_available_at: null,
    });

    // Clearing is always allowed.
    await setOrgAllows(false);
    const cleared = await call(benToken, 'PATCH', `/users/${ben.id}/preferences`, {
      background_type: null,
      background_color: null,
    });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json<UserPreferencesResponse>().preferences.background_color).toBeNull();
  });

  it('refuses a bad colour and another member’s preferences', async () => {
    await setOrgAllows(true);
    expect(
      (await call(benToken, 'PATCH', `/users/${ben.id}/preferences`, { background_color: 'red' })).statusCode,
    ).toBe(400);
    const other = await call(benToken, 'PATCH', `/users/${ada.id}/preferences`, { background_color: '#000' });
    expect(other.statusCode).toBe(403);
  });
});

describe('the setup calls', () => {
  it('still record the setup status and tour progress', async () => {
    const setup = await call(benToken, 'PATCH', '/users/setup_status', {
      work_role: 'engineering',
      referral_source: 'newsletter',
    });
    expect(setup.statusCode, setup.body).toBe(200);
    const tour = await call(benToken, 'PATCH', '/users/tour_progress', {
      tour_name: 'onboarding_tour',
      state: 'finished',
    });
    expect(tour.statusCode).toBe(200);
    expect(await userRow(ben.id)).toMatchObject({
      workRole: 'engineering',
      userSetupStatus: 'COMPLETED',
      toursProgress: { onboarding_tour: 'finished' },
    });
  });
});
