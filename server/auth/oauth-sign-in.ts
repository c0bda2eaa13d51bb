/**
 * Google and SSO sign-in (spec §4.1 steps 2–3). Starting answers the provider's address and sets the flow cookie;
 * the provider sends the browser back to our callback, which matches the verified email to a member and sends the
 * browser on to /login with a one-time grant (or with the reason it could not sign in), never with tokens.
 */
import { emailDomain } from '../../common/api/members';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { authMessages, LOGIN_RESULT_PARAMS } from '../../common/api/auth';
import { auth } from '../../common/strings';
import type { Config } from '../config';
import type { ServerContext } from '../context';
import type { SsoConfig, User } from '../db/schema';
import { decryptSecret } from '../db/secrets';
import { ApiError } from '../errors';
import {
  findSsoConfig,
  memberByEmail,
  orgOfDomain,
  recordSignIn,
  signInRefusal,
  ssoEnforced,
} from './members';
import { nextPathAfterSignIn } from './next-path';
import { clearedFlowCookie, flowCookie, readFlowCookie, type OAuthFlow } from './oauth-flow';
import {
  authorizationRequest,
  completeAuthorization,
  oidcConfiguration,
  type OidcClientSettings,
  type OidcIdentity,
} from './oidc';
import { clientOf, startGrant } from './sessions';

export type OAuthProvider = OAuthFlow['provider'];

const CALLBACK_PATHS: Record<OAuthProvider, string> = {
  google: '/api/v1/auth/google/callback',
  sso: '/api/v1/auth/sso/callback',
};

/** The redirect URI registered at the provider; built from PUBLIC_URL, the address people reach Scout at. */
export function callbackUrl(publicUrl: string, provider: OAuthProvider): string {
  return new URL(CALLBACK_PATHS[provider], publicUrl).href;
}

/** The SSO client secret is bound to its org, so a ciphertext copied to another org's row does not decrypt. */
export function ssoSecretContext(orgId: string): string {
  return `sso-oidc:${orgId}`;
}

export function ssoClientSettings(config: SsoConfig, serverConfig: Config): OidcClientSettings {
  return {
    issuer: config.issuer,
    clientId: config.clientId,
    clientSecret: config.clientSecretEncrypted
      ? decryptSecret(config.clientSecretEncrypted, ssoSecretContext(config.orgId))
      : null,
    privateAccess: serverConfig.allowPrivateHosts,
  };
}

function googleSettings(config: Config): OidcClientSettings {
  if (!config.google) throw new ApiError(501, 'NOT_IMPLEMENTED', authMessages.GOOGLE_NOT_CONFIGURED);
  return {
    issuer: config.google.issuerUrl,
    clientId: config.google.clientId,
    clientSecret: config.google.clientSecret,
    privateAccess: true,
  };
}

const secureCookies = (config: Config) => new URL(config.publicUrl).protocol === 'https:';

/** The provider's authorization address, and the Set-Cookie value that must travel with it. */
async function beginOAuthSignIn(
  ctx: Pick<ServerContext, 'config' | 'tokenKey'>,
  options: {
    target: { provider: 'google' } | { provider: 'sso'; orgId: string };
    settings: OidcClientSettings;
    origin: string | undefined;
    loginHint: string | undefined;
    log: FastifyBaseLogger;
  },
): Promise<{ url: string; cookie: string }> {
  const { target, settings, origin, loginHint, log } = options;
  const config = await oidcConfiguration(settings).catch((err: unknown) => {
    log.warn({ err, issuer: settings.issuer }, 'OpenID discovery failed');
    throw new ApiError(502, 'UPSTREAM_FAILED', authMessages.SSO_DISCOVERY_FAILED);
  });
  const { url, checks } = await authorizationRequest(
    config,
    callbackUrl(ctx.config.publicUrl, target.provider),
    loginHint,
  );
  const next = nextPathAfterSignIn(origin, ctx.config.publicUrl);
  const cookie = flowCookie(ctx.tokenKey, { ...target, next, ...checks }, secureCookies(ctx.config));
  return { url, cookie };
}

export function beginGoogleSignIn(
  ctx: Pick<ServerContext, 'config' | 'tokenKey'>,
  query: { origin?: string; email?: string },
  log: FastifyBaseLogger,
) {
  return beginOAuthSignIn(ctx, {
    target: { provider: 'google' },
    settings: googleSettings(ctx.config),
    origin: query.origin,
    loginHint: query.email,
    log,
  });
}

