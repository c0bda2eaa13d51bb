import { emailDomain } from '../../../common/api/members';
import type { FastifyBaseLogger } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  codeDeliveryResponseSchema,
  codeRequestBodySchema,
  confirmBodySchema,
  confirmResponseSchema,
  grantBodySchema,
  providerQuerySchema,
  providerResponseSchema,
  refreshTokenBodySchema,
  signUpBodySchema,
} from '../../../common/api/auth';
import { loginTokensSchema } from '../../../common/api/session';
import { auth } from '../../../common/strings';
import { checkCaptcha } from '../../auth/captcha';
import { consumeLoginCode, sendLoginCode } from '../../auth/login-codes';
import {
  memberByEmail,
  orgOfDomain,
  recordSignIn,
  signInProviderOf,
  signInRefusal,
  ssoEnforced,
} from '../../auth/members';
import { nextPathAfterSignIn } from '../../auth/next-path';
import {
  AUTH_LIMITS,
  CODES_MAILED_PER_EMAIL,
  CODES_MAILED_WINDOW_MS,
  rateLimit,
  RateLimiter,
} from '../../auth/rate-limit';
import { clientOf, endSession, redeem, startSession } from '../../auth/sessions';
import { signUp } from '../../auth/sign-up';
import type { LoginCodePurpose } from '../../db/schema';
import { forbidden, notFound, unauthorized } from '../../errors';

/**
 * Email-code sign-in, sign-up and the session calls (spec §7.1). All public: the caller has no token yet, or is
 * presenting a refresh token. Each is rate limited per client address and, where it names one, per email.
 */
export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  const { db } = ctx.store;
  const limiter = new RateLimiter();

  /** Mails a code unless the email has had its share this window (then its inbox already holds live codes). */
  const mailCode = (email: string, purpose: LoginCodePurpose, log: FastifyBaseLogger) => {
    const full = limiter.take([
      { key: `code-mailed:${email}`, max: CODES_MAILED_PER_EMAIL, windowMs: CODES_MAILED_WINDOW_MS },
    ]);
    if (full === null) sendLoginCode(ctx, email, purpose, log);
  };

  // Tokens and codes must never sit in a shared cache.
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  app.get(
    '/auth/provider',
    {
      config: { access: 'public' },
      schema: { querystring: providerQuerySchema, response: { 200: providerResponseSchema } },
      preHandler: rateLimit(limiter, 'provider', AUTH_LIMITS.provider),
    },
    async (request) => {
      const owner = await orgOfDomain(db, emailDomain(request.query.email));
      if (!owner) throw notFound(auth.UNKNOWN_ACCOUNT);
      const provider = await signInProviderOf(db, owner.org, ctx.config.google !== null);
      return { provider, domain_exists: true };
    },
  );

  app.get(
    '/auth/code-delivery',
    { config: { access: 'public' }, schema: { response: { 200: codeDeliveryResponseSchema } } },
    async () => ({ code_in_server_console: !ctx.config.production && ctx.mailer.kind === 'log' }),
  );

  app.post(
    '/auth/code-request',
    {
      config: { access: 'public' },
      schema: { body: codeRequestBodySchema },
      preHandler: rateLimit(limiter, 'code-request', AUTH_LIMITS.codeRequest),
    },
    async (request, reply) => {
      const { email } = request.body;
      const member = await memberByEmail(db, email);
      // Decided by the domain's org when there is no member, so the answer does not tell members from strangers.
      const orgId = member?.orgId ?? (await orgOfDomain(db, emailDomain(email)))?.org.id;
      if (orgId && (await ssoEnforced(db, orgId))) throw forbidden(auth.SSO_FORCED);
      if (member) mailCode(member.email, 'LOGIN', request.log);
      return reply.code(204).send();
    },
  );

  app.post(
    '/auth/confirm',
    {
      config: { access: 'public' },
      schema: { body: confirmBodySchema, response: { 200: confirmResponseSchema } },
      preHandler: rateLimit(limiter, 'confirm', AUTH_LIMITS.confirm),
    },
    async (request) => {
      const { code, email, origin } = request.body;
      const spent = await consumeLoginCode(db, ctx.tokenKey, code, email);
      const member = spent ? await memberByEmail(db, spent.email) : null;
      if (!member) throw unauthorized(auth.CODE_INVALID);
      const refusal = signInRefusal(member);
      if (refusal) throw forbidden(refusal);
      if (await ssoEnforced(db, member.orgId)) throw forbidden(auth.SSO_FORCED);
      await recordSignIn(db, member);
      const tokens = await startSession(ctx, member, clientOf(request));
      return { loginUrl: nextPathAfterSignIn(origin, ctx.config.publicUrl), ...tokens };
    },
  );

  app.post(
    '/auth/user',
    {
      config: { access: 'public' },
      schema: { body: signUpBodySchema },
      preHandler: rateLimit(limiter, 'sign-up', AUTH_LIMITS.signUp),
    },
    async (request, reply) => {
      // Before anything is looked up, so a bot learns nothing about who has an account.
      await checkCaptcha(ctx.config.captcha, request.body.verification, request.ip, request.log);
      const mailTo = await signUp(ctx, request.body);
      if (mailTo) mailCode(mailTo.member.email, mailTo.purpose, request.log);
      return reply.code(204).send();
    },
  );

  app.post(
    '/auth/token-refresh',
    {
      config: { access: 'public' },
      schema: { body: refreshTokenBodySchema, response: { 200: loginTokensSchema } },
      preHandler: rateLimit(limiter, 'token-refresh', AUTH_LIMITS.tokenRefresh),
    },
    async (request) => redeem(ctx, 'refresh', request.body.refresh_token, clientOf(request)),
  );

  app.post(
    '/auth/grant',
    {
      config: { access: 'public' },
      schema: { body: grantBodySchema, response: { 200: loginTokensSchema } },
      preHandler: rateLimit(limiter, 'grant', AUTH_LIMITS.oauth),
    },
    async (request) => redeem(ctx, 'grant', request.body.grant, clientOf(request)),
  );

  app.post(
    '/auth/logout',
    {
      config: { access: 'public' },
      schema: { body: refreshTokenBodySchema },
      preHandler: rateLimit(limiter, 'logout', AUTH_LIMITS.tokenRefresh),
    },
    async (request, reply) => {
      await endSession(ctx, request.body.refresh_token);
      return reply.code(204).send();
    },
  );
};
