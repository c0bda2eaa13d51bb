// Feature requests (spec shell-and-account §2.8 Support menu, §2.10, §5, §8): a member writes one in the sidebar's
// 'Request Feature' dialog; it is stored for the workspace's admins to read. No email is sent.
import { z } from 'zod';

/** Ours: the spec states no limit. Longer texts are refused (400). */
export const FEATURE_REQUEST_MAX_CHARS = 5000;
/** Ours: how many of the newest requests an admin's list holds. */
export const FEATURE_REQUESTS_LISTED = 200;

export const featureRequestBodySchema = z.strictObject({
  /** Empty or whitespace-only text is refused, as the dialog keeps Submit disabled for it. */
  text: z.string().trim().min(1).max(FEATURE_REQUEST_MAX_CHARS),
});
export type FeatureRequestBody = z.input<typeof featureRequestBodySchema>;

export const featureRequestSchema = z.object({
  id: z.string(),
  text: z.string(),
  /** Who sent it; null once their account is gone. */
  author: z.object({ email: z.string(), display_name: z.string().nullable() }).nullable(),
  /** ISO-8601. */
  created_at: z.string(),
});
export type FeatureRequest = z.infer<typeof featureRequestSchema>;

export const featureRequestCreatedSchema = z.object({ id: z.string() });

/** The org's requests, newest first. */
export const featureRequestsResponseSchema = z.object({ feature_requests: z.array(featureRequestSchema) });
export type FeatureRequestsResponse = z.infer<typeof featureRequestsResponseSchema>;
