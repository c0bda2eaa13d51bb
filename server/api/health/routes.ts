import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { healthSchema, type Health } from '../../../common/api/health';

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health',
    { config: { access: 'public' }, schema: { response: { 200: healthSchema, 503: healthSchema } } },
    async (request, reply) => {
      const { store, version } = app.ctx;
      let reachable = true;
      try {
        await store.ping();
      } catch (error) {
        reachable = false;
        request.log.error({ err: error }, 'store unreachable');
      }
      const body: Health = {
        status: reachable ? 'ok' : 'unavailable',
        version,
        store: { kind: store.kind, reachable },
      };
      return reply.status(reachable ? 200 : 503).send(body);
    },
  );
};
