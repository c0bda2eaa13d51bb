import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  API_KEY_NOT_FOUND_MESSAGE,
  apiKeyCreateRequestSchema,
  apiKeyCreateResponseSchema,
  apiKeyParamsSchema,
  apiKeyRevokeResponseSchema,
  apiKeysResponseSchema,
  type ApiKey,
} from '../../../common/api/api-keys';
import { Feature } from '../../../common/plans';
import { createApiKey, listApiKeys, revokeApiKey, type ApiKeyListing } from '../../auth/api-keys';
import { notFound } from '../../errors';
import { viewerOf } from '../../policies/access';
import { memberNameOf } from '../../presenters/member';

/** A key as the admin list shows it: never the hash, and the secret only in the create answer. */
function presentApiKey({ key, creator }: ApiKeyListing): ApiKey {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    created_by: creator ? { user_id: creator.id, name: memberNameOf(creator), email: creator.email } : null,
    created_at: key.createdAt.toISOString(),
    last_used_at: key.lastUsedAt?.toISOString() ?? null,
  };
}

/**
 * The org's API keys (/admin/api-keys), the credential of the custom-api push API. Admins only, with the plan
 * feature the push API needs and the apiKeysEnabled flag that shows the screen.
 */
export const apiKeyRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = () => app.ctx.store.db;
  const config = { access: 'admin', feature: Feature.apiAccess, flags: ['apiKeysEnabled'] } as const;

  app.get('/api-keys', { config, schema: { response: { 200: apiKeysResponseSchema } } }, async (request) => {
    const rows = await listApiKeys(db(), viewerOf(request).orgId);
    return { keys: rows.map(presentApiKey) };
  });

  app.post(
    '/api-keys',
    {
      config,
      schema: { body: apiKeyCreateRequestSchema, response: { 201: apiKeyCreateResponseSchema } },
    },
    async (request, reply) => {
      const { orgId, userId } = viewerOf(request);
      const made = await createApiKey(db(), { orgId, name: request.body.name, createdBy: userId });
      const [row] = await listApiKeys(db(), orgId, made.id);
      if (!row) throw notFound(API_KEY_NOT_FOUND_MESSAGE);
      return reply.status(201).send({ key: presentApiKey(row), secret: made.key });
    },
  );

  app.delete(
    '/api-keys/:keyId',
    { config, schema: { params: apiKeyParamsSchema, response: { 200: apiKeyRevokeResponseSchema } } },
    async (request) => {
      const revoked = await revokeApiKey(db(), viewerOf(request).orgId, request.params.keyId);
      if (!revoked) throw notFound(API_KEY_NOT_FOUND_MESSAGE);
      return { ok: true as const };
    },
  );
};
