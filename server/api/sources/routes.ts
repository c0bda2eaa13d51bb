import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { searchableSourcesResponseSchema } from '../../../common/api/sources';
import { viewerOf } from '../../policies/access';
import { searchableSources } from '../../search/searchable-sources';

/** `GET /sources`: what the question box's source picker offers the member, with their readable counts. */
export const sourceRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/sources',
    { config: { access: 'signedIn' }, schema: { response: { 200: searchableSourcesResponseSchema } } },
    async (request) => searchableSources(app.ctx.store.db, viewerOf(request)),
  );
};
