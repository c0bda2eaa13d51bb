import { desc, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  FEATURE_REQUESTS_LISTED,
  featureRequestBodySchema,
  featureRequestCreatedSchema,
  featureRequestsResponseSchema,
} from '../../../common/api/feature-requests';
import { FEATURE_REQUEST_RATE_LIMIT } from '../../../common/limits';
import { featureRequests, users } from '../../db/schema';
import { limitPerMember } from '../../http/member-rate-limit';
import { viewerOf } from '../../policies/access';
import { presentFeatureRequest } from '../../presenters/feature-request';

/**
 * The sidebar's 'Request Feature' dialog (spec shell-and-account §2.8, §5): any member sends one; the workspace's
 * admins read them, newest first. The spec shows no call for it, so the paths are ours.
 */
export const featureRequestRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = () => app.ctx.store.db;

  app.post(
    '/feature_requests',
    {
      config: { access: 'signedIn' },
      preHandler: limitPerMember('feature-requests', FEATURE_REQUEST_RATE_LIMIT),
      schema: { body: featureRequestBodySchema, response: { 200: featureRequestCreatedSchema } },
    },
    async (request) => {
      const viewer = viewerOf(request);
      const [row] = await db()
        .insert(featureRequests)
        .values({ orgId: viewer.orgId, userId: viewer.userId, text: request.body.text })
        .returning({ id: featureRequests.id });
      return { id: row!.id };
    },
  );

  app.get(
    '/feature_requests',
    { config: { access: 'admin' }, schema: { response: { 200: featureRequestsResponseSchema } } },
    async (request) => {
      const viewer = viewerOf(request);
      const rows = await db()
        .select({ request: featureRequests, author: users })
        .from(featureRequests)
        .leftJoin(users, eq(users.id, featureRequests.userId))
        .where(eq(featureRequests.orgId, viewer.orgId))
        .orderBy(desc(featureRequests.createdAt), desc(featureRequests.id))
        .limit(FEATURE_REQUESTS_LISTED);
      return { feature_requests: rows.map((row) => presentFeatureRequest(row.request, row.author)) };
    },
  );
};
