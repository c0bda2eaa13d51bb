import { and, eq, ne } from 'drizzle-orm';
import { activeSubscription, type PlanType } from '../../common/plans';
import { subscriptions, type Subscription } from '../db/schema';
import type { Db } from '../db/store';
import { orgSubscriptions } from './load';

export type PlanChange = { planType: PlanType; status: 'ACTIVE' | 'TRIAL'; trialEndAt: Date | null };

/**
 * Puts an org on a plan. The subscription in force is CANCELLED and a new one starts, so the history stays and the
 * org has exactly one subscription that is not CANCELLED: the one spec §4.9 reads, whatever order it is read in.
 * The seat count carries over.
 */
export async function setPlan(db: Db, orgId: string, change: PlanChange): Promise<Subscription> {
  return db.transaction(async (tx) => {
    const previous = activeSubscription(await orgSubscriptions(tx, orgId));
    await tx
      .update(subscriptions)
      .set({ status: 'CANCELLED' })
      .where(and(eq(subscriptions.orgId, orgId), ne(subscriptions.status, 'CANCELLED')));
    const [created] = await tx
      .insert(subscriptions)
      .values({ orgId, ...change, seatCount: previous?.seatCount ?? null })
      .returning();
    if (!created) throw new Error('subscription insert returned nothing');
    return created;
  });
}
