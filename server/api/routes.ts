import type { FastifyPluginAsync } from 'fastify';
import { appRoutes } from './apps/routes';
import { authRoutes } from './auth/routes';
import { customApiRoutes } from './custom-api/routes';
import { oauthRoutes } from './auth/oauth-routes';
import { appOAuthRoutes } from './oauth/routes';
import { healthRoutes } from './health/routes';
import { feedbackRoutes } from './feedback/routes';
import { fetchDataRoutes } from './fetch-data/routes';
import { llmRoutes } from './llms/routes';
import { memberRoutes } from './members/routes';
import { messageRoutes } from './messages/routes';
import { orgRoutes } from './orgs/routes';
import { searchRoutes } from './search/routes';
import { ssoRoutes } from './sso/routes';
import { topicRoutes } from './topics/routes';
import { uploadRoutes } from './uploads/routes';
import { userRoutes } from './users/routes';

/** Every resource of the API under /api/v1, one plugin per folder of server/api. */
export const registerApi: FastifyPluginAsync = async (app) => {
  await app.register(healthRoutes);
  await app.register(authRoutes);
  await app.register(oauthRoutes);
  await app.register(ssoRoutes);
  await app.register(fetchDataRoutes);
  await app.register(userRoutes);
  await app.register(memberRoutes);
  await app.register(orgRoutes);
  await app.register(llmRoutes);
  await app.register(topicRoutes);
  await app.register(messageRoutes);
  await app.register(feedbackRoutes);
  await app.register(appRoutes);
  await app.register(customApiRoutes);
  await app.register(appOAuthRoutes);
  await app.register(searchRoutes);
  await app.register(uploadRoutes);
};
