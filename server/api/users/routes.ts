import { and, eq, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUserSchema } from '../../../common/api/session';
import {
  okResponseSchema,
  setupStatusRequestSchema,
  tourProgressRequestSchema,
  userMessages,
  userPreferencesResponseSchema,
  userPreferencesUpdateRequestSchema,
  userUpdateRequestSchema,
} from '../../../common/api/users';
import { viewerOf } from '../../policies/access';
import { users } from '../../db/schema';
import { notFound } from '../../errors';
import { requireOwnProfile } from '../../policies/users';
import { presentUserPreferences } from '../../presenters/user-preferences';
import { photoOf, updatePreferences, updateProfile } from '../../users/profile';
import { currentUserOf } from '../../users/current';

const userIdParamsSchema = z.object({ id: z.string() });

/** Runs before the body is validated, so another member's id is refused whatever the body holds. */
async function ownProfileOnly(request: FastifyRequest): Promise<void> {
  requireOwnProfile(viewerOf(request), (request.params as { id?: string }).id ?? '');
}

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

  app.patch(
    '/users/:id',
    {
      config: { access: 'signedIn' },
      preValidation: ownProfileOnly,
      schema: {
        params: userIdParamsSchema,
        body: userUpdateRequestSchema,
        response: { 200: currentUserSchema },
      },
    },
    async (request) => {
      const viewer = viewerOf(request);
      const { db } = app.ctx.store;
      await updateProfile(db, viewer, request.body);
      return currentUserOf(db, viewer);
    },
  );

  app.patch(
    '/users/:id/preferences',
    {
      config: { access: 'signedIn' },
      preValidation: ownProfileOnly,
      schema: {
        params: userIdParamsSchema,
        body: userPreferencesUpdateRequestSchema,
        response: { 200: userPreferencesResponseSchema },
      },
    },
    async (request) => {
      const stored = await updatePreferences(app.ctx.store.db, viewerOf(request), request.body);
      return { preferences: presentUserPreferences(stored) };
    },
  );

  // The spec's profile photo fetch: the caller's own photo as an image, or a redirect to where it lives.
  app.get('/users/self/photo', { config: { access: 'signedIn' } }, async (request, reply) => {
    const viewer = viewerOf(request);
    const [user] = await app.ctx.store.db
      .select({ photoUrl: users.photoUrl })
      .from(users)
      .where(and(eq(users.id, viewer.userId), eq(users.orgId, viewer.orgId)))
      .limit(1);
    const photo = user ? photoOf(user) : null;
    if (!photo) throw notFound(userMessages.NO_PHOTO);
    if (photo.kind === 'link') return reply.redirect(photo.url);
    return reply
      .type(photo.mimeType)
      .header('cache-control', 'private, no-cache')
      .header('x-content-type-options', 'nosniff')
      .send(photo.bytes);
  });
};
