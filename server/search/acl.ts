/**
 * Access-control principals (DESIGN §4). A document's ACL lists who may read it; a member reads it iff one of
 * their principals is in the list:
 * - `user:<email>` one person (emails lower-cased),
 * - `group:<source>:<id>` a group synced from a source app (memberships in `acl_group_members`),
 * - `org` everyone in the organisation, `public` anyone (the org's members included).
 */
import { and, eq, isNull, notInArray, or } from 'drizzle-orm';
import { ConnectionStatus } from '../../common/connection-status';
import { aclGroupMembers, appConnections } from '../db/schema';
import type { DbOrTx } from '../db/store';

export type Principal = string;

export const ORG_PRINCIPAL = 'org';
export const PUBLIC_PRINCIPAL = 'public';

/**
 * The principals every member holds: a document whose ACL names one of them is readable by the whole org. Ranking
 * statistics are counted over those documents only (indexer.ts), so nothing a member cannot read moves their
 * results.
 */
export const EVERY_MEMBER_PRINCIPALS: readonly Principal[] = [ORG_PRINCIPAL, PUBLIC_PRINCIPAL];

export function readableByEveryMember(acl: readonly Principal[]): boolean {
  return acl.some((principal) => EVERY_MEMBER_PRINCIPALS.includes(principal));
}

export function userPrincipal(email: string): Principal {
  return `user:${email.trim().toLowerCase()}`;
}

export function groupPrincipal(source: string, groupId: string): Principal {
  return `group:${source}:${groupId}`;
}

export class InvalidAclError extends Error {
  override name = 'InvalidAclError';
}

/** One principal in canonical form, or an InvalidAclError: a typo must never widen or silently drop access. */
export function normalizePrincipal(principal: string): Principal {
  const value = principal.trim();
  if (value === ORG_PRINCIPAL || value === PUBLIC_PRINCIPAL) return value;
  if (value.startsWith('user:')) {
    const email = value.slice('user:'.length).trim().toLowerCase();
    if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw new InvalidAclError(`invalid user principal: ${principal}`);
    return `user:${email}`;
  }
  const group = /^group:([^:\s]+):(\S.*)$/.exec(value);
  if (group) return value;
  throw new InvalidAclError(`invalid principal: ${principal}`);
}

/**
 * The ACL to store: canonical, de-duplicated and sorted (so equal ACLs compare equal). When the source gave no
 * ACL the document is private to the connection's owner (fail closed); with no owner either, indexing refuses
 * rather than store a document nobody, or everybody, could read.
 */
export function effectiveAcl(
  acl: readonly string[] | null | undefined,
  ownerEmail?: string | null,
): Principal[] {
  const principals = (acl ?? []).map(normalizePrincipal);
  if (principals.length === 0) {
    if (!ownerEmail)
      throw new InvalidAclError('a document without an ACL needs the connection owner’s email');
    principals.push(normalizePrincipal(userPrincipal(ownerEmail)));
  }
  return [...new Set(principals)].sort();
}

/**
 * Connections whose memberships no longer count. Nothing refreshes them any more: a Disconnecting connection is
 * going away at its owner's or admin's request (its documents follow once the disconnect job runs), and the spec
 * shows NotConnected and ErrorDoNotReconnect as 'Not indexing', states no sync runs in and no reconnect leaves. A
 * membership frozen there could keep someone in a group the source has since taken them out of, so it grants
 * nothing (fail closed). ErrorReconnect still counts: its documents stay searchable under the ACLs they had, the
 * owner's reconnect resumes the permission sync, and dropping its groups would hide a workspace's shared content
 * from everyone but the owner over an expired token without making any stale ACL fresher.
 */
const MEMBERSHIPS_IGNORED: readonly number[] = [
  ConnectionStatus.Disconnecting,
  ConnectionStatus.NotConnected,
  ConnectionStatus.ErrorDoNotReconnect,
];

/**
 * A member's principals: their user principal, `org`, `public` and every group that lists their email, by a
 * membership of a live connection or of none (rows written without one, as the demo seed's).
 */
export async function principalsFor(db: DbOrTx, orgId: string, email: string): Promise<Principal[]> {
  const normalized = email.trim().toLowerCase();
  const groups = await db
    .selectDistinct({ groupKey: aclGroupMembers.groupKey })
    .from(aclGroupMembers)
    .leftJoin(appConnections, eq(appConnections.id, aclGroupMembers.connectionId))
    .where(
      and(
        eq(aclGroupMembers.orgId, orgId),
        eq(aclGroupMembers.memberEmail, normalized),
        or(
          isNull(aclGroupMembers.connectionId),
          notInArray(appConnections.statusCode, [...MEMBERSHIPS_IGNORED]),
        ),
      ),
    );
  return [
    userPrincipal(normalized),
    ORG_PRINCIPAL,
    PUBLIC_PRINCIPAL,
    ...groups.map((row) => row.groupKey).sort(),
  ];
}