/** The 'SSO OIDC address' of the org an email belongs to; 501 when it has no SSO (spec §5). */
export async function beginSsoSignIn(
  ctx: Pick<ServerContext, 'config' | 'tokenKey' | 'store'>,
  query: { email: string; origin?: string },
  log: FastifyBaseLogger,
): Promise<{ url: string; on_prem_url: string | null; cookie: string }> {
  const owner = await orgOfDomain(ctx.store.db, emailDomain(query.email));
  const sso = owner ? await findSsoConfig(ctx.store.db, owner.org.id) : null;
  if (!sso) throw new ApiError(501, 'NOT_IMPLEMENTED', auth.SSO_NOT_SUPPORTED);
  const { url, cookie } = await beginOAuthSignIn(ctx, {
    target: { provider: 'sso', orgId: sso.orgId },
    settings: ssoClientSettings(sso, ctx.config),
    origin: query.origin,
    loginHint: query.email,
    log,
  });
  return { url, on_prem_url: sso.onPremUrl, cookie };
}

/** A sign-in that ends on /login with these parameters instead of a grant. */
class SignInRefusal extends Error {
  constructor(readonly params: Record<string, string>) {
    super(Object.values(params).join(' '));
  }
}
const noAccount = (message: string) =>
  new SignInRefusal({ [LOGIN_RESULT_PARAMS.unauthorized]: 'true', [LOGIN_RESULT_PARAMS.message]: message });
const failed = (message: string) => new SignInRefusal({ [LOGIN_RESULT_PARAMS.error]: message });

const loginAddress = (params: Record<string, string>) => `/login?${new URLSearchParams(params).toString()}`;

async function googleMember(ctx: Pick<ServerContext, 'store'>, identity: OidcIdentity): Promise<User> {
  // Google vouches for addresses it has verified; anything else could be any string.
  if (!identity.email || identity.emailVerified !== true) throw failed(auth.INVALID_CREDENTIALS);
  const member = await memberByEmail(ctx.store.db, identity.email);
  if (!member) throw noAccount(auth.UNKNOWN_ACCOUNT);
  if (await ssoEnforced(ctx.store.db, member.orgId)) throw failed(auth.SSO_FORCED);
  return member;
}

async function ssoMember(ctx: Pick<ServerContext, 'store'>, orgId: string, identity: OidcIdentity) {
  // The org chose this provider, so its word on the email counts unless it says outright it is unverified.
  if (!identity.email || identity.emailVerified === false) throw failed(auth.INVALID_CREDENTIALS);
  const owner = await orgOfDomain(ctx.store.db, emailDomain(identity.email));
  if (owner?.org.id !== orgId) throw noAccount(authMessages.SSO_EMAIL_MISMATCH);
  const member = await memberByEmail(ctx.store.db, identity.email, orgId);
  if (!member) throw noAccount(auth.UNKNOWN_ACCOUNT);
  return member;
}

async function settingsOf(ctx: Pick<ServerContext, 'config' | 'store'>, flow: OAuthFlow) {
  if (flow.provider === 'google') return googleSettings(ctx.config);
  // The org may have removed its SSO configuration since the sign-in started.
  const sso = await findSsoConfig(ctx.store.db, flow.orgId);
  if (!sso) throw failed(auth.SSO_NOT_SUPPORTED);
  return ssoClientSettings(sso, ctx.config);
}

/**
 * Finishes a sign-in at a callback. Answers where to send the browser and the Set-Cookie that clears the flow;
 * every failure becomes a /login address with a message, since a browser, not the SPA, is reading the answer.
 */
export async function finishOAuthSignIn(
  ctx: ServerContext,
  provider: OAuthProvider,
  request: FastifyRequest,
): Promise<{ location: string; cookie: string }> {
  const cookie = clearedFlowCookie(secureCookies(ctx.config));
  try {
    const flow = readFlowCookie(ctx.tokenKey, request.headers.cookie);
    if (!flow || flow.provider !== provider) throw failed(auth.INVALID_CREDENTIALS);
    const config = await oidcConfiguration(await settingsOf(ctx, flow));
    const current = new URL(callbackUrl(ctx.config.publicUrl, provider));
    current.search = new URL(request.url, current).search;
    const identity = await completeAuthorization(config, current, flow);
    const member =
      flow.provider === 'google'
        ? await googleMember(ctx, identity)
        : await ssoMember(ctx, flow.orgId, identity);
    const refusal = signInRefusal(member);
    if (refusal) throw noAccount(refusal);
    await recordSignIn(ctx.store.db, member);
    const grant = await startGrant(ctx, member, clientOf(request));
    const params: Record<string, string> = { [LOGIN_RESULT_PARAMS.grant]: grant };
    if (flow.next !== '/') params[LOGIN_RESULT_PARAMS.redirect] = flow.next;
    return { location: loginAddress(params), cookie };
  } catch (err) {
    if (err instanceof SignInRefusal) return { location: loginAddress(err.params), cookie };
    // Cancelled at the provider, a replayed or forged callback, a provider that is down: all look alike to the user.
    request.log.warn({ err, provider }, 'sign-in callback failed');
    return { location: loginAddress({ [LOGIN_RESULT_PARAMS.error]: authMessages.SIGN_IN_FAILED }), cookie };
  }
}
