import { and, asc, count, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import {
  MEMBERS_PAGE_SIZE,
  NOT_SIGNED_UP_STATUSES,
  type MembersQuery,
  type MembersResponse,
} from '../../common/api/members';
import type { Viewer } from '../context';
import { users } from '../db/schema';
import type { Db } from '../db/store';
import { listableStatuses } from '../policies/members';
import { presentMember } from '../presenters/member';
import { containing } from '../db/like';

/** One page of the viewer's org's members, ordered by email, with the totals the members screen shows. */
export async function listMembers(db: Db, viewer: Viewer, query: MembersQuery): Promise<MembersResponse> {
  const statuses = listableStatuses(viewer, query.status);
  const conditions: SQL[] = [eq(users.orgId, viewer.orgId), inArray(users.status, statuses)];
  if (query.q) {
    const pattern = containing(query.q);
    const byName = or(
      ilike(users.email, pattern),
      ilike(users.displayName, pattern),
      ilike(sql`concat_ws(' ', ${users.firstName}, ${users.lastName})`, pattern),
    );
    if (byName) conditions.push(byName);
  }
  const where = and(...conditions);
  const [rows, [matching], [uninvited]] = await Promise.all([
    db
      .select()
      .from(users)
      .where(where)
      .orderBy(asc(users.email), asc(users.id))
      .limit(MEMBERS_PAGE_SIZE)
      .offset((query.page - 1) * MEMBERS_PAGE_SIZE),
    db.select({ n: count() }).from(users).where(where),
    db
      .select({ n: count() })
      .from(users)
      .where(and(eq(users.orgId, viewer.orgId), inArray(users.status, [...NOT_SIGNED_UP_STATUSES]))),
  ]);
  return {
    total: matching?.n ?? 0,
    total_uninvited: uninvited?.n ?? 0,
    members: rows.map(presentMember),
  };
}
