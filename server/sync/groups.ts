// A connection's groups in the index (DESIGN §4). Search reads a member's groups from acl_group_members at query
// time, so replacing a connection's memberships changes what its members see at once, without touching a chunk.
// Group principals are namespaced per connection: two connections of one app (two Slack workspaces, two
// custom-api feeds) may reuse group ids, and a member of one must never read the other's documents through it.
// Google groups are the exception: a group's email names one group across Google, which Drive sharing names and
// the Workspace directory lists, so they stay org-wide (`group:google:<email>`) when a Google app reports them. Each
// connection still keeps its own membership rows, so replacing or disconnecting one never touches another's.
import { and, eq } from 'drizzle-orm';
import { GWORKSPACE_CHILDREN, type AppShortname } from '../../common/catalogue';
import type { GroupMembership } from '../../connectors/sdk';
import { aclGroupMembers, type AppConnection } from '../db/schema';
import type { Tx } from '../db/store';
import { groupPrincipal } from '../search';

/** Rows per INSERT statement, well under PostgreSQL's 65,535 bind parameters. */
const INSERT_BATCH = 1000;

const GROUP_PRINCIPAL = /^group:([^:]+):(.+)$/s;
const USER_PRINCIPAL = 'user:';
/**
 * Only Google's own apps speak for Google groups: another connection naming one (a custom-api feed listing its
 * "members") gets a group of its own connection instead, so it can neither widen nor read a Drive file's sharing.
 * An id with a colon is no group email, and stays the connection's, where it cannot meet a namespaced id.
 */
const GOOGLE_GROUP = /^group:google:[^:]+$/s;
const GOOGLE_APPS: ReadonlySet<string> = new Set<AppShortname>([
  ...GWORKSPACE_CHILDREN,
  'gworkspace-directory',
]);

/** What a group principal is namespaced by. */
type GroupOwner = Pick<AppConnection, 'id' | 'appName'>;

/** A group of the connection and one email that belongs to it, directly or through nested groups. */
export interface GroupMember {
  groupKey: string;
  memberEmail: string;
}

/**
 * `group:<source>:<id>` as a connector reports it becomes `group:<source>:<connectionId>:<id>`; a Google group
 * reported by a Google app, and principals other than groups, stay as they are.
 */
export function connectionPrincipal(connection: GroupOwner, principal: string): string {
  if (GOOGLE_APPS.has(connection.appName) && GOOGLE_GROUP.test(principal)) return principal;
  const group = GROUP_PRINCIPAL.exec(principal);
  return group ? groupPrincipal(group[1]!, `${connection.id}:${group[2]!}`) : principal;
}

/**
 * The emails of each group, nested groups flattened (the index stores emails only). A cycle of groups ends where it
 * closes; a member group the source did not list adds nobody, since nothing says who is in it.
 */
export function expandGroups(connection: GroupOwner, memberships: readonly GroupMembership[]): GroupMember[] {
  const direct = new Map<string, string[]>();
  for (const { group, members } of memberships) {
    const key = connectionPrincipal(connection, group);
    direct.set(key, [
      ...(direct.get(key) ?? []),
      ...members.map((member) => connectionPrincipal(connection, member)),
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
