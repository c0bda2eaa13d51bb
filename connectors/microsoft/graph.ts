// What every Microsoft Graph connector of ours shares: Graph's and the identity platform's addresses, Graph's OData
// page shape, and for the apps a member connects (Outlook, Teams) the delegated OAuth flow, its token response kept
// as credentials and how Graph answers a refusal. Org connections read with app-only tokens instead (./app-only.ts). Calls go through the SDK's HTTP client (the connection's limiter, Retry-After on
// Graph's 429 and 503 throttling, typed errors) rather than @microsoft/microsoft-graph-client, whose own retry and
// auth middleware would be a second way of doing both.
import { z } from 'zod';
import type { AuthFailureClassifier, ConnectorContext, HttpClient, OAuthSettings } from '../sdk';

export const GRAPH_BASE_URL = 'https://graph.microsoft.com/v1.0';
export const MICROSOFT_LOGIN_URL = 'https://login.microsoftonline.com';

/**
 * The token response of the code flow (server/api/oauth) with `expires_at`; the engine refreshes it before it
 * lapses. Access tokens live about an hour, refresh tokens (with offline_access) 90 days of inactivity.
 */
export const graphCredentialsSchema = z.object({
  access_token: z.string().min(1),
  refresh_token: z.string().min(1).optional(),
  expires_at: z.iso.datetime({ offset: true }).optional(),
});
export type GraphCredentials = z.output<typeof graphCredentialsSchema>;

/** `baseUrl` points a connection at a fake Graph in tests (the SDK's convention). */
export const graphConfigSchema = z.object({ baseUrl: z.url().default(GRAPH_BASE_URL) });
export type GraphConfig = z.output<typeof graphConfigSchema>;

export type GraphContext = ConnectorContext<GraphCredentials, GraphConfig>;

/**
 * The delegated authorization-code flow on the `organizations` authority (work and school accounts: Teams has no
 * personal accounts, and Scout indexes workplaces). `offline_access` is what yields a refresh token.
 */
export function microsoftOAuth(scopes: readonly string[], loginUrl = MICROSOFT_LOGIN_URL): OAuthSettings {
  const authority = `${loginUrl.replace(/\/+$/, '')}/organizations/oauth2/v2.0`;
  return {
    authorizeUrl: `${authority}/authorize`,
    tokenUrl: `${authority}/token`,
    scopes: ['offline_access', 'User.Read', ...scopes],
    pkce: true,
  };
}

/** 401 is an expired or revoked token; 403 is a permission the account or tenant has not granted. */
export function graphAuthFailures(missingPermission: string): AuthFailureClassifier {
  return (failure) =>
    failure.status === 401
      ? { kind: 'invalidCredentials' }
      : { kind: 'permissionMismatch', message: missingPermission };
}

export function graphClient(ctx: GraphContext, missingPermission: string): HttpClient {
  return ctx.http.with({
    baseUrl: ctx.config.baseUrl,
    headers: { authorization: `Bearer ${ctx.credentials.access_token}` },
    classifyAuthFailure: graphAuthFailures(missingPermission),
  });
}

/** A Graph collection page: its items, and the next page's or (last page of a delta round) the delta's address. */
export function odataPageSchema<T extends z.ZodType>(item: T) {
  return z.object({
    value: z.array(item),
    '@odata.nextLink': z.string().optional(),
    '@odata.deltaLink': z.string().optional(),
  });
}

export const graphUserSchema = z.object({
  id: z.string(),
  displayName: z.string().nullish(),
  mail: z.string().nullish(),
  userPrincipalName: z.string().nullish(),
});

/** The signed-in account's address: `mail` when the mailbox has one, else the sign-in name, itself an address. */
export function accountEmail(user: z.output<typeof graphUserSchema>): string | null {
  const email = z.email();
  for (const candidate of [user.mail, user.userPrincipalName]) {
    if (candidate && email.safeParse(candidate).success) return candidate.toLowerCase();
  }
  return null;
}

export const timestamp = z.iso.datetime({ offset: true }).transform((value) => new Date(value));
