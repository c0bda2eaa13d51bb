import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  promptCreateSchema,
  promptDeletedResponseSchema,
  promptIdParamsSchema,
  promptResponseSchema,
  promptsQuerySchema,
  promptsResponseSchema,
  promptUpdateSchema,
  promptUsedResponseSchema,
} from '../../../common/api/prompts';
import { viewerOf } from '../../policies/access';
import {
  createPrompt,
  deletePrompt,
  getPrompt,
  listPrompts,
  recommendedPrompts,
  recordPromptUse,
  updatePrompt,
} from '../../prompts/store';

/**
 * Workflows (spec asking-questions §5, shell-and-account §7.4): the spec's four reading calls, and ours to create,
 * edit and delete. Who may read or change which one is server/policies/prompts.ts.
 */
export const promptRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = () => app.ctx.store.db;

  app.get(
    '/prompts',
    {
      config: { access: 'signedIn' },
      schema: { querystring: promptsQuerySchema, response: { 200: promptsResponseSchema } },
    },
    async (request) => ({ prompts: await listPrompts(db(), viewerOf(request), request.query) }),
  );

  app.get(
    '/prompts/recommended',
    { config: { access: 'signedIn' }, schema: { response: { 200: promptsResponseSchema } } },
    async (request) => ({ prompts: await recommendedPrompts(db(), viewerOf(request)) }),
  );

  app.get(
    '/prompts/promptsById/:id',
    {
      config: { access: 'signedIn' },
      schema: { params: promptIdParamsSchema, response: { 200: promptResponseSchema } },
    },
    async (request) => ({ prompt: await getPrompt(db(), viewerOf(request), request.params.id) }),
  );

  app.post(
    '/prompts/prompt_used/:id',
    {
      config: { access: 'signedIn' },
      schema: { params: promptIdParamsSchema, response: { 200: promptUsedResponseSchema } },
    },
    async (request) => ({
      id: request.params.id,
      use_count: await recordPromptUse(db(), viewerOf(request), request.params.id),
    }),
  );

  app.post(
    '/prompts',
    {
      config: { access: 'signedIn' },
      schema: { body: promptCreateSchema, response: { 200: promptResponseSchema } },
    },
    async (request) => ({ prompt: await createPrompt(db(), viewerOf(request), request.body) }),
  );

  app.patch(
    '/prompts/:id',
    {
      config: { access: 'signedIn' },
      schema: {
        params: promptIdParamsSchema,
        body: promptUpdateSchema,
        response: { 200: promptResponseSchema },
      },
    },
    async (request) => ({
      prompt: await updatePrompt(db(), viewerOf(request), request.params.id, request.body),
    }),
  );

  app.delete(
    '/prompts/:id',
    {
      config: { access: 'signedIn' },
      schema: { params: promptIdParamsSchema, response: { 200: promptDeletedResponseSchema } },
    },
    async (request) => {
      await deletePrompt(db(), viewerOf(request), request.params.id);
      return { id: request.params.id };
    },
  );
};
