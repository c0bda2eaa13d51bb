import { and, eq, inArray } from 'drizzle-orm';
import {
  emailDomain,
  isDomainAllowed,
  isEmailAddress,
  type InviteResponse,
  type InviteSkipReason,
} from '../../common/api/members';
import { validation } from '../../common/strings';
import type { ServerContext, Viewer } from '../context';
import { users, type User } from '../db/schema';
import { ApiError, badRequest, unauthorized } from '../errors';
import { invitableDomains, loadOrg } from '../orgs/load';
import { requireInviteRoles } from '../policies/members';
import { memberNameOf, presentMember } from '../presenters/member';
import { inviteLink, inviteMail } from './invite-mail';

export type InviteEntry = { email: string; make_admin: boolean };
export type InviteMode = 'send' | 'resend';
type MailFailureLog = { error(details: Record<string, unknown>, message: string): void };

/**
 * The batch as it will be applied: every address valid and on an invitable domain, lower-cased and each once (an
 * address listed twice is made admin if any of its entries asks). One bad entry refuses the whole batch, before
 * anything is written or sent (spec asking-questions §5).
 */
export function checkInviteBatch(entries: readonly InviteEntry[], domains: readonly string[]): InviteEntry[] {
  const byEmail = new Map<string, InviteEntry>();
  for (const entry of entries) {
    const email = entry.email.trim().toLowerCase();
    if (!isEmailAddress(email)) throw badRequest(validation.INVALID_EMAIL_ADDRESS);
    if (!isDomainAllowed(emailDomain(email), domains)) throw badRequest(validation.DOMAIN_NOT_ALLOWED);
    const seen = byEmail.get(email);
    byEmail.set(email, { email, make_admin: entry.make_admin || (seen?.make_admin ?? false) });
  }
  return [...byEmail.values()];
}

/** Why a member in this state gets no invite mail; undefined when they get one. */
function skipReason(user: User | undefined, mode: InviteMode): InviteSkipReason | undefined {
  if (!user || user.status === 'DELETED') return mode === 'resend' ? 'not_invited' : undefined;
  if (user.status === 'SIGNED_UP') return 'already_member';
  if (user.status === 'BLOCKED') return 'blocked';
  return undefined;
}

/**
 * `send_invite` creates INVITED members for new addresses (and re-invites deleted ones); `resend_invite` only mails
 * members who have not signed up yet. Both leave signed-up and blocked members as they are and mail everyone else
 * a sign-in link. An admin's make_admin also makes a pending member an admin.
 */
export async function inviteMembers(
  ctx: ServerContext,
  viewer: Viewer,
  entries: readonly InviteEntry[],
  mode: InviteMode,
  log: MailFailureLog,
): Promise<InviteResponse> {
  requireInviteRoles(viewer, entries);
  const { db } = ctx.store;
  const loaded = await loadOrg(db, viewer.orgId);
  const batch = checkInviteBatch(entries, invitableDomains(loaded, new Date()));
  const emails = batch.map((entry) => entry.email);

  const invited = await db.transaction(async (tx) => {
    const inOrg = and(eq(users.orgId, viewer.orgId), inArray(users.email, emails));
    const existing = new Map((await tx.select().from(users).where(inOrg)).map((user) => [user.email, user]));
    for (const entry of batch) {
      const user = existing.get(entry.email);
      if (skipReason(user, mode)) continue;
      if (!user) {
        await tx
          .insert(users)
          .values({
            orgId: viewer.orgId,
            email: entry.email,
            status: 'INVITED',
            admin: entry.make_admin,
            invitedBy: viewer.userId,
          })
          // Someone else invited the same address a moment ago: their row stands and this mail still goes.
          .onConflictDoNothing();
      } else if (user.status === 'DELETED') {
        await tx
          .update(users)
          .set({ status: 'INVITED', admin: entry.make_admin, invitedBy: viewer.userId })
          .where(eq(users.id, user.id));
      } else if (entry.make_admin && !user.admin) {
        await tx.update(users).set({ admin: true }).where(eq(users.id, user.id));
      }
    }
    return new Map((await tx.select().from(users).where(inOrg)).map((user) => [user.email, user]));
  });

  const sent: User[] = [];
  const skipped: InviteResponse['skipped'] = [];
  for (const { email } of batch) {
    const user = invited.get(email);
    const reason = skipReason(user, mode);
    if (reason) skipped.push({ email, reason });
    else if (user) sent.push(user);
  }
  await mailInvites(ctx, viewer, loaded.org.name, sent, log);
  return { sent: sent.map(presentMember), skipped };
}

/** Mails every invite; a failure leaves the members invited (resend works) and answers 502 naming who missed out. */
async function mailInvites(
  ctx: ServerContext,
  viewer: Viewer,
  orgName: string,
  to: readonly User[],
  log: MailFailureLog,
) {
  if (to.length === 0) return;
  const [inviter] = await ctx.store.db
    .select()
    .from(users)
    .where(and(eq(users.id, viewer.userId), eq(users.orgId, viewer.orgId)))
    .limit(1);
  if (!inviter) throw unauthorized();
  const from = { name: memberNameOf(inviter) ?? inviter.email, email: inviter.email };
  const results = await Promise.allSettled(
    to.map((user) =>
      ctx.mailer.send(
        inviteMail({
          to: user.email,
          link: inviteLink(ctx.config.publicUrl, user.email),
          orgName,
          inviter: from,
        }),
      ),
    ),
  );
  const failed = to.filter((_, index) => results[index]?.status === 'rejected');
  results.forEach((result, index) => {
    if (result.status === 'rejected')
      log.error({ err: result.reason, mailTo: to[index]?.email }, 'invite mail failed');
  });
  if (failed.length > 0) {
    throw new ApiError(
      502,
      'UPSTREAM_FAILED',
      `Could not send the invite email to ${failed.map((user) => user.email).join(', ')}.`,
    );
  }
}
