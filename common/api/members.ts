// Members of the org, invites and the admin's member actions (spec shell-and-account §3 Member, §7.4;
// asking-questions §3 Member and Invite entry, §4 Invites, §5 invite validation, §7).
import { z } from 'zod';

export const MEMBER_STATUSES = ['INVITED', 'CREATED', 'SIGNED_UP', 'BLOCKED', 'DELETED'] as const;
export type MemberStatus = (typeof MEMBER_STATUSES)[number];

/** Members who have not signed up yet: what total_uninvited counts and what 'Resend invite' offers. */
export const NOT_SIGNED_UP_STATUSES = ['INVITED', 'CREATED'] as const satisfies readonly MemberStatus[];

/** Members who cannot sign in. They are the admins' business: only admins list or filter by these statuses. */
export const INACTIVE_STATUSES = ['BLOCKED', 'DELETED'] as const satisfies readonly MemberStatus[];

export const MEMBERS_PAGE_SIZE = 20;

/** `GET /members?q=&page=&status=`: page is 1-based; q matches email or name, case-insensitively. */
export const membersQuerySchema = z.object({
  q: z.string().trim().max(320).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  status: z.enum(MEMBER_STATUSES).optional(),
});
export type MembersQuery = z.infer<typeof membersQuerySchema>;

/** Spec Member. `name` is null until the person has one; the app shows 'Invited User' then. */
export const memberSchema = z.object({
  user_id: z.string(),
  name: z.string().nullable(),
  email: z.string(),
  /** The member's photo (a data URL or a web address), or null. */
  icon: z.string().nullable(),
  status: z.enum(MEMBER_STATUSES),
  admin: z.boolean(),
});
export type Member = z.infer<typeof memberSchema>;

export const membersResponseSchema = z.object({
  /** Members matching q and status (all pages). */
  total: z.number().int(),
  /** Members of the org not signed up yet (INVITED or CREATED), whatever the filters. */
  total_uninvited: z.number().int(),
  members: z.array(memberSchema),
});
export type MembersResponse = z.infer<typeof membersResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Invites: POST /members/action/send_invite and /members/action/resend_invite (any member)
// ---------------------------------------------------------------------------------------------

export const INVITE_BATCH_MAX = 100;
export const EMAIL_MAX_CHARS = 254;

/**
 * An invitable address: something@host.tld. The address is checked by the server (400 'Invalid email address'), not
 * by the schema, so the answer carries the spec's string.
 */
export const EMAIL_PATTERN =
  /^[^\s@]+@[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/i;

export function isEmailAddress(value: string): boolean {
  return value.length <= EMAIL_MAX_CHARS && EMAIL_PATTERN.test(value);
}

/** The lower-cased part after the last @ ('' when there is none). */
export function emailDomain(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).toLowerCase();
}

/**
 * Spec asking-questions §5: the domain must end with one of the org's allowed domains: the domain itself or a
 * subdomain of it (so `evilacme.test` does not pass for `acme.test`). `allowed` is `[org.domain, ...org.allowedDomains]`.
 */
export function isDomainAllowed(domain: string, allowed: readonly string[]): boolean {
  const candidate = domain.toLowerCase();
  return allowed.some((entry) => {
    const root = entry.toLowerCase();
    return candidate === root || candidate.endsWith(`.${root}`);
  });
}

/** Spec Invite entry as sent. make_admin by a member who is not an admin is refused (403 ADMIN_REQUIRED). */
export const inviteEntrySchema = z
  .object({ email: z.string().trim().max(1000), make_admin: z.boolean().default(false) })
  .strict();

/**
 * The body of both invite calls. The whole batch is checked first: one bad address (400 'Invalid email address') or
 * domain (400 'Domain not allowed') and nothing is created or sent.
 */
export const inviteRequestSchema = z
  .object({ emails: z.array(inviteEntrySchema).min(1).max(INVITE_BATCH_MAX) })
  .strict();
export type InviteRequest = z.input<typeof inviteRequestSchema>;

/**
 * Why an address got no mail: already_member (signed up: not invited again), blocked (an admin blocked them),
 * not_invited (resend only: no pending invite for this address; use send_invite).
 */
export const INVITE_SKIP_REASONS = ['already_member', 'blocked', 'not_invited'] as const;
export type InviteSkipReason = (typeof INVITE_SKIP_REASONS)[number];

export const inviteResponseSchema = z.object({
  /** Invited (or re-invited) members, each mailed a sign-in link. */
  sent: z.array(memberSchema),
  skipped: z.array(z.object({ email: z.string(), reason: z.enum(INVITE_SKIP_REASONS) })),
});
export type InviteResponse = z.infer<typeof inviteResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Admin actions: POST /members/action/{block|unblock|delete|make_admin|remove_admin}
// ---------------------------------------------------------------------------------------------

export const MEMBER_ACTIONS = ['block', 'unblock', 'delete', 'make_admin', 'remove_admin'] as const;
export type MemberAction = (typeof MEMBER_ACTIONS)[number];

export const memberActionRequestSchema = z
  .object({ user_ids: z.array(z.uuid()).min(1).max(INVITE_BATCH_MAX) })
  .strict();
export type MemberActionRequest = z.infer<typeof memberActionRequestSchema>;

/** The members the action touched, as they are now. */
export const memberActionResponseSchema = z.object({ members: z.array(memberSchema) });
export type MemberActionResponse = z.infer<typeof memberActionResponseSchema>;

/** The server's refusals of member actions (400 BAD_REQUEST; 404 NOT_FOUND for an id outside the org). */
export const memberActionMessages = {
  NOT_ON_YOURSELF: 'You cannot block, delete or remove the admin role from yourself.',
  LAST_ADMIN: 'The workspace needs at least one admin.',
  INACTIVE_ADMIN: 'Only active members can be made admins.',
  DELETED_CANNOT_BE_BLOCKED: 'A deleted member cannot be blocked.',
  MEMBER_NOT_FOUND: 'Member not found.',
} as const;
