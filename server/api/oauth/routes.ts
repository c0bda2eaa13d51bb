import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { appParamsSchema } from '../../../common/api/apps';
import { oauthStartRequestSchema, oauthStartResponseSchema } from '../../../common/api/oauth';
import { viewerOf } from '../../policies/access';
import { beginAppOAuth, finishAppOAuth, resultPage, spentCookie } from './flow';

/** Connecting apps through the OAuth popup (spec shell-and-account §7.3 `PUT /oauth/{app}`). */
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
  app.get('/oauth/callback', { config: { access: 'public' } }, async (request, reply) => {
    const result = await finishAppOAuth(ctx, request);
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
  });
};
