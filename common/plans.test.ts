import { describe, it, expect } from 'vitest';
import {
  FEATURE_MIN_PLAN,
  Feature,
  PLAN_ORDER,
  PlanType,
  SubscriptionStatus,
  activeSubscription,
  currentPlan,
  isPaid,
  isTrialExpired,
  planAllows,
  planAtLeast,
  type SubscriptionLike,
} from './plans';

const now = new Date('2025-06-01T12:00:00Z');
const past = '2025-05-31T12:00:00Z';
const future = '2025-06-02T12:00:00Z';

const sub = (planType: PlanType, status: SubscriptionLike['status'], trialEndAt: string | null = null) => ({
  planType,
  status,
  trialEndAt,
});

describe('plans', () => {
  it('orders TEAM < BUSINESS < ENTERPRISE', () => {
    expect(PLAN_ORDER).toEqual(['TEAM', 'BUSINESS', 'ENTERPRISE']);
    expect(planAtLeast(PlanType.ENTERPRISE, PlanType.BUSINESS)).toBe(true);
    expect(planAtLeast(PlanType.BUSINESS, PlanType.BUSINESS)).toBe(true);
    expect(planAtLeast(PlanType.TEAM, PlanType.BUSINESS)).toBe(false);
    expect(planAtLeast(PlanType.BUSINESS, PlanType.ENTERPRISE)).toBe(false);
  });

  it('gates features by the spec table', () => {
    const business = Object.entries(FEATURE_MIN_PLAN)
      .filter(([, plan]) => plan === PlanType.BUSINESS)
      .map(([feature]) => feature)
      .sort();
    expect(business).toEqual(
      [
        'aiModelSelection',
        'customBots',
        'multipleAppAccounts',
        'orgWideApps',
        'orgWideInstructions',
        'deepResearch',
      ].sort(),
    );
    for (const feature of [
      'apiAccess',
      'analytics',
      'hris',
      'multipleDomains',
      'scim',
      'sso',
      'enterpriseModels',
      'customDisclaimer',
      'customLlmSelection',
    ]) {
      expect(FEATURE_MIN_PLAN[feature as Feature]).toBe(PlanType.ENTERPRISE);
    }
    expect(Object.values(FEATURE_MIN_PLAN)).not.toContain(PlanType.TEAM);
  });

  it('expires a trial once its end time has passed', () => {
    expect(isTrialExpired(sub('BUSINESS', 'TRIAL', past), now)).toBe(true);
    expect(isTrialExpired(sub('BUSINESS', 'TRIAL', future), now)).toBe(false);
    expect(isTrialExpired(sub('BUSINESS', 'TRIAL', null), now)).toBe(false);
    expect(isTrialExpired(sub('BUSINESS', 'ACTIVE', past), now)).toBe(false);
    expect(isTrialExpired({ ...sub('BUSINESS', 'TRIAL'), trialEndAt: new Date(past) }, now)).toBe(true);
  });

  it('takes the first subscription that is not CANCELLED as active', () => {
    const cancelled = sub('ENTERPRISE', 'CANCELLED');
    const active = sub('BUSINESS', 'ACTIVE');
    expect(activeSubscription([cancelled, active, sub('TEAM', 'ACTIVE')])).toBe(active);
    expect(activeSubscription([cancelled])).toBeUndefined();
    expect(activeSubscription([])).toBeUndefined();
  });

  it('counts a subscription as paid unless INACTIVE or an expired trial', () => {
    expect(isPaid(sub('TEAM', 'ACTIVE'), now)).toBe(true);
    expect(isPaid(sub('BUSINESS', 'TRIAL', future), now)).toBe(true);
    expect(isPaid(sub('BUSINESS', 'TRIAL', past), now)).toBe(false);
    expect(isPaid(sub('ENTERPRISE', 'INACTIVE'), now)).toBe(false);
  });

  it('allows a feature only with an ACTIVE or unexpired TRIAL subscription at or above its plan', () => {
    expect(planAllows([sub('BUSINESS', 'ACTIVE')], Feature.customBots, now)).toBe(true);
    expect(planAllows([sub('BUSINESS', 'ACTIVE')], Feature.sso, now)).toBe(false);
    expect(planAllows([sub('ENTERPRISE', 'ACTIVE')], Feature.customBots, now)).toBe(true);
    expect(planAllows([sub('TEAM', 'ACTIVE')], Feature.deepResearch, now)).toBe(false);
    expect(planAllows([sub('ENTERPRISE', 'TRIAL', future)], Feature.hris, now)).toBe(true);
    expect(planAllows([sub('ENTERPRISE', 'TRIAL', past)], Feature.hris, now)).toBe(false);
    expect(planAllows([sub('ENTERPRISE', 'INACTIVE')], Feature.orgWideApps, now)).toBe(false);
    expect(planAllows([sub('ENTERPRISE', 'CANCELLED'), sub('BUSINESS', 'ACTIVE')], Feature.sso, now)).toBe(
      false,
    );
    expect(
      planAllows([sub('ENTERPRISE', 'CANCELLED'), sub('BUSINESS', 'ACTIVE')], Feature.orgWideApps, now),
    ).toBe(true);
    expect(planAllows([], Feature.customBots, now)).toBe(false);
    expect(currentPlan([sub('BUSINESS', 'TRIAL', past)], now)).toBeNull();
    expect(currentPlan([sub('BUSINESS', 'TRIAL', future)], now)).toBe(PlanType.BUSINESS);
  });

  it('has the four subscription statuses', () => {
    expect(Object.values(SubscriptionStatus)).toEqual(['ACTIVE', 'TRIAL', 'INACTIVE', 'CANCELLED']);
  });
});
