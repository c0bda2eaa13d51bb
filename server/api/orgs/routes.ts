import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  orgFlagsResponseSchema,
  orgFlagsUpdateRequestSchema,
  orgSchema,
  orgUpdateRequestSchema,
} from '../../../common/api/orgs';
import { loadOrg } from '../../orgs/load';
import { updateOrgFlags, updateOrgSettings } from '../../orgs/settings';
import { viewerOf } from '../../policies/access';
import { presentOrg } from '../../presenters/org';

/** The admin's workspace settings (spec shell-and-account §7.3 PATCH /orgs) and workspace feature switches. */
export const orgRoutes: FastifyPluginAsyncZod = async (app) => {
  app.patch(
    '/orgs',
    { config: { access: 'admin' }, schema: { body: orgUpdateRequestSchema, response: { 200: orgSchema } } },
    async (request) => {
      const viewer = viewerOf(request);
      const { db } = app.ctx.store;
      await updateOrgSettings(db, viewer.orgId, request.body);
      return presentOrg(await loadOrg(db, viewer.orgId), viewer, new Date());
    },
  );

  app.patch(
    '/orgs/flags',
    {
      config: { access: 'admin' },
      schema: { body: orgFlagsUpdateRequestSchema, response: { 200: orgFlagsResponseSchema } },
    },
    async (request) => ({
      flags: await updateOrgFlags(app.ctx.store.db, viewerOf(request).orgId, request.body),
    }),
  );
};
