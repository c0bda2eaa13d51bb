import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { llmListResponseSchema } from '../../../common/api/llms';
import { loadLlmEnvironment } from '../../llm/config';
import { anyProviderConfigured, availableModels } from '../../llm/registry';
import { loadOrg } from '../../orgs/load';
import { viewerOf } from '../../policies/access';

/** The model picker (spec apps-and-connections §9): every model id and whether this member may use it here. */
export const llmRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/llms',
    { config: { access: 'signedIn' }, schema: { response: { 200: llmListResponseSchema } } },
    async (request) => {
      const viewer = viewerOf(request);
      const { org, subscriptions } = await loadOrg(app.ctx.store.db, viewer.orgId);
      const env = loadLlmEnvironment();
      return {
        llms: availableModels(env, { flags: org.flags, preferredLlm: org.preferredLlm, subscriptions }),
        generative: anyProviderConfigured(env),
        webSearch: env.webSearch !== null,
      };
    },
  );
};
