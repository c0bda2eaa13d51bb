import { and, eq } from 'drizzle-orm';
import type { AiControls } from '../../common/api/ai-controls';
import { Feature, planAllows } from '../../common/plans';
import { orgs, users } from '../db/schema';
import type { Db } from '../db/store';
import { loadOrg } from '../orgs/load';

/**
 * The org's AI controls in force: a setting its plan does not include is null, as the answer pipeline
 * (server/chat/answer.ts) then leaves it out of the prompt and nothing shows it under an answer.
 */
export async function aiControlsInForce(db: Db, orgId: string, now = new Date()): Promise<AiControls> {
  const { org, subscriptions } = await loadOrg(db, orgId);
  return {
    disclaimer: planAllows(subscriptions, Feature.customDisclaimer, now) ? (org.disclaimer ?? null) : null,
    custom_instructions: planAllows(subscriptions, Feature.orgWideInstructions, now)
      ? (org.customInstructions ?? null)
      : null,
  };
}

export async function updateOrgAiControls(
  db: Db,
  orgId: string,
  set: { disclaimer: string | null } | { customInstructions: string | null },
): Promise<void> {
  await db.update(orgs).set(set).where(eq(orgs.id, orgId));
}

export async function personalBackgroundOf(
  db: Db,
  viewer: { orgId: string; userId: string },
): Promise<string | null> {
  const [user] = await db
    .select({ personalBackground: users.personalBackground })
    .from(users)
    .where(and(eq(users.orgId, viewer.orgId), eq(users.id, viewer.userId)))
    .limit(1);
  return user?.personalBackground ?? null;
}

export async function updatePersonalBackground(
  db: Db,
  viewer: { orgId: string; userId: string },
  personalBackground: string | null,
): Promise<void> {
  await db
    .update(users)
    .set({ personalBackground })
    .where(and(eq(users.orgId, viewer.orgId), eq(users.id, viewer.userId)));
}
