/**
 * Sign-up (spec §2.5, §4.2; issue "Identity and workspace"). The outcome depends on the email's domain:
 * - a member already: 409, or, for someone invited who never signed in, their invitation is completed;
 * - a domain no org owns: a new workspace with this person as its first admin, on a 14-day ENTERPRISE trial so a
 *   new team can try every feature (SSO included) before choosing a plan;
 * - a domain an org owns: they join when the org takes members on its own (preferences.auto_invite_members, or a
 *   verified allowed domain with allowAllSignups), else 403.
 * In every accepted case the person then gets a sign-in code; their status becomes SIGNED_UP when they use it.
 */
import { emailDomain } from '../../common/api/members';
import { and, eq } from 'drizzle-orm';
import { authMessages, type SignUpBody } from '../../common/api/auth';
import { auth } from '../../common/strings';
import type { ServerContext } from '../context';
import { orgs, subscriptions, users, type Org, type User } from '../db/schema';
import type { Db } from '../db/store';
import { badRequest, conflict, forbidden } from '../errors';
import { memberByEmail, orgOfDomain, ssoEnforced, type DomainOwner } from './members';
import { PUBLIC_EMAIL_DOMAINS } from './public-email-domains';

export const TRIAL_DAYS = 14;

type Person = Pick<SignUpBody, 'email' | 'first_name' | 'last_name'>;

/** Answers the member to send a sign-up code to, or throws the refusal. */
export async function signUp(
  ctx: Pick<ServerContext, 'store' | 'config'>,
  person: Person,
  now = new Date(),
): Promise<User> {
  const { db } = ctx.store;
  const existing = await memberByEmail(db, person.email);
  if (existing) return completeInvitation(db, existing, person);

  const owner = await orgOfDomain(db, emailDomain(person.email));
  if (owner) return join(db, owner, person);

  const domain = emailDomain(person.email);
  if (PUBLIC_EMAIL_DOMAINS.has(domain)) throw badRequest(authMessages.WORK_EMAIL_REQUIRED);
  if (!ctx.config.selfServeSignup) throw forbidden(auth.SIGNUP_FAILED);
  const created = await createWorkspace(db, domain, person, now);
  if (created) return created;
  // Someone else created this domain's workspace a moment ago: the join rules decide, as for any known domain.
  const raced = await orgOfDomain(db, domain);
  if (!raced) throw new Error(`workspace for ${domain} neither created nor found`);
  return join(db, raced, person);
}

async function completeInvitation(db: Db, member: User, person: Person): Promise<User> {
  if (member.status === 'SIGNED_UP') throw conflict(auth.SIGNUP_ALREADY_EXISTS);
  if (member.status === 'BLOCKED' || member.status === 'DELETED') throw forbidden(auth.REQUEST_ACCESS);
  if (await ssoEnforced(db, member.orgId)) throw forbidden(auth.SSO_FORCED);
  const [updated] = await db
    .update(users)
    .set({
      firstName: member.firstName || person.first_name,
      lastName: member.lastName || person.last_name,
    })
    .where(and(eq(users.id, member.id), eq(users.orgId, member.orgId)))
    .returning();
  return updated ?? member;
}

function takesSignUps(owner: DomainOwner): boolean {
  return owner.org.preferences.auto_invite_members === true || owner.allowAllSignups;
}

async function join(db: Db, owner: DomainOwner, person: Person): Promise<User> {
  if (await ssoEnforced(db, owner.org.id)) throw forbidden(auth.SSO_FORCED);
  if (!takesSignUps(owner)) throw forbidden(auth.REQUEST_ACCESS);
  await db
    .insert(users)
    .values({
      orgId: owner.org.id,
      email: person.email,
      firstName: person.first_name,
      lastName: person.last_name,
      status: 'CREATED',
    })
    .onConflictDoNothing();
  // Re-read rather than trust the insert: a parallel sign-up of the same person may have won.
  const member = await memberByEmail(db, person.email, owner.org.id);
  if (!member) throw new Error(`member ${person.email} neither inserted nor found`);
  return member;
}

/** 'acme-corp.co.uk' → 'Acme-corp': a starting name the first admin changes in the setup dialog. */
export function workspaceNameOf(domain: string): string {
  const label = domain.split('.')[0] ?? domain;
  return label.charAt(0).toUpperCase() + label.slice(1);
}

/** The org, its trial and its first admin, together or not at all. Null when the domain was taken meanwhile. */
async function createWorkspace(db: Db, domain: string, person: Person, now: Date): Promise<User | null> {
  return db.transaction(async (tx) => {
    const [org]: Org[] = await tx
      .insert(orgs)
      // A workspace made by sign-up starts with the first-run setup dialog on (spec §4.5; the flag defaults off).
      .values({ domain, name: workspaceNameOf(domain), isWorkspaceSetup: false, flags: { userSetup: true } })
      .onConflictDoNothing()
      .returning();
    if (!org) return null;
    await tx.insert(subscriptions).values({
      orgId: org.id,
      planType: 'ENTERPRISE',
      status: 'TRIAL',
      trialEndAt: new Date(now.getTime() + TRIAL_DAYS * 24 * 60 * 60_000),
    });
    const [admin] = await tx
      .insert(users)
      .values({
        orgId: org.id,
        email: person.email,
        firstName: person.first_name,
        lastName: person.last_name,
        admin: true,
        status: 'CREATED',
        onboardingState: { first_admin: true },
      })
      .returning();
    return admin ?? null;
  });
}
