import type { CurrentUser } from '../common/api/session';
import { DEFAULT_FLAGS } from '../common/flags';

/** A signed-in user as `GET /_fetchData/user` answers it, for tests of the app's pure rules. */
export function aCurrentUser(
  changes: Partial<Omit<CurrentUser, 'org'>> & { org?: Partial<CurrentUser['org']> } = {},
): CurrentUser {
  const { org, flags, ...rest } = changes;
  return {
    userId: 'user-1',
    email: 'ann@acme.test',
    sub: 'user-1',
    admin: false,
    hasSeenWebOnboarding: false,
    preferredLlm: null,
    workRole: null,
    userSetupStatus: null,
    onboardingState: {},
    toursProgress: {},
    metadata: { displayName: 'Ann', photoUrl: null },
    homepageLinks: [],
    ...rest,
    org: {
      id: 'org-1',
      domain: 'acme.test',
      name: 'Acme',
      logo: null,
      isWorkspaceSetup: true,
      publicTopicsEnabled: false,
      chatRetentionDays: null,
      preferredLlm: null,
      ...org,
    },
    flags: { ...DEFAULT_FLAGS, ...flags },
  };
}
