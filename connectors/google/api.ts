// What every Google connector (Drive, the Workspace directory, Gmail, Calendar) shares: the OAuth settings, the
// token credentials, Google's own SDK clients sending their requests through the connection's HTTP client, and how
// Google words its refusals (https://developers.google.com/workspace/drive/api/guides/handle-errors): a rate limit
// is told from a refusal only in the body of a 403.
import { admin, type admin_directory_v1 } from '@googleapis/admin';
import { drive, type drive_v3 } from '@googleapis/drive';
import { z } from 'zod';
import { google as googleStrings } from '../../common/strings';
import {
  FatalSourceError,
  InvalidCredentialsError,
  TransientError,
  unwrapConnectorError,
  vendorFetch,
  type AuthFailureClassifier,
  type ConnectorContext,
  type DownloadLimits,
  type OAuthSettings,
} from '../sdk';
import { delegatedToken, type Delegation } from './service-account';

export const GOOGLE_AUTHORIZE_URL = 'https://accounts.google.com/o/oauth2/v2/auth';
export const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';

/** The OAuth settings of a Google app asking for `scopes`: offline access, so Google issues a refresh token. */
export function googleOAuth(scopes: readonly string[]): OAuthSettings {
  return {
    authorizeUrl: GOOGLE_AUTHORIZE_URL,
    tokenUrl: GOOGLE_TOKEN_URL,
    scopes,
    pkce: true,
    // `prompt=consent` makes Google issue a refresh token on a reconnect too, not only on the first grant.
    authorizeParams: { access_type: 'offline', prompt: 'consent', include_granted_scopes: 'true' },
  };
}

/** Google's token response as the OAuth flow stores it (server/sync/oauth-tokens.ts adds `expires_at`). */
const googleTokenCredentialsSchema = z
  .object({
    access_token: z.string().min(1),
    refresh_token: z.string().min(1).optional(),
    expires_at: z.iso.datetime({ offset: true }).optional(),
  })
  .loose();

/**
 * An org connection's marketplace install (spec §7): the Workspace admin's email. The connection reads through
 * the server's service account, acting as the admin or as each member (./service-account.ts).
 */
const googleDelegatedCredentialsSchema = z.object({ email: z.email(), marketplace: z.literal(true) });

/** An individual connection's OAuth tokens, or an org connection's delegation. */
export const googleCredentialsSchema = z.union([
  googleTokenCredentialsSchema,
  googleDelegatedCredentialsSchema,
]);
export type GoogleCredentials = z.infer<typeof googleCredentialsSchema>;

/** `baseUrl` replaces both Google API origins, which is how tests point a connector at its fake. */
export const googleConfigSchema = z.object({ baseUrl: z.url().optional() }).loose();
export type GoogleConfig = z.infer<typeof googleConfigSchema>;

export type GoogleContext = ConnectorContext<GoogleCredentials, GoogleConfig>;

const DRIVE_ORIGIN = 'https://www.googleapis.com';
const ADMIN_ORIGIN = 'https://admin.googleapis.com';
/** Google exports at most 10 MB of a document; an answer past this is not worth holding in memory. */
const MAX_DOWNLOAD_BYTES = 20 * 1024 * 1024;

const googleErrorSchema = z.object({
  error: z.object({ errors: z.array(z.object({ reason: z.string().optional() })).optional() }).loose(),
});

/** The `reason`s of Google's JSON error answer (`rateLimitExceeded`, `insufficientPermissions`…). */
export function googleErrorReasons(body: string): string[] {
  try {
    const parsed = googleErrorSchema.safeParse(JSON.parse(body));
    return parsed.success ? (parsed.data.error.errors ?? []).flatMap((error) => error.reason ?? []) : [];
  } catch {
    return [];
  }
}

const THROTTLE_REASONS = new Set(['rateLimitExceeded', 'userRateLimitExceeded']);

/**
 * Google answers an exhausted quota with 403 `userRateLimitExceeded` or `rateLimitExceeded` (to be backed off like
 * a 429) and a token without a scope with 403 `insufficientPermissions`. Other 403s concern one item (Drive's
 * `insufficientFilePermissions`, `cannotExportFile`, `exportSizeLimitExceeded`), which only that item's read needs
 * to know.
 */
export const classifyGoogleFailure: AuthFailureClassifier = (failure) => {
  if (failure.status === 401) return { kind: 'invalidCredentials' };
  const reasons = googleErrorReasons(failure.body);
  if (reasons.some((reason) => THROTTLE_REASONS.has(reason))) return { kind: 'rateLimited' };
  if (reasons.includes('insufficientPermissions'))
    return { kind: 'permissionMismatch', message: googleStrings.SCOPE_MISSING };
  return { kind: 'httpError' };
};

