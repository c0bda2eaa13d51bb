// Connecting an app through an OAuth popup (spec shell-and-account §7.3 `PUT /oauth/{app}`, apps-and-connections
// §7 OAuth-style install): the call answers the address to open in a popup; the provider sends the popup back to
// Scout's callback, whose page posts the outcome to the window that opened it and closes.
import { z } from 'zod';

export const oauthStartRequestSchema = z.object({
  /** An org-wide connection (admins only), as `isOrg` of the install call. */
  admin: z.boolean().default(false),
  /** An existing connection to reconnect. */
  appId: z.uuid().optional(),
  /** The app's OAuth-style install payload (spec §7): empty, or subdomain; ServiceNow adds client id and secret. */
  options: z.record(z.string(), z.unknown()).default({}),
});
export type OAuthStartRequest = z.input<typeof oauthStartRequestSchema>;

export const oauthStartResponseSchema = z.object({ url: z.url() });

export const OAUTH_RESULT_MESSAGE = 'scout-oauth-result';

/** What the callback page posts to `window.opener` (to Scout's own origin only). */
export const oauthResultSchema = z.object({
  type: z.literal(OAUTH_RESULT_MESSAGE),
  app: z.string(),
  success: z.boolean(),
  /** On failure, what the app shows: the error, or 'Failed to install {app}, please verify the provided credentials.' */
  message: z.string().optional(),
  connectionId: z.string().optional(),
});
export type OAuthResult = z.infer<typeof oauthResultSchema>;

/**
 * Starts the admin-consent popup of a Microsoft app's org connection (spec §5, §7: the Microsoft adminConsent page,
 * tenant = org domain): the admin's email on the org's domain, as the marketplace install that follows carries it.
 */
export const adminConsentStartRequestSchema = z.object({
  email: z.email(),
  /** An existing connection to reconnect. */
  appId: z.uuid().optional(),
});
export type AdminConsentStartRequest = z.input<typeof adminConsentStartRequestSchema>;

/**
 * What a Google Workspace super admin authorises in the Admin console for an org connection (domain-wide
 * delegation has no consent redirect): the service account's client ID (never its key) and the scopes to paste.
 */
export const delegationResponseSchema = z.object({
  clientId: z.string(),
  scopes: z.array(z.string()),
  adminConsoleUrl: z.url(),
});
export type DelegationResponse = z.infer<typeof delegationResponseSchema>;
