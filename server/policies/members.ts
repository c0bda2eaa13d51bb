// Who may do what to members (spec asking-questions §6, shell-and-account §6). Listing and inviting are open to
// every member, because the invite dialog is; choosing a role, blocked and deleted members, and the member actions
// are the admins'. The route declares the role; these rules read the request's content.
import {
  INACTIVE_STATUSES,
  MEMBER_STATUSES,
  memberActionMessages,
  type MemberAction,
  type MemberStatus,
} from '../../common/api/members';
import type { Viewer } from '../context';
import type { User } from '../db/schema';
import { badRequest } from '../errors';
import { requireAdmin } from './access';

const isInactive = (status: MemberStatus) => (INACTIVE_STATUSES as readonly MemberStatus[]).includes(status);

/** The statuses a viewer may list: all for admins; members never see blocked or deleted colleagues. */
export function listableStatuses(viewer: Viewer, requested: MemberStatus | undefined): MemberStatus[] {
  if (requested) {
    if (isInactive(requested)) requireAdmin(viewer);
    return [requested];
  }
  return viewer.admin ? [...MEMBER_STATUSES] : MEMBER_STATUSES.filter((status) => !isInactive(status));
}

/** Only admins choose the admin role for the people they invite (spec asking-questions §6). */
export function requireInviteRoles(viewer: Viewer, entries: readonly { make_admin: boolean }[]): void {
  if (entries.some((entry) => entry.make_admin)) requireAdmin(viewer);
}

/**
 * An admin acting on members: never on themselves for block, delete and remove_admin (they would lock themselves
 * out), never making a blocked or deleted member an admin, never blocking a deleted one.
 */
export function checkMemberAction(viewer: Viewer, action: MemberAction, targets: readonly User[]): void {
  const onSelf = targets.some((target) => target.id === viewer.userId);
  if (onSelf && (action === 'block' || action === 'delete' || action === 'remove_admin')) {
    throw badRequest(memberActionMessages.NOT_ON_YOURSELF);
  }
  if (action === 'make_admin' && targets.some((target) => isInactive(target.status))) {
    throw badRequest(memberActionMessages.INACTIVE_ADMIN);
  }
  if (action === 'block' && targets.some((target) => target.status === 'DELETED')) {
    throw badRequest(memberActionMessages.DELETED_CANNOT_BE_BLOCKED);
  }
}

/** An org always keeps an admin who can still sign in. */
export function checkAdminsRemain(remainingAdmins: number): void {
  if (remainingAdmins < 1) throw badRequest(memberActionMessages.LAST_ADMIN);
}
