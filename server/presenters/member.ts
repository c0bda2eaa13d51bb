import type { Member } from '../../common/api/members';
import type { User } from '../db/schema';

/** The name a member goes by, or null when they have none yet (the app then shows 'Invited User'). */
export function memberNameOf(user: Pick<User, 'displayName' | 'firstName' | 'lastName'>): string | null {
  const fromParts = [user.firstName, user.lastName].filter(Boolean).join(' ').trim();
  return user.displayName?.trim() || fromParts || null;
}

/** A member as any other member of the org sees them in lists and invite suggestions. */
export function presentMember(user: User): Member {
  return {
    user_id: user.id,
    name: memberNameOf(user),
    email: user.email,
    icon: user.photoUrl ?? null,
    status: user.status,
    admin: user.admin,
  };
}
