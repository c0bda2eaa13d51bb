import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imageMessages, type OrgView } from '../../../common/api/orgs';
import { LOGO_MAX_BYTES } from '../../../common/limits';
import { validation } from '../../../common/strings';
import { orgs, type Org } from '../../db/schema';
import { createOrg, createUser, loginTokensFor } from '../../testing/fixtures';
import { dataUrl, jpegHeaderBytes, pngBytes } from '../../testing/images';
import { createTestServer, type TestServer } from '../../testing/server';

let server: TestServer;
let org: Org;
let adminToken: string;
let memberToken: string;

beforeAll(async () => {
  server = await createTestServer();
  const { db } = server.store;
  org = await createOrg(db, { domain: 'settings.test', name: '', workspaceSetup: false });
  const admin = await createUser(db, org, { email: 'ada@settings.test', admin: true });
  const member = await createUser(db, org, { email: 'ben@settings.test' });
  adminToken = (await loginTokensFor(server.ctx, admin)).id_token;
  memberToken = (await loginTokensFor(server.ctx, member)).id_token;
});
afterAll(() => server.close());

const patch = (token: string, payload: object) =>
  server.app.inject({
    method: 'PATCH',
    url: '/api/v1/orgs',
    headers: { authorization: `Bearer ${token}` },
    payload,
  });

async function storedOrg(): Promise<Org> {
  const [row] = await server.store.db.select().from(orgs).where(eq(orgs.id, org.id));
  if (!row) throw new Error('org gone');
  return row;
}

describe('PATCH /orgs', () => {
  it("sets the company name, which completes the first admin's workspace setup", async () => {
    expect((await storedOrg()).isWorkspaceSetup).toBe(false);
    const res = await patch(adminToken, { company_name: '  Settings Inc  ' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<OrgView>()).toMatchObject({ name: 'Settings Inc', isWorkspaceSetup: true });
    expect(await storedOrg()).toMatchObject({ name: 'Settings Inc', isWorkspaceSetup: true });
  });

  it('stores appearance and behaviour settings, keeping earlier ones', async () => {
    await patch(adminToken, { background_color: '#1A2B3C', background_type: 'color', answers: true });
    const res = await patch(adminToken, {
      background_allow_user: true,
      auto_invite_members: true,
      override_new_tab_page: true,
      background_image: 'https://images.example/bg.png',
      homepage_links: [{ title: 'Handbook', link: 'https://handbook.example' }],
    });
    expect(res.statusCode, res.body).toBe(200);
    const view = res.json<OrgView>();
    expect(view.preferences).toMatchObject({
      background_color: '#1A2B3C',
      background_type: 'color',
      answers: true,
      background_allow_user: true,
      auto_invite_members: true,
      override_new_tab_page: true,
      background_image: 'https://images.example/bg.png',
    });
    expect(view.homepageLinks).toEqual([{ title: 'Handbook', link: 'https://handbook.example' }]);
    // Clearing the colour brings back the default white.
    const cleared = await patch(adminToken, { background_color: null });
    expect(cleared.json<OrgView>().preferences.background_color).toBe('#ffffff');
  });

  it('stores a square logo and removes it with null', async () => {
    const logo = dataUrl('image/png', pngBytes(64, 64));
    const res = await patch(adminToken, { logo });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<OrgView>().logo).toBe(logo);
    expect((await storedOrg()).logo).toBe(logo);
    const jpeg = dataUrl('image/jpeg', jpegHeaderBytes(300, 300));
    expect((await patch(adminToken, { logo: jpeg })).statusCode).toBe(200);
    expect((await patch(adminToken, { logo: null })).json<OrgView>().logo).toBeNull();
  });

  it('refuses a logo that is not square, too big or not an image, changing nothing else', async () => {
    const before = await storedOrg();
    const cases: [unknown, string][] = [
      [dataUrl('image/png', pngBytes(64, 40)), validation.LOGO_MUST_BE_SQUARE],
      [dataUrl('image/jpeg', jpegHeaderBytes(1200, 800)), validation.LOGO_MUST_BE_SQUARE],
      [
        dataUrl('image/png', Buffer.concat([pngBytes(8, 8), Buffer.alloc(LOGO_MAX_BYTES)])),
        imageMessages.LOGO_TOO_LARGE,
      ],
      [dataUrl('image/jpeg', pngBytes(8, 8)), imageMessages.LOGO_NOT_AN_IMAGE],
      [dataUrl('image/png', Buffer.from('<svg/>')), imageMessages.LOGO_NOT_AN_IMAGE],
    ];
    for (const [logo, message] of cases) {
      const res = await patch(adminToken, { company_name: 'Renamed', logo });
      expect(res.statusCode, message).toBe(400);
      expect(res.json()).toEqual({ code: 'BAD_REQUEST', message });
    }
    const after = await storedOrg();
    expect(after.name).toBe(before.name);
    expect(after.logo).toBe(before.logo);
  });

  it('refuses malformed fields with 400', async () => {
    const bad = [
      { background_color: 'blue' },
      { background_color: '#12345' },
      { company_name: '' },
      { company_name: 'x'.repeat(101) },
      { background_type: 'video' },
      { logo: 'https://logo.example/logo.png' },
      {
        homepage_links: Array.from({ length: 9 }, (_, i) => ({ title: `t${i}`, link: 'https://a.example' })),
      },
      { answers: 'yes' },
      { unknown_setting: true },
    ];
    for (const payload of bad) {
      const res = await patch(adminToken, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().code).toBe('VALIDATION_FAILED');
    }
  });

  it('refuses a member, whatever the body', async () => {
    const before = await storedOrg();
    for (const payload of [{ company_name: 'Hijacked' }, { background_color: 'nope' }]) {
      const res = await patch(memberToken, payload);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('ADMIN_REQUIRED');
    }
    expect((await storedOrg()).name).toBe(before.name);
  });
});

