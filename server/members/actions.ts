import { and, asc, eq, inArray, isNull, notInArray, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import {
  INACTIVE_STATUSES,
  memberActionMessages,
  type Member,
  type MemberAction,
} from '../../common/api/members';
import type { Viewer } from '../context';
import { refreshTokens, users } from '../db/schema';
import type { Db } from '../db/store';
import { notFound } from '../errors';
import { requireAdmin } from '../policies/access';
import { checkAdminsRemain, checkMemberAction } from '../policies/members';
import { presentMember } from '../presenters/member';

/** The columns each action writes. A blocked member comes back as signed up if they ever signed in, else invited. */
const CHANGES: Record<MemberAction, PgUpdateSetSource<typeof users>> = {
  block: { status: 'BLOCKED' },
  unblock: { status: sql`case when ${users.lastLoginAt} is null then 'INVITED' else 'SIGNED_UP' end` },
  delete: { status: 'DELETED', admin: false },
  make_admin: { admin: true },
  remove_admin: { admin: false },
};

/** Actions after which a target no longer counts as an admin who can sign in. */
const REMOVES_ADMINS: readonly MemberAction[] = ['block', 'delete', 'remove_admin'];

/**
 * An admin's action on members of their org, all or nothing. The org's admins are locked first, so two admins
 * demoting each other at once cannot leave the org without one: the second sees the first's change and is refused.
 */
export async function applyMemberAction(
  db: Db,
  viewer: Viewer,
  action: MemberAction,
  userIds: readonly string[],
): Promise<Member[]> {
  const ids = [...new Set(userIds)];
  return db.transaction(async (tx) => {
    const activeAdmins = await tx
      .select({ id: users.id })
      .from(users)
      .where(
        and(
          eq(users.orgId, viewer.orgId),
          eq(users.admin, true),
          notInArray(users.status, [...INACTIVE_STATUSES]),
        ),
      )
      .for('update');
    requireAdmin({ ...viewer, admin: activeAdmins.some((admin) => admin.id === viewer.userId) });

    const inTargets = and(eq(users.orgId, viewer.orgId), inArray(users.id, ids));
    const targets = await tx.select().from(users).where(inTargets).for('update');
    if (targets.length !== ids.length) throw notFound(memberActionMessages.MEMBER_NOT_FOUND);
    checkMemberAction(viewer, action, targets);
    if (REMOVES_ADMINS.includes(action)) {
      checkAdminsRemain(activeAdmins.filter((admin) => !ids.includes(admin.id)).length);
    }

    const onlyBlocked = action === 'unblock' ? eq(users.status, 'BLOCKED') : undefined;
    await tx.update(users).set(CHANGES[action]).where(and(inTargets, onlyBlocked));
    if (action === 'block' || action === 'delete') {
      // The guard refuses their id token at the next call; their refresh tokens must not mint new ones either.
      await tx
        .update(refreshTokens)
        .set({ revokedAt: new Date() })
        .where(
          and(
            eq(refreshTokens.orgId, viewer.orgId),
            inArray(refreshTokens.userId, ids),
            isNull(refreshTokens.revokedAt),
          ),
        );
    }
    const updated = await tx.select().from(users).where(inTargets).orderBy(asc(users.email), asc(users.id));
    return updated.map(presentMember);
  });
}
