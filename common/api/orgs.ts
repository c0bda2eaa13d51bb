// The organisation as members and admins see it, and the admin's settings calls (spec shell-and-account §3 Org,
// Subscription, Allowed domain; §7.3 PATCH /orgs and GET /_fetchData/{org|allowed_domains}).
import { z } from 'zod';
import { ADMIN_FLAGS, flagsSchema, type AdminFlag } from '../flags';
import { BOOKMARK_LINK_MAX_CHARS, DEFAULT_BACKGROUND_COLOR, LOGO_MAX_BYTES } from '../limits';
import { bookmarkListSchema, bookmarkSchema } from './bookmarks';
import { Feature, PlanType, SubscriptionStatus } from '../plans';

export const COMPANY_NAME_MAX_CHARS = 100;

/** How a homepage background is drawn: a plain colour (white by default, spec §9) or an image. */
export const BACKGROUND_TYPES = ['color', 'image'] as const;
export type BackgroundType = (typeof BACKGROUND_TYPES)[number];
export const DEFAULT_BACKGROUND_TYPE: BackgroundType = 'color';

/** `#rgb` or `#rrggbb`: what the colour picker produces and what the lightness thresholds of §9 can read. */
export const HEX_COLOUR_PATTERN = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;
export const backgroundColorSchema = z.string().regex(HEX_COLOUR_PATTERN, 'Use a colour like #1a2b3c.');

/** Image types a logo may have; the server reads each one's header to check it is square. */
export const LOGO_MIME_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
/** Profile photos may also be GIFs. */
export const PHOTO_MIME_TYPES = [...LOGO_MIME_TYPES, 'image/gif'] as const;

/**
 * A base64 data URL of an image (`data:image/png;base64,…`). The character cap only keeps absurd bodies out early,
 * well above the base64 of LOGO_MAX_BYTES: the byte limit and the type are checked on the decoded bytes by the
 * server, which answers the precise message ('Logo must be at most 5 MB').
 */
export const IMAGE_DATA_URL_PATTERN = /^data:image\/[\w.+-]+;base64,[A-Za-z0-9+/]*={0,2}$/;
export const IMAGE_DATA_URL_MAX_CHARS = 2 * LOGO_MAX_BYTES;
export const imageDataUrlSchema = z
  .string()
  .max(IMAGE_DATA_URL_MAX_CHARS, 'Images must be at most 5 MB.')
  .regex(IMAGE_DATA_URL_PATTERN, 'Send the image as a base64 data URL.');

/** A background image: a web address or an uploaded image (data URL). */
export const backgroundImageSchema = z.union([
  z
    .string()
    .max(BOOKMARK_LINK_MAX_CHARS)
    .regex(/^https?:\/\/\S+$/i, 'Use an http(s) address or an uploaded image.'),
  imageDataUrlSchema,
]);

/** The server's own messages about images (the spec quotes only 'Logo must be square', in common/strings.ts). */
export const imageMessages = {
  LOGO_TOO_LARGE: 'Logo must be at most 5 MB',
  LOGO_NOT_AN_IMAGE: 'Logo must be a PNG, JPEG or WebP image',
  PHOTO_TOO_LARGE: 'Photo must be at most 5 MB',
  PHOTO_NOT_AN_IMAGE: 'Photo must be a PNG, JPEG, WebP or GIF image',
  BACKGROUND_TOO_LARGE: 'Background image must be at most 5 MB',
  BACKGROUND_NOT_AN_IMAGE: 'Background image must be a PNG, JPEG or WebP image',
} as const;

/**
 * `PATCH /orgs` (admins). Every field is optional; only those sent change. `null` clears a logo, colour or image
 * (the colour then reads as the default white). company_name is the org's name; setting it completes the workspace
 * setup (isWorkspaceSetup) when the first admin sets up the workspace.
 */
export const orgUpdateRequestSchema = z
  .object({
    company_name: z.string().trim().min(1).max(COMPANY_NAME_MAX_CHARS),
    background_color: backgroundColorSchema.nullable(),
    /** PNG, JPEG or WebP data URL, square, at most LOGO_MAX_BYTES decoded ('Logo must be square'). */
    logo: imageDataUrlSchema.nullable(),
    /** The company bookmarks, the same list `PATCH /orgs/bookmarks` writes. */
    homepage_links: bookmarkListSchema,
    background_image: backgroundImageSchema.nullable(),
    background_type: z.enum(BACKGROUND_TYPES),
    /** Members may pick their own background (spec §5). */
    background_allow_user: z.boolean(),
    /** Verified answers for the workspace. */
    answers: z.boolean(),
    auto_invite_members: z.boolean(),
    /** The browser extension replaces the new-tab page for everyone. */
    override_new_tab_page: z.boolean(),
    /** Topics may be shared by public link (spec §4.6; offered only while the publicTopics flag is also on). */
    public_topics_enabled: z.boolean(),
  })
  .partial()
  .strict();
export type OrgUpdateRequest = z.infer<typeof orgUpdateRequestSchema>;