describe('PATCH /orgs/flags', () => {
  const patchFlags = (token: string, payload: object) =>
    server.app.inject({
      method: 'PATCH',
      url: '/api/v1/orgs/flags',
      headers: { authorization: `Bearer ${token}` },
      payload,
    });

  it("switches the admin's flags, keeping the others, and the gated routes follow at once", async () => {
    await server.store.db
      .update(orgs)
      .set({ flags: { outageBanner: true } })
      .where(eq(orgs.id, org.id));
    const keysUrl = {
      method: 'GET' as const,
      url: '/api/v1/api-keys',
      headers: { authorization: `Bearer ${adminToken}` },
    };
    expect((await server.app.inject(keysUrl)).json().code).toBe('FEATURE_DISABLED');

    const res = await patchFlags(adminToken, { flags: { apiKeysEnabled: true, multiplayerEnabled: true } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().flags).toMatchObject({
      apiKeysEnabled: true,
      multiplayerEnabled: true,
      notifications: false,
    });
    const off = await patchFlags(adminToken, { flags: { multiplayerEnabled: false } });
    expect(off.json().flags).toMatchObject({ apiKeysEnabled: true, multiplayerEnabled: false });
    expect((await storedOrg()).flags).toEqual({
      outageBanner: true,
      apiKeysEnabled: true,
      multiplayerEnabled: false,
    });
    // PLAN_REQUIRED now, not FEATURE_DISABLED: the flag gate opened and the plan gate is next.
    expect((await server.app.inject(keysUrl)).json().code).not.toBe('FEATURE_DISABLED');
  });

  it("refuses the operator's flags, unknown names, non-booleans and members, changing nothing", async () => {
    const before = (await storedOrg()).flags;
    for (const payload of [
      { flags: { outageBanner: false } },
      { flags: { publicTopics: true } },
      { flags: { nope: true } },
      { flags: { answers: 'yes' } },
      { flags: { answers: true }, extra: 1 },
      {},
    ]) {
      const res = await patchFlags(adminToken, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().code).toBe('VALIDATION_FAILED');
    }
    const member = await patchFlags(memberToken, { flags: { answers: true } });
    expect(member.json().code).toBe('ADMIN_REQUIRED');
    expect((await storedOrg()).flags).toEqual(before);
  });

  it('lets an admin allow public links with the org setting', async () => {
    const res = await patch(adminToken, { public_topics_enabled: true });
    expect(res.statusCode, res.body).toBe(200);
    expect((await storedOrg()).publicTopicsEnabled).toBe(true);
  });
});
