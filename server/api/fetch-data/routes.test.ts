import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AllowedDomainsResponse, OrgView } from '../../../common/api/orgs';
import { Feature, FEATURE_MIN_PLAN, planAllows } from '../../../common/plans';
import { orgAllowedDomains, orgs, subscriptions, type NewSubscription, type Org } from '../../db/schema';
import { createOrg, createUser, loginTokensFor } from '../../testing/fixtures';
import { createTestServer, type TestServer } from '../../testing/server';

const DAY_MS = 86_400_000;
const ALL_FEATURES = Object.values(Feature);

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(() => server.close());

type Sub = Pick<NewSubscription, 'planType' | 'status' | 'trialEndAt'> & { ageDays: number };

/** An org whose subscriptions are exactly `subs` (oldest given first), with an admin and a member. */
async function orgWith(domain: string, subs: Sub[]) {
  const { db } = server.store;
  const org = await createOrg(db, { domain });
  await db.delete(subscriptions).where(eq(subscriptions.orgId, org.id));
  for (const { ageDays, ...sub } of subs) {
    await db
      .insert(subscriptions)
      .values({ orgId: org.id, ...sub, createdAt: new Date(Date.now() - ageDays * DAY_MS) });
  }
  const admin = await createUser(db, org, { email: `admin@${domain}`, admin: true });
  const member = await createUser(db, org, { email: `member@${domain}` });
  return {
    org,
    adminToken: (await loginTokensFor(server.ctx, admin)).id_token,
    memberToken: (await loginTokensFor(server.ctx, member)).id_token,
  };
}

const get = (token: string, url: string) =>
  server.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: { authorization: `Bearer ${token}` } });

async function orgView(token: string): Promise<OrgView> {
  const res = await get(token, '/_fetchData/org');
  expect(res.statusCode, res.body).toBe(200);
  return res.json<OrgView>();
}

/** What common/plans.ts says for the stored rows, newest first: the client's mirror must equal it. */
async function expectedFeatures(org: Org) {
  const rows = await server.store.db
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.orgId, org.id))
    .orderBy(desc(subscriptions.createdAt));
  return Object.fromEntries(ALL_FEATURES.map((f) => [f, planAllows(rows, f, new Date())]));
}

