import { userMessages } from '../../common/api/users';
import type { Viewer } from '../context';
import { forbidden } from '../errors';

/** A member changes only their own profile and preferences, whatever their role. */
export function requireOwnProfile(viewer: Viewer, userId: string): void {
  if (userId !== viewer.userId) throw forbidden(userMessages.ONLY_YOUR_OWN_PROFILE);
}

/** A personal background is usable only when the org allows it (spec shell-and-account §5); clearing one always is. */
export function requirePersonalBackgroundAllowed(allowedByOrg: boolean, settingOne: boolean): void {
  if (settingOne && !allowedByOrg) throw forbidden(userMessages.PERSONAL_BACKGROUND_NOT_ALLOWED);
}
