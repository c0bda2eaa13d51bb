// Organisation API keys (/admin/api-keys): admins make and revoke the keys the custom-api push API
// (docs/custom-api.md) authenticates with. The spec names the screen but shows no API; these shapes follow the rest
// of /api/v1. A key's secret is answered once, by the create call; the list shows only a short prefix.
import { z } from 'zod';

export const API_KEY_NAME_MAX_CHARS = 100;

export const API_KEY_NAME_MESSAGE = `A key name must be 1 to ${API_KEY_NAME_MAX_CHARS} characters.`;
export const API_KEY_NAME_TAKEN_MESSAGE = 'Another API key already has this name.';
export const API_KEYS_DISABLED_MESSAGE = 'API keys are not enabled for this workspace.';
export const API_KEY_NOT_FOUND_MESSAGE = 'No such API key.';

export const apiKeyCreateRequestSchema = z.strictObject({
  name: z.string().trim().min(1, API_KEY_NAME_MESSAGE).max(API_KEY_NAME_MAX_CHARS, API_KEY_NAME_MESSAGE),
});
export type ApiKeyCreateRequest = z.infer<typeof apiKeyCreateRequestSchema>;

export const apiKeyParamsSchema = z.object({ keyId: z.uuid() });

export const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The first characters of the key, enough to recognise it; never the secret. */
  prefix: z.string(),
  /** The admin who made it; null when made by the command line or when that member is gone. */
  created_by: z.object({ user_id: z.string(), name: z.string().nullable(), email: z.string() }).nullable(),
  /** ISO-8601. */
  created_at: z.string(),
  /** ISO-8601; null until a request authenticates with the key. */
  last_used_at: z.string().nullable(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

/** `GET /api-keys`: the org's unrevoked keys, newest first. */
export const apiKeysResponseSchema = z.object({ keys: z.array(apiKeySchema) });
export type ApiKeysResponse = z.infer<typeof apiKeysResponseSchema>;

/** `POST /api-keys`: the only answer that carries `secret`. */
export const apiKeyCreateResponseSchema = z.object({ key: apiKeySchema, secret: z.string() });
export type ApiKeyCreateResponse = z.infer<typeof apiKeyCreateResponseSchema>;

/** `DELETE /api-keys/{keyId}`: the key is refused from this moment. */
export const apiKeyRevokeResponseSchema = z.object({ ok: z.literal(true) });
