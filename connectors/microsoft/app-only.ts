// Microsoft Graph with an app-only token: the org connections of the Microsoft apps (SharePoint, OneDrive, and the
// org-wide Outlook and Teams) read the tenant on the admin consent granted once to Scout's Azure app (spec §7: the
// Microsoft marketplace install sends the admin's email; the tenant is its domain). The token comes from the
// client-credentials grant, so the connector fetches a new one itself before one lapses or when Graph answers 401,
// with no refresh token to store.
import { z } from 'zod';
import type { AppShortname } from '../../common/catalogue';
import { CREDENTIAL_NAMES, microsoft } from '../../common/strings';
import {
  FatalSourceError,
  HttpStatusError,
  InvalidCredentialsError,
  PermissionMismatchError,
  paginateByNextLink,
  type AuthFailureClassifier,
  type ConnectorContext,
  type CredentialName,
  type DownloadLimits,
  type HttpClient,
  type HttpClientSettings,
  type RequestOptions,
} from '../sdk';
import { GRAPH_BASE_URL, MICROSOFT_LOGIN_URL, accountEmail, graphUserSchema, odataPageSchema } from './graph';

const GRAPH_SCOPE = 'https://graph.microsoft.com/.default';
/** Take a new token this long before the old one lapses, so it never expires between two requests of a page. */
const TOKEN_MARGIN_MS = 5 * 60_000;
/** Graph's largest page for directory listings. */
export const DIRECTORY_PAGE = 999;

/**
 * The marketplace install payload (spec §7): the admin's email names the tenant by its domain, unless the admin
 * consent popup answered the tenant's id (server/api/oauth/admin-consent.ts), which the server adds.
 */
export const tenantCredentialsSchema = z.object({
  email: z.email(),
  marketplace: z.literal(true),
  tenant: z.string().min(1).optional(),
});
export type TenantCredentials = z.output<typeof tenantCredentialsSchema>;
/** `baseUrl` and `loginUrl` point a test at its fake, by the SDK's convention. */
export const tenantConfigSchema = z.object({
  baseUrl: z.url().default(GRAPH_BASE_URL),
  loginUrl: z.url().default(MICROSOFT_LOGIN_URL),
});
export type TenantConfig = z.output<typeof tenantConfigSchema>;
export type TenantContext = ConnectorContext<TenantCredentials, TenantConfig>;

const tokenSchema = z.object({ access_token: z.string().min(1), expires_in: z.coerce.number().positive() });

