import { z } from 'zod';
import { bookmarkSchema } from './bookmarks';

/** Login tokens as the spec names them (shell-and-account §3, Auth results). Stored by the client. */
export const loginTokensSchema = z.object({
  id_token: z.string(),
  refresh_token: z.string(),
  /** Unix milliseconds at which id_token stops being accepted. */
  expires_at: z.number(),
  username: z.string(),
});
export type LoginTokens = z.infer<typeof loginTokensSchema>;

/** Where the SPA keeps its login tokens; a storage event on this key in another tab signs this one out. */
export const LOGIN_TOKENS_STORAGE_KEY = 'scout.tokens';

export const currentOrgSchema = z.object({
  id: z.string(),
  domain: z.string(),
  name: z.string(),
  logo: z.string().nullable(),
  isWorkspaceSetup: z.boolean(),
  publicTopicsEnabled: z.boolean(),
  chatRetentionDays: z.number().int().nullable(),
  preferredLlm: z.string().nullable(),
});

/** The signed-in user as `GET /_fetchData/user` answers it (spec shell-and-account §3, User). */
export const currentUserSchema = z.object({
  userId: z.string(),
  email: z.string(),
  sub: z.string(),
  admin: z.boolean(),
  hasSeenWebOnboarding: z.boolean(),
  preferredLlm: z.string().nullable(),
  workRole: z.string().nullable(),
  userSetupStatus: z.string().nullable(),
  onboardingState: z.record(z.string(), z.unknown()),
  toursProgress: z.record(z.string(), z.unknown()),
  metadata: z.object({ displayName: z.string(), photoUrl: z.string().nullable() }),
  /** 'My bookmarks', in order (spec §3, User.homepageLinks). */
  homepageLinks: z.array(bookmarkSchema),
  org: currentOrgSchema,
  /** Feature flags in force for this user's org; every flag defaults off. */
  flags: z.record(z.string(), z.union([z.boolean(), z.number()])),
});
export type CurrentUser = z.infer<typeof currentUserSchema>;