describe('GET /_fetchData/org', () => {
  it('shows a member the org, its plan and the features it allows, exactly as planAllows computes them', async () => {
    for (const plan of ['TEAM', 'BUSINESS', 'ENTERPRISE'] as const) {
      const domain = `${plan.toLowerCase()}-plan.test`;
      const { org, memberToken } = await orgWith(domain, [{ planType: plan, status: 'ACTIVE', ageDays: 1 }]);
      const view = await orgView(memberToken);
      expect(view).toMatchObject({ id: org.id, domain, name: domain, isWorkspaceSetup: true, logo: null });
      expect(view.subscription).toEqual({
        planType: plan,
        status: 'ACTIVE',
        trialEndAt: null,
        isPaid: true,
        trialExpired: false,
      });
      expect(view.features).toEqual(await expectedFeatures(org));
      for (const feature of ALL_FEATURES) {
        const minimum = FEATURE_MIN_PLAN[feature];
        const expected = plan === 'ENTERPRISE' || (plan === 'BUSINESS' && minimum === 'BUSINESS');
        expect(view.features[feature], `${plan} ${feature}`).toBe(expected);
      }
    }
  });

  it('counts an expired TRIAL as unpaid and a running one as its plan', async () => {
    const expired = await orgWith('expired-trial.test', [
      { planType: 'ENTERPRISE', status: 'TRIAL', trialEndAt: new Date(Date.now() - DAY_MS), ageDays: 31 },
    ]);
    const expiredView = await orgView(expired.memberToken);
    expect(expiredView.subscription).toMatchObject({ status: 'TRIAL', isPaid: false, trialExpired: true });
    expect(Object.values(expiredView.features).every((allowed) => !allowed)).toBe(true);

    const running = await orgWith('running-trial.test', [
      { planType: 'ENTERPRISE', status: 'TRIAL', trialEndAt: new Date(Date.now() + DAY_MS), ageDays: 1 },
    ]);
    const runningView = await orgView(running.memberToken);
    expect(runningView.subscription).toMatchObject({ isPaid: true, trialExpired: false });
    expect(runningView.subscription?.trialEndAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(Object.values(runningView.features).every(Boolean)).toBe(true);
  });

  it('skips CANCELLED subscriptions and treats INACTIVE or none as no plan', async () => {
    const downgraded = await orgWith('cancelled.test', [
      { planType: 'BUSINESS', status: 'ACTIVE', ageDays: 60 },
      { planType: 'ENTERPRISE', status: 'CANCELLED', ageDays: 1 },
    ]);
    const view = await orgView(downgraded.memberToken);
    expect(view.subscription?.planType).toBe('BUSINESS');
    expect(view.features).toMatchObject({ customBots: true, sso: false });
    expect(view.features).toEqual(await expectedFeatures(downgraded.org));

    const inactive = await orgWith('inactive.test', [
      { planType: 'ENTERPRISE', status: 'INACTIVE', ageDays: 1 },
    ]);
    const inactiveView = await orgView(inactive.memberToken);
    expect(inactiveView.subscription).toMatchObject({ status: 'INACTIVE', isPaid: false });
    expect(Object.values(inactiveView.features).some(Boolean)).toBe(false);

    const none = await orgWith('no-subscription.test', []);
    expect((await orgView(none.memberToken)).subscription).toBeNull();
  });

  it('shows the analytics token to admins only, and allowed domains only on a plan with several domains', async () => {
    const { db } = server.store;
    const big = await orgWith('big-org.test', [{ planType: 'ENTERPRISE', status: 'ACTIVE', ageDays: 1 }]);
    await db.update(orgs).set({ exploToken: 'tok-123' }).where(eq(orgs.id, big.org.id));
    await db.insert(orgAllowedDomains).values({ orgId: big.org.id, domain: 'big-labs.test' });
    expect((await orgView(big.adminToken)).exploToken).toBe('tok-123');
    const memberView = await orgView(big.memberToken);
    expect(memberView.exploToken).toBeNull();
    expect(memberView.allowedDomains).toEqual(['big-labs.test']);

    const small = await orgWith('small-org.test', [{ planType: 'BUSINESS', status: 'ACTIVE', ageDays: 1 }]);
    await db.insert(orgAllowedDomains).values({ orgId: small.org.id, domain: 'small-labs.test' });
    expect((await orgView(small.adminToken)).allowedDomains).toEqual([]);
  });
});

describe('GET /_fetchData/allowed_domains', () => {
  it("lists an ENTERPRISE org's allowed domains to its admins", async () => {
    const { org, adminToken } = await orgWith('domains.test', [
      { planType: 'ENTERPRISE', status: 'ACTIVE', ageDays: 1 },
    ]);
    await server.store.db.insert(orgAllowedDomains).values([
      { orgId: org.id, domain: 'domains-eu.test', status: 'VERIFIED', verificationCode: 'scout-verify=abc' },
      { orgId: org.id, domain: 'domains-us.test', allowAllSignups: true },
    ]);
    await orgWith('other-domains.test', []);
    const res = await get(adminToken, '/_fetchData/allowed_domains');
    expect(res.statusCode, res.body).toBe(200);
    const { allowed_domains } = res.json<AllowedDomainsResponse>();
    expect(allowed_domains.map((d) => [d.domain, d.status, d.verificationCode, d.allowAllSignups])).toEqual([
      ['domains-eu.test', 'VERIFIED', 'scout-verify=abc', false],
      ['domains-us.test', 'UNVERIFIED', null, true],
    ]);
  });

  it('refuses members, lower plans and expired trials', async () => {
    const enterprise = await orgWith('gate-ent.test', [
      { planType: 'ENTERPRISE', status: 'ACTIVE', ageDays: 1 },
    ]);
    const member = await get(enterprise.memberToken, '/_fetchData/allowed_domains');
    expect(member.statusCode).toBe(403);
    expect(member.json().code).toBe('ADMIN_REQUIRED');

    const refusedOrgs = [
      await orgWith('gate-team.test', [{ planType: 'TEAM', status: 'ACTIVE', ageDays: 1 }]),
      await orgWith('gate-business.test', [{ planType: 'BUSINESS', status: 'ACTIVE', ageDays: 1 }]),
      await orgWith('gate-expired.test', [
        { planType: 'ENTERPRISE', status: 'TRIAL', trialEndAt: new Date(Date.now() - 1000), ageDays: 30 },
      ]),
      await orgWith('gate-cancelled.test', [
        { planType: 'TEAM', status: 'ACTIVE', ageDays: 9 },
        { planType: 'ENTERPRISE', status: 'CANCELLED', ageDays: 1 },
      ]),
    ];
    for (const { org, adminToken } of refusedOrgs) {
      const res = await get(adminToken, '/_fetchData/allowed_domains');
      expect(res.statusCode, org.domain).toBe(403);
      expect(res.json()).toMatchObject({
        code: 'PLAN_REQUIRED',
        message: expect.stringContaining('multipleDomains'),
      });
    }
  });
});