/** The Azure app of `shortname`: `SCOUT_OAUTH_<APP>_CLIENT_ID` and `_CLIENT_SECRET`, as every OAuth app's. */
function azureApp(shortname: AppShortname, env: NodeJS.ProcessEnv = process.env) {
  const prefix = `SCOUT_OAUTH_${shortname.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
  const clientId = env[`${prefix}_CLIENT_ID`]?.trim();
  const clientSecret = env[`${prefix}_CLIENT_SECRET`]?.trim();
  if (!clientId || !clientSecret)
    throw new FatalSourceError(`${shortname}: no Azure app is configured on this server`);
  return { clientId, clientSecret };
}

/** AADSTS codes that mean the tenant has not consented to the app (or removed it): the admin's to fix. */
const NO_CONSENT = /AADSTS(65001|700016|7000229|500011)\b/;

interface Token {
  readonly value: string;
  readonly expiresAt: number;
}
/** One token per context, so a sync's requests share it; a context lives for one job. */
const tokens = new WeakMap<object, Promise<Token>>();

async function requestToken(
  ctx: TenantContext,
  shortname: AppShortname,
  credentialName: CredentialName,
): Promise<Token> {
  const { clientId, clientSecret } = azureApp(shortname);
  const tenant = ctx.credentials.tenant ?? ctx.credentials.email.split('@')[1] ?? '';
  const login = ctx.http.with({
    baseUrl: ctx.config.loginUrl,
    // The token endpoint answers its refusals as 400/401 with an AADSTS code; they are sorted out below.
    classifyAuthFailure: () => ({ kind: 'httpError' }),
  });
  try {
    const answer = await login.json(`/${encodeURIComponent(tenant)}/oauth2/v2.0/token`, tokenSchema, {
      method: 'POST',
      body: new URLSearchParams({
        client_id: clientId,
        client_secret: clientSecret,
        scope: GRAPH_SCOPE,
        grant_type: 'client_credentials',
      }),
    });
    return { value: answer.access_token, expiresAt: ctx.now().getTime() + answer.expires_in * 1000 };
  } catch (error) {
    if (!(error instanceof HttpStatusError) || error.status >= 500) throw error;
    if (NO_CONSENT.test(error.bodyExcerpt))
      throw new PermissionMismatchError(microsoft.ADMIN_CONSENT_REQUIRED, { cause: error });
    throw new InvalidCredentialsError(credentialName, { cause: error });
  }
}

async function token(
  ctx: TenantContext,
  shortname: AppShortname,
  credentialName: CredentialName,
  renew: boolean,
): Promise<Token> {
  const held = renew ? undefined : await tokens.get(ctx)?.catch(() => undefined);
  if (held && held.expiresAt - ctx.now().getTime() > TOKEN_MARGIN_MS) return held;
  const next = requestToken(ctx, shortname, credentialName);
  tokens.set(ctx, next);
  return next;
}

/** 403 from Graph with an app-only token: a permission the admin consent did not include. */
const classifyGraphFailure: AuthFailureClassifier = (failure) =>
  failure.status === 401
    ? { kind: 'invalidCredentials' }
    : { kind: 'permissionMismatch', message: microsoft.ADMIN_CONSENT_REQUIRED };

/**
 * The connection's HTTP client on Graph, each request carrying the app-only token of the moment: a token near its
 * end is replaced before the request, and a 401 (a token revoked or expired early) gets one new token and a retry.
 * Being an HttpClient, it serves the SDK's paginators and whatever a connector written for delegated tokens calls.
 * `settings.credentialName` names the credential a refusal blames (the connector's own), 'credentials' by default.
 */
export function appOnlyClient(
  ctx: TenantContext,
  shortname: AppShortname,
  settings: HttpClientSettings = {},
): HttpClient {
  const baseUrl = settings.baseUrl ?? ctx.config.baseUrl;
  const credentialName = settings.credentialName ?? CREDENTIAL_NAMES.credentials;
  async function authorized<T>(send: (client: HttpClient) => Promise<T>): Promise<T> {
    for (let renew = false; ; renew = true) {
      const { value } = await token(ctx, shortname, credentialName, renew);
      const client = ctx.http.with({
        classifyAuthFailure: classifyGraphFailure,
        ...settings,
        credentialName,
        baseUrl,
        headers: { ...settings.headers, authorization: `Bearer ${value}` },
      });
      try {
        return await send(client);
      } catch (error) {
        if (error instanceof InvalidCredentialsError && !renew) continue;
        throw error;
      }
    }
  }
  return {
    baseUrl,
    request: (path, options) => authorized((client) => client.request(path, options)),
    json: (path, schema, options) => authorized((client) => client.json(path, schema, options)),
    with: (more) => appOnlyClient(ctx, shortname, { ...settings, ...more }),
  };
}

const directoryUserSchema = z.object({
  id: z.string(),
  mail: z.string().nullish(),
  userPrincipalName: z.string().nullish(),
});

/**
 * The Graph calls of one app on one context, through `http`: the app-only client of an org connection, or a
 * member's delegated one (an individual connection of the same app reads the same way).
 */
export class Graph {
  constructor(
    private readonly ctx: object,
    readonly shortname: AppShortname,
    readonly http: HttpClient,
  ) {}

  /** With the app-only token of the tenant's admin consent. */
  static appOnly(ctx: TenantContext, shortname: AppShortname): Graph {
    return new Graph(ctx, shortname, appOnlyClient(ctx, shortname));
  }

  json<S extends z.ZodType>(path: string, schema: S, options?: RequestOptions): Promise<z.output<S>> {
    return this.http.json(path, schema, options);
  }

  /**
   * A file's bytes (`/content`, which Graph answers with a redirect to a pre-authenticated download URL that fetch
   * follows), within the parsers' `limits`.
   */
  async download(path: string, limits: DownloadLimits): Promise<Uint8Array> {
    const response = await this.http.request(path, limits);
    return response.body;
  }

  /** Every page of a collection, following `@odata.nextLink` (an absolute URL carrying its own query). */
  async *pages<T extends z.ZodType>(path: string, item: T, query?: RequestOptions['query']) {
    let next: string | undefined = path;
    let first = true;
    while (next !== undefined) {
      const answer: z.output<ReturnType<typeof odataPageSchema<T>>> = await this.json(
        next,
        odataPageSchema(item),
        first ? { query } : {},
      );
      first = false;
      yield answer.value;
      next = answer['@odata.nextLink'];
    }
  }

  /** Entra ID's users by id, for the grants that name a user by id only. Read once per context. */
  directory(): Promise<ReadonlyMap<string, string>> {
    const cached = directories.get(this.ctx);
    if (cached) return cached;
    const loading = (async () => {
      const emails = new Map<string, string>();
      const users = this.pages('/users', directoryUserSchema, {
        $select: 'id,mail,userPrincipalName',
        $top: DIRECTORY_PAGE,
      });
      for await (const batch of users) {
        for (const user of batch) {
          const email = user.mail ?? user.userPrincipalName;
          if (email && z.email().safeParse(email).success) emails.set(user.id, email);
        }
      }
      return emails;
    })();
    directories.set(this.ctx, loading);
    loading.catch(() => directories.delete(this.ctx));
    return loading;
  }
}
const directories = new WeakMap<object, Promise<ReadonlyMap<string, string>>>();

const tenantUserSchema = graphUserSchema.extend({ accountEnabled: z.boolean().nullish() });

export interface TenantUser {
  readonly id: string;
  readonly email: string;
}

/** The tenant's users who may sign in and have an address; a disabled account's data is nobody's to search. */
export async function tenantUsers(client: HttpClient): Promise<TenantUser[]> {
  const users: TenantUser[] = [];
  const pages = paginateByNextLink(client, {
    path: '/users',
    schema: odataPageSchema(tenantUserSchema),
    items: (page) => page.value,
    nextLink: (page) => page['@odata.nextLink'],
    request: {
      query: { $select: 'id,displayName,mail,userPrincipalName,accountEnabled', $top: DIRECTORY_PAGE },
    },
  });
  for await (const page of pages) {
    for (const user of page.items) {
      const email = accountEmail(user);
      if (user.accountEnabled !== false && email !== null) users.push({ id: user.id, email });
    }
  }
  return users;
}
