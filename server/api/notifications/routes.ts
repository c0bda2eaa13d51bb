import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  markNotificationsResponseSchema,
  notificationParamsSchema,
  notificationPreferencesSchema,
  notificationsQuerySchema,
  notificationsResponseSchema,
  notificationTopicParamsSchema,
  updateNotificationPreferencesRequestSchema,
} from '../../../common/api/notifications';
import {
  listNotifications,
  markAllNotificationsRead,
  markNotificationRead,
  markTopicNotificationsRead,
} from '../../notifications/feed';
import { loadPreferences, savePreferences } from '../../notifications/preferences';
import { viewerOf } from '../../policies/access';

/**
 * The inbox and its preferences (spec shell-and-account §2.9, §3, §4.7). Scout serves its own feed where the original
 * read a third-party one, so these calls are ours. Each answers only the caller's own notifications, and only while
 * the org has the inbox on (notifications and multiplayerEnabled).
 */
export const notificationRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.ctx.store;
  // the inbox needs both flags (spec §2.8), checked before the input is read
  const config = { access: 'signedIn', flags: ['notifications', 'multiplayerEnabled'] } as const;

  app.get(
    '/notifications',
    {
      config,
      schema: { querystring: notificationsQuerySchema, response: { 200: notificationsResponseSchema } },
    },
    async (request) => listNotifications(db, viewerOf(request), request.query),
  );

  app.patch(
    '/notifications/mark_all_as_read',
    {
      config,
      schema: { response: { 200: markNotificationsResponseSchema } },
    },
    async (request) => markAllNotificationsRead(db, viewerOf(request)),
  );

  app.patch(
    '/notifications/:id/read',
    {
      config,
      schema: { params: notificationParamsSchema, response: { 200: markNotificationsResponseSchema } },
    },
    async (request) => markNotificationRead(db, viewerOf(request), request.params.id),
  );

  app.patch(
    '/notifications/topic/:topicId/read',
    {
      config,
      schema: { params: notificationTopicParamsSchema, response: { 200: markNotificationsResponseSchema } },
    },
    async (request) => markTopicNotificationsRead(db, viewerOf(request), request.params.topicId),
  );

  app.get(
    '/notifications/preferences',
    {
      config,
      schema: { response: { 200: notificationPreferencesSchema } },
    },
    async (request) => {
      const viewer = viewerOf(request);
      return loadPreferences(db, viewer.orgId, viewer.userId);
    },
  );

  app.put(
    '/notifications/preferences',
    {
      config,
      schema: {
        body: updateNotificationPreferencesRequestSchema,
        response: { 200: notificationPreferencesSchema },
      },
    },
    async (request) => {
      const viewer = viewerOf(request);
      return savePreferences(db, viewer.orgId, viewer.userId, request.body);
    },
  );
};