/** The org's preferences with their defaults filled in (spec §3, Org.preferences). Times are ISO-8601. */
export const orgPreferencesSchema = z.object({
  background_color: z.string(),
  background_type: z.enum(BACKGROUND_TYPES),
  background_image: z.string().nullable(),
  background_allow_user: z.boolean(),
  answers: z.boolean(),
  auto_invite_members: z.boolean(),
  override_new_tab_page: z.boolean(),
  export_requested_at: z.string().nullable(),
  export_requested_by: z.string().nullable(),
  export_available_at: z.string().nullable(),
  deletion_requested_at: z.string().nullable(),
  deletion_requested_by: z.string().nullable(),
});
export type OrgPreferences = z.infer<typeof orgPreferencesSchema>;

export const DEFAULT_ORG_PREFERENCES: OrgPreferences = {
  background_color: DEFAULT_BACKGROUND_COLOR,
  background_type: DEFAULT_BACKGROUND_TYPE,
  background_image: null,
  background_allow_user: false,
  answers: false,
  auto_invite_members: false,
  override_new_tab_page: false,
  export_requested_at: null,
  export_requested_by: null,
  export_available_at: null,
  deletion_requested_at: null,
  deletion_requested_by: null,
};

const FEATURES = Object.values(Feature) as [Feature, ...Feature[]];

/**
 * The subscription in force (spec §4.9: the first that is not CANCELLED, newest first), with the two rules the
 * paywall reads, computed by common/plans.ts on the server.
 */
export const orgSubscriptionSchema = z.object({
  planType: z.enum(Object.values(PlanType) as [PlanType, ...PlanType[]]),
  status: z.enum(Object.values(SubscriptionStatus) as [SubscriptionStatus, ...SubscriptionStatus[]]),
  /** ISO-8601; null when not a trial. */
  trialEndAt: z.string().nullable(),
  isPaid: z.boolean(),
  trialExpired: z.boolean(),
});
export type OrgSubscription = z.infer<typeof orgSubscriptionSchema>;

/** `GET /_fetchData/org` and the answer of `PATCH /orgs`: what a member of the org may see of it. */
export const orgSchema = z.object({
  id: z.string(),
  domain: z.string(),
  name: z.string(),
  /** Data URL of the logo, or null. */
  logo: z.string().nullable(),
  isWorkspaceSetup: z.boolean(),
  firstAdminOnboarded: z.boolean(),
  /** The company bookmarks, in order. */
  homepageLinks: z.array(bookmarkSchema),
  preferences: orgPreferencesSchema,
  /** recommended_apps_list, restrict_apps_to_only_admins: shaped by the apps resource. */
  appPreferences: z.record(z.string(), z.unknown()),
  disclaimer: z.string().nullable(),
  custom_instructions: z.string().nullable(),
  /** null means no retention limit. */
  chatRetentionDays: z.number().int().nullable(),
  preferredLlm: z.string().nullable(),
  publicTopicsEnabled: z.boolean(),
  /** The analytics embed token; admins only (null for members). */
  exploToken: z.string().nullable(),
  /**
   * Further domains whose addresses may be invited, besides `domain`. Empty unless the plan allows multiple domains
   * (ENTERPRISE): the server's invite check uses exactly `[domain, ...allowedDomains]`.
   */
  allowedDomains: z.array(z.string()),
  /** null when the org has no subscription that is not CANCELLED. */
  subscription: orgSubscriptionSchema.nullable(),
  /** planAllows(subscriptions, feature) for every feature, as the server enforces it right now. */
  features: z.record(z.enum(FEATURES), z.boolean()),
});
export type OrgView = z.infer<typeof orgSchema>;

export const ALLOWED_DOMAIN_STATUSES = ['VERIFIED', 'UNVERIFIED', 'VERIFICATION_FAILED'] as const;

/** Spec §3, Allowed domain. */
export const allowedDomainSchema = z.object({
  id: z.string(),
  domain: z.string(),
  status: z.enum(ALLOWED_DOMAIN_STATUSES),
  verificationCode: z.string().nullable(),
  /** ISO-8601. */
  createdAt: z.string(),
  allowAllSignups: z.boolean(),
});
export type AllowedDomain = z.infer<typeof allowedDomainSchema>;

/** `GET /_fetchData/allowed_domains` (admins, ENTERPRISE: feature multipleDomains). */
export const allowedDomainsResponseSchema = z.object({ allowed_domains: z.array(allowedDomainSchema) });
export type AllowedDomainsResponse = z.infer<typeof allowedDomainsResponseSchema>;

/** `PATCH /orgs/flags` (admins): switches the admin's flags (ADMIN_FLAGS); the others are the operator's. */
export const orgFlagsUpdateRequestSchema = z
  .object({
    flags: z
      .object(
        Object.fromEntries(ADMIN_FLAGS.map((flag) => [flag, z.boolean()])) as Record<AdminFlag, z.ZodBoolean>,
      )
      .partial()
      .strict(),
  })
  .strict();
export type OrgFlagsUpdateRequest = z.infer<typeof orgFlagsUpdateRequestSchema>;
export const orgFlagsResponseSchema = z.object({ flags: flagsSchema });
