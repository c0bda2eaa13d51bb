/**
 * OpenID Connect sign-in through openid-client: discovery, the authorization address with state, nonce and PKCE
 * (S256), and the code exchange, whose ID token openid-client checks (issuer, audience, expiry, nonce). Used for
 * Google and for each org's own identity provider. Every request (discovery, token, keys) goes through the outbound
 * guard: an org admin types the issuer, and the provider's metadata names the other endpoints.
 */
import { createHash } from 'node:crypto';
import * as client from 'openid-client';
import { createGuardedFetch, type PrivateAccess } from '../../connectors/sdk';

export type OidcClientSettings = {
  issuer: string;
  clientId: string;
  clientSecret: string | null;
  /**
   * Where the provider may be besides public addresses: `true` for the operator's own issuer (GOOGLE_ISSUER_URL),
   * the operator's allow-list (SCOUT_ALLOW_PRIVATE_HOSTS) for one an org admin typed.
   */
  privateAccess: PrivateAccess;
};

/** What the browser carries between the authorization request and the callback (sealed in a cookie). */
export type AuthorizationChecks = { state: string; nonce: string; verifier: string };

export type OidcIdentity = { subject: string; email: string | null; emailVerified: boolean | undefined };

const DISCOVERY_TTL_MS = 10 * 60_000;
const DISCOVERY_TIMEOUT_SECONDS = 10;

// Discovery costs a round trip to the provider; every sign-in of an org would repeat it, so it is kept a while.
const configurations = new Map<string, { expiresAt: number; config: Promise<client.Configuration> }>();

/** The client configuration for an issuer, discovered at most every 10 minutes per client. */
export function oidcConfiguration(
  settings: OidcClientSettings,
  now = Date.now(),
): Promise<client.Configuration> {
  const key = createHash('sha256').update(JSON.stringify(settings)).digest('base64url');
  const cached = configurations.get(key);
  if (cached && cached.expiresAt > now) return cached.config;
  const config = discover(settings);
  configurations.set(key, { expiresAt: now + DISCOVERY_TTL_MS, config });
  // A failed discovery is not remembered: the next sign-in tries again.
  config.catch(() => configurations.delete(key));
  return config;
}

// One per allow-list, so that each keeps one connection pool for the life of the process.
const guardedFetches = new Map<string, client.CustomFetch>();

function guardedFetchFor(access: PrivateAccess): client.CustomFetch {
  const key = JSON.stringify(access);
  let custom = guardedFetches.get(key);
  if (!custom) {
    const guarded = createGuardedFetch({ access });
    // openid-client types a body as any Uint8Array, the DOM typing of fetch only one over an ArrayBuffer; they
    // are the same thing to Node's fetch.
    custom = (url, options) => guarded(url, options as RequestInit);
    guardedFetches.set(key, custom);
  }
  return custom;
}

async function discover(settings: OidcClientSettings): Promise<client.Configuration> {
  const issuer = new URL(settings.issuer);
  // Plain http is accepted only for identity providers on this machine (the settings schema checks that).
  const execute = issuer.protocol === 'http:' ? [client.allowInsecureRequests] : [];
  const guarded = guardedFetchFor(settings.privateAccess);
  const found = await client.discovery(issuer, settings.clientId, undefined, client.None(), {
    execute,
    timeout: DISCOVERY_TIMEOUT_SECONDS,
    [client.customFetch]: guarded,
  });
  if (!settings.clientSecret) return found;
  // client_secret_basic is the OpenID default; post only for a provider that says it takes nothing else.
  const metadata = found.serverMetadata();
  const methods = metadata.token_endpoint_auth_methods_supported;
  const authentication =
    methods && !methods.includes('client_secret_basic') && methods.includes('client_secret_post')
      ? client.ClientSecretPost(settings.clientSecret)
      : client.ClientSecretBasic(settings.clientSecret);
  const config = new client.Configuration(metadata, settings.clientId, undefined, authentication);
  config[client.customFetch] = guarded;
  for (const apply of execute) apply(config);
  return config;
}

export async function authorizationRequest(
  config: client.Configuration,
  redirectUri: string,
  loginHint?: string,
): Promise<{ url: string; checks: AuthorizationChecks }> {
  const checks = {
    state: client.randomState(),
    nonce: client.randomNonce(),
    verifier: client.randomPKCECodeVerifier(),
  };
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: 'openid email profile',
    state: checks.state,
    nonce: checks.nonce,
    code_challenge: await client.calculatePKCECodeChallenge(checks.verifier),
    code_challenge_method: 'S256',
    ...(loginHint ? { login_hint: loginHint } : {}),
  });
  return { url: url.href, checks };
}

/**
 * Finishes the code flow. `callbackUrl` is the registered redirect URI carrying the query the provider sent back;
 * openid-client sends the URI without the query as redirect_uri to the token endpoint. Throws on any mismatch.
 */
export async function completeAuthorization(
  config: client.Configuration,
  callbackUrl: URL,
  checks: AuthorizationChecks,
): Promise<OidcIdentity> {
  const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
    expectedState: checks.state,
    expectedNonce: checks.nonce,
    pkceCodeVerifier: checks.verifier,
    idTokenExpected: true,
  });
  const claims = tokens.claims();
  if (!claims) throw new Error('the provider sent no ID token');
  return {
    subject: claims.sub,
    email: typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : null,
    emailVerified: typeof claims.email_verified === 'boolean' ? claims.email_verified : undefined,
  };
}
