import { and, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUserSchema } from '../../../common/api/session';
import { orgs, users } from '../../db/schema';
import { unauthorized } from '../../errors';
import { viewerOf } from '../../policies/access';
import { presentCurrentUser } from '../../presenters/user';

/** `GET /_fetchData/{user|org|apps|allowed_domains}` (spec shell-and-account §7.3); later issues add the rest. */
export const fetchDataRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/_fetchData/user',
    { config: { access: 'signedIn' }, schema: { response: { 200: currentUserSchema } } },
    async (request) => {
      const viewer = viewerOf(request);
      const [row] = await app.ctx.store.db
        .select({ user: users, org: orgs })
        .from(users)
        .innerJoin(orgs, eq(orgs.id, users.orgId))
        .where(and(eq(users.id, viewer.userId), eq(users.orgId, viewer.orgId)))
        .limit(1);
      if (!row) throw unauthorized();
      return presentCurrentUser(row.user, row.org);
    },
  );
};
