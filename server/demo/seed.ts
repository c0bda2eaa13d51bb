// A first start of the embedded default has nobody to sign in as. The demo workspace gives a person trying Scout a
// set-up org with colleagues to invite, share with and mention, on the plan with every feature, for a month.
import { count, eq } from 'drizzle-orm';
import type { FlagsInput } from '../../common/flags';
import { aclGroupMembers, orgs, subscriptions, users, type NewUser } from '../db/schema';
import type { Store } from '../db/store';
import type { Logger } from '../logger';
import { upsertDocuments } from '../search';
import { DEMO_DOCUMENTS, DEMO_GROUPS } from './content';

export const DEMO_DOMAIN = 'acme.test';
export const DEMO_ADMIN_EMAIL = `admin@${DEMO_DOMAIN}`;
const DEMO_TRIAL_DAYS = 30;
/**
 * The collaboration features are behind flags that default off (spec §6); the demo is where a newcomer shares a
 * topic with a colleague, so it has them on. Operators switch them for their own org with `scout flags set`.
 */
export const DEMO_FLAGS = {
  multiplayerEnabled: true,
  notifications: true,
  realtimeMultiplayer: true,
  publicTopics: true,
} as const satisfies FlagsInput;

export const DEMO_PEOPLE: readonly Pick<NewUser, 'email' | 'firstName' | 'lastName' | 'admin'>[] = [
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
      .values({
        domain: DEMO_DOMAIN,
        name: 'Acme',
        isWorkspaceSetup: true,
        firstAdminOnboarded: true,
        flags: DEMO_FLAGS,
        publicTopicsEnabled: true,
      })
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
 * Indexes the demo documents (server/demo/content) into the demo org, with its group memberships, and answers how
 * many documents were new. Idempotent: times count back from the org's creation, so a second run finds every
 * document unchanged and writes nothing. Without a demo org it does nothing.
 */
export async function seedDemoContent(store: Store): Promise<number> {
  const [org] = await store.db.select().from(orgs).where(eq(orgs.domain, DEMO_DOMAIN)).limit(1);
  if (!org) return 0;
  const memberships = Object.entries(DEMO_GROUPS).flatMap(([groupKey, emails]) =>
    emails.map((memberEmail) => ({ orgId: org.id, groupKey, memberEmail })),
  );
  await store.db.insert(aclGroupMembers).values(memberships).onConflictDoNothing();
  const base = org.createdAt.getTime();
  const day = 86_400_000;
  const people = new Map(
    DEMO_PEOPLE.map((person) => [person.email, `${person.firstName} ${person.lastName}`]),
  );
  const result = await upsertDocuments(
    store.db,
    org.id,
    DEMO_DOCUMENTS.map((doc) => ({
      source: doc.source,
      externalId: doc.id,
      title: doc.title,
      body: doc.body,
      // a reserved placeholder host (common/document-url.ts): the app previews these instead of linking to them
      url: `https://acme.example/${doc.source}/${doc.id}`,
      author: people.get(doc.author) ?? doc.author,
      authorEmail: doc.author,
      objectType: doc.objectType,
      fileType: doc.fileType,
      createdTime: new Date(base - (doc.modifiedDaysAgo + doc.createdDaysAgo) * day),
      modifiedTime: new Date(base - doc.modifiedDaysAgo * day),
      acl: doc.acl,
    })),
  );
  return result.inserted;
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
  await seedDemoContent(store);
}
