import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { feedbackRequestSchema, feedbackResponseSchema } from '../../../common/api/feedback';
import { viewerOf } from '../../policies/access';
import { saveFeedback } from '../../topics/feedback';

/**
 * Answer feedback (spec shell-and-account §3 Answer feedback, asking-questions §4 and §7). One call records it and
 * removes it: rating 0 (or none) with references_feedback empty is the spec's removal call.
 */
export const feedbackRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/feedback',
    {
      config: { access: 'signedIn' },
      schema: { body: feedbackRequestSchema, response: { 200: feedbackResponseSchema } },
    },
    async (request) => saveFeedback(app.ctx.store.db, viewerOf(request), request.body),
  );
};
