import { and, asc, eq, sql } from 'drizzle-orm';
import type { SignInProvider } from '../../common/api/auth';
import { auth } from '../../common/strings';
import { orgAllowedDomains, orgs, ssoConfigs, users, type Org, type User } from '../db/schema';
import type { Db } from '../db/store';

/** The org an email domain belongs to, and the allowed-domain row when that is how it belongs. */
export type DomainOwner = { org: Org; allowAllSignups: boolean };

/**
 * The org that owns a domain: its own domain, else a VERIFIED allowed domain. Unverified claims route nobody, so an
 * org cannot pull another company's people into itself by listing their domain.
 */
export async function orgOfDomain(db: Db, domain: string): Promise<DomainOwner | null> {
  const [own] = await db.select().from(orgs).where(eq(orgs.domain, domain)).limit(1);
  if (own) return { org: own, allowAllSignups: false };
  const [allowed] = await db
    .select({ org: orgs, allowAllSignups: orgAllowedDomains.allowAllSignups })
    .from(orgAllowedDomains)
    .innerJoin(orgs, eq(orgs.id, orgAllowedDomains.orgId))
    .where(and(eq(orgAllowedDomains.domain, domain), eq(orgAllowedDomains.status, 'VERIFIED')))
    .orderBy(asc(orgAllowedDomains.createdAt))
    .limit(1);
  return allowed ?? null;
}

/**
 * The membership an email signs in to. Membership is per org, so one address may have several; a live one wins
 * over a blocked or deleted one, then the oldest.
 */
export async function memberByEmail(db: Db, email: string, orgId?: string): Promise<User | null> {
  const [user] = await db
    .select()
    .from(users)
    .where(and(eq(users.email, email), orgId ? eq(users.orgId, orgId) : undefined))
    .orderBy(sql`(${users.status} in ('BLOCKED', 'DELETED'))`, asc(users.createdAt))
    .limit(1);
  return user ?? null;
}

/** Why a member may not sign in (spec §8's 403 text), or null when they may. */
export function signInRefusal(user: Pick<User, 'status'>): string | null {
  return user.status === 'BLOCKED' || user.status === 'DELETED' ? auth.REQUEST_ACCESS : null;
}

export async function findSsoConfig(db: Db, orgId: string) {
  const [config] = await db.select().from(ssoConfigs).where(eq(ssoConfigs.orgId, orgId)).limit(1);
  return config ?? null;
}

/** With SSO enforced, an org's members sign in only through their identity provider. */
export async function ssoEnforced(db: Db, orgId: string): Promise<boolean> {
  return (await findSsoConfig(db, orgId))?.enforced ?? false;
}

/** The first sign-in turns an invited or created member into a signed-up one (spec §3 Member statuses). */
export async function recordSignIn(
  db: Db,
  user: Pick<User, 'id' | 'orgId'>,
  now = new Date(),
): Promise<void> {
  await db
    .update(users)
    .set({
      lastLoginAt: now,
      status: sql`case when ${users.status} in ('INVITED', 'CREATED') then 'SIGNED_UP' else ${users.status} end`,
    })
    .where(and(eq(users.id, user.id), eq(users.orgId, user.orgId)));
}

/**
 * How an org's people sign in (spec §2.4): its identity provider when it has configured one, Google when the org
 * prefers it (preferences.login_provider = 'google') and this server has Google sign-in, else an email code.
 */
export async function signInProviderOf(db: Db, org: Org, googleConfigured: boolean): Promise<SignInProvider> {
  if (await findSsoConfig(db, org.id)) return 'sso';
  if (googleConfigured && org.preferences.login_provider === 'google') return 'google';
  return 'email';
}
