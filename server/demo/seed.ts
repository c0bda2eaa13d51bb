// A first start of the embedded default has nobody to sign in as. The demo workspace gives a person trying Scout a
// set-up org with colleagues to invite, share with and mention, on the plan with every feature, for a month.
import { count } from 'drizzle-orm';
import { orgs, subscriptions, users, type NewUser } from '../db/schema';
import type { Store } from '../db/store';
import type { Logger } from '../logger';

export const DEMO_DOMAIN = 'acme.test';
export const DEMO_ADMIN_EMAIL = `admin@${DEMO_DOMAIN}`;
const DEMO_TRIAL_DAYS = 30;

const DEMO_PEOPLE: readonly Pick<NewUser, 'email' | 'firstName' | 'lastName' | 'admin'>[] = [
  { email: DEMO_ADMIN_EMAIL, firstName: 'Ada', lastName: 'Admin', admin: true },
  { email: `ben@${DEMO_DOMAIN}`, firstName: 'Ben', lastName: 'Baker', admin: false },
  { email: `chloe@${DEMO_DOMAIN}`, firstName: 'Chloe', lastName: 'Chen', admin: false },
  { email: `dev@${DEMO_DOMAIN}`, firstName: 'Dev', lastName: 'Das', admin: false },
];

/**
 * Creates the demo workspace when the store has no org at all, and answers whether it did. An existing install (any
 * org, demo or real) is never touched, so this is safe on every start.
 */
export async function seedDemoWorkspace(store: Store, now = new Date()): Promise<boolean> {
  return store.db.transaction(async (tx) => {
    const [existing] = await tx.select({ n: count() }).from(orgs);
    if ((existing?.n ?? 0) > 0) return false;
    const [org] = await tx
      .insert(orgs)
      .values({ domain: DEMO_DOMAIN, name: 'Acme', isWorkspaceSetup: true, firstAdminOnboarded: true })
      .returning();
    if (!org) throw new Error('demo org insert returned nothing');
    await tx
      .insert(users)
      .values(DEMO_PEOPLE.map((person) => ({ ...person, orgId: org.id, status: 'SIGNED_UP' as const })));
    await tx.insert(subscriptions).values({
      orgId: org.id,
      planType: 'ENTERPRISE',
      status: 'TRIAL',
      trialEndAt: new Date(now.getTime() + DEMO_TRIAL_DAYS * 86_400_000),
    });
    return true;
  });
}

/**
 * On start: the embedded store gets the demo workspace unless SCOUT_DEMO=0. A server store is someone's production
 * database and never gets demo data.
 */
export async function seedDemoOnFirstStart(
  store: Store,
  logger: Logger,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  if (store.kind !== 'embedded' || env.SCOUT_DEMO === '0') return;
  if (await seedDemoWorkspace(store)) {
    logger.info(
      { org: DEMO_DOMAIN },
      `demo workspace created: sign in as ${DEMO_ADMIN_EMAIL}; the code appears in this log (SCOUT_DEMO=0 skips it)`,
    );
  }
}
