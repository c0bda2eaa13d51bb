import { and, eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  okResponseSchema,
  setupStatusRequestSchema,
  tourProgressRequestSchema,
} from '../../../common/api/users';
import { viewerOf } from '../../policies/access';
import { users } from '../../db/schema';

/** The signed-in user's own settings. Each call changes only the caller's row. */
export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  app.patch(
    '/users/setup_status',
    {
      config: { access: 'signedIn' },
      schema: { body: setupStatusRequestSchema, response: { 200: okResponseSchema } },
    },
    async (request) => {
      const viewer = viewerOf(request);
      const body = request.body;
      await app.ctx.store.db
        .update(users)
        .set({
          workRole: body.work_role,
          referralSource:
            body.referral_source === 'other' ? `other: ${body.referral_source_other}` : body.referral_source,
          userSetupStatus: 'COMPLETED',
        })
        .where(and(eq(users.id, viewer.userId), eq(users.orgId, viewer.orgId)));
      return { ok: true as const };
    },
  );

  app.patch(
    '/users/tour_progress',
    {
      config: { access: 'signedIn' },
      schema: { body: tourProgressRequestSchema, response: { 200: okResponseSchema } },
    },
    async (request) => {
      const viewer = viewerOf(request);
      const { tour_name, state } = request.body;
      // One statement, so two tabs finishing different tours never overwrite each other's progress.
      await app.ctx.store.db
        .update(users)
        .set({
          toursProgress: sql`coalesce(${users.toursProgress}, '{}'::jsonb) || jsonb_build_object(${tour_name}::text, ${state}::text)`,
        })
        .where(and(eq(users.id, viewer.userId), eq(users.orgId, viewer.orgId)));
      return { ok: true as const };
    },
  );
};
