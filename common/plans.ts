// Plans, subscriptions and feature gating (spec shell-and-account §4.9 and §5, apps-and-connections §6,
// DESIGN §7). The server enforces these rules and the app uses the same functions to show the paywall,
// so the two cannot disagree. Every rule takes `now` so it stays pure and testable.

export const PlanType = {
  TEAM: 'TEAM',
  BUSINESS: 'BUSINESS',
  ENTERPRISE: 'ENTERPRISE',
} as const;
export type PlanType = (typeof PlanType)[keyof typeof PlanType];

/** Lowest to highest: a plan includes every feature of the plans before it. */
export const PLAN_ORDER: readonly PlanType[] = [PlanType.TEAM, PlanType.BUSINESS, PlanType.ENTERPRISE];

export function planRank(plan: PlanType): number {
  return PLAN_ORDER.indexOf(plan);
}

export function planAtLeast(plan: PlanType, minimum: PlanType): boolean {
  return planRank(plan) >= planRank(minimum);
}

export const SubscriptionStatus = {
  ACTIVE: 'ACTIVE',
  TRIAL: 'TRIAL',
  INACTIVE: 'INACTIVE',
  CANCELLED: 'CANCELLED',
} as const;
export type SubscriptionStatus = (typeof SubscriptionStatus)[keyof typeof SubscriptionStatus];

export interface Subscription {
  id: string;
  planType: PlanType;
  status: SubscriptionStatus;
  /** ISO-8601 on the wire; null when the subscription is not a trial. */
  trialEndAt: string | Date | null;
  seatCount: number;
}

/** What the rules read, so callers can pass a database row or a wire object alike. */
export type SubscriptionLike = Pick<Subscription, 'planType' | 'status'> & {
  trialEndAt?: string | Date | null;
};

export const Feature = {
  aiModelSelection: 'aiModelSelection',
  customBots: 'customBots',
  multipleAppAccounts: 'multipleAppAccounts',
  orgWideApps: 'orgWideApps',
  orgWideInstructions: 'orgWideInstructions',
  deepResearch: 'deepResearch',
  apiAccess: 'apiAccess',
  analytics: 'analytics',
  hris: 'hris',
  multipleDomains: 'multipleDomains',
  scim: 'scim',
  sso: 'sso',
  enterpriseModels: 'enterpriseModels',
  customDisclaimer: 'customDisclaimer',
  customLlmSelection: 'customLlmSelection',
} as const;
export type Feature = (typeof Feature)[keyof typeof Feature];

/** The minimum plan of each feature. */
export const FEATURE_MIN_PLAN: Readonly<Record<Feature, PlanType>> = {
  aiModelSelection: PlanType.BUSINESS,
  customBots: PlanType.BUSINESS,
  multipleAppAccounts: PlanType.BUSINESS,
  orgWideApps: PlanType.BUSINESS,
  orgWideInstructions: PlanType.BUSINESS,
  deepResearch: PlanType.BUSINESS,
  apiAccess: PlanType.ENTERPRISE,
  // "all analytics tabs"
  analytics: PlanType.ENTERPRISE,
  hris: PlanType.ENTERPRISE,
  multipleDomains: PlanType.ENTERPRISE,
  scim: PlanType.ENTERPRISE,
  sso: PlanType.ENTERPRISE,
  // The models outside the picker's "open to all plans" column.
  enterpriseModels: PlanType.ENTERPRISE,
  // Listed among the Enterprise additions in spec asking-questions §1.
  customDisclaimer: PlanType.ENTERPRISE,
  // Also an Enterprise addition there: the admin choosing which models the workspace offers.
  customLlmSelection: PlanType.ENTERPRISE,
};

function toTime(value: string | Date): number {
  return value instanceof Date ? value.getTime() : new Date(value).getTime();
}

/**
 * A TRIAL whose end time has been reached. Only trials expire: an ACTIVE subscription that kept the end date
 * of the trial it was converted from is not expired. A trial with no end date (or an unreadable one) runs on.
 */
export function isTrialExpired(sub: SubscriptionLike, now: Date): boolean {
  if (sub.status !== SubscriptionStatus.TRIAL || !sub.trialEndAt) return false;
  const end = toTime(sub.trialEndAt);
  return !Number.isNaN(end) && end <= now.getTime();
}

/** The first subscription that is not CANCELLED, in the order given (the server lists the newest first). */
export function activeSubscription<S extends SubscriptionLike>(subs: readonly S[]): S | undefined {
  return subs.find((sub) => sub.status !== SubscriptionStatus.CANCELLED);
}

/** Spec §4.9 word for word: not INACTIVE and not an expired trial. */
export function isPaid(sub: SubscriptionLike, now: Date): boolean {
  return sub.status !== SubscriptionStatus.INACTIVE && !isTrialExpired(sub, now);
}

/** The plan in force: that of the active subscription when it is ACTIVE or an unexpired TRIAL. */
export function currentPlan(subs: readonly SubscriptionLike[], now: Date): PlanType | null {
  const sub = activeSubscription(subs);
  if (!sub) return null;
  const inForce =
    sub.status === SubscriptionStatus.ACTIVE ||
    (sub.status === SubscriptionStatus.TRIAL && !isTrialExpired(sub, now));
  return inForce ? sub.planType : null;
}

export function planAllows(subs: readonly SubscriptionLike[], feature: Feature, now: Date): boolean {
  const plan = currentPlan(subs, now);
  return plan !== null && planAtLeast(plan, FEATURE_MIN_PLAN[feature]);
}

/** The cheapest plan that unlocks a feature: which upgrade modal (Business or Enterprise) to show. */
export function requiredPlan(feature: Feature): PlanType {
  return FEATURE_MIN_PLAN[feature];
}