/** The Directory API refuses anyone but an administrator with a plain 403 'Not Authorized to access this resource'. */
export const classifyDirectoryFailure: AuthFailureClassifier = (failure) => {
  if (failure.status === 401) return { kind: 'invalidCredentials' };
  const reasons = googleErrorReasons(failure.body);
  if (reasons.some((reason) => THROTTLE_REASONS.has(reason))) return { kind: 'rateLimited' };
  return { kind: 'permissionMismatch', message: googleStrings.ADMIN_REQUIRED };
};

/** Whether the context reads through the service account (an org connection) rather than a member's tokens. */
export function isDelegated(ctx: GoogleContext): ctx is ConnectorContext<DelegatedCredentials, GoogleConfig> {
  return 'marketplace' in ctx.credentials;
}
type DelegatedCredentials = z.output<typeof googleDelegatedCredentialsSchema>;

/** Who each context of an org connection acts as (see `actingAs`). */
const delegations = new WeakMap<GoogleContext, Delegation>();

/**
 * The context of an org connection acting as `subject` with `scopes`: Google APIs called through it see that
 * member's data. Only an org connection (delegated credentials) can act as anyone.
 */
export function actingAs(ctx: GoogleContext, subject: string, scopes: readonly string[]): GoogleContext {
  if (!isDelegated(ctx))
    throw new FatalSourceError('only an org connection can act as a member of the Workspace');
  const member: GoogleContext = { ...ctx };
  delegations.set(member, { subject, scopes });
  return member;
}

/** How close to its recorded expiry a refused access token counts as lapsed rather than revoked. */
const EXPIRY_MARGIN_MS = 5 * 60_000;

/**
 * Options for a googleapis client (`drive({...})`, `gmail({...})`…) whose requests go through the connection's
 * client, authenticated, at `origin` (or the config's `baseUrl`, a fake in tests).
 */
export function googleClientOptions(
  ctx: GoogleContext,
  origin: string,
  classify: AuthFailureClassifier = classifyGoogleFailure,
  download?: DownloadLimits,
) {
  const base = ctx.config.baseUrl ?? origin;
  const credentials = ctx.credentials;
  const http = ctx.http.with({
    baseUrl: base,
    ...('access_token' in credentials
      ? { headers: { authorization: `Bearer ${credentials.access_token}` } }
      : {}),
    classifyAuthFailure: classify,
  });
  const viaClient = vendorFetch(http, download ?? { maxBodyBytes: MAX_DOWNLOAD_BYTES });
  const rootUrl = `${base.replace(/\/+$/, '')}/`;
  if (!('access_token' in credentials)) {
    const delegation = delegations.get(ctx);
    if (!delegation) throw new FatalSourceError('an org connection must say whom it acts as (actingAs)');
    const delegatedFetch: typeof fetch = async (input, init) => {
      // A token Google refuses before its time (revoked delegation, a rotated key) gets one new token and a retry.
      for (let renew = false; ; renew = true) {
        const headers = new Headers(init?.headers);
        headers.set('authorization', `Bearer ${await delegatedToken(ctx, delegation, renew)}`);
        try {
          return await viaClient(input, { ...init, headers });
        } catch (error) {
          if (error instanceof InvalidCredentialsError && !renew) continue;
          throw error;
        }
      }
    };
    return { rootUrl, fetchImplementation: delegatedFetch, retry: false };
  }
  const expiresAt = Date.parse(credentials.expires_at ?? '');
  const fetchImplementation: typeof fetch = async (input, init) => {
    try {
      return await viaClient(input, init);
    } catch (error) {
      // An access token lives an hour, and a long sync outlives it. The engine refreshes tokens before each run,
      // so a refusal of a lapsed token is a reason to stop and come back, not to ask the user to reconnect.
      if (error instanceof InvalidCredentialsError && expiresAt - ctx.now().getTime() <= EXPIRY_MARGIN_MS)
        throw new TransientError('the Google access token lapsed mid-sync; the retry refreshes it', {
          cause: error,
        });
      throw error;
    }
  };
  // The connection's client retries; the SDK's own retries would multiply its attempts.
  return { rootUrl, fetchImplementation, retry: false };
}

/** `download` replaces the caps on an answer's size and time, for a file the server parses. */
export function driveApi(ctx: GoogleContext, download?: DownloadLimits): drive_v3.Drive {
  return drive({ version: 'v3', ...googleClientOptions(ctx, DRIVE_ORIGIN, classifyGoogleFailure, download) });
}

export function directoryApi(ctx: GoogleContext): admin_directory_v1.Admin {
  return admin({
    version: 'directory_v1',
    ...googleClientOptions(ctx, ADMIN_ORIGIN, classifyDirectoryFailure),
  });
}

/** The answer's data; a failure the connection's client raised comes out as that client's typed error. */
export async function call<T>(request: Promise<{ data: T }>): Promise<T> {
  try {
    return (await request).data;
  } catch (error) {
    throw unwrapConnectorError(error);
  }
}
