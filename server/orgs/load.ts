import { desc, eq } from 'drizzle-orm';
import { Feature, planAllows } from '../../common/plans';
import {
  orgAllowedDomains,
  orgs,
  subscriptions,
  type Org,
  type OrgAllowedDomain,
  type Subscription,
} from '../db/schema';
import type { DbOrTx } from '../db/store';
import { unauthorized } from '../errors';

export type LoadedOrg = { org: Org; allowedDomains: OrgAllowedDomain[]; subscriptions: Subscription[] };

/**
 * An org's subscriptions newest first, the order spec §4.9's "first that is not CANCELLED" reads them in. Ids are
 * UUID v7, so they break ties between rows created in one transaction.
 */
export function orgSubscriptions(db: DbOrTx, orgId: string): Promise<Subscription[]> {
  return db
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.orgId, orgId))
    .orderBy(desc(subscriptions.createdAt), desc(subscriptions.id));
}

/** The viewer's org with what its presenter and the invite check read. A vanished org ends the session. */
export async function loadOrg(db: DbOrTx, orgId: string): Promise<LoadedOrg> {
  const [org] = await db.select().from(orgs).where(eq(orgs.id, orgId)).limit(1);
  if (!org) throw unauthorized();
  const [allowedDomains, subs] = await Promise.all([
    db.select().from(orgAllowedDomains).where(eq(orgAllowedDomains.orgId, orgId)),
    orgSubscriptions(db, orgId),
  ]);
  return { org, allowedDomains, subscriptions: subs };
}

/**
 * The domains whose addresses may be invited: the org's own, plus its allowed domains while the plan allows several
 * domains (ENTERPRISE), so a downgraded org stops inviting on domains it no longer pays for.
 */
export function invitableDomains(loaded: LoadedOrg, now: Date): string[] {
  const extra = planAllows(loaded.subscriptions, Feature.multipleDomains, now)
    ? loaded.allowedDomains.map((row) => row.domain)
    : [];
  return [loaded.org.domain, ...extra];
}
