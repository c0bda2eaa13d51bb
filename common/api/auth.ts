// The sign-in and sign-up contract (spec shell-and-account §3 Auth results, §4.1–4.4, §5, §7.1) and the SSO
// configuration of an org (§7.4 sso-oidc). Field names are the spec's. Every path is under /api/v1.
import { z } from 'zod';
import { EMAIL_MAX_CHARS } from './members';
import { validation } from '../strings';
import { loginTokensSchema } from './session';

// ---------------------------------------------------------------------------------------------
// Shared fields
// ---------------------------------------------------------------------------------------------

const NAME_MAX_CHARS = 100;
const ORIGIN_MAX_CHARS = 2048;

/** Spec §5: 'something@something', otherwise 'Invalid email'. Compared and stored lower-cased. */
export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .min(1, validation.EMAIL_REQUIRED)
  .max(EMAIL_MAX_CHARS, validation.INVALID_EMAIL)
  .regex(/^[^\s@]+@[^\s@]+$/, validation.INVALID_EMAIL);

/**
 * Spec §5: names may contain word characters, spaces and ! # & . @ -. Word characters include letters and digits
 * of every script, so 'José' and 'Zoë' are names.
 */
export const personNameSchema = z
  .string()
  .trim()
  .min(1)
  .max(NAME_MAX_CHARS)
  .regex(/^[\p{L}\p{M}\p{N}_ !#&.@-]+$/u, 'Names may contain letters, digits, spaces and ! # & . @ -');

/** The SPA's current address (or just its path); the server answers where to go after sign-in from it. */
export const originSchema = z.string().max(ORIGIN_MAX_CHARS);

/**
 * The code as typed: case-insensitive, and dashes or spaces anywhere are ignored, so 'abcde fghij…' and the
 * canonical 'ABCDE-FGHIJ-KLMNP-QRSTU' are the same code. Normalised to 20 upper-case characters.
 */
export const loginCodeInputSchema = z
  .string()
  .max(64)
  .transform((value) => value.replace(/[\s-]/g, '').toUpperCase())
  .refine((value) => /^\w{20}$/.test(value), validation.INVALID_CODE);

// ---------------------------------------------------------------------------------------------
// Calls
// ---------------------------------------------------------------------------------------------

export const SIGN_IN_PROVIDERS = ['email', 'google', 'sso'] as const;
export type SignInProvider = (typeof SIGN_IN_PROVIDERS)[number];

/**
 * `GET auth/provider?email=` → 200 providerResponse. 404 NOT_FOUND when the email's domain belongs to no org
 * (then `domain_exists` would be false, so a 200 always says true). The answer never reveals whether the person is
 * a member.
 */
export const providerQuerySchema = z.object({ email: emailSchema });
export const providerResponseSchema = z.object({
  provider: z.enum(SIGN_IN_PROVIDERS),
  domain_exists: z.boolean(),
});
export type ProviderResponse = z.infer<typeof providerResponseSchema>;

/**
 * `GET auth/code-delivery` (ours): whether sign-in codes go to the server's console instead of a mailbox, which is
 * so only on a development server without SMTP_URL; the code stage then says where to find the code.
 */
export const codeDeliveryResponseSchema = z.object({ code_in_server_console: z.boolean() });
export type CodeDeliveryResponse = z.infer<typeof codeDeliveryResponseSchema>;

/**
 * `POST auth/code-request` → 204, the same for a member and a stranger (nothing is sent to a stranger); 403 FORBIDDEN
 * (auth.SSO_FORCED) when the email's org enforces SSO. The code is mailed after the answer, so its timing tells
 * nothing either; a mail the server refuses is logged. `origin` is accepted as the spec sends it; links in the mail use PUBLIC_URL.
 */
export const codeRequestBodySchema = z.object({ email: emailSchema, origin: originSchema.optional() });
export type CodeRequestBody = z.infer<typeof codeRequestBodySchema>;

/**
 * `POST auth/confirm` → 200 confirmResponse. The email is optional (a code alone identifies its sign-in); sent,
 * it must match the code's. 401 UNAUTHORIZED (auth.CODE_INVALID), 403 FORBIDDEN
 * (auth.REQUEST_ACCESS, or auth.SSO_FORCED).
 */
export const confirmBodySchema = z.object({
  code: loginCodeInputSchema,
  origin: originSchema.optional(),
  email: emailSchema.optional(),
});
export type ConfirmBody = z.input<typeof confirmBodySchema>;
export const confirmResponseSchema = loginTokensSchema.extend({
  /** Where the SPA goes next: the origin's path when it is ours, else '/'. */
  loginUrl: z.string(),
});
export type ConfirmResponse = z.infer<typeof confirmResponseSchema>;

/**
 * `POST auth/user` (sign-up) → 204, whether or not the person is a member (a code by mail to whoever may sign
 * in; see server/auth/sign-up.ts), so it never answers the spec's 409; 403 FORBIDDEN (auth.SIGNUP_FAILED when the
 * server takes no new orgs, auth.SSO_FORCED); 400 BAD_REQUEST (auth.CAPTCHA_FAILED, authMessages.WORK_EMAIL_REQUIRED).
 */
export const signUpBodySchema = z.object({
  email: emailSchema,
  first_name: personNameSchema,
  last_name: personNameSchema,
  /** The CAPTCHA token (action 'login'); required only when the server checks CAPTCHAs. */
  verification: z.string().max(4096).optional(),
  origin: originSchema.optional(),
});
export type SignUpBody = z.infer<typeof signUpBodySchema>;

/**
 * `POST auth/token-refresh` → 200 loginTokens (a new refresh token; the one sent is spent). `POST auth/logout`
 * → 204. Both take the stored tokens object; only refresh_token is read. A spent refresh token presented again
 * signs the whole session out (401).
 */
export const refreshTokenBodySchema = z.object({ refresh_token: z.string().min(1).max(512) });
export type RefreshTokenBody = z.infer<typeof refreshTokenBodySchema>;

/** `POST auth/grant` → 200 loginTokens. The one-time grant a Google or SSO sign-in left in /login?loginGrant=. */
export const grantBodySchema = z.object({ grant: z.string().min(1).max(512) });
export type GrantBody = z.infer<typeof grantBodySchema>;

/**
 * `GET google/auth-url?origin=` → 200 { url } to send the browser to; 501 NOT_IMPLEMENTED when Google sign-in is
 * not configured. The answer also sets a short-lived cookie that the callback checks, so call it from the page
 * that will navigate.
 */
export const googleAuthUrlQuerySchema = z.object({
  origin: originSchema.optional(),
  /** Pre-selects the account at Google. */
  email: emailSchema.optional(),
});
export const authUrlResponseSchema = z.object({ url: z.string() });
export type AuthUrlResponse = z.infer<typeof authUrlResponseSchema>;

/**
 * The 'SSO OIDC address': `GET auth/sso?sso=1&email=` → 200 { url, on_prem_url }; 501 NOT_IMPLEMENTED
 * (auth.SSO_NOT_SUPPORTED) when the email's org has no SSO. Sets the same cookie as google/auth-url.
 */
export const ssoAddressQuerySchema = z.object({
  sso: z.string().max(8).optional(),
  email: emailSchema,
  origin: originSchema.optional(),
});
export const ssoAddressResponseSchema = z.object({ url: z.string(), on_prem_url: z.string().nullable() });
export type SsoAddressResponse = z.infer<typeof ssoAddressResponseSchema>;

/**
 * Where the Google and SSO callbacks send the browser: `/login` with one of these query parameters.
 * - loginGrant (+ redirect): success; exchange the grant at `POST auth/grant` within 60 s, then go to redirect.
 * - unauthorized=true and message: the identity is fine but has no account here ('Sorry, that account does not
 *   exist yet' screen).
 * - err: the sign-in failed (cancelled at the provider, expired, SSO enforced…); the value is a message to show.
 */
export const LOGIN_RESULT_PARAMS = {
  grant: 'loginGrant',
  redirect: 'redirect',
  unauthorized: 'unauthorized',
  message: 'message',
  error: 'err',
} as const;

/** Seconds a sign-in grant stays valid. */
export const LOGIN_GRANT_TTL_SECONDS = 60;

// ---------------------------------------------------------------------------------------------
// SSO configuration (admin, ENTERPRISE feature 'sso'): GET/POST/PATCH/DELETE sso-oidc
// ---------------------------------------------------------------------------------------------

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** https, or http only on this machine (a test or a local IdP). */
export function isAcceptableIdpUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return url.protocol === 'https:' || (url.protocol === 'http:' && LOCAL_HOSTS.has(url.hostname));
}

const idpUrlSchema = z
  .string()
  .trim()
  .max(ORIGIN_MAX_CHARS)
  .refine(isAcceptableIdpUrl, 'Must be an https address (http only on localhost or 127.0.0.1).');

/** `GET sso-oidc` → 200 { config: … | null }. The client secret is never returned. */
export const ssoOidcConfigSchema = z.object({
  issuer: z.string(),
  client_id: z.string(),
  has_client_secret: z.boolean(),
  enforced: z.boolean(),
  on_prem_url: z.string().nullable(),
  /** Register this address as the redirect URI at the identity provider. */
  redirect_uri: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type SsoOidcConfig = z.infer<typeof ssoOidcConfigSchema>;
export const ssoOidcResponseSchema = z.object({ config: ssoOidcConfigSchema.nullable() });
export type SsoOidcResponse = z.infer<typeof ssoOidcResponseSchema>;

/** `POST sso-oidc` → 201 { config }; 409 when the org has one. The issuer must answer OIDC discovery. */
export const ssoOidcCreateBodySchema = z
  .object({
    issuer: idpUrlSchema,
    client_id: z.string().trim().min(1).max(512),
    /** Omit for a public client (PKCE only). */
    client_secret: z.string().min(1).max(2048).optional(),
    enforced: z.boolean().default(false),
    on_prem_url: idpUrlSchema.nullable().optional(),
  })
  .strict();
export type SsoOidcCreateBody = z.input<typeof ssoOidcCreateBodySchema>;

/** `PATCH sso-oidc` → 200 { config }; 404 when the org has none. client_secret null removes the secret. */
export const ssoOidcUpdateBodySchema = z
  .object({
    issuer: idpUrlSchema,
    client_id: z.string().trim().min(1).max(512),
    client_secret: z.string().min(1).max(2048).nullable(),
    enforced: z.boolean(),
    on_prem_url: idpUrlSchema.nullable(),
  })
  .partial()
  .strict();
export type SsoOidcUpdateBody = z.infer<typeof ssoOidcUpdateBodySchema>;

// `DELETE sso-oidc` → 204; 404 when the org has none.

// ---------------------------------------------------------------------------------------------
// Messages the server sends that the spec does not quote ("ours"); the quoted ones are in common/strings.ts.
// ---------------------------------------------------------------------------------------------

export const authMessages = {
  WORK_EMAIL_REQUIRED: 'Please use your work email.',
  RATE_LIMITED: 'Too many attempts. Please wait a little and try again.',
  GOOGLE_NOT_CONFIGURED: 'Google sign-in is not configured on this Scout server.',
  SESSION_ENDED: 'Your session has ended. Please sign in again.',
  SIGN_IN_FAILED: 'Sign-in did not complete. Please try again.',
  SSO_EMAIL_MISMATCH:
    'Your identity provider signed you in with an email that does not belong to this workspace.',
  SSO_DISCOVERY_FAILED: 'Could not read the OpenID configuration of this issuer.',
  SSO_ALREADY_CONFIGURED: 'SSO is already configured for this workspace.',
  SSO_NOT_CONFIGURED: 'SSO is not configured for this workspace.',
} as const;
