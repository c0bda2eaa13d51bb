import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { llmListResponseSchema } from '../../../common/api/llms';
import { modelListFor } from '../../ai-controls/models';
import { viewerOf } from '../../policies/access';

/** The model picker (spec apps-and-connections §9): every model id and whether this member may use it here. */
export const llmRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/llms',
    { config: { access: 'signedIn' }, schema: { response: { 200: llmListResponseSchema } } },
    async (request) => modelListFor(app.ctx.store.db, viewerOf(request).orgId),
  );
};
