import { randomBytes } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { appParamsSchema } from '../../../common/api/apps';
import {
  adminConsentStartRequestSchema,
  delegationResponseSchema,
  oauthStartRequestSchema,
  oauthStartResponseSchema,
  type OAuthResult,
} from '../../../common/api/oauth';
import type { ServerContext } from '../../context';
import { viewerOf } from '../../policies/access';
import { beginAdminConsent, finishAdminConsent } from './admin-consent';
import { delegationOf } from './delegation';
import { beginAppOAuth, finishAppOAuth, resultPage, spentCookie } from './flow';

/** The popup's last page, which hands `result` to the opener; its one script runs by nonce. */
function sendResultPage(ctx: ServerContext, reply: FastifyReply, result: OAuthResult) {
  const nonce = randomBytes(16).toString('base64');
  return reply
    .header('set-cookie', spentCookie(ctx))
    .header('cache-control', 'no-store')
    .header(
      'content-security-policy',
      `default-src 'none'; script-src 'nonce-${nonce}'; frame-ancestors 'none'`,
    )
    .type('text/html; charset=utf-8')
    .send(resultPage(ctx, result, nonce));
}

/**
 * Connecting apps through the OAuth popup (spec shell-and-account §7.3 `PUT /oauth/{app}`), and the admin-consent
 * popup of Microsoft apps' org connections and the domain-wide delegation Google apps' need (apps-and-connections §7).
 */
export const appOAuthRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;

  app.put(
    '/oauth/:app',
    {
      config: { access: 'signedIn' },
      schema: {
        params: appParamsSchema,
        body: oauthStartRequestSchema,
        response: { 200: oauthStartResponseSchema },
      },
    },
    async (request, reply) => {
      const { url, cookie } = await beginAppOAuth(ctx, viewerOf(request), request.params.app, request.body);
      reply.header('set-cookie', cookie).header('cache-control', 'no-store');
      return { url };
    },
  );

  // The provider's redirect lands here in the popup, without the SPA's bearer token: the stored state says who.
  app.get('/oauth/callback', { config: { access: 'public' } }, async (request, reply) =>
    sendResultPage(ctx, reply, await finishAppOAuth(ctx, request)),
  );

  app.put(
    '/oauth/:app/admin-consent',
    {
      config: { access: 'admin' },
      schema: {
        params: appParamsSchema,
        body: adminConsentStartRequestSchema,
        response: { 200: oauthStartResponseSchema },
      },
    },
    async (request, reply) => {
      const { url, cookie } = await beginAdminConsent(
        ctx,
        viewerOf(request),
        request.params.app,
        request.body,
      );
      reply.header('set-cookie', cookie).header('cache-control', 'no-store');
      return { url };
    },
  );

  app.get(
    '/oauth/:app/delegation',
    {
      config: { access: 'admin' },
      schema: { params: appParamsSchema, response: { 200: delegationResponseSchema } },
    },
    async (request) => delegationOf(request.params.app),
  );

  // Entra ID's redirect after the admin consented (or declined), in the popup, as the OAuth callback.
  app.get('/oauth/admin-consent/callback', { config: { access: 'public' } }, async (request, reply) =>
    sendResultPage(ctx, reply, await finishAdminConsent(ctx, request)),
  );
};
