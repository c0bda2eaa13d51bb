// A connection's groups in the index (DESIGN §4). Search reads a member's groups from acl_group_members at query
// time, so replacing a connection's memberships changes what its members see at once, without touching a chunk.
// Group principals are namespaced per connection: two connections of one app (two Slack workspaces, two
// custom-api feeds) may reuse group ids, and a member of one must never read the other's documents through it.
import { and, eq } from 'drizzle-orm';
import type { GroupMembership } from '../../connectors/sdk';
import { aclGroupMembers } from '../db/schema';
import type { Tx } from '../db/store';
import { groupPrincipal } from '../search';

/** Rows per INSERT statement, well under PostgreSQL's 65,535 bind parameters. */
const INSERT_BATCH = 1000;

const GROUP_PRINCIPAL = /^group:([^:]+):(.+)$/s;
const USER_PRINCIPAL = 'user:';

/** A group of the connection and one email that belongs to it, directly or through nested groups. */
export interface GroupMember {
  groupKey: string;
  memberEmail: string;
}

/** `group:<source>:<id>` as a connector reports it becomes `group:<source>:<connectionId>:<id>`; others stay. */
export function connectionPrincipal(connectionId: string, principal: string): string {
  const group = GROUP_PRINCIPAL.exec(principal);
  return group ? groupPrincipal(group[1]!, `${connectionId}:${group[2]!}`) : principal;
}

/**
 * The emails of each group, nested groups flattened (the index stores emails only). A cycle of groups ends where it
 * closes; a member group the source did not list adds nobody, since nothing says who is in it.
 */
export function expandGroups(connectionId: string, memberships: readonly GroupMembership[]): GroupMember[] {
  const direct = new Map<string, string[]>();
  for (const { group, members } of memberships) {
    const key = connectionPrincipal(connectionId, group);
    direct.set(key, [
      ...(direct.get(key) ?? []),
      ...members.map((member) => connectionPrincipal(connectionId, member)),
    ]);
  }
  const rows: GroupMember[] = [];
  for (const groupKey of direct.keys()) {
    const emails = new Set<string>();
    const seen = new Set([groupKey]);
    const pending = [groupKey];
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      for (const member of direct.get(next) ?? []) {
        if (member.startsWith(USER_PRINCIPAL)) emails.add(member.slice(USER_PRINCIPAL.length));
        else if (!seen.has(member)) {
          seen.add(member);
          pending.push(member);
        }
      }
    }
    for (const memberEmail of emails) rows.push({ groupKey, memberEmail });
  }
  return rows;
}

/**
 * Makes `members` the connection's whole membership list. Run it in a transaction that holds the connection row
 * locked, so it never interleaves with a disconnect or another replacement. Answers how many distinct memberships
 * it stored.
 */
export async function replaceConnectionGroups(
  tx: Tx,
  orgId: string,
  connectionId: string,
  members: Iterable<GroupMember>,
): Promise<number> {
  const rows = new Map<string, GroupMember & { orgId: string; connectionId: string }>();
  for (const { groupKey, memberEmail } of members) {
    const email = memberEmail.trim().toLowerCase();
    rows.set(`${groupKey}\n${email}`, { orgId, connectionId, groupKey, memberEmail: email });
  }
  await tx
    .delete(aclGroupMembers)
    .where(and(eq(aclGroupMembers.orgId, orgId), eq(aclGroupMembers.connectionId, connectionId)));
  const values = [...rows.values()];
  for (let start = 0; start < values.length; start += INSERT_BATCH)
    await tx.insert(aclGroupMembers).values(values.slice(start, start + INSERT_BATCH));
  return rows.size;
}
