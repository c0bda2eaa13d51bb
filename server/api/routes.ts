import type { FastifyPluginAsync } from 'fastify';
import { healthRoutes } from './health/routes';
import { fetchDataRoutes } from './fetch-data/routes';
import { userRoutes } from './users/routes';

/** Every resource of the API under /api/v1, one plugin per folder of server/api. */
export const registerApi: FastifyPluginAsync = async (app) => {
  await app.register(healthRoutes);
  await app.register(fetchDataRoutes);
  await app.register(userRoutes);
};
