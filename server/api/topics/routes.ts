import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  addTopicMemberRequestSchema,
  conversationParamsSchema,
  publicTopicResponseSchema,
  topicByIdResponseSchema,
  topicMembersResponseSchema,
  topicParamsSchema,
  topicsQuerySchema,
  topicsResponseSchema,
  topicShareCheckResponseSchema,
  topicSummarySchema,
  topicUpdateRequestSchema,
} from '../../../common/api/topics';
import { viewerOf } from '../../policies/access';
import { announceAfterChange, topicAudience } from '../../realtime/topic-events';
import { listTopics } from '../../topics/list';
import { deleteTopic, markTopicRead, shareCheck, updateTopic } from '../../topics/manage';
import { addTopicMember, listTopicMembers } from '../../topics/members';
import { publicTopicById, topicById } from '../../topics/read';

/**
 * Topics (spec shell-and-account §7.3, asking-questions §7). Reads of a topic the viewer may not see answer 404,
 * never 403, so a private topic's existence does not leak; 403 is for what a viewer may not do to a topic they see.
 */
export const topicRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.ctx.store;

  app.get(
    '/topics',
    {
      config: { access: 'signedIn' },
      schema: { querystring: topicsQuerySchema, response: { 200: topicsResponseSchema } },
    },
    async (request) => listTopics(db, viewerOf(request), request.query),
  );

  app.get(
    '/topics/topicById/:id',
    {
      config: { access: 'signedIn' },
      schema: { params: topicParamsSchema, response: { 200: topicByIdResponseSchema } },
    },
    async (request) => topicById(db, viewerOf(request), request.params.id),
  );

  app.get(
    '/topics/publicTopicById/:id',
    {
      config: { access: 'public' },
      schema: { params: topicParamsSchema, response: { 200: publicTopicResponseSchema } },
    },
    async (request) => publicTopicById(db, request.params.id),
  );

  app.get(
    '/topics/topic/members/:conversationId',
    {
      config: { access: 'signedIn' },
      schema: { params: conversationParamsSchema, response: { 200: topicMembersResponseSchema } },
    },
    async (request) => listTopicMembers(db, viewerOf(request), request.params.conversationId),
  );

  app.post(
    '/topics/topic/member',
    {
      config: { access: 'signedIn' },
      schema: { body: addTopicMemberRequestSchema, response: { 200: topicMembersResponseSchema } },
    },
    async (request) => {
      const viewer = viewerOf(request);
      const members = await addTopicMember(
        db,
        app.ctx.notifier,
        viewer,
        request.body.conversation_id,
        request.body.user_email,
      );
      await announceAfterChange(app, viewer.orgId, request.body.conversation_id);
      return members;
    },
  );

  app.patch(
    '/topics/topic/:id',
    {
      config: { access: 'signedIn' },
      schema: {
        params: topicParamsSchema,
        body: topicUpdateRequestSchema,
        response: { 200: topicSummarySchema },
      },
    },
    async (request) => {
      const viewer = viewerOf(request);
      const topic = await updateTopic(db, viewer, request.params.id, request.body);
      await announceAfterChange(app, viewer.orgId, request.params.id);
      return topic;
    },
  );

  app.get(
    '/topics/topic/:id/share_check',
    {
      config: { access: 'signedIn' },
      schema: { params: topicParamsSchema, response: { 200: topicShareCheckResponseSchema } },
    },
    async (request) => shareCheck(db, viewerOf(request), request.params.id),
  );

  app.delete(
    '/topics/topic/:id',
    { config: { access: 'signedIn' }, schema: { params: topicParamsSchema } },
    async (request, reply) => {
      const viewer = viewerOf(request);
      // read first: the members' rows go with the topic
      const audience = await topicAudience(db, viewer.orgId, request.params.id);
      await deleteTopic(db, viewer, request.params.id);
      await announceAfterChange(app, viewer.orgId, request.params.id, audience);
      return reply.code(204).send();
    },
  );

  app.patch(
    '/topics/topic/:id/mark_as_read',
    { config: { access: 'signedIn' }, schema: { params: topicParamsSchema } },
    async (request, reply) => {
      await markTopicRead(db, viewerOf(request), request.params.id);
      return reply.code(204).send();
    },
  );
};
