import { z } from 'zod';

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
