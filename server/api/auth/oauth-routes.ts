import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  authUrlResponseSchema,
  googleAuthUrlQuerySchema,
  ssoAddressQuerySchema,
  ssoAddressResponseSchema,
} from '../../../common/api/auth';
import { beginGoogleSignIn, beginSsoSignIn, finishOAuthSignIn } from '../../auth/oauth-sign-in';
import { AUTH_LIMITS, rateLimit, RateLimiter } from '../../auth/rate-limit';

/**
 * Google and SSO sign-in (spec §4.1 steps 2–3, §7.1 google/auth-url and the SSO OIDC address). The address calls
 * answer JSON to the SPA and set the flow cookie; the callbacks are where the provider sends the browser back.
 */
export const oauthRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  const limited = rateLimit(new RateLimiter(), 'oauth', AUTH_LIMITS.oauth);

  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  app.get(
    '/google/auth-url',
    {
      config: { access: 'public' },
      schema: { querystring: googleAuthUrlQuerySchema, response: { 200: authUrlResponseSchema } },
      preHandler: limited,
    },
    async (request, reply) => {
      const { url, cookie } = await beginGoogleSignIn(ctx, request.query, request.log);
      reply.header('set-cookie', cookie);
      return { url };
    },
  );

  app.get(
    '/auth/sso',
    {
      config: { access: 'public' },
      schema: { querystring: ssoAddressQuerySchema, response: { 200: ssoAddressResponseSchema } },
      preHandler: limited,
    },
    async (request, reply) => {
      const { url, on_prem_url, cookie } = await beginSsoSignIn(ctx, request.query, request.log);
      reply.header('set-cookie', cookie);
      return { url, on_prem_url };
    },
  );

  for (const provider of ['google', 'sso'] as const) {
    app.get(
      `/auth/${provider}/callback`,
      { config: { access: 'public' }, preHandler: limited },
      async (request, reply) => {
        const { location, cookie } = await finishOAuthSignIn(ctx, provider, request);
        return reply.header('set-cookie', cookie).redirect(location, 302);
      },
    );
  }
};
