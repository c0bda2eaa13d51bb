import { emailDomain, isDomainAllowed, isEmailAddress } from '../../../common/api/members';
import type { InviteRequest, Member } from '../../../common/api/members';
import { MEMBER_SUGGESTIONS_MAX } from '../../../common/limits';
import { invites, validation } from '../../../common/strings';

/** Spec asking-questions §3, Invite entry: a new address, or a member invited before whose invite is resent. */
export type InviteEntry = {
  email: string;
  inviteType: 'new' | 'resend';
  admin: boolean;
  icon: string | null;
  name: string | null;
};

/** Spec asking-questions §5: 'Invalid email address', then 'Domain not allowed'; null when the address may be invited. */
export function inviteEmailProblem(email: string, domains: readonly string[]): string | null {
  const address = email.trim().toLowerCase();
  if (!isEmailAddress(address)) return validation.INVALID_EMAIL_ADDRESS;
  if (!isDomainAllowed(emailDomain(address), domains)) return validation.DOMAIN_NOT_ALLOWED;
  return null;
}

export function newEntry(email: string): InviteEntry {
  return { email: email.trim().toLowerCase(), inviteType: 'new', admin: false, icon: null, name: null };
}

export function resendEntry(member: Member): InviteEntry {
  return {
    email: member.email,
    inviteType: 'resend',
    admin: member.admin,
    icon: member.icon,
    name: member.name,
  };
}

/**
 * Spec asking-questions §5: up to 5 members with status INVITED or CREATED, not already picked, matching the typed
 * text by email or name; nothing until text is typed.
 */
export function inviteSuggestions(
  members: readonly Member[],
  picked: readonly InviteEntry[],
  text: string,
): Member[] {
  const needle = text.trim().toLowerCase();
  if (!needle) return [];
  const taken = new Set(picked.map((entry) => entry.email.toLowerCase()));
  const seen = new Set<string>();
  return members
    .filter((member) => member.status === 'INVITED' || member.status === 'CREATED')
    .filter((member) => !taken.has(member.email.toLowerCase()))
    .filter(
      (member) =>
        member.email.toLowerCase().includes(needle) || (member.name ?? '').toLowerCase().includes(needle),
    )
    .filter((member) => (seen.has(member.email) ? false : (seen.add(member.email), true)))
    .slice(0, MEMBER_SUGGESTIONS_MAX);
}

export function inviteRequestOf(entries: readonly InviteEntry[]): InviteRequest {
  return { emails: entries.map((entry) => ({ email: entry.email, make_admin: entry.admin })) };
}

/** How one of the two calls went: not made (its list was empty), or its result. */
export type CallResult = 'none' | 'ok' | 'failed';

export type InviteOutcome = {
  /** What stays in the dialog: only the lists whose call failed. */
  kept: InviteEntry[];
  successes: string[];
  failures: string[];
};

/**
 * Spec asking-questions §4 and §8: both calls failing is one failure ('Failed to invite members'); otherwise each
 * call speaks for itself, and only the failed list stays selected.
 */
export function inviteOutcome(
  entries: readonly InviteEntry[],
  send: CallResult,
  resend: CallResult,
): InviteOutcome {
  const fresh = entries.filter((entry) => entry.inviteType === 'new');
  const again = entries.filter((entry) => entry.inviteType === 'resend');
  if (send === 'failed' && resend === 'failed') {
    return { kept: [...entries], successes: [], failures: [invites.FAILED_TO_INVITE] };
  }
  const outcome: InviteOutcome = { kept: [], successes: [], failures: [] };
  if (send === 'ok') outcome.successes.push(invites.INVITED);
  if (send === 'failed') {
    outcome.failures.push(invites.FAILED_TO_SEND);
    outcome.kept.push(...fresh);
  }
  if (resend === 'ok') outcome.successes.push(invites.RESENT);
  if (resend === 'failed') {
    outcome.failures.push(invites.FAILED_TO_RESEND);
    outcome.kept.push(...again);
  }
  return outcome;
}
