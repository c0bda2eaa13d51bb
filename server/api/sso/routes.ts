import { and, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  authMessages,
  ssoOidcCreateBodySchema,
  ssoOidcResponseSchema,
  ssoOidcUpdateBodySchema,
  type SsoOidcConfig,
} from '../../../common/api/auth';
import { findSsoConfig } from '../../auth/members';
import { callbackUrl, ssoClientSettings, ssoSecretContext } from '../../auth/oauth-sign-in';
import { oidcConfiguration, type OidcClientSettings } from '../../auth/oidc';
import { ssoConfigs, type SsoConfig } from '../../db/schema';
import { encryptSecret } from '../../db/secrets';
import { badRequest, conflict, notFound } from '../../errors';
import { viewerOf } from '../../policies/access';

/** The admin's view of the SSO configuration: everything but the client secret, which is only said to exist. */
function presentSsoConfig(row: SsoConfig, publicUrl: string): SsoOidcConfig {
  return {
    issuer: row.issuer,
    client_id: row.clientId,
    has_client_secret: row.clientSecretEncrypted !== null,
    enforced: row.enforced,
    on_prem_url: row.onPremUrl,
    redirect_uri: callbackUrl(publicUrl, 'sso'),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/**
 * The org's OIDC single sign-on (spec §7.4 sso-oidc; ENTERPRISE). Admins only. A configuration is saved only when
 * its issuer answers OpenID discovery, so enforcing SSO cannot lock the org out with a mistyped issuer.
 */
export const ssoRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  const { db } = ctx.store;
  const access = { access: 'admin', feature: 'sso' } as const;

  async function checkIssuer(settings: OidcClientSettings): Promise<void> {
    // An org admin chooses this address, so on a production server it may not point into the server's own network.
    if (ctx.config.production && new URL(settings.issuer).protocol !== 'https:') {
      throw badRequest('The issuer must be an https address.');
    }
    try {
      await oidcConfiguration(settings);
    } catch (err) {
      // The admin sees one message; the operator learns here whether the outbound guard refused the address.
      app.log.warn({ err, issuer: settings.issuer }, 'OpenID discovery failed');
      throw badRequest(authMessages.SSO_DISCOVERY_FAILED);
    }
  }

  app.get(
    '/sso-oidc',
    { config: access, schema: { response: { 200: ssoOidcResponseSchema } } },
    async (request) => {
      const row = await findSsoConfig(db, viewerOf(request).orgId);
      return { config: row ? presentSsoConfig(row, ctx.config.publicUrl) : null };
    },
  );

  app.post(
    '/sso-oidc',
    { config: access, schema: { body: ssoOidcCreateBodySchema, response: { 201: ssoOidcResponseSchema } } },
    async (request, reply) => {
      const { orgId } = viewerOf(request);
      const body = request.body;
      if (await findSsoConfig(db, orgId)) throw conflict(authMessages.SSO_ALREADY_CONFIGURED);
      await checkIssuer({
        issuer: body.issuer,
        clientId: body.client_id,
        clientSecret: body.client_secret ?? null,
        privateAccess: ctx.config.allowPrivateHosts,
      });
      const [row] = await db
        .insert(ssoConfigs)
        .values({
          orgId,
          issuer: body.issuer,
          clientId: body.client_id,
          clientSecretEncrypted: body.client_secret
            ? encryptSecret(body.client_secret, ssoSecretContext(orgId))
            : null,
          enforced: body.enforced,
          onPremUrl: body.on_prem_url ?? null,
        })
        .onConflictDoNothing()
        .returning();
      if (!row) throw conflict(authMessages.SSO_ALREADY_CONFIGURED);
      return reply.code(201).send({ config: presentSsoConfig(row, ctx.config.publicUrl) });
    },
  );

  app.patch(
    '/sso-oidc',
    { config: access, schema: { body: ssoOidcUpdateBodySchema, response: { 200: ssoOidcResponseSchema } } },
    async (request) => {
      const { orgId } = viewerOf(request);
      const body = request.body;
      const current = await findSsoConfig(db, orgId);
      if (!current) throw notFound(authMessages.SSO_NOT_CONFIGURED);
      const { client_secret: newSecret } = body;
      if (body.issuer !== undefined || body.client_id !== undefined || newSecret !== undefined) {
        const known = ssoClientSettings(current, ctx.config);
        await checkIssuer({
          ...known,
          issuer: body.issuer ?? known.issuer,
          clientId: body.client_id ?? known.clientId,
          clientSecret: newSecret === undefined ? known.clientSecret : newSecret,
        });
      }
      const clientSecretEncrypted =
        newSecret === undefined
          ? current.clientSecretEncrypted
          : newSecret && encryptSecret(newSecret, ssoSecretContext(orgId));
      const [row] = await db
        .update(ssoConfigs)
        .set({
          issuer: body.issuer,
          clientId: body.client_id,
          clientSecretEncrypted,
          enforced: body.enforced,
          onPremUrl: body.on_prem_url,
        })
        .where(and(eq(ssoConfigs.orgId, orgId), eq(ssoConfigs.id, current.id)))
        .returning();
      if (!row) throw notFound(authMessages.SSO_NOT_CONFIGURED);
      return { config: presentSsoConfig(row, ctx.config.publicUrl) };
    },
  );

  app.delete('/sso-oidc', { config: access }, async (request, reply) => {
    const deleted = await db
      .delete(ssoConfigs)
      .where(eq(ssoConfigs.orgId, viewerOf(request).orgId))
      .returning({ id: ssoConfigs.id });
    if (deleted.length === 0) throw notFound(authMessages.SSO_NOT_CONFIGURED);
    return reply.code(204).send();
  });
};
