// What Gmail and Google Calendar share: Google's OAuth endpoints, the token credentials the OAuth flow stores, and
// the options that make a googleapis client send its requests through the connection's HttpClient. Google tells a
// rate limit from a refusal only in the body of its 403s, and a 401 in the middle of a long sync is usually an
// access token that lapsed since the engine refreshed it, which the job's retry fixes by refreshing again.
import { z } from 'zod';
import { google as googleStrings } from '../../common/strings';
import {
  HttpStatusError,
  TransientError,
  callVendor,
  vendorFetch,
  type AuthFailureClassifier,
  type ConnectorContext,
  type OAuthSettings,
} from '../sdk';

export const GOOGLE_AUTHORIZE_URL = 'https://accounts.google.com/o/oauth2/v2/auth';
export const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';

/** The token response the OAuth flow stores; the engine refreshes it before each sync (server/sync/oauth-tokens). */
export const googleCredentialsSchema = z.object({
  access_token: z.string().min(1),
  refresh_token: z.string().min(1).optional(),
  expires_at: z.iso.datetime({ offset: true }).optional(),
});
export type GoogleCredentials = z.output<typeof googleCredentialsSchema>;

/** `baseUrl` points the client at a fake in tests; Google's own root otherwise. */
export const googleConfigSchema = z.object({ baseUrl: z.url().optional() });
type GoogleContext = ConnectorContext<GoogleCredentials, z.output<typeof googleConfigSchema>>;

/** Offline access for a refresh token; consent every time, or Google issues no new refresh token on a reconnect. */
export function googleOAuth(scopes: readonly string[]): OAuthSettings {
  return {
    authorizeUrl: GOOGLE_AUTHORIZE_URL,
    tokenUrl: GOOGLE_TOKEN_URL,
    scopes,
    pkce: true,
    authorizeParams: { access_type: 'offline', prompt: 'consent', include_granted_scopes: 'true' },
  };
}

const googleErrorSchema = z.object({
  error: z.object({ errors: z.array(z.object({ reason: z.string().optional() })).optional() }),
});

/** The `reason` of Google's JSON error answer (`rateLimitExceeded`, `insufficientPermissions`…). */
export function googleErrorReasons(body: string): string[] {
  try {
    const parsed = googleErrorSchema.safeParse(JSON.parse(body));
    return parsed.success ? (parsed.data.error.errors ?? []).flatMap((entry) => entry.reason ?? []) : [];
  } catch {
    return [];
  }
}

const RATE_LIMIT_REASONS = new Set(['rateLimitExceeded', 'userRateLimitExceeded']);
/** How close to its recorded expiry a refused token counts as lapsed rather than revoked. */
const EXPIRY_MARGIN_MS = 5 * 60_000;

function tokenLapsed(credentials: GoogleCredentials, now: Date): boolean {
  if (credentials.expires_at === undefined) return false;
  return new Date(credentials.expires_at).getTime() - now.getTime() <= EXPIRY_MARGIN_MS;
}

export function classifyGoogleAuthFailure(ctx: GoogleContext): AuthFailureClassifier {
  return (failure) => {
    const reasons = googleErrorReasons(failure.body);
    if (failure.status === 403 && reasons.some((reason) => RATE_LIMIT_REASONS.has(reason)))
      return { kind: 'rateLimited' };
    if (failure.status === 401)
      return tokenLapsed(ctx.credentials, ctx.now()) ? { kind: 'httpError' } : { kind: 'invalidCredentials' };
    return { kind: 'permissionMismatch', message: googleStrings.SCOPE_NOT_GRANTED };
  };
}

/** Options for `gmail({...})` / `calendar({...})`: their requests go through ctx.http, authenticated. */
export function googleClientOptions(ctx: GoogleContext, defaultRootUrl: string) {
  const rootUrl = ctx.config.baseUrl ?? defaultRootUrl;
  const http = ctx.http.with({
    baseUrl: rootUrl,
    headers: { authorization: `Bearer ${ctx.credentials.access_token}` },
    classifyAuthFailure: classifyGoogleAuthFailure(ctx),
  });
  // Our HttpClient retries; the SDK retrying too would multiply every wait.
  return { rootUrl, fetchImplementation: vendorFetch(http), retry: false } as const;
}

/** A googleapis call, with our error dug out of gaxios's and a lapsed token sent back to the job for a retry. */
export async function callGoogle<T>(call: () => Promise<{ data: T }>): Promise<T> {
  try {
    return (await callVendor(call)).data;
  } catch (error) {
    if (error instanceof HttpStatusError && error.status === 401)
      throw new TransientError('the Google access token lapsed mid-sync; the retry refreshes it', {
        cause: error,
      });
    throw error;
  }
}
