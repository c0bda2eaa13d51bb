import {
  DEFAULT_ORG_PREFERENCES,
  orgPreferencesSchema,
  type AllowedDomain,
  type OrgPreferences,
  type OrgSubscription,
  type OrgView,
} from '../../common/api/orgs';
import { presentBookmarks } from './bookmarks';
import {
  Feature,
  activeSubscription,
  isPaid,
  isTrialExpired,
  planAllows,
  type SubscriptionLike,
} from '../../common/plans';
import type { JsonObject, Org, OrgAllowedDomain, Subscription } from '../db/schema';

/** Stored preferences with every known key read leniently: a missing or malformed value reads as its default. */
export function readOrgPreferences(stored: JsonObject): OrgPreferences {
  const read = { ...DEFAULT_ORG_PREFERENCES };
  for (const key of Object.keys(DEFAULT_ORG_PREFERENCES) as (keyof OrgPreferences)[]) {
    const parsed = orgPreferencesSchema.shape[key].safeParse(stored[key]);
    if (parsed.success && parsed.data !== null) Object.assign(read, { [key]: parsed.data });
  }
  return read;
}

/** What the client needs to mirror the server's gating: the subscription in force and every feature's answer. */
export function presentPlan(
  subs: readonly Subscription[],
  now: Date,
): { subscription: OrgSubscription | null; features: Record<Feature, boolean> } {
  const active = activeSubscription(subs);
  const features = Object.fromEntries(
    Object.values(Feature).map((feature) => [feature, planAllows(subs, feature, now)]),
  ) as Record<Feature, boolean>;
  return { subscription: active ? presentSubscription(active, now) : null, features };
}

function presentSubscription(sub: Subscription & SubscriptionLike, now: Date): OrgSubscription {
  return {
    planType: sub.planType,
    status: sub.status,
    trialEndAt: sub.trialEndAt?.toISOString() ?? null,
    isPaid: isPaid(sub, now),
    trialExpired: isTrialExpired(sub, now),
  };
}

/**
 * The org as one of its members sees it. `subscriptions` must be newest first (spec §4.9). Allowed domains count only
 * while the plan allows several domains, which is also what the invite check reads.
 */
export function presentOrg(
  loaded: { org: Org; allowedDomains: readonly OrgAllowedDomain[]; subscriptions: readonly Subscription[] },
  viewer: { admin: boolean },
  now: Date,
): OrgView {
  const { org } = loaded;
  const plan = presentPlan(loaded.subscriptions, now);
  return {
    id: org.id,
    domain: org.domain,
    name: org.name,
    logo: org.logo ?? null,
    isWorkspaceSetup: org.isWorkspaceSetup,
    firstAdminOnboarded: org.firstAdminOnboarded,
    homepageLinks: presentBookmarks(org.homepageLinks),
    preferences: readOrgPreferences(org.preferences ?? {}),
    appPreferences: org.appPreferences ?? {},
    disclaimer: org.disclaimer ?? null,
    custom_instructions: org.customInstructions ?? null,
    chatRetentionDays: org.chatRetentionDays ?? null,
    preferredLlm: org.preferredLlm ?? null,
    publicTopicsEnabled: org.publicTopicsEnabled,
    exploToken: viewer.admin ? (org.exploToken ?? null) : null,
    allowedDomains: plan.features.multipleDomains ? loaded.allowedDomains.map((row) => row.domain) : [],
    subscription: plan.subscription,
    features: plan.features,
  };
}

export function presentAllowedDomain(row: OrgAllowedDomain): AllowedDomain {
  return {
    id: row.id,
    domain: row.domain,
    status: row.status,
    verificationCode: row.verificationCode ?? null,
    createdAt: row.createdAt.toISOString(),
    allowAllSignups: row.allowAllSignups,
  };
}
