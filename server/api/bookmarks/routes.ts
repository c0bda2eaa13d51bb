import { and, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bookmarksResponseSchema, bookmarksUpdateRequestSchema } from '../../../common/api/bookmarks';
import { orgs, users } from '../../db/schema';
import { viewerOf } from '../../policies/access';
import { requireOwnProfile } from '../../policies/users';
import { presentBookmarks } from '../../presenters/bookmarks';

const userIdParamsSchema = z.object({ id: z.string() });

/** Runs before the body is validated, so another member's list is refused whatever the body holds. */
async function ownListOnly(request: FastifyRequest): Promise<void> {
  requireOwnProfile(viewerOf(request), (request.params as { id?: string }).id ?? '');
}

/**
 * The homepage's two bookmark lists (spec shell-and-account §7.3, §7.4). Each call replaces the whole list with the
 * ordered one sent, so a reorder, an add and a delete are each one write that keeps the list valid as a whole; the
 * lists are read with the user (`homepageLinks` of GET /_fetchData/user) and the org (GET /_fetchData/org).
 */
export const bookmarkRoutes: FastifyPluginAsyncZod = async (app) => {
  app.patch(
    '/users/:id/bookmarks',
    {
      config: { access: 'signedIn' },
      preValidation: ownListOnly,
      schema: {
        params: userIdParamsSchema,
        body: bookmarksUpdateRequestSchema,
        response: { 200: bookmarksResponseSchema },
      },
    },
    async (request) => {
      const viewer = viewerOf(request);
      const [row] = await app.ctx.store.db
        .update(users)
        .set({ homepageLinks: request.body.bookmarks })
        .where(and(eq(users.id, viewer.userId), eq(users.orgId, viewer.orgId)))
        .returning({ homepageLinks: users.homepageLinks });
      return { bookmarks: presentBookmarks(row?.homepageLinks ?? null) };
    },
  );

  // Company bookmarks are the admins' to manage (spec §5, §6); members read them with the org.
  app.patch(
    '/orgs/bookmarks',
    {
      config: { access: 'admin' },
      schema: { body: bookmarksUpdateRequestSchema, response: { 200: bookmarksResponseSchema } },
    },
    async (request) => {
      const viewer = viewerOf(request);
      const [row] = await app.ctx.store.db
        .update(orgs)
        .set({ homepageLinks: request.body.bookmarks })
        .where(eq(orgs.id, viewer.orgId))
        .returning({ homepageLinks: orgs.homepageLinks });
      return { bookmarks: presentBookmarks(row?.homepageLinks ?? null) };
    },
  );
};
