import {
  apiKeyCreateResponseSchema,
  apiKeyRevokeResponseSchema,
  apiKeysResponseSchema,
  type ApiKeyCreateResponse,
  type ApiKeysResponse,
} from '../../../../common/api/api-keys';
import { api } from '../../../api/client';

export const API_KEYS_QUERY_KEY = ['api-keys'] as const;

export const apiKeysApi = {
  list: (signal?: AbortSignal): Promise<ApiKeysResponse> =>
    api.get('api-keys', { signal, schema: apiKeysResponseSchema }),

  create: (name: string): Promise<ApiKeyCreateResponse> =>
    api.post('api-keys', { body: { name }, schema: apiKeyCreateResponseSchema }),

  revoke: (keyId: string) =>
    api.delete(`api-keys/${encodeURIComponent(keyId)}`, { schema: apiKeyRevokeResponseSchema }),
};
