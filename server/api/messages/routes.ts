import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  chatHistoryQuerySchema,
  chatHistoryResponseSchema,
  createMessageRequestSchema,
  createMessageResponseSchema,
  messageByIdResponseSchema,
  messageParamsSchema,
} from '../../../common/api/topics';
import { viewerOf } from '../../policies/access';
import { announceAfterChange } from '../../realtime/topic-events';
import { chatHistory } from '../../topics/history';
import { markAllTopicsRead } from '../../topics/manage';
import { createSharedMessage } from '../../topics/post';
import { messageById } from '../../topics/read';

/** Messages over HTTP (spec shell-and-account §7.3, asking-questions §7); the chat socket writes the answers. */
export const messageRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.ctx.store;

  app.get(
    '/_chatHistory',
    {
      config: { access: 'signedIn' },
      schema: { querystring: chatHistoryQuerySchema, response: { 200: chatHistoryResponseSchema } },
    },
    async (request) => chatHistory(db, viewerOf(request), request.query),
  );

  app.get(
    '/messages/message/:id',
    {
      config: { access: 'signedIn' },
      schema: { params: messageParamsSchema, response: { 200: messageByIdResponseSchema } },
    },
    async (request) => messageById(db, viewerOf(request), request.params.id),
  );

  app.post(
    '/messages/create',
    {
      config: { access: 'signedIn' },
      schema: { body: createMessageRequestSchema, response: { 200: createMessageResponseSchema } },
    },
    async (request) => {
      const viewer = viewerOf(request);
      const created = await createSharedMessage(db, app.ctx.notifier, viewer, request.body);
      const topicId = created.message.conversation_id;
      app.realtime.publish(
        viewer.orgId,
        { kind: 'topic', topicId },
        { type: 'message.added', topicId, messageId: created.message.message_id },
      );
      // tagging may have added members (and made the topic shared): their topic lists changed
      await announceAfterChange(app, viewer.orgId, topicId);
      return created;
    },
  );

  app.patch('/messages/mark_all_as_read', { config: { access: 'signedIn' } }, async (request, reply) => {
    await markAllTopicsRead(db, viewerOf(request));
    return reply.code(204).send();
  });
};
