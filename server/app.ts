import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ServerContext } from './context';
import { answerFrameworkError, registerErrorHandling } from './http/error-handler';
import { registerMemberRateLimits } from './http/member-rate-limit';
import { registerSecurityHeaders, registerSpa } from './http/spa';
import { requestValidatorCompiler } from './http/validation';
import { loggerOptions } from './logger';
import { registerApi } from './api/routes';
import { registerChat } from './chat/socket';
import { registerRealtimeHub, registerRealtimeSocket } from './realtime/socket';
import { registerAccessPolicy } from './policies/access';

export type BuildAppOptions = {
  ctx: ServerContext;
  /** Where the built SPA lives; tests point it at a fixture or leave the default dist/app. */
  spaDir?: string;
  /** pino level; tests pass 'silent'. */
  logLevel?: string;
};

/** Builds the HTTP server without listening, so tests drive it with `inject` or on an ephemeral port. */
export async function buildApp({ ctx, spaDir, logLevel }: BuildAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions(logLevel ?? ctx.config.logLevel),
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
    },
    bodyLimit: 10 * 1024 * 1024,
    frameworkErrors: answerFrameworkError,
    // In-flight requests finish on close; idle keep-alive sockets are dropped so shutdown does not hang.
    forceCloseConnections: 'idle',
    return503OnClosing: true,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(requestValidatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('ctx', ctx);
  app.decorateRequest('viewer', null);
  registerMemberRateLimits(app);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  registerSecurityHeaders(app);

  registerErrorHandling(app);
  registerAccessPolicy(app);
  await registerRealtimeHub(app);
  await registerChat(app);
  registerRealtimeSocket(app);
  await app.register(registerApi, { prefix: '/api/v1' });
  await registerSpa(app, spaDir);
  return app;
}
