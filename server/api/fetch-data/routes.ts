import { asc, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { allowedDomainsResponseSchema, orgSchema } from '../../../common/api/orgs';
import { currentUserSchema } from '../../../common/api/session';
import { Feature } from '../../../common/plans';
import { orgAllowedDomains } from '../../db/schema';
import { loadOrg } from '../../orgs/load';
import { viewerOf } from '../../policies/access';
import { presentAllowedDomain, presentOrg } from '../../presenters/org';
import { currentUserOf } from '../../users/current';

/** `GET /_fetchData/{user|org|apps|allowed_domains}` (spec shell-and-account §7.3); apps comes with the apps issue. */
export const fetchDataRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/_fetchData/user',
    { config: { access: 'signedIn' }, schema: { response: { 200: currentUserSchema } } },
    async (request) => {
      return currentUserOf(app.ctx.store.db, viewerOf(request));
    },
  );

  // Every member reads the org: its appearance, its plan and which features that plan allows (the paywall).
  app.get(
    '/_fetchData/org',
    { config: { access: 'signedIn' }, schema: { response: { 200: orgSchema } } },
    async (request) => {
      const viewer = viewerOf(request);
      return presentOrg(await loadOrg(app.ctx.store.db, viewer.orgId), viewer, new Date());
    },
  );

  // Further domains are the 'multiple domains' feature of the ENTERPRISE plan (spec §5).
  app.get(
    '/_fetchData/allowed_domains',
    {
      config: { access: 'admin', feature: Feature.multipleDomains },
      schema: { response: { 200: allowedDomainsResponseSchema } },
    },
    async (request) => {
      const viewer = viewerOf(request);
      const rows = await app.ctx.store.db
        .select()
        .from(orgAllowedDomains)
        .where(eq(orgAllowedDomains.orgId, viewer.orgId))
        .orderBy(asc(orgAllowedDomains.createdAt), asc(orgAllowedDomains.domain));
      return { allowed_domains: rows.map(presentAllowedDomain) };
    },
  );
};
