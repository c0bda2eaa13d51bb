import { z } from 'zod';
import { personNameSchema } from './auth';
import { BACKGROUND_TYPES, backgroundColorSchema, backgroundImageSchema, imageDataUrlSchema } from './orgs';

/** Work roles of the setup dialog (spec shell-and-account §3, Setup choices), as the server stores them. */
export const WORK_ROLES = [
  'engineering',
  'customer_support',
  'sales',
  'marketing',
  'product_management',
  'hr',
  'legal_compliance',
  'talent',
  'other',
] as const;

export const REFERRAL_SOURCES = [
  'search_engine',
  'social_media',
  'newsletter',
  'another_ai_tool',
  'online_ads',
  'other',
] as const;

/** `PATCH /users/setup_status`. With referral 'other' the person's own words come in referral_source_other. */
export const setupStatusRequestSchema = z
  .object({
    work_role: z.enum(WORK_ROLES),
    referral_source: z.enum(REFERRAL_SOURCES),
    referral_source_other: z.string().trim().max(500).optional(),
  })
  .strict()
  .refine((body) => body.referral_source !== 'other' || Boolean(body.referral_source_other), {
    message: "Tell us where you heard of Scout when you choose 'other'.",
    path: ['referral_source_other'],
  });
export type SetupStatusRequest = z.infer<typeof setupStatusRequestSchema>;

export const TOUR_STATES = ['not_seen', 'finished', 'skipped'] as const;

/** `PATCH /users/tour_progress` (spec §4.5: not_seen to finished or skipped). */
export const tourProgressRequestSchema = z
  .object({
    tour_name: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .regex(/^[\w-]+$/),
    state: z.enum(TOUR_STATES),
  })
  .strict();
export type TourProgressRequest = z.infer<typeof tourProgressRequestSchema>;

export const okResponseSchema = z.object({ ok: z.literal(true) });

/**
 * `PATCH /users/{id}`: the caller's own profile only (403 for another id). Names follow spec §5 (word characters,
 * spaces and ! # & . @ -, at most 100). photo is a PNG, JPEG, WebP or GIF data URL of at most 5 MB decoded; null
 * removes it. has_seen_web_onboarding is set by the app once the web onboarding was shown (asking-questions §4).
 * Answers the current user as `GET /_fetchData/user` does.
 */
export const userUpdateRequestSchema = z
  .object({
    first_name: personNameSchema,
    last_name: personNameSchema,
    display_name: personNameSchema.nullable(),
    photo: imageDataUrlSchema.nullable(),
    has_seen_web_onboarding: z.boolean(),
  })
  .partial()
  .strict();
export type UserUpdateRequest = z.infer<typeof userUpdateRequestSchema>;

/** A member's own preferences (spec §3 User.preferences): the personal background and the data-export times. */
export const userPreferencesSchema = z.object({
  background_type: z.enum(BACKGROUND_TYPES).nullable(),
  background_color: z.string().nullable(),
  background_image: z.string().nullable(),
  /** ISO-8601, set by the server when an export is requested and when it is ready. */
  export_requested_at: z.string().nullable(),
  export_available_at: z.string().nullable(),
});
export type UserPreferences = z.infer<typeof userPreferencesSchema>;

/**
 * `PATCH /users/{id}/preferences` (own id only): the personal background; null clears a field (the org's background
 * shows again). Setting one needs the org's background_allow_user (403 otherwise).
 */
export const userPreferencesUpdateRequestSchema = z
  .object({
    background_type: z.enum(BACKGROUND_TYPES).nullable(),
    background_color: backgroundColorSchema.nullable(),
    background_image: backgroundImageSchema.nullable(),
  })
  .partial()
  .strict();
export type UserPreferencesUpdateRequest = z.infer<typeof userPreferencesUpdateRequestSchema>;

export const userPreferencesResponseSchema = z.object({ preferences: userPreferencesSchema });
export type UserPreferencesResponse = z.infer<typeof userPreferencesResponseSchema>;

/** The server's refusals on the users calls (spec strings live in common/strings.ts). */
export const userMessages = {
  ONLY_YOUR_OWN_PROFILE: 'You can only change your own profile.',
  PERSONAL_BACKGROUND_NOT_ALLOWED: 'Your workspace does not allow personal backgrounds.',
  NO_PHOTO: 'No photo.',
} as const;
