/**
 * The Microsoft admin-consent popup of a marketplace org connect (spec apps-and-connections §5, §7: a popup opens
 * to the Microsoft adminConsent page, tenant = org domain, with the app's client id). The tenant's administrator
 * grants Scout's Azure app its application permissions there; Entra ID sends the popup back to the callback with
 * `admin_consent=True` and the tenant's id, or with `error` and `error_description`. The state is bound to the
 * browser and the admin as the OAuth flow's is (./flow.ts: random, stored hashed, a cookie, 10 minutes, one use).
 * A granted consent is kept for the admin and app until the install that follows (PUT /app/install) takes its
 * tenant id, so the app-only tokens name the tenant that consented rather than guessing it from the email.
 */
import { randomBytes } from 'node:crypto';
import { and, desc, eq, gt, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { OAUTH_RESULT_MESSAGE, type OAuthResult } from '../../../common/api/oauth';
import { getApp } from '../../../common/catalogue';
import { MICROSOFT_APPS } from '../../../common/connect-forms';
import { apps as appStrings, auth as authStrings, microsoft } from '../../../common/strings';
import { MICROSOFT_LOGIN_URL } from '../../../connectors/microsoft/graph';
import { installPayloadOf } from '../../../connectors/sdk';
import { cookieValue } from '../../auth/redirect-cookie';
import type { ServerContext, Viewer } from '../../context';
import { appOauthStates } from '../../db/schema';
import type { Db } from '../../db/store';
import { encryptSecret } from '../../db/secrets';
import { badRequest, notFound } from '../../errors';
import { assertOrgDomainEmail, notConnectable } from '../../policies/app-connections';
import { oauthClientFor } from '../../sync/oauth-tokens';
import { getConnector } from '../../sync/registry';
import { COOKIE_NAME, STATE_TTL_MS, assertMayInstall, hashState, stateCookie } from './flow';

export const ADMIN_CONSENT_CALLBACK_PATH = '/api/v1/oauth/admin-consent/callback';

const pendingSchema = z.object({ adminConsent: z.literal('pending'), email: z.string() });
const grantedSchema = z.object({ adminConsent: z.literal('granted'), email: z.string(), tenant: z.string() });
/** Where a connector's identity platform is: Entra ID, or a fake's in tests and dev mode (the SDK's `loginUrl`). */
const loginConfigSchema = z.object({ loginUrl: z.url().default(MICROSOFT_LOGIN_URL) });
/** A tenant id (a GUID) or domain: it becomes part of the token endpoint's path. */
const TENANT = /^[A-Za-z0-9][A-Za-z0-9.-]{0,252}$/;

const consentPhase = (phase: 'pending' | 'granted') =>
  sql`${appOauthStates.options}->>'adminConsent' = ${phase}`;
/** Nothing secret travels with a consent; the column holds the OAuth flow's verifier otherwise. */
const noSecret = (stateHash: string) => encryptSecret('', stateHash);

/** The admin-consent address for the popup, and the cookie that binds the browser to its state. */
export async function beginAdminConsent(
  ctx: ServerContext,
  viewer: Viewer,
  appName: string,
  body: { email: string; appId?: string | undefined },
): Promise<{ url: string; cookie: string }> {
  const app = getApp(appName);
  if (!app) throw notFound('No such app.');
  const connector = getConnector(app.shortname);
  if (
    !connector ||
    !(MICROSOFT_APPS as ReadonlySet<string>).has(app.shortname) ||
    installPayloadOf(connector, true) !== 'marketplace'
  )
    throw notConnectable();
  const client = oauthClientFor(app.shortname);
  if (!client) throw badRequest(appStrings.oauthInstallFailed(app.displayName), 'NOT_IMPLEMENTED');
  const { db } = ctx.store;
  await assertMayInstall(db, viewer, app, true, body.appId ?? null);
  await assertOrgDomainEmail(db, viewer.orgId, body.email);

  const state = randomBytes(32).toString('base64url');
  const stateHash = hashState(state);
  await db.insert(appOauthStates).values({
    orgId: viewer.orgId,
    userId: viewer.userId,
    appName: app.shortname,
    stateHash,
    verifierEncrypted: noSecret(stateHash),
    isOrg: true,
    connectionId: body.appId ?? null,
    options: { adminConsent: 'pending', email: body.email },
    expiresAt: new Date(Date.now() + STATE_TTL_MS),
  });
  const config = connector.configSchema.safeParse({});
  const { loginUrl } = loginConfigSchema.parse(config.success ? config.data : {});
  // The email is on the org's domain (checked above): the tenant is named by that domain, as the spec says.
  const tenant = body.email.split('@')[1]?.toLowerCase() ?? '';
  const url = new URL(`${loginUrl.replace(/\/+$/, '')}/${encodeURIComponent(tenant)}/adminconsent`);
  url.searchParams.set('client_id', client.clientId);
  url.searchParams.set('redirect_uri', new URL(ADMIN_CONSENT_CALLBACK_PATH, ctx.config.publicUrl).href);
  url.searchParams.set('state', state);
  return { url: url.href, cookie: stateCookie(state, STATE_TTL_MS / 1000, ctx.config.production) };
}

/** The callback: records the consented tenant for the admin's install, or answers why there is none. */
export async function finishAdminConsent(ctx: ServerContext, request: FastifyRequest): Promise<OAuthResult> {
  const query = new URL(request.url, 'http://callback.invalid').searchParams;
  const state = query.get('state') ?? '';
  const { db } = ctx.store;
  const [pending] =
    state && cookieValue(request.headers.cookie, COOKIE_NAME) === state
      ? await db
          .delete(appOauthStates)
          .where(
            and(
              eq(appOauthStates.stateHash, hashState(state)),
              gt(appOauthStates.expiresAt, new Date()),
              consentPhase('pending'),
            ),
          )
          .returning()
      : [];
  const started = pendingSchema.safeParse(pending?.options);
  if (!pending || !started.success)
    return { type: OAUTH_RESULT_MESSAGE, app: '', success: false, message: authStrings.APP_AUTH_FAILED };

  const tenant = query.get('tenant') ?? '';
  if (query.get('admin_consent')?.toLowerCase() !== 'true' || !TENANT.test(tenant)) {
    request.log.info(
      { app: pending.appName, error: query.get('error'), description: query.get('error_description') },
      'admin consent not granted',
    );
    return {
      type: OAUTH_RESULT_MESSAGE,
      app: pending.appName,
      success: false,
      message: microsoft.ADMIN_CONSENT_REQUIRED,
    };
  }
  const stateHash = hashState(randomBytes(32).toString('base64url'));
  await db.insert(appOauthStates).values({
    orgId: pending.orgId,
    userId: pending.userId,
    appName: pending.appName,
    // A fresh hash no state was ever sent for: the granted consent is found by its admin, never by a callback.
    stateHash,
    verifierEncrypted: noSecret(stateHash),
    isOrg: true,
    connectionId: pending.connectionId,
    options: { adminConsent: 'granted', email: started.data.email, tenant },
    expiresAt: new Date(Date.now() + STATE_TTL_MS),
  });
  return { type: OAUTH_RESULT_MESSAGE, app: pending.appName, success: true };
}

export interface AdminConsent {
  readonly id: string;
  readonly tenant: string;
}

/** The latest unexpired consent `viewer` got in the popup for `appName` with `email`, if any. */
export async function grantedAdminConsent(
  db: Db,
  viewer: Pick<Viewer, 'orgId' | 'userId'>,
  appName: string,
  email: string,
): Promise<AdminConsent | undefined> {
  const rows = await db
    .select({ id: appOauthStates.id, options: appOauthStates.options })
    .from(appOauthStates)
    .where(
      and(
        eq(appOauthStates.orgId, viewer.orgId),
        eq(appOauthStates.userId, viewer.userId),
        eq(appOauthStates.appName, appName),
        eq(appOauthStates.isOrg, true),
        gt(appOauthStates.expiresAt, new Date()),
        consentPhase('granted'),
      ),
    )
    .orderBy(desc(appOauthStates.createdAt));
  for (const row of rows) {
    const granted = grantedSchema.safeParse(row.options);
    if (granted.success && granted.data.email.toLowerCase() === email.toLowerCase())
      return { id: row.id, tenant: granted.data.tenant };
  }
  return undefined;
}

/** A consent is used by one install. */
export async function spendAdminConsent(db: Db, consent: AdminConsent): Promise<void> {
  await db.delete(appOauthStates).where(eq(appOauthStates.id, consent.id));
}
