import type { CurrentUser } from '../../common/api/session';
import { DEFAULT_FLAGS } from '../../common/flags';
import type { Org, User } from '../db/schema';
import { presentBookmarks } from './bookmarks';

export function displayNameOf(user: Pick<User, 'displayName' | 'firstName' | 'lastName' | 'email'>): string {
  const fromParts = [user.firstName, user.lastName].filter(Boolean).join(' ').trim();
  return user.displayName?.trim() || fromParts || user.email;
}

/** The signed-in user as the SPA sees them: only their own fields and their org's public settings. */
export function presentCurrentUser(user: User, org: Org): CurrentUser {
  return {
    userId: user.id,
    email: user.email,
    sub: user.sub ?? user.id,
    admin: user.admin,
    hasSeenWebOnboarding: user.hasSeenWebOnboarding,
    preferredLlm: user.preferredLlm ?? null,
    workRole: user.workRole ?? null,
    userSetupStatus: user.userSetupStatus ?? null,
    onboardingState: (user.onboardingState ?? {}) as Record<string, unknown>,
    toursProgress: (user.toursProgress ?? {}) as Record<string, unknown>,
    metadata: { displayName: displayNameOf(user), photoUrl: user.photoUrl ?? null },
    homepageLinks: presentBookmarks(user.homepageLinks),
    org: {
      id: org.id,
      domain: org.domain,
      name: org.name,
      logo: org.logo ?? null,
      isWorkspaceSetup: org.isWorkspaceSetup,
      publicTopicsEnabled: org.publicTopicsEnabled,
      chatRetentionDays: org.chatRetentionDays ?? null,
      preferredLlm: org.preferredLlm ?? null,
    },
    flags: { ...DEFAULT_FLAGS, ...((org.flags ?? {}) as Record<string, boolean | number>) },
  };
}
