/**
 * Sign-up (spec §2.5, §4.2; issues "Identity and workspace" and 11). The answer depends only on the email's domain,
 * never on whether the person is a member, so sign-up cannot be used to find out who has an account (the spec's
 * 409 'already exists' and a member-only 403 would both tell). What is mailed differs, and only the address's owner
 * reads it:
 * - a member already: a sign-in code (for someone invited who never signed in, their invitation is completed);
 *   a blocked or deleted member gets nothing;
 * - a domain an org owns: they join when the org takes members on its own (preferences.auto_invite_members, or a
 *   verified allowed domain with allowAllSignups) and get a code; otherwise nothing is created or sent;
 * - a domain no org owns: a new workspace with this person as its first admin, on a 14-day ENTERPRISE trial so a
 *   new team can try every feature (SSO included) before choosing a plan.
 * Their status becomes SIGNED_UP when they use the code.
 */
import { emailDomain } from '../../common/api/members';
import { and, eq } from 'drizzle-orm';
import { authMessages, type SignUpBody } from '../../common/api/auth';
import { auth } from '../../common/strings';
import type { ServerContext } from '../context';
import { orgs, subscriptions, users, type LoginCodePurpose, type Org, type User } from '../db/schema';
import type { Db } from '../db/store';
import { badRequest, forbidden } from '../errors';
import { memberByEmail, orgOfDomain, signInRefusal, ssoEnforced, type DomainOwner } from './members';
import { PUBLIC_EMAIL_DOMAINS } from './public-email-domains';

export const TRIAL_DAYS = 14;

type Person = Pick<SignUpBody, 'email' | 'first_name' | 'last_name'>;
/** Who to mail a code to, and which kind of mail; null when nothing is sent. */
export type SignUpMail = { member: User; purpose: LoginCodePurpose } | null;

/** Answers whom to send a code to, or throws a refusal that is about the domain (never about the person). */
export async function signUp(
  ctx: Pick<ServerContext, 'store' | 'config'>,
  person: Person,
  now = new Date(),
): Promise<SignUpMail> {
  const { db } = ctx.store;
  const domain = emailDomain(person.email);
  const owner = await orgOfDomain(db, domain);
  if (owner && (await ssoEnforced(db, owner.org.id))) throw forbidden(auth.SSO_FORCED);
  const existing = await memberByEmail(db, person.email);
  if (existing) return mailForMember(db, existing, person);
  if (owner) return join(db, owner, person);

  if (PUBLIC_EMAIL_DOMAINS.has(domain)) throw badRequest(authMessages.WORK_EMAIL_REQUIRED);
  if (!ctx.config.selfServeSignup) throw forbidden(auth.SIGNUP_FAILED);
  const created = await createWorkspace(db, domain, person, now);
  if (created) return { member: created, purpose: 'SIGNUP' };
  // Someone else created this domain's workspace a moment ago: the join rules decide, as for any known domain.
  const raced = await orgOfDomain(db, domain);
  if (!raced) throw new Error(`workspace for ${domain} neither created nor found`);
  return join(db, raced, person);
}

async function mailForMember(db: Db, member: User, person: Person): Promise<SignUpMail> {
  if (signInRefusal(member) || (await ssoEnforced(db, member.orgId))) return null;
  if (member.status === 'SIGNED_UP') return { member, purpose: 'LOGIN' };
  const [updated] = await db
    .update(users)
    .set({
      firstName: member.firstName || person.first_name,
      lastName: member.lastName || person.last_name,
    })
    .where(and(eq(users.id, member.id), eq(users.orgId, member.orgId)))
    .returning();
  return { member: updated ?? member, purpose: 'SIGNUP' };
}

function takesSignUps(owner: DomainOwner): boolean {
  return owner.org.preferences.auto_invite_members === true || owner.allowAllSignups;
}

async function join(db: Db, owner: DomainOwner, person: Person): Promise<SignUpMail> {
  if (await ssoEnforced(db, owner.org.id)) throw forbidden(auth.SSO_FORCED);
  if (!takesSignUps(owner)) return null;
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
  return { member, purpose: 'SIGNUP' };
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
